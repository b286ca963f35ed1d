"""``regelwerk rule NUMBER``: one rule with its subrules, examples and cross-references.

Thin: parse the options, ask the library facade (``Library.rule``), render. This path must start fast, so it
loads neither whoosh nor bs4 (``index.rules`` reads a small derived SQLite table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import emit

if TYPE_CHECKING:
    from rich.console import Console


def rule(
    number: list[str] = typer.Argument(
        ..., help='A rule number as you would type it: 702.22, 702.22j, "702.22 j", "CR 510.1c".'
    ),
    version: str | None = typer.Option(
        None, "--version", help="The CR release to read it in (effective date, e.g. 2011-02-04)."
    ),
    lang: LangOption = None,
    json_mode: JsonOption = False,
) -> None:
    """Show a rule with its subrules and examples (newest version unless --version)."""
    from regelwerk.index.facade import Library

    data = Library().rule(" ".join(number), version=version, lang=lang)

    def render(con: Console) -> None:
        render_rule(con, data["rule"])

    emit(data, json_mode, render)


def render_rule(con: Console, r: dict[str, Any]) -> None:
    from rich.markup import escape

    where = ", ".join(x for x in (r["version"] or r["document"], r["language"]) if x)
    con.print(f"[bold]{escape(r['number'])} {escape(r['title'])}[/bold]  [dim]({escape(where)})[/dim]")
    for note in r["notes"]:
        con.print(f"[yellow]{escape(note)}[/yellow]")
    if r["text"] and r["text"] != r["title"]:
        con.print(escape(r["text"]))
    for ex in r["examples"]:
        con.print(f"  [italic]{escape(ex)}[/italic]")
    for sub in r["subrules"]:
        con.print(f"[bold]{escape(sub['number'])}[/bold] {escape(sub['text'])}")
        for ex in sub["examples"]:
            con.print(f"  [italic]{escape(ex)}[/italic]")
    if r["references"]:
        con.print("[dim]See also (regelwerk rule NUMBER):[/dim]")
        for ref in r["references"]:
            label = f" {ref['title']}" if ref["title"] else ""
            con.print(f"  {escape(ref['number'])}{escape(label)}")


def register(app: typer.Typer) -> None:
    app.command(name="rule")(rule)
