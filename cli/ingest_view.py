"""The ``ingest`` command's work: progress on a terminal, a summary table, per-file errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from regelwerk.cli.i18n import _, message
from regelwerk.cli.output import bad_usage, console, emit, error_text, safe_text
from regelwerk.ingest.model.message import N_, msg

#: How many of a document's ingest issues the human output lists (--json lists them all).
SHOWN_ISSUES = 3


def _label(text: str) -> str:
    """Text for the progress column, which reads markup and bypasses the console's own filter."""
    from rich.markup import escape

    return escape(safe_text(text))


def run_ingest(
    paths: list[Path],
    fmt: str | None,
    json_mode: bool,
    *,
    strict: bool = False,
    follow_symlinks: bool = False,
    replace: bool = False,
) -> None:
    from regelwerk.index.facade import Library
    from regelwerk.ingest.model.format import Format

    if fmt is not None and fmt not in {f.value for f in Format}:
        choices = ", ".join(f.value for f in Format)
        bad_usage(msg(N_("--format: {fmt!r} is not a format; expected one of {choices}"),
                      fmt=fmt, choices=choices))
    library = Library()
    files = library.files(paths, follow_symlinks=follow_symlinks)
    if not json_mode and sys.stderr.isatty():  # one file too: its build may embed for a minute
        with progress_bar(console(stderr=True)) as bar:
            task = bar.add_task(_("ingesting"), total=len(files))

            def step(path: Path) -> None:
                bar.update(task, description=_("ingesting {file}").format(file=_label(path.name)), advance=1)

            data = library.ingest(
                paths, fmt, strict=strict, progress=step, stage=build_steps(bar, task),
                follow_symlinks=follow_symlinks, replace=replace,
            )
    else:
        data = library.ingest(
            paths, fmt, strict=strict, follow_symlinks=follow_symlinks, replace=replace
        )

    def render(con: Any) -> None:
        render_report(con, data)

    if json_mode and data["errors"]:
        # documents succeeded but some files failed: still one envelope, with the failures listed
        emit({**data, "ok": False, "error": "; ".join(data["errors"])}, True, render)
    else:
        emit(data, json_mode, render)
    for err in data.get("error_messages", data["errors"]) if not json_mode else ():
        sys.stderr.write(safe_text(error_text(message(err))) + "\n")
    if data["errors"]:
        raise typer.Exit(1)


def progress_bar(con: Any) -> Any:
    """The ingest's progress display on `con` (a terminal's stderr): each task's text, its bar,
    how many of how many, and the time left; gone when it ends."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    return Progress(*columns, console=con, transient=True)


def build_steps(bar: Any, task: Any) -> Callable[[str], None]:
    """What hears a build's steps on the progress display `bar`: a step's text becomes
    `task`'s ("building: search index"), and a counted step (``Counted``: "sentence vectors
    (all-MiniLM-L6-v2-onnx-int8) 256/4031", the half minute of embedding) a task of its own
    beneath, whose bar and count move (its text at the end of `task`'s, on a narrow terminal,
    was cut off, and `task`'s bar stood at 100% while it ran)."""
    from regelwerk.ingest.model.steps import Counted

    counted: dict[str, Any] = {}

    def stage(text: str) -> None:
        if isinstance(text, Counted):
            if text.what not in counted:
                counted[text.what] = bar.add_task("  " + _label(text.what), total=text.total)
            bar.update(counted[text.what], completed=text.done, total=text.total)
            return
        bar.update(task, description=_("building: {step}").format(step=_label(text)))

    return stage


def render_report(con: Any, data: dict[str, Any]) -> None:
    """The ingest summary: the documents table, what was unchanged, replaced, repaired or
    skipped, and the first issues of each document."""
    from regelwerk.cli.tables import documents_table

    con.print(documents_table(data["documents"], title=_("Ingested")))
    for key, what in (("unchanged", _("{document}: unchanged (same sha256), nothing to do")),
                      ("replaced", _("{document}: replaced the stored document of that id")),
                      ("repaired", _("{document}: its damaged record was rewritten"))):
        for doc_id in data[key]:
            con.print(what.format(document=doc_id), markup=False)
    for skip in map(message, data.get("skipped_messages", data["skipped"])):
        con.print(_("note: {message}").format(message=skip), markup=False, highlight=False, soft_wrap=True)
    for summary in data["documents"]:
        issues = summary["issues"]
        for issue in issues[:SHOWN_ISSUES]:
            note = _("note: {message}").format(message=issue)
            con.print(note, markup=False, highlight=False, soft_wrap=True)
        if len(issues) > SHOWN_ISSUES:
            more = _("note: ... and {n} more (--json lists all)").format(n=len(issues) - SHOWN_ISSUES)
            con.print(more, markup=False)
