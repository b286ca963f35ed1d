"""``regelwerk term QUERY``: a keyword or card in both languages with its rule numbers.

Thin: validate the options, ask the library facade (``Library.term``) for ranked matches, render them. Only
rapidfuzz and rich load on this path (no whoosh, no bs4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import FREE_TEXT, emit, reject_unknown_options

if TYPE_CHECKING:
    from rich.console import Console

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "en": "English", "de": "German", "variants": "German variants", "old": "Older German",
        "kind": "Kind", "rules": "Rules",
        "current": "Number in the term table (newest CR)", "era": "Numbering of",
        "document": "Document", "number": "Number",
        "language": "Language", "how": "Linked by", "glossary": "Glossary", "seed": "German glossary",
        "reminder": "Reminder text", "cards": "Cards", "card": "card", "shows": "shows",
        "also": "Other candidates", "score": "Score", "match": "Match", "fuzzy": "closest match",
        "keyword_ability": "keyword ability", "keyword_action": "keyword action",
        "ability_word": "ability word", "core": "game term",
    },
    "de": {
        "en": "Englisch", "de": "Deutsch", "variants": "Deutsche Varianten", "old": "Ältere Namen",
        "kind": "Art", "rules": "Regeln",
        "current": "Nummer laut Begriffstabelle (neueste CR)", "era": "Nummerierung von",
        "document": "Dokument", "number": "Nummer",
        "language": "Sprache", "how": "Verknüpft über", "glossary": "Glossar",
        "seed": "Deutsches Glossar", "reminder": "Erinnerungstext", "cards": "Karten",
        "card": "Karte", "shows": "zeigt", "also": "Weitere Treffer", "score": "Wertung",
        "match": "Treffer", "fuzzy": "ähnlichster Treffer",
        "keyword_ability": "Schlüsselwortfähigkeit", "keyword_action": "Schlüsselwortaktion",
        "ability_word": "Fähigkeitswort", "core": "Spielbegriff",
    },
}


def term(
    query: str = typer.Argument(..., help="A keyword, game term or card name, in German or English."),
    lang: LangOption = None,
    json_mode: JsonOption = False,
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="Show at most this many matches."),
) -> None:
    """Look up a keyword or card: English and German names, rule numbers per document, cards."""
    from regelwerk.index.facade import Library

    reject_unknown_options([query])
    data = Library().term(query, lang=lang, limit=limit)
    labels = LABELS[lang or "en"]

    def render(con: Console) -> None:
        render_matches(con, data["matches"], labels)
        for doc_id, era in data["eras"].items():
            con.print(f"{labels['era']} {doc_id}: {era['reason']}", style="dim", markup=False)

    emit(data, json_mode, render)


def render_matches(con: Console, matches: list[dict[str, Any]], t: dict[str, str]) -> None:
    """The best match in full, the others as a ranked list."""
    from rich.markup import escape
    from rich.table import Table

    best, rest = matches[0], matches[1:]
    if best["match"] == "fuzzy":
        con.print(f"{t['fuzzy']}: {best['matched']} ({best['score']:g})", style="dim", markup=False)
    _render_one(con, best, t)
    if rest:
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


def _render_one(con: Console, m: dict[str, Any], t: dict[str, str]) -> None:
    """Rules text is full of "[cost]" and "[quality]", which rich would eat as markup: every
    piece of data is printed with markup off or escaped."""
    from rich.markup import escape
    from rich.table import Table

    def line(text: str) -> None:
        con.print(text, markup=False, highlight=False)

    head = f"[bold]{escape(m['en'])}[/bold]" + (f" / [bold]{escape(m['de'])}[/bold]" if m.get("de") else "")
    con.print(f"{head}  [dim]({escape(_kind(m, t))})[/dim]")
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
    if m["documents"]:
        table = Table(show_edge=False, box=None, padding=(0, 2))
        for col in (t["document"], t["language"], t["number"], t["how"]):
            table.add_column(col)
        for r in m["documents"]:
            table.add_row(*(escape(str(r[k])) for k in ("key", "language", "number", "how")))
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
