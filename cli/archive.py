"""``regelwerk forget DOC`` and ``regelwerk update``: taking releases out and bringing the
newest in. Thin: parse the options, call the facade, render; progress bars only on a terminal."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.options import JsonOption
from regelwerk.cli.output import console, emit

if TYPE_CHECKING:
    from rich.console import Console


def forget(
    document: str = typer.Argument(..., help="A document id from 'regelwerk docs', or a CR release date."),
    json_mode: JsonOption = False,
) -> None:
    """Remove one document from the store (its indexes are updated at once)."""
    from regelwerk.index.facade import Library

    data = Library().forget(document)

    def render(con: Console) -> None:
        gone = data["forgotten"]
        con.print(
            f"forgot {gone['id']} ({gone['version'] or gone['kind']}); {data['documents']} documents remain",
            markup=False,
        )

    emit(data, json_mode, render)


def update(
    url: str | None = typer.Option(
        None,
        "--url",
        help="Another page that links the CR .txt, or the .txt file itself (default: Wizards' rules page).",
    ),
    json_mode: JsonOption = False,
) -> None:
    """Download the current Comprehensive Rules, ingest them if newer, and summarise what changed."""
    from regelwerk.index.facade import Library

    library = Library()
    if not json_mode and sys.stderr.isatty():
        from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

        with Progress(
            *Progress.get_default_columns(),
            DownloadColumn(),
            TransferSpeedColumn(),
            console=console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("downloading", total=None)

            def progress(done: int, total: int | None) -> None:
                bar.update(task, completed=done, total=total)

            def stage(text: str) -> None:
                bar.update(task, description=text)

            data = library.update(url, progress=progress, stage=stage)
    else:
        data = library.update(url)

    def render(con: Console) -> None:
        render_update(con, data)

    emit(data, json_mode, render)


def render_update(con: Console, data: dict[str, Any]) -> None:
    if not data["updated"]:
        con.print(
            f"up to date: {data['url']} is the {data['version']} release; "
            f"the newest stored is {data['previous']}",
            markup=False,
        )
        return
    con.print(f"ingested the {data['version']} rules from {data['url']} as {data['document']}", markup=False)
    if data["previous"]:
        counts = ", ".join(f"{n} {k}" for k, n in data["counts"].items() if n) or "no rule changes"
        gloss = ", ".join(f"{n} {k}" for k, n in data["glossary_counts"].items() if n)
        con.print(
            f"since {data['previous']}: {counts}" + (f"; glossary: {gloss}" if gloss else ""), markup=False
        )
        con.print(f"details: regelwerk diff {data['previous']} {data['version']}", markup=False)


def register(app: typer.Typer) -> None:
    app.command(name="forget")(forget)
    app.command(name="update")(update)
