"""``regelwerk search QUERY``: ranked hits across both languages with highlighted snippets.

Thin: validate the options, call the library facade (``Library.search``), render. whoosh is
imported inside that call, and nowhere on the ``rule`` path.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import FREE_TEXT, bad_usage, emit, reject_unknown_options

if TYPE_CHECKING:
    from rich.console import Console


def search(
    query: list[str] = typer.Argument(
        ..., help="A rule number, a keyword in German or English, or a plain question."
    ),
    version: str | None = typer.Option(
        None, "--version", help="Search only this CR release (e.g. 2015-11-13)."
    ),
    all_versions: bool = typer.Option(False, "--all-versions", help="Search every ingested release."),
    lang: LangOption = None,
    limit: int = typer.Option(10, "--limit", min=1, max=200, help="Show at most this many hits."),
    json_mode: JsonOption = False,
) -> None:
    """Search the rules in both languages: numbers, keywords, typos and questions."""
    from regelwerk.index.facade import Library

    if version is not None and all_versions:
        bad_usage("use either --version or --all-versions, not both")
    reject_unknown_options(query)
    text = " ".join(query)
    data = Library().search(text, lang=lang, limit=limit, version=version, all_versions=all_versions)

    def render(con: Console) -> None:
        render_hits(con, data)

    emit(data, json_mode, render)


def render_hits(con: Console, data: dict[str, Any]) -> None:
    from rich.markup import escape

    for note in data["notes"]:
        con.print(f"[yellow]{escape(note)}[/yellow]")
    if not data["hits"]:
        con.print("no hits")
        return
    for h in data["hits"]:
        label = h["number"] or h["term"] or ""
        today = f"  [cyan]today {h['current']}[/cyan]" if h["current"] and h["current"] != h["number"] else ""
        where = ", ".join(x for x in (h["version"] or h["document"], h["language"]) if x)
        con.print(f"[bold]{escape(label)}[/bold] {escape(h['title'])}  [dim]({escape(where)})[/dim]{today}")
        con.print(f"    {marked(h['snippet'])}")


#: A query term as the snippet marks it (`index.snippets` marks single words): «word».
_MARK = re.compile(r"«(\w+)»")


def marked(snippet: str) -> str:
    """`snippet` as rich markup: marked words bold, everything else escaped.

    Only «word» around one whole word is a mark; any other guillemet is the document's own
    text (German quotes »so«), printed as it is.
    """
    from rich.markup import escape

    out, cursor = [], 0
    for m in _MARK.finditer(snippet):
        out.append(escape(snippet[cursor : m.start()]))
        out.append(f"[bold magenta]{escape(m.group(1))}[/bold magenta]")
        cursor = m.end()
    out.append(escape(snippet[cursor:]))
    return "".join(out)


def register(app: typer.Typer) -> None:
    app.command(name="search", context_settings=FREE_TEXT)(search)
