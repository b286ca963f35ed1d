"""Where regelwerk keeps its store and indexes: ``REGELWERK_HOME`` or the user data directory."""

from __future__ import annotations

import os
from pathlib import Path


def home_dir() -> Path:
    env = os.environ.get("REGELWERK_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("regelwerk", appauthor=False))
