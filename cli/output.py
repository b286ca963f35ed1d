"""The one output helper: every read command gets ``--json`` and a rich rendering from here.

Errors go through `fail`, which prints ``error: ...`` on stderr (or the ``{"ok": false,
"error": ...}`` envelope with ``--json``) and exits 1. Nothing else in the CLI prints errors.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")

#: For commands whose argument is free text: "-1/-1 Marke" is a query, not an unknown option.
#: Such commands call `reject_unknown_options`, so a mistyped "--limitt" still fails.
FREE_TEXT = {"ignore_unknown_options": True}


def console(stderr: bool = False) -> Console:
    """A rich console; piped output gets 120 columns instead of rich's 80 so ids don't truncate."""
    import os

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() or os.environ.get("COLUMNS") else 120
    return Console(stderr=stderr, highlight=False, soft_wrap=False, width=width)


def emit(data: dict[str, Any], json_mode: bool, render: Callable[[Console], None]) -> None:
    """Print `data` as ``{"ok": true, ...}`` JSON, or call `render` with a rich console."""
    if json_mode:
        sys.stdout.write(json.dumps({"ok": True, **data}, ensure_ascii=False, indent=2) + "\n")
    else:
        render(console())


def error_text(message: str) -> str:
    return message if message.startswith("error:") else f"error: {message}"


def fail(message: str, json_mode: bool, code: int = 1) -> NoReturn:
    """Report one error in the one envelope and exit non-zero."""
    message = " ".join(message.split())  # always exactly one line
    if json_mode:
        sys.stdout.write(json.dumps({"ok": False, "error": message}, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(error_text(message) + "\n")
    raise typer.Exit(code)


def reject_unknown_options(words: list[str], json_mode: bool) -> None:
    """A word like "-1/-1" or "+1/+1" is text; "--limitt" or "-x" is a mistyped option."""
    for word in words:
        if len(word) > 1 and word[0] == "-" and not word[1].isdigit():
            fail(f"no such option: {word.split('=')[0]} (see --help)", json_mode, code=2)
