"""``regelwerk forget DOC`` and ``regelwerk update``: taking releases out and bringing the
newest in. Thin: parse the options, call the facade, render; progress bars only on a terminal."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import N_, _, message, ngettext
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
        line = ngettext("forgot {id} ({what}); {n} document remains",
                        "forgot {id} ({what}); {n} documents remain", data["documents"])
        con.print(line.format(id=gone["id"], what=gone["version"] or gone["kind"], n=data["documents"]),
                  markup=False)

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
            task = bar.add_task(_("downloading"), total=None)

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
        line = _("up to date: {url} is the {version} release; the newest stored is {previous}")
        shown = line.format(url=data["url"], version=data["version"], previous=data["previous"])
        con.print(shown, markup=False)
        return
    line = _("ingested the {version} rules from {url} as {document}")
    shown = line.format(version=data["version"], url=data["url"], document=data["document"])
    con.print(shown, markup=False)
    if data["previous"]:
        from regelwerk.cli.history import change_counts

        counts = change_counts(data["counts"], data["glossary_counts"])
        since = _("since {previous}: {counts}").format(previous=data["previous"], counts=counts)
        con.print(since, markup=False)
        con.print(_("details: regelwerk diff {old} {new}").format(old=data["previous"], new=data["version"]),
                  markup=False)


#: The doctor's verdict on the store, one sentence per state.
DOCTOR_STATES = {
    "healthy": N_("{documents} documents and {artefacts} derived artefacts sound; store healthy: {home}"),
    "repaired": N_("{documents} documents and {artefacts} derived artefacts sound; store repaired: {home}"),
    "damaged": N_("{documents} documents and {artefacts} derived artefacts sound; store damaged "
                  "(run `regelwerk doctor --repair`): {home}"),
}


def render_doctor(con: Console, data: dict[str, Any]) -> None:
    """What the doctor found and mended, then its verdict."""
    for key, label in (("problem", _("problem: {message}")), ("repaired", _("repaired: {message}"))):
        found = data.get(f"{key}_messages") or data["problems" if key == "problem" else "repaired"]
        for line in found:
            con.print(label.format(message=message(line)), markup=False, soft_wrap=True)
    for line in data.get("lost", ()):  # lost before: named until ingested again
        con.print(_("lost: {message}").format(message=line), markup=False, soft_wrap=True)
    state = "healthy" if not data["problems"] else ("repaired" if data["repaired"] else "damaged")
    verdict = _(DOCTOR_STATES[state]).format(documents=data["documents"], artefacts=data["artefacts"],
                                             home=data["home"])
    con.print(verdict, markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command(name="forget")(forget)
    app.command(name="update")(update)
