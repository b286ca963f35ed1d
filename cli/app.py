"""The `regelwerk` command. Commands are thin: parse arguments, call the library facade
(``regelwerk.index.facade.Library``), render the dict it returns.

Errors are handled once, in `output.Commands` (the app's click group); heavy imports (bs4 for
ingesting, whoosh for searching) happen inside the facade methods that need them, so
``regelwerk rule`` starts fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from regelwerk.cli.options import JsonOption
from regelwerk.cli.output import Commands, emit

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="regelwerk",
    cls=Commands,
    help="Bilingual (German/English) Magic: The Gathering rules reference.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help="Rule documents or directories of them."),
    fmt: str | None = typer.Option(
        None, "--format", help="Force a format: cr-text, cr-html, bilingual-dump, glossary-de, excerpt."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="Refuse a file with any line the parser could not place."
    ),
    json_mode: JsonOption = False,
) -> None:
    """Add rule documents (CR .txt/.htm of any release, German glossary pages, rule dumps)."""
    from regelwerk.cli.ingest_view import run_ingest

    run_ingest(paths, fmt, json_mode, strict=strict)


@app.command()
def docs(json_mode: JsonOption = False) -> None:
    """List the ingested documents with their version and record counts."""
    from regelwerk.index.facade import Library

    data = Library().docs()

    def render(con: Console) -> None:
        from regelwerk.cli.tables import documents_table

        con.print(documents_table(data["documents"]))
        con.print(f"store: {data['home']} (set REGELWERK_HOME to use another)", markup=False, soft_wrap=True)

    emit(data, json_mode, render)


def _mount() -> None:
    """Each feature module adds its own command; they import only typer at module level."""
    from regelwerk.cli import archive, example, history, rule, search, term

    rule.register(app)
    history.register(app)
    archive.register(app)
    search.register(app)
    term.register(app)
    app.add_typer(example.app, name="example", help=example.__doc__)


_mount()


def main() -> None:
    """Console-script entry; errors are mapped to the one envelope by the app's group."""
    app()
