"""The one output helper: every read command gets ``--json`` and a rich rendering from here.

Errors go through `fail`, which prints ``error: ...`` on stderr (or the ``{"ok": false,
"error": ...}`` envelope with ``--json``) and exits 1. Nothing else in the CLI prints errors.
"""

from __future__ import annotations

import json
import re
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


#: C0 controls (but tab and newline), DEL, C1 controls (U+009B is a one-byte CSI to some
#: terminals) and the bidirectional overrides that reorder what a reader sees.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    """A C0 control or DEL as its Unicode control picture (ESC -> ␛), others as U+FFFD."""
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


def safe_text(text: str) -> str:
    """`text` with every control or escape sequence made visible and harmless.

    Documents are untrusted: an OSC sequence in a rule would retitle the window, a CSI could
    rewrite the screen. The escape character itself is replaced, so no sequence survives.
    """
    return _UNSAFE.sub(_visible, text)


def _escape_json(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(data: Any, indent: int | None = None) -> str:
    """JSON with the controls json.dumps leaves raw (DEL, C1, bidi overrides) escaped too.

    The data are unchanged (a JSON reader gets the same string back); only a terminal showing
    the raw output is protected.
    """
    return _UNSAFE.sub(_escape_json, json.dumps(data, ensure_ascii=False, indent=indent))


def make_console(**kwargs: Any) -> Console:
    """A rich console that makes every printed string safe (see `safe_text`).

    Every string rich prints, including table cells and titles, passes `render_str`, so this
    one override covers every command; markup is parsed after the text is made safe.
    """
    from rich.console import Console

    class SafeConsole(Console):
        def render_str(self, text: str, **kw: Any) -> Any:
            return super().render_str(safe_text(text), **kw)

    return SafeConsole(**kwargs)


def console(stderr: bool = False) -> Console:
    """A rich console; piped output gets 120 columns instead of rich's 80 so ids don't truncate."""
    import os

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() or os.environ.get("COLUMNS") else 120
    return make_console(stderr=stderr, highlight=False, soft_wrap=False, width=width)


def emit(data: dict[str, Any], json_mode: bool, render: Callable[[Console], None]) -> None:
    """Print `data` as ``{"ok": true, ...}`` JSON, or call `render` with a rich console."""
    if json_mode:
        sys.stdout.write(json_text({"ok": True, **data}, indent=2) + "\n")
    else:
        render(console())


def error_text(message: str) -> str:
    return message if message.startswith("error:") else f"error: {message}"


def fail(message: str, json_mode: bool, code: int = 1) -> NoReturn:
    """Report one error in the one envelope and exit non-zero."""
    message = " ".join(message.split())  # always exactly one line
    if json_mode:
        sys.stdout.write(json_text({"ok": False, "error": message}) + "\n")
    else:
        sys.stderr.write(safe_text(error_text(message)) + "\n")
    raise typer.Exit(code)


def reject_unknown_options(words: list[str], json_mode: bool) -> None:
    """A word like "-1/-1" or "+1/+1" is text; "--limitt" or "-x" is a mistyped option."""
    for word in words:
        if len(word) > 1 and word[0] == "-" and not word[1].isdigit():
            fail(f"no such option: {word.split('=')[0]} (see --help)", json_mode, code=2)
