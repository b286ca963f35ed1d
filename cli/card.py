"""``regelwerk card NAME``: a card by its German or English name, with every German printing.

Thin: the library facade (``Library.card``) finds and shapes the cards; this module renders
them. Only sqlite3, rapidfuzz and rich load on this path (no whoosh, no bs4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import _
from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import FREE_TEXT, emit, reject_unknown_options, styled

if TYPE_CHECKING:
    from rich.console import Console


def card(
    name: list[str] = typer.Argument(..., help="A card name in German or English (Tatzelwurm, Craw Wurm)."),
    lang: LangOption = None,
    json_mode: JsonOption = False,
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="Show at most this many cards."),
) -> None:
    """Look up a card: both names, type line, P/T, Oracle text, German printings, keyword rules."""
    from regelwerk.index.facade import Library

    reject_unknown_options(name)
    data = Library().card(" ".join(name), lang=lang, limit=limit)

    def render(con: Console) -> None:
        render_cards(con, data["cards"], lang)

    emit(data, json_mode, render)


def render_cards(con: Console, cards: list[dict[str, Any]], lang: str | None = None) -> None:
    """The best card in full, the others as one line each."""
    best, rest = cards[0], cards[1:]
    if best["match"] == "fuzzy":
        closest = _("closest match")
        con.print(f"{closest}: {best['matched']} ({best['score']:g})", style="dim", markup=False)
    render_card(con, best, lang)
    if rest:
        con.print(_("Other cards") + ":", style="bold")
        for c in rest:
            names = " / ".join([c["name_en"], *c["names_de"][:1]])
            con.print(f"  {names}  ({c['type_en'] or ''}, {c['score']:g})", markup=False, highlight=False)


def _keyword(k: dict[str, Any], lang: str | None) -> str:
    """ "702.22 Bündnisfähigkeit (Banding)": the rule number, then the name in the reader's language."""
    first, second = (k["de"], k["name"]) if lang != "en" and k["de"] else (k["name"], k["de"])
    label = first + (f" ({second})" if second and second != first else "")
    return f"{k['rule']} {label}" if k["rule"] else label


def render_card(con: Console, c: dict[str, Any], lang: str | None = None, *, head: bool = True) -> None:
    """One card in full; `head` False leaves out the names line (``term`` prints its own)."""
    def line(text: str) -> None:
        con.print(text, markup=False, highlight=False, soft_wrap=True)

    if head:
        german = [n for n in c["names_de"] if n != c["name_en"]]
        styled(con, (c["name_en"], "bold"), *(p for n in german for p in (" / ", (n, "bold"))))
    facts = [c["mana_cost"], c["type_en"], c["type_de"], c["pt"], c["loyalty"] and f"[{c['loyalty']}]"]
    line("  " + "  ·  ".join(str(f) for f in facts if f))
    if c["keywords"]:
        line("  " + _("Keywords") + ": " + ", ".join(_keyword(k, lang) for k in c["keywords"]))
    if c["oracle_text"]:
        line("  " + _("Oracle text") + ":")
        for para in c["oracle_text"].split("\n"):
            line(f"    {para}")
    german = [p for p in c["printings"] if p["name_de"]]
    if german:
        line("  " + _("German printings") + ":")
        for p in german:
            where = f"{p['set']} {p['year'] or ''} #{p['number']}".strip()
            text = (p["text_de"] or "").replace("\n", " / ")
            line(f"    {where}  {p['name_de']}" + (f": {text}" if text else ""))
    others = sorted({p["set"] for p in c["printings"] if not p["name_de"]})
    if others:
        line("  " + _("Also printed in") + ": " + ", ".join(others))


def render_card_hits(con: Console, hits: list[dict[str, Any]]) -> None:
    """``search --cards``: each card with the German and English text that matched."""
    if not hits:
        con.print(_("no cards"))
        return
    for h in hits:
        german = [n for n in h["names_de"] if n != h["name_en"]][:1]
        con.print(
            " / ".join([h["name_en"], *german]) + f"  ({h['type_en'] or ''})", style="bold", markup=False
        )
        where = f" [{h['printing']['set']} {h['printing']['year']}]" if h["printing"] else ""
        for text in (h["text_de"] and h["text_de"] + where, h["oracle_text"]):
            if text:
                con.print("  " + text.replace("\n", " / "), markup=False, highlight=False, soft_wrap=True)


def render_named_cards(con: Console, cards: list[dict[str, Any]]) -> None:
    """After a rules search: the cards the query names, one line each (``card`` shows more)."""
    con.print(_("Cards named in the query") + ":", style="bold")
    for c in cards:
        german = [n for n in c["names_de"] if n != c["name_en"]][:1]
        facts = ", ".join(x for x in (c["type_en"], c["pt"]) if x)
        keywords = ", ".join(_keyword(k, None) for k in c["keywords"])
        con.print(f"  {' / '.join([c['name_en'], *german])} ({facts}) {keywords}".rstrip(), markup=False)


def register(app: typer.Typer) -> None:
    """Add the ``card`` command to the main app."""
    app.command(name="card", context_settings=FREE_TEXT)(card)
