"""``regelwerk term QUERY``: a keyword or card in both languages with its rule numbers.

Thin: validate the options, ask the library facade (``Library.term``) for ranked matches, render them. Only
rapidfuzz and rich load on this path (no whoosh, no bs4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import _
from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import FREE_TEXT, emit, reject_unknown_options, styled
from regelwerk.ingest.model.message import N_, msg

if TYPE_CHECKING:
    from rich.console import Console

def labels() -> dict[str, str]:
    """The labels of ``term`` output in the interface language (``cli/locale``)."""
    from regelwerk.cli.notes import ALIAS_STATUS  # imported when used: it reads the facade

    return {
        "en": _("English"), "de": _("German"), "variants": _("German variants"), "old": _("Older German"),
        "kind": _("Kind"), "rules": _("Rules"),
        "current": _("Number in the term table (newest CR)"), "era": _("Numbering of"),
        "document": _("Document"), "number": _("Number"),
        "language": _("Language"), "how": _("Linked by"), "glossary": _("Glossary"),
        "seed": _("German glossary"), "reminder": _("Reminder text"), "cards": _("Cards"),
        "card": _("card"), "shows": _("shows"), "also": _("Other candidates"), "score": _("Score"),
        "match": _("Match"), "fuzzy": _("closest match"),
        "keyword_ability": _("keyword ability"), "keyword_action": _("keyword action"),
        "ability_word": _("ability word"), "core": _("game term"),
        "senses": _("{word!r} has {count} senses"), "source": _("Source"),
        "evidence": _("German cards print"),
        **{status: _(label) for status, label in ALIAS_STATUS.items()},
    }


#: How a document's rule was linked to the term (``documents[].how``), in the reader's words.
LINKED_BY = {
    "heading": N_("heading"),
    "same-number": N_("same number"),
    "era": N_("numbering of its era"),
    "table": N_("term table"),
    "letter": N_("paragraph order"),
    "text": N_("text"),
}


def term(
    query: list[str] = typer.Argument(
        None, help="A keyword, game term or card name, in German or English.", show_default=False
    ),
    lang: LangOption = None,
    json_mode: JsonOption = False,
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="Show at most this many matches."),
    listing: bool = typer.Option(False, "--list", help="List every keyword and game term in both languages."),
    kind: str | None = typer.Option(
        None, "--kind", help="With --list: only keyword_action, keyword_ability, ability_word or core."
    ),
) -> None:
    """Look up a keyword or card: English and German names, rule numbers per document, cards."""
    from regelwerk.cli.output import bad_usage
    from regelwerk.index.facade import Library

    words = query or []
    if listing or kind is not None:
        if words:
            bad_usage(msg(N_("give either a term or --list, not both")))
        data = Library().terms(kind)
        emit(data, json_mode, lambda con: render_list(con, data["terms"], labels()))
        return
    if not words:
        bad_usage(msg(N_("give a keyword, game term or card name (or --list)")))
    reject_unknown_options(words)
    library = Library()
    data = library.term(" ".join(words), lang=lang, limit=limit)
    t = labels()

    def render(con: Console) -> None:
        from regelwerk.cli.notes import document_name

        named = data["eras"] or any(m.get("documents") for m in data["matches"])
        titles = library.titles() if named else {}
        render_matches(con, data["matches"], t, titles)
        for doc_id, era in data["eras"].items():
            said = f"{t['era']} {document_name(doc_id, titles)}: {era['reason']}"
            con.print(said, style="dim", markup=False)

    emit(data, json_mode, render)


def render_list(con: Console, terms: list[dict[str, Any]], t: dict[str, str]) -> None:
    """Every term as one table row: English, German (with older names), kind, number."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in (t["en"], t["de"], t["kind"], t["number"]):
        table.add_column(col)
    for row in terms:
        german = row["de"] or ""
        if row["de_old"]:
            german += f" ({t['old']}: {', '.join(row['de_old'])})"
        table.add_row(row["en"], german, t.get(row["kind"], row["kind"]), row["number"] or "")
    con.print(table)


def render_matches(
    con: Console, matches: list[dict[str, Any]], t: dict[str, str], titles: Mapping[str, str] | None = None
) -> None:
    """The best match in full (an ambiguous word's every sense: `notes.senses`), the others as a
    ranked list; documents by their titles (`titles`)."""
    from regelwerk.cli.notes import senses

    full, rest, ambiguous = senses(matches)
    if full[0]["match"] == "fuzzy":
        best = full[0]
        con.print(f"{t['fuzzy']}: {best['matched']} ({best['score']:g})", style="dim", markup=False)
    if ambiguous:
        con.print(t["senses"].format(word=ambiguous, count=len(full)), style="dim", markup=False)
    for m in full:
        _render_one(con, m, t, titles or {})
    if rest:
        from rich.markup import escape
        from rich.table import Table

        table = Table(title=t["also"], title_justify="left", show_edge=False)
        for col in (t["en"], t["de"], t["kind"], t["rules"], t["score"]):
            table.add_column(col)
        for m in rest:
            cells = (m["en"], m["de"] or "", _kind(m, t), _rules_line(m["rules"]), f"{m['score']:g}")
            table.add_row(*(escape(c) for c in cells))
        con.print(table)


def _kind(m: dict[str, Any], t: dict[str, str]) -> str:
    return t["card"] if m["kind"] == "card" else t.get(m["kind"], m["kind"])


def _rules_line(rules: dict[str, str]) -> str:
    return ", ".join(f"{number} ({key})" for key, number in rules.items())


def _render_one(con: Console, m: dict[str, Any], t: dict[str, str], titles: Mapping[str, str]) -> None:
    """Rules text is full of "[cost]" and "[quality]", which rich would eat as markup: every
    piece of data is printed with markup off, as styled parts or escaped."""
    from regelwerk.cli.notes import document_name, evidence_forms

    def line(text: str) -> None:
        con.print(text, markup=False, highlight=False)

    german = (" / ", (m["de"], "bold")) if m.get("de") else ()
    styled(con, (m["en"], "bold"), *german, "  ", (f"({_kind(m, t)})", "dim"))
    alias = m.get("alias")
    if alias:  # a word people say: whose word it is, and the evidence
        line(f"  {alias['word']}: {t.get(alias['status'], alias['status'])} ({alias['note']})")
    if m["kind"] == "card" and m.get("card"):  # a card of the card database
        from regelwerk.cli.card import render_card

        render_card(con, m["card"], head=False)
    if m["kind"] == "card":
        kw = m["keyword"]
        if kw is not None:
            line(f"  {t['shows']}: {kw['en']}" + (f" / {kw['de']}" if kw["de"] else ""))
        if m["rules"] and not m.get("card"):
            line(f"  {t['rules']}: {_rules_line(m['rules'])}")
        if m["text"] and not m.get("card"):
            line(f"  {m['text']}")
        return
    if m["de_variants"]:
        line(f"  {t['variants']}: {', '.join(m['de_variants'])}")
    if m["de_old"]:
        line(f"  {t['old']}: {', '.join(m['de_old'])}")
    if m["number"]:
        line(f"  {t['current']}: {m['number']}")
    if m.get("evidence"):
        line(f"  {t['evidence']}: " + evidence_forms(m["evidence"], _))
    if m["documents"]:
        from rich.markup import escape
        from rich.table import Table

        table = Table(show_edge=False, box=None, padding=(0, 2))
        for col in (t["document"], t["language"], t["number"], t["how"]):
            table.add_column(col)
        for r in m["documents"]:
            how = _(LINKED_BY[r["how"]]) if r["how"] in LINKED_BY else str(r["how"])
            shown = document_name(str(r["document"]), titles, r.get("version")) if titles else str(r["key"])
            table.add_row(*(escape(c) for c in (shown, str(r["language"]), str(r["number"]))), escape(how))
        con.print(table)
    if m["glossary"]:
        line(f"  {t['glossary']}: {m['glossary']}")
    for e in m["seed_entries"]:
        text = " ".join(e["text"].split())
        line(f"  {t['seed']} ({e['title']}): {text[:300]}{'…' if len(text) > 300 else ''}")
    for r in m["reminders"][:2]:
        line(f"  {t['reminder']}: ({r})")
    if m["cards"]:
        names = [c["en"] + (f" / {c['de']}" if c["de"] else "") for c in m["cards"]]
        line(f"  {t['cards']}: {'; '.join(names)}")


def register(app: typer.Typer) -> None:
    """Add the ``term`` command to the main app."""
    app.command(name="term", context_settings=FREE_TEXT)(term)
