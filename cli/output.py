"""The one output helper: ``--json`` or a rich rendering for every read command, and the one
place errors become the ``error: ...`` line (or the ``{"ok": false, "error": ...}`` envelope).

Commands never catch errors: a ``RegelwerkError`` from the library, a usage problem
(`bad_usage`, click's own usage errors) or an unusable home directory all propagate to
`Commands.main`, which maps each to one line and one exit status (1 for errors, 2 for usage,
130 for an abort). It is the click entry point of the app *and* of ``CliRunner``, so tests see
exactly what a user sees.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from typer.core import TyperGroup

from regelwerk.ingest.model.message import N_, Message, msg

if TYPE_CHECKING:
    from rich.console import Console

#: For commands whose argument is free text: "-1/-1 Marke" is a query, not an unknown option.
#: Such commands call `reject_unknown_options`, so a mistyped "--limitt" still fails.
FREE_TEXT = {"ignore_unknown_options": True}


class BadUsage(Exception):
    """An option value or combination the command cannot use (exit status 2); like a library
    error it carries its sentence as a `Message`, shown in the reader's language."""

    def __init__(self, message: str | Message) -> None:
        super().__init__(str(message))
        self.message = message if isinstance(message, Message) else None


def bad_usage(message: str | Message) -> NoReturn:
    raise BadUsage(message)


#: C0 controls (but tab and newline), DEL, C1 controls (U+009B is a one-byte CSI to some
#: terminals) and the bidirectional overrides that reorder what a reader sees.
#: Lone surrogates (an undecodable byte of a command-line argument, e.g. `\udcff` for 0xff) too:
#: no strict UTF-8 stream can write them, so JSON escapes them and a terminal shows U+FFFD.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


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
    one override covers every command; markup is parsed after the text is made safe. Emoji
    codes are not replaced: ":fire:" in a document is text, not a picture.
    """
    from rich.console import Console

    class SafeConsole(Console):
        def render_str(self, text: str, **kw: Any) -> Any:
            return super().render_str(safe_text(text), **kw)

    return SafeConsole(**{"emoji": False, **kwargs})


#: Piped output gets 120 columns instead of rich's 80 so ids don't truncate.
PIPE_WIDTH = 120


def console(stderr: bool = False) -> Console:
    """The console a command prints on: rich's on a terminal, else a `PlainConsole` that
    prints the same bytes without loading rich's console for plain text (see ``cli.plain``)."""
    stream = sys.stderr if stderr else sys.stdout
    styled_anyway = os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE") == "1"
    width = None if stream.isatty() or os.environ.get("COLUMNS") else PIPE_WIDTH

    def rich_console() -> Console:
        return make_console(stderr=stderr, highlight=False, soft_wrap=False, width=width)

    if width is None or styled_anyway or stderr:
        return rich_console()
    from regelwerk.cli.plain import PlainConsole

    return PlainConsole(stream, width, rich_console)  # type: ignore[return-value]


#: One piece of a printed line: text, or (text, rich style) — data, never markup.
Part = str | tuple[str, str]


def styled(con: Console, *parts: Part) -> None:
    """Print `parts` as one paragraph: styles show on a terminal, and since no markup is
    parsed, data needs no escaping (a rule's "[quality]" stays). A `PlainConsole` prints the
    bare text without loading rich's text machinery."""
    from regelwerk.cli.plain import PlainConsole

    if isinstance(con, PlainConsole):
        con.print("".join(p if isinstance(p, str) else p[0] for p in parts), markup=False)
        return
    from rich.text import Text

    pieces = [(safe_text(p), "") if isinstance(p, str) else (safe_text(p[0]), p[1]) for p in parts]
    con.print(Text.assemble(*pieces))


def emit(data: dict[str, Any], json_mode: bool, render: Callable[[Console], None]) -> None:
    """Print `data` as ``{"ok": true, ...}`` JSON, or call `render` with a rich console."""
    if json_mode:
        sys.stdout.write(json_text({"ok": True, **data}, indent=2) + "\n")
    else:
        render(console())


def error_text(message: str) -> str:
    """``error: MESSAGE``, the prefix in the interface language (``Fehler:``)."""
    from regelwerk.cli.i18n import _

    if message.startswith("error:"):
        return message
    return _("error: {message}").format(message=message)


def report(message: str, json_mode: bool) -> None:
    """Print one error in the one envelope (always exactly one line)."""
    message = " ".join(message.split())
    if json_mode:
        sys.stdout.write(json_text({"ok": False, "error": message}) + "\n")
    else:
        sys.stderr.write(safe_text(error_text(message)) + "\n")


def reject_unknown_options(words: list[str]) -> None:
    """A word like "-1/-1" or "+1/+1" is text; "--limitt" or "-x" is a mistyped option."""
    for word in words:
        if len(word) > 1 and word[0] == "-" and not word[1].isdigit():
            bad_usage(msg(N_("no such option: {option} (see --help)"), option=word.split("=")[0]))


def _is(exc: BaseException, name: str) -> bool:
    """Class-name test: typer >= 0.20 vendors click (typer._click), older typer uses click itself."""
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def _exit_status(exc: Exception, json_mode: bool = False) -> tuple[str | None, int]:
    """(message, exit status) for any exception a command lets through; None: exit silently.

    The message is in the interface language, except under ``--json``: the envelope's
    ``error`` is always the English sentence, like the payloads' ``notes``, so scripts can
    rely on it whatever language their user reads (see README, "Errors")."""
    from regelwerk.cli import i18n
    from regelwerk.ingest.model.errors import RegelwerkError

    say = (lambda english: english) if json_mode else i18n._
    if isinstance(exc, (RegelwerkError, BadUsage)):
        return (str(exc) if json_mode else i18n.error(exc)), 1 if isinstance(exc, RegelwerkError) else 2
    if isinstance(exc, OSError):  # the store or home directory itself cannot be used
        import errno

        where = exc.filename or os.environ.get("REGELWERK_HOME") or say("the regelwerk data directory")
        unusable = isinstance(exc, PermissionError) or exc.errno in (
            errno.EROFS, errno.ENOSPC, errno.ENOTDIR, errno.EEXIST, errno.EDQUOT)
        fix = say(i18n.N_("set REGELWERK_HOME to a writable directory") if unusable
                  else i18n.N_("run `regelwerk doctor`"))
        return f"{where}: {exc.strerror or exc}; {fix}", 1
    if _is(exc, "Exit"):
        return None, int(getattr(exc, "exit_code", 0))
    if _is(exc, "Abort"):
        return say(i18n.N_("aborted")), 130
    if _is(exc, "UsageError"):
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        english = exc.format_message()  # type: ignore[attr-defined]
        return f"{where}{english if json_mode else i18n.usage_message(english)}", 2
    if os.environ.get("REGELWERK_DEBUG"):
        raise exc
    template = i18n.N_("internal error ({error}); rerun with REGELWERK_DEBUG=1 for a traceback")
    return say(template).format(error=f"{type(exc).__name__}: {exc}"), 1


class Commands(TyperGroup):
    """The click group of every regelwerk (sub)command: errors are handled here, once."""

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any
    ) -> NoReturn:
        argv = list(sys.argv[1:] if args is None else args)
        extra["standalone_mode"] = False
        from regelwerk.cli import i18n

        # the interface language must be known before click formats any help text
        i18n.use(i18n.detect(argv, os.environ))
        i18n.localize(self)
        i18n.install_for_typer()
        try:
            rc = super().main(argv, prog_name, **extra)
            # click returns the exit code of a typer.Exit instead of raising it in this mode
            sys.exit(rc if isinstance(rc, int) else 0)
        except Exception as exc:
            json_mode = "--json" in argv
            message, code = _exit_status(exc, json_mode)
            if message is not None:
                report(message, json_mode)
            sys.exit(code)
