"""Shared fixtures: every test gets its own REGELWERK_HOME so no test sees another's store."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

#: Sentence vectors (the optional extra ``regelwerk[semantic]``) stay off in tests: with the
#: extra installed every ingest would embed its rules. tests/test_semantic.py switches them on.
os.environ["REGELWERK_SEMANTIC"] = "off"

#: The maintenance scripts (termgen, termcheck) live in the non-installed tools/ folder; tests
#: import them as top-level modules, as ``python tools/termgen.py`` does.
TOOLS = Path(__file__).resolve().parents[1] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
NEEDS_SHARED = pytest.mark.skipif(
    not CORPUS.exists(), reason="../shared/corpus (the real CR files) is not available here"
)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("regelwerk-home")
    monkeypatch.setenv("REGELWERK_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def _english_interface(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests expect the English interface whatever the machine's locale; a test of the German
    interface asks for it (``--lang de``, ``REGELWERK_LANG=de`` or ``LANG=de_DE.UTF-8``)."""
    from regelwerk.cli import i18n

    for var in ("REGELWERK_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.use("en")  # a previous test's --lang de must not leak into direct render calls
