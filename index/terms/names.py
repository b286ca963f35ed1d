"""A rule title's name in the other language, from the term tables.

Headings and hits show both names ("702.15 Lifelink · Lebensverknüpfung", "702.19
Bündnisfähigkeit · Banding"). A title is matched against the tables by its folded form: an
English title against the English names, a German one against every German form of a row.
Keyword rows come first, so "Counter" (701.6) is the keyword action, not the counters of 122.
Table-only and cached, so ``rule`` stays fast.
"""

from __future__ import annotations

import functools
import re

from regelwerk.index.terms.shipped import load_terms
from regelwerk.index.terms.table import TermRow
from regelwerk.ingest.model.fold import compact


@functools.cache
def _by_name() -> tuple[dict[str, TermRow], dict[str, TermRow]]:
    en: dict[str, TermRow] = {}
    de: dict[str, TermRow] = {}
    for row in load_terms():
        en.setdefault(compact(row.en), row)
        for name in row.german_names:
            de.setdefault(compact(name), row)
    return en, de


def term_row(title: str, language: str) -> TermRow | None:
    """The term row whose name (in `language`) is `title`, if any."""
    en, de = _by_name()
    key = compact(title)
    if not key:
        return None
    return (de if language == "de" else en).get(key)


def german_name(title: str) -> str | None:
    """The current German name of the English term `title` ("Lifelink" -> "Lebensverknüpfung")."""
    row = term_row(title, "en")
    return row.de if row is not None and row.de else None


@functools.cache
def plurals() -> tuple[dict[str, str], dict[str, str]]:
    """CR section titles that are a term's plural ("Lands") and their German plural
    ("Länder"), from ``data/terms/plurals.tsv``: (English -> German, German -> English), keyed
    by folded name."""
    import csv
    from importlib import resources

    entry = resources.files("regelwerk.data") / "terms" / "plurals.tsv"
    text = entry.read_text(encoding="utf-8") if entry.is_file() else ""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    en: dict[str, str] = {}
    de: dict[str, str] = {}
    for row in csv.DictReader(lines, delimiter="\t"):
        en[compact(row["en"])] = row["de"]
        de[compact(row["de"])] = row["en"]
    return en, de


def other_name(title: str, language: str) -> str | None:
    """`title`'s name in the other language, or None when the tables do not name it (or it is
    the same word, like "Mana"). A section title in the plural gets the German plural
    ("Lands" -> "Länder")."""
    plural = plurals()[0 if language == "en" else 1].get(compact(title))
    if plural is not None:
        return plural if compact(plural) != compact(title) else None
    row = term_row(title, language)
    if row is None:
        return None
    other = row.en if language == "de" else row.de
    return other if other and compact(other) != compact(title) else None


def both_names(title: str, language: str) -> dict[str, str | None]:
    """``{"en": ..., "de": ...}`` for a title in `language` (the missing side None)."""
    other = other_name(title, language)
    if language == "de":
        return {"en": other, "de": title or None}
    return {"en": title or None, "de": other}


@functools.cache
def _gloss_pattern() -> tuple[re.Pattern[str], dict[str, TermRow]]:
    """One regex over every English term name with a German name, longest first, so
    "combat damage" wins over "damage"; an optional plural s/es."""
    rows: dict[str, TermRow] = {}
    for row in load_terms():
        if row.de and row.en.isascii() and len(row.en) > 2:
            rows.setdefault(row.en.casefold(), row)
    names = sorted(rows, key=len, reverse=True)
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"\b({alternatives})(?:e?s)?\b", re.IGNORECASE), rows


def glossed(text: str) -> list[tuple[str, str]]:
    """The known terms in an English text with their German names, in order of first use
    (``[("deathtouch", "Todesberührung"), ("creature", "Kreatur"), ...]``)."""
    pattern, rows = _gloss_pattern()
    out: dict[str, str] = {}
    for m in pattern.finditer(text):
        row = rows[m.group(1).casefold()]
        if compact(row.de) != compact(row.en):  # "Zone" needs no gloss
            out.setdefault(row.en, row.de)
    return list(out.items())
