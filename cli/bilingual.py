"""Both languages on one screen: titles with both names, rules side by side.

Pure functions of the facade's plain data, rendered on any rich console, so tests render them
at a fixed width. Side by side needs room: below `SIDE_BY_SIDE_WIDTH` columns the two texts are
interleaved paragraph by paragraph instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from regelwerk.cli.i18n import _

if TYPE_CHECKING:
    from rich.console import Console

#: Narrower terminals get the languages interleaved instead of in two columns.
SIDE_BY_SIDE_WIDTH = 100
SEPARATOR = " · "


def titled(title: str, names: dict[str, Any] | None, language: str) -> str:
    """The title and, when the term tables know it, its name in the other language
    ("Lifelink · Lebensverknüpfung", "Bündnisfähigkeit · Banding"); never "Lifelink · Lifelink"."""
    other = (names or {}).get("de" if language == "en" else "en")
    if other and other.casefold() != (title or "").casefold():
        return f"{title}{SEPARATOR}{other}" if title else str(other)
    return title


def paragraphs(rule: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, text) for the rule's own text, its examples and each subrule; a subrule's key is
    its letter, so the German seed's 702.19c meets today's 702.22c."""
    out: list[tuple[str, str]] = []
    if rule["text"] and rule["text"] != rule["title"]:
        out.append(("", f"{rule['number']} {rule['text']}"))
    for ex in rule["examples"]:
        out.append(("", ex))
    for sub in rule["subrules"]:
        letter = sub["number"][len(rule["number"]):] or sub["number"]
        out.append((letter, f"{sub['number']} {sub['text']}"))
        for ex in sub["examples"]:
            out.append((letter, f"  {ex}"))
    return out


def pairs(en: dict[str, Any], de: dict[str, Any]) -> list[tuple[str, str]]:
    """English and German paragraphs paired by subrule letter, in English order."""
    de_by_key: dict[str, list[str]] = {}
    for key, text in paragraphs(de):
        de_by_key.setdefault(key, []).append(text)
    out: list[tuple[str, str]] = []
    for key, text in paragraphs(en):
        german = de_by_key.get(key, [])
        out.append((text, german.pop(0) if german else ""))
    for rest in de_by_key.values():  # German paragraphs English lacks, at the end
        out.extend(("", text) for text in rest)
    return out


def render_both(
    con: Console, en: dict[str, Any], de: dict[str, Any], titles: Mapping[str, str] | None = None
) -> None:
    """Two columns on a wide console, interleaved English/German paragraphs on a narrow one."""
    from rich.table import Table
    from rich.text import Text

    rows = pairs(en, de)
    head_en, head_de = heading(en, titles), heading(de, titles)
    if con.width >= SIDE_BY_SIDE_WIDTH:
        table = Table(show_edge=False, box=None, padding=(0, 2), expand=True)
        table.add_column(Text(head_en, style="bold"), ratio=1)
        table.add_column(Text(head_de, style="bold"), ratio=1)
        for left, right in rows:
            table.add_row(Text(left), Text(right))
        con.print(table)
        return
    con.print(Text(f"EN {head_en}", style="bold"))
    con.print(Text(f"DE {head_de}", style="bold"))
    for left, right in rows:
        if left:
            con.print(Text(f"EN {left}"))
        if right:
            con.print(Text(f"DE {right}", style="italic"))


def heading(rule: dict[str, Any], titles: Mapping[str, str] | None = None) -> str:
    """"702.22 Banding · Bündnisfähigkeit (2026-04-17)"; an undated document by its title."""
    from regelwerk.cli.notes import document_name

    title = titled(rule["title"], rule.get("names"), rule["language"])
    return f"{rule['number']} {title} ({document_name(rule['document'], titles or {}, rule['version'])})"


def gloss_line(glosses: list[dict[str, str]]) -> str:
    """"German terms: deathtouch = Todesberührung, ..." for English text shown to a German reader."""
    body = ", ".join(f"{g['en']} = {g['de']}" for g in glosses)
    return _("German terms: {terms}").format(terms=body)
