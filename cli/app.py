"""The `regelwerk` command. Commands are thin: parse arguments, call the library facade
(``regelwerk.index.facade.Library``), render the dict it returns.

Errors are handled once, in `output.Commands` (the app's click group); heavy imports (bs4 for
ingesting, whoosh for searching) happen inside the facade methods that need them, so
``regelwerk rule`` starts fast.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from typer.main import get_command_name

from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import Commands, emit

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="regelwerk",
    cls=Commands,
    help="Bilingual (German/English) Magic: The Gathering rules reference.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"regelwerk {version('regelwerk')}")
        raise typer.Exit()


def _say_building(step: str) -> None:
    from regelwerk.cli.i18n import _

    sys.stderr.write(_("building: {step}").format(step=step) + "\n")
    sys.stderr.flush()


@app.callback()
def regelwerk(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    lang: LangOption = None,
) -> None:
    """Bilingual (German/English) Magic: The Gathering rules reference."""
    # --lang here only has to be accepted: the interface language (labels, messages, help) is
    # read from the whole command line before any command runs (cli.i18n.detect).
    if sys.stderr.isatty():  # a read that has to build first (new extra, upgrade) says what it builds
        from regelwerk.index.facade import Library

        Library.building = _say_building


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(
        ..., help="Rule documents, MTGJSON card files, or directories of them."
    ),
    fmt: str | None = typer.Option(
        None, "--format", help="Force a format: cr-text, cr-html, bilingual-dump, glossary-de, excerpt."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="Refuse a file with any line the parser could not place."
    ),
    follow_symlinks: bool = typer.Option(
        False, "--follow-symlinks", help="Also read symbolic links found inside directories."
    ),
    replace: bool = typer.Option(
        False, "--replace", help="Let a different document replace a stored one with the same id."
    ),
    json_mode: JsonOption = False,
) -> None:
    """Add rule documents (CR .txt/.htm of any release, German glossary pages, rule dumps) and
    MTGJSON card files (set files or AllPrintings; .json, .gz, .xz, .bz2, .zip)."""
    from regelwerk.cli.ingest_view import run_ingest

    run_ingest(paths, fmt, json_mode, strict=strict, follow_symlinks=follow_symlinks, replace=replace)


@app.command()
def doctor(
    repair: bool = typer.Option(
        False, "--repair", help="Rebuild derived data and re-read damaged documents from their files."
    ),
    json_mode: JsonOption = False,
) -> None:
    """Check every stored document and index against its hash; --repair heals the store."""
    from regelwerk.index.facade import Library

    data = Library().doctor(repair=repair)

    def render(con: Console) -> None:
        from regelwerk.cli.archive import render_doctor

        render_doctor(con, data)

    emit(data, json_mode, render)
    if not data["healthy"]:
        raise typer.Exit(1)


@app.command()
def docs(json_mode: JsonOption = False, lang: LangOption = None) -> None:
    """List the ingested documents with their version and record counts."""
    # --lang sets only the interface language, read from the whole command line (cli.i18n.detect)
    from regelwerk.index.facade import Library

    data = Library().docs()

    def render(con: Console) -> None:
        from regelwerk.cli.tables import documents_table

        con.print(documents_table(data["documents"]))
        from regelwerk.cli.i18n import _, message

        line = _("store: {home} (set REGELWERK_HOME to use another)").format(home=data["home"])
        con.print(line, markup=False, soft_wrap=True)
        con.print(message(data["semantic_message"]), markup=False, soft_wrap=True)
        for lost in data["lost_messages"]:
            con.print(_("lost: {message}").format(message=message(lost)), markup=False, soft_wrap=True)

    emit(data, json_mode, render)


def _mount() -> None:
    """Each feature module adds its own command; they import only typer at module level."""
    from regelwerk.cli import archive, card, example, history, rule, search, serve, term

    rule.register(app)
    card.register(app)
    history.register(app)
    archive.register(app)
    search.register(app)
    term.register(app)
    serve.register(app)
    app.add_typer(example.app, name="example", help=example.__doc__)


_mount()


def _invoked(argv: list[str], env: Mapping[str, str]) -> str | None:
    """The command `argv` runs, if it can be told before click parses: the first word after
    the app's own ``--lang X``. None for anything else (help, ``--version``, shell completion,
    no command at all), which needs the whole app."""
    if any(name.startswith("_REGELWERK_COMPLETE") for name in env):
        return None
    words = iter(argv)
    for word in words:
        if word == "--lang":
            next(words, None)
        elif not word.startswith("--lang="):
            return None if word.startswith("-") else word
    return None


#: The cyclic garbage collector's first threshold in a command's process (Python's default is
#: 700). What a command allocates lives until it exits (the tables it reads, the index's term
#: caches, its hits) and holds almost no cyclic garbage: at the default, a cold German question
#: ran 72 collections that freed almost nothing and cost ~20 ms, a twentieth of its start. A long
#: command (ingest, doctor, serve) still collects, every 100,000 objects (an ingest of the four
#: test CRs peaked at the same memory).
GC_THRESHOLD = 100_000


def main() -> None:
    """Console-script entry; errors are mapped to the one envelope by the app's group.

    typer makes a click command of every registered command before it parses a word (reading
    each one's signature and annotations: a tenth of a cold ``rule``), so when the command is
    known from the command line only that one is made. Its parsing, help and errors are the
    same: a command never looks at its siblings. Anything else (``--help``, an unknown or
    mistyped command, completion) gets the whole app. The garbage collector runs less often in
    a command's process (`GC_THRESHOLD`)."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    wanted = _invoked(sys.argv[1:], os.environ)
    commands = {c.name or get_command_name(c.callback.__name__): c
                for c in app.registered_commands if c.callback is not None}
    if wanted in commands:
        app.registered_commands = [commands[wanted]]
        app.registered_groups = []
    elif wanted in {g.name for g in app.registered_groups}:
        app.registered_commands = []
    app()
