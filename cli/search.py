"""``regelwerk search QUERY``: ranked hits across both languages with highlighted snippets.

Thin: validate the options, call the library facade (``Library.search``), render. whoosh is
imported inside that call, and nowhere on the ``rule`` path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import _
from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import FREE_TEXT, Part, bad_usage, emit, reject_unknown_options, styled
from regelwerk.ingest.model.message import N_, msg

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
    cards: bool = typer.Option(
        False, "--cards", help="Search card text (German and English) instead of the rules."
    ),
    json_mode: JsonOption = False,
) -> None:
    """Search the rules in both languages: numbers, keywords, typos and questions."""
    from regelwerk.index.facade import Library

    if version is not None and all_versions:
        bad_usage(msg(N_("use either --version or --all-versions, not both")))
    reject_unknown_options(query)
    text = " ".join(query)
    if cards:
        from regelwerk.cli.card import render_card_hits

        found = Library().search_cards(text, limit=limit)
        emit(found, json_mode, lambda con: render_card_hits(con, found["cards"]))
        return
    library = Library()
    data = library.search(text, lang=lang, limit=limit, version=version, all_versions=all_versions)

    def render(con: Console) -> None:
        # an undated document (a seed) is named by its title, read only then
        render_hits(con, data, library.titles() if any(not h["version"] for h in data["hits"]) else {})
        if data.get("cards"):
            from regelwerk.cli.card import render_named_cards

            render_named_cards(con, data["cards"])

    emit(data, json_mode, render)


def render_hits(con: Console, data: dict[str, Any], titles: Mapping[str, str] | None = None) -> None:
    """Hits grouped by their rule (702.15 with its matching subrules beneath), each rule
    titled in both languages where the term tables know it ("Lifelink · Lebensverknüpfung").

    A paragraph of a document without numbers (the seeds' number-stripped CR excerpt) goes
    under the rule linking found it to be today (``current``): the head says "today 702.22",
    each line its subrule's number of today, in the same colour."""
    from regelwerk.cli.bilingual import titled
    from regelwerk.cli.i18n import messages_or_notes
    from regelwerk.cli.notes import document_name

    for note in messages_or_notes(data):
        styled(con, (note, "yellow"))
    if not data["hits"]:
        con.print(_("no hits"))
        return
    for group in group_hits(data["hits"]):
        head = group[0]
        rule = _rule_of(head["number"]) if head["number"] else None
        label = rule or head["term"] or ""
        # a glossary entry's term is its title: show it once ("Lifelink · Lebensverknüpfung")
        if head["title"] == label:
            label, title = titled(label, head.get("names"), head["language"]), ""
        else:
            title = titled(head["title"], head.get("names"), head["language"])
        current = _rule_of(head["current"]) if head["current"] else None
        today = _("today {number}").format(number=current) if current and current != rule else ""
        shown = document_name(head["document"], titles or {}, head["version"])
        where = ", ".join(x for x in (shown, head["language"]) if x)
        # no label (an unnumbered paragraph's head): no space before its title
        styled(con, (label, "bold"), f" {title}" if title and label else title, "  ", (f"({where})", "dim"),
               *(("  ", (today, "cyan")) if today else ()))
        for h in group:
            own = h["number"] if h["number"] and h["number"] != rule else ""
            style = "bold"
            if not h["number"] and h["current"] and h["current"] != current:
                own, style = h["current"], "cyan"  # no number of its own: today's
            styled(con, "    ", *(((own, style), " ") if own else ()), *marked(h["snippet"]))


def _rule_of(number: str) -> str:
    from regelwerk.index.facade import rule_of

    return rule_of(number)


def group_hits(hits: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The hits as one group per rule and document, in the order every reader shows them
    (`regelwerk.index.facade.group_hits`: the best line first, the rest in rule order)."""
    from regelwerk.index.facade import group_hits as grouped

    return grouped(hits)


#: A query term as the snippet marks it (`index.snippets` marks single words): «word».
_MARK = re.compile(r"«(\w+)»")


def marked(snippet: str) -> list[Part]:
    """`snippet` as styled parts: marked words bold, everything else as it is.

    Only «word» around one whole word is a mark; any other guillemet is the document's own
    text (German quotes »so«), printed as it is.
    """
    out: list[Part] = []
    cursor = 0
    for m in _MARK.finditer(snippet):
        out += [snippet[cursor : m.start()], (m.group(1), "bold magenta")]
        cursor = m.end()
    out.append(snippet[cursor:])
    return out


def register(app: typer.Typer) -> None:
    app.command(name="search", context_settings=FREE_TEXT)(search)
