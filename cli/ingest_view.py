"""The ``ingest`` command's work: progress on a terminal, a summary table, per-file errors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from regelwerk.cli.output import console, emit, error_text, fail, safe_text

#: How many of a document's ingest issues the human output lists (--json lists them all).
SHOWN_ISSUES = 3


def run_ingest(
    library: Any, paths: list[Path], fmt: str | None, json_mode: bool, *, strict: bool = False
) -> None:
    from regelwerk.ingest import expand_paths
    from regelwerk.ingest.model.format import Format

    if fmt is not None and fmt not in {f.value for f in Format}:
        choices = ", ".join(f.value for f in Format)
        fail(f"--format: {fmt!r} is not a format; expected one of {choices}", json_mode, code=2)
    for p in paths:
        if not p.exists():
            fail(f"{p}: no such file or directory", json_mode)
    files = expand_paths(paths)
    if not files:
        fail(f"{', '.join(map(str, paths))}: no .txt, .htm or .html documents found", json_mode)

    show_progress = not json_mode and sys.stderr.isatty() and len(files) > 1
    if show_progress:
        from rich.progress import Progress

        with Progress(console=console(stderr=True), transient=True) as bar:
            task = bar.add_task("ingesting", total=len(files))

            def step(path: Path) -> None:
                from rich.markup import escape

                # the progress column reads markup and bypasses the console's own filter
                name = escape(safe_text(path.name))
                bar.update(task, description=f"ingesting {name}", advance=1)

            report = library.ingest(files, fmt, progress=step, strict=strict)
    else:
        report = library.ingest(files, fmt, strict=strict)

    if len(report.errors) and not report.documents:
        if len(report.errors) == 1:
            fail(str(report.errors[0]), json_mode)
        fail("; ".join(str(e) for e in report.errors), json_mode)

    data = report.to_dict()

    def render(con: Any) -> None:
        from regelwerk.cli.tables import documents_table

        con.print(documents_table([p.summary() for p in report.documents], title="Ingested"))
        for doc_id in report.unchanged:
            con.print(f"{doc_id}: unchanged (same sha256), nothing to do")
        for parsed in report.documents:
            issues = parsed.issues
            for issue in issues[:SHOWN_ISSUES]:
                con.print(f"note: {issue}", markup=False, highlight=False, soft_wrap=True)
            if len(issues) > SHOWN_ISSUES:
                con.print(f"note: ... and {len(issues) - SHOWN_ISSUES} more (--json lists all)")

    if json_mode and report.errors:
        # documents succeeded but some files failed: still one envelope, with the failures listed
        emit({**data, "ok": False, "error": "; ".join(data["errors"])}, True, render)
    else:
        emit(data, json_mode, render)
    for err in report.errors if not json_mode else ():
        sys.stderr.write(safe_text(error_text(str(err))) + "\n")
    if report.errors:
        raise typer.Exit(1)
