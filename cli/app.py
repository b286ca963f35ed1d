"""The `regelwerk` command. Commands are thin: parse arguments, call the library, format.

Heavy imports (bs4 for ingesting, whoosh for searching) happen inside the commands that need
them, so ``regelwerk rule`` starts fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.output import JSON_OPTION, emit, fail

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="regelwerk",
    help="Bilingual (German/English) Magic: The Gathering rules reference.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _library() -> Any:
    from regelwerk.index.store.library import Library

    return Library()


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help="Rule documents or directories of them."),
    fmt: str | None = typer.Option(
        None, "--format", help="Force a format: cr-text, cr-html, bilingual-dump, glossary-de, excerpt."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="Refuse a file with any line the parser could not place."
    ),
    json_mode: bool = JSON_OPTION,
) -> None:
    """Add rule documents (CR .txt/.htm of any release, German glossary pages, rule dumps)."""
    from regelwerk.cli.ingest_view import run_ingest

    run_ingest(_library(), paths, fmt, json_mode, strict=strict)


@app.command()
def docs(json_mode: bool = JSON_OPTION) -> None:
    """List the ingested documents with their version and record counts."""
    library = _library()
    rows = library.documents()

    def render(con: Console) -> None:
        from regelwerk.cli.tables import documents_table

        con.print(documents_table(rows))
        con.print(f"store: {library.home} (set REGELWERK_HOME to use another)", markup=False, soft_wrap=True)

    emit({"documents": rows, "home": str(library.home)}, json_mode, render)


def _mount() -> None:
    """Each feature module adds its own command; they import only typer at module level."""
    from regelwerk.cli import example, rule, search, serve, term

    rule.register(app)
    search.register(app)
    term.register(app)
    serve.register(app)
    app.add_typer(example.app, name="example", help=example.__doc__)


_mount()


def _is(exc: BaseException, name: str) -> bool:
    """Class-name test: typer >= 0.20 vendors click (typer._click), older typer uses click itself."""
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def main() -> None:
    """Console-script entry: one error envelope for usage errors and library errors alike."""
    from regelwerk.ingest.model.errors import RegelwerkError

    json_mode = "--json" in sys.argv[1:]

    def report(message: str, code: int) -> None:
        try:
            fail(message, json_mode, code=code)
        except typer.Exit as done:
            sys.exit(done.exit_code)

    try:
        rc = app(standalone_mode=False)
        # click returns the exit code of a typer.Exit instead of raising it in this mode
        sys.exit(rc if isinstance(rc, int) else 0)
    except RegelwerkError as exc:
        report(str(exc), 1)
    except OSError as exc:  # the store or home directory itself cannot be used
        where = exc.filename or os.environ.get("REGELWERK_HOME") or "the regelwerk data directory"
        report(f"{where}: {exc.strerror or exc}; set REGELWERK_HOME to a writable directory", 1)
    except Exception as exc:
        if _is(exc, "Exit"):
            sys.exit(getattr(exc, "exit_code", 0))
        if _is(exc, "Abort"):
            report("aborted", 130)
        if _is(exc, "UsageError"):
            ctx = getattr(exc, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            report(f"{where}{exc.format_message()}", 2)  # type: ignore[attr-defined]
        if os.environ.get("REGELWERK_DEBUG"):
            raise
        report(f"internal error ({type(exc).__name__}: {exc}); rerun with REGELWERK_DEBUG=1 for a traceback",
               1)
