"""``regelwerk rule NUMBER``: one rule with its subrules, examples and cross-references.

Thin: parse the options, ask the library facade (``Library.rule``), render. This path must
start fast, so it loads neither whoosh nor bs4 (``index.rules`` reads a small derived SQLite
table). The heading names the rule in both languages where the term tables know it; a German
reader of English text gets its terms glossed; ``--lang both`` puts both texts side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import _
from regelwerk.cli.options import JsonOption, LangBothOption
from regelwerk.cli.output import emit, styled

if TYPE_CHECKING:
    from rich.console import Console


def rule(
    number: list[str] = typer.Argument(
        ..., help='A rule number as you would type it: 702.22, 702.22j, "702.22 j", "CR 510.1c", '
        "or a keyword or game term (Trampelschaden, banding)."
    ),
    version: str | None = typer.Option(
        None, "--version", help="The CR release to read it in (effective date, e.g. 2011-02-04)."
    ),
    lang: LangBothOption = None,
    cite: bool = typer.Option(
        False, "--cite", help='Print only its citation, e.g. "CR 702.19b (2026-04-17)".'
    ),
    json_mode: JsonOption = False,
) -> None:
    """Show a rule with its subrules and examples (newest version unless --version)."""
    from regelwerk.cli.pager import paged
    from regelwerk.index.facade import Library

    if cite:
        cited = Library().cite(" ".join(number), version=version, lang=lang)
        emit(cited, json_mode, lambda con: con.print(cited["citation"], markup=False))
        return
    library = Library()
    data = library.rule(" ".join(number), version=version, lang=lang)

    def render(con: Console) -> None:
        # an undated document (a seed) is named by its title, read only then
        shown = (data["rule"], data.get("translation"))
        titles = library.titles() if any(r and not r["version"] for r in shown) else {}
        if lang == "both":
            render_both_languages(con, data, titles)
        else:
            render_rule(con, data["rule"], titles)

    emit(data, json_mode, lambda con: paged(con, render))


def render_both_languages(
    con: Console, data: dict[str, Any], titles: Mapping[str, str] | None = None
) -> None:
    from regelwerk.cli.bilingual import render_both

    if data.get("translation") is None:
        con.print(_("No German text of this rule is ingested; the English text follows."), style="yellow")
        render_rule(con, data["rule"], titles)
        return
    render_both(con, data["rule"], data["translation"], titles)


def render_rule(con: Console, r: dict[str, Any], titles: Mapping[str, str] | None = None) -> None:
    """The rule, its notes, glosses, subrules, examples and references; the texts are data,
    printed as styled parts (never markup), so "[quality]" in a rule stays as it is. Its
    document by its date or title (`titles`: id -> title; `notes.document_name`)."""
    from regelwerk.cli.bilingual import gloss_line, titled
    from regelwerk.cli.i18n import messages_or_notes
    from regelwerk.cli.notes import document_name

    shown = document_name(r["document"], titles or {}, r["version"])
    where = ", ".join(x for x in (shown, r["language"]) if x)
    title = titled(r["title"], r.get("names"), r["language"])
    styled(con, (f"{r['number']} {title}", "bold"), "  ", (f"({where})", "dim"))
    for note in messages_or_notes(r):
        styled(con, (note, "yellow"))
    if r.get("glosses"):
        con.print(gloss_line(r["glosses"]), style="cyan", markup=False)
    if r["text"] and r["text"] != r["title"]:
        styled(con, r["text"])
    for ex in r["examples"]:
        styled(con, "  ", (ex, "italic"))
    for sub in r["subrules"]:
        styled(con, (sub["number"], "bold"), f" {sub['text']}")
        for ex in sub["examples"]:
            styled(con, "  ", (ex, "italic"))
    if r["references"]:
        con.print(_("See also (regelwerk rule NUMBER):"), style="dim", markup=False)
        for ref in r["references"]:
            label = f" {ref['title']}" if ref["title"] else ""
            styled(con, f"  {ref['number']}{label}")


def register(app: typer.Typer) -> None:
    app.command(name="rule")(rule)
