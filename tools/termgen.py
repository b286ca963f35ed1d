"""Generate the English side of the German/English term tables from a Comprehensive Rules file.

The English names and rule numbers in ``data/terms/*.tsv`` must never be typed by hand: the CR
is the authority, and a hand-typed "Bands with other" or a stale "702.21" would silently break
linking. So this script reads a CR .txt (parsed by ``regelwerk.ingest``, the one CR parser,
whose records it reads) and (re)writes the English columns, while the German
columns, which *are* hand-reviewed, are carried over row by row (merged by English name).

- ``keywords.tsv``: every keyword action (701.x heading), keyword ability (702.x heading) and
  ability word (the list in 207.2c), in CR order.
- ``core.tsv``: a hand-curated list of core game terms whose English names must exist in the
  CR as a glossary head or a section/rule title; the number is filled from the CR (the title's
  own number, else the first rule the glossary entry cites).

Usage: ``python tools/termgen.py CR_FILE [--terms DIR] [--add-core NAME ...]``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from regelwerk.index.terms.table import (  # re-exported: the generator's public vocabulary
    COLUMNS,
    KINDS,
    SOURCES,
    TermRow,
    TermTableError,
    read_table,
    write_table,
)
from regelwerk.ingest import parse_bytes, parse_path
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.numbers import find_references
from regelwerk.ingest.model.records import ParsedDocument

__all__ = ["COLUMNS", "KINDS", "SOURCES", "TermRow", "TermTableError", "read_table", "write_table"]

TERMS_DIR = Path(__file__).resolve().parents[1] / "data" / "terms"

_ABILITY_WORDS = re.compile(r"The ability words are (?P<list>.+?)\.(?:\s|$)")
_SEE_TERM = re.compile(r"\bSee ([A-Z][^.,“”]*?)\.(?:\s|$)")
_SEE_SECTION = re.compile(r"\bSee section (\d)\b")


class UnknownCoreTerm(InputError):
    """A core-term name that is neither a glossary head nor a section title of the CR."""

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(
            f"not in the CR glossary or section titles: {', '.join(repr(n) for n in names)}; "
            "core.tsv names must be spelled as the CR spells them"
        )
        self.names = tuple(names)


@dataclass(frozen=True)
class CrTerms:
    """What the generator needs from one CR: headings, ability words and the glossary."""

    headings: dict[str, str]  # number -> title, for "NNN." sections and "NNN.N." rule headings
    ability_words: tuple[str, ...]
    ability_word_rule: str  # where the list lives: 207.2c today, 206.2c in 2011
    glossary: dict[str, tuple[str, str]]  # casefolded head or head part -> (head, text)

    def keyword_rows(self) -> list[TermRow]:
        """Keyword actions, keyword abilities, then ability words, each in CR order."""
        rows: list[TermRow] = []
        for section, kind in (("701", "keyword_action"), ("702", "keyword_ability")):
            numbered = [
                (int(num.split(".")[1]), num, title)
                for num, title in self.headings.items()
                if num.startswith(section + ".")
            ]
            rows.extend(TermRow(title, kind, num) for _, num, title in sorted(numbered))
        rows.extend(TermRow(w, "ability_word", self.ability_word_rule) for w in self.ability_words)
        return rows

    def core_number(self, name: str) -> str | None:
        """The number a core term lives at: its own section title, else its glossary citation."""
        key = name.casefold()
        for num, title in self.headings.items():
            if title.casefold() == key:
                return num
        return self._glossary_number(key, depth=3)

    def _glossary_number(self, key: str, depth: int) -> str | None:
        """The first rule a glossary entry cites, following "See Landwalk." cross-references
        and falling back to a cited chapter ("See section 4") as its bare digit."""
        entry = self.glossary.get(key)
        if entry is None:
            return None
        text = entry[1]
        refs = find_references(text)
        if refs:
            return refs[0]
        see = _SEE_TERM.search(text)
        if see and depth > 0:
            found = self._glossary_number(see.group(1).casefold(), depth - 1)
            if found:
                return found
        chapter = _SEE_SECTION.search(text)
        return chapter.group(1) if chapter else ""


def _is_heading_title(title: str) -> bool:
    """Rule headings are short names ("Banding", "For Mirrodin!"); rules are sentences."""
    return len(title) <= 60 and not title.endswith((".", ":")) and "  " not in title


def cr_terms(parsed: ParsedDocument) -> CrTerms:
    """Headings, the 207.2c ability-word list and glossary entries of a parsed CR: the CR is
    parsed once, by ``regelwerk.ingest``; this only reads its records."""
    headings: dict[str, str] = {}
    ability_words: tuple[str, ...] = ()
    ability_word_rule = ""
    for s in parsed.sections:
        if s.kind == "subrule" and not ability_words:
            found = _ABILITY_WORDS.search(s.text)
            if found and s.number:
                ability_words = _split_list(found.group("list"))
                ability_word_rule = s.number
        elif s.kind in ("section", "rule") and s.number and s.title and _is_heading_title(s.title):
            headings.setdefault(s.number, s.title)
    glossary: dict[str, tuple[str, str]] = {}
    for g in parsed.glossary:
        heads = (g.term, f"{g.term} (Obsolete)") if g.obsolete else (g.term,)
        for key in (*heads, *g.terms):
            glossary.setdefault(key.strip().casefold(), (g.term, g.text))
    return CrTerms(headings, ability_words, ability_word_rule, glossary)


def parse_cr(text: str) -> CrTerms:
    """`cr_terms` of a CR given as text (parsed as a CR .txt whatever its header says)."""
    return cr_terms(parse_bytes(text.encode("utf-8"), "<text>", "cr-text"))


def _split_list(text: str) -> tuple[str, ...]:
    """"a, b, and c" -> ("A", "B", "C"): capitalised like the keyword headings."""
    items = [p.strip() for p in text.split(",")]
    words = [re.sub(r"^and\s+", "", p) for p in items if p]
    return tuple(w[:1].upper() + w[1:] for w in words if w)


def read_cr(path: str | Path) -> CrTerms:
    return cr_terms(parse_path(path, "cr-text"))


def merge_keywords(
    generated: Sequence[TermRow], existing: Sequence[TermRow], prune: bool = False
) -> tuple[list[TermRow], list[TermRow]]:
    """Generated English rows with the reviewed German cells of ``existing`` carried over.

    Returns (rows, orphans): orphans are existing rows the CR no longer has. They are kept
    (number blanked) unless ``prune``, so reviewed German is never lost by a CR update silently.
    """
    by_en = {r.en.casefold(): r for r in existing}
    rows: list[TermRow] = []
    for gen in generated:
        old = by_en.pop(gen.en.casefold(), None)
        rows.append(gen if old is None else replace(old, en=gen.en, kind=gen.kind, number=gen.number))
    orphans = list(by_en.values())
    if not prune:
        rows.extend(replace(r, number="") for r in orphans)
    return rows, orphans


def fill_core(cr: CrTerms, existing: Sequence[TermRow], add: Sequence[str] = ()) -> list[TermRow]:
    """Core rows with numbers from the CR; raises UnknownCoreTerm for names the CR lacks."""
    rows = list(existing)
    known = {r.en.casefold() for r in rows}
    rows.extend(TermRow(name, "core") for name in add if name.casefold() not in known)
    missing: list[str] = []
    out: list[TermRow] = []
    for row in rows:
        number = cr.core_number(row.en)
        if number is None:
            missing.append(row.en)
            continue
        out.append(replace(row, kind="core", number=number))
    if missing:
        raise UnknownCoreTerm(missing)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("cr_file", help="a Comprehensive Rules .txt file")
    parser.add_argument("--terms", default=str(TERMS_DIR), help="folder holding the .tsv tables")
    parser.add_argument("--add-core", action="append", default=[], metavar="NAME",
                        help="add a core term (must be a CR glossary head or section title)")
    parser.add_argument("--prune", action="store_true",
                        help="drop keyword rows the CR no longer has instead of keeping them")
    args = parser.parse_args(argv)
    cr = read_cr(args.cr_file)
    terms = Path(args.terms)
    kw_path, core_path = terms / "keywords.tsv", terms / "core.tsv"
    rows, orphans = merge_keywords(cr.keyword_rows(), read_table(kw_path), prune=args.prune)
    for orphan in orphans:
        action = "dropped" if args.prune else "kept without a number"
        print(f"warning: {orphan.en!r} ({orphan.kind}) is not in {args.cr_file}; {action}",
              file=sys.stderr)
    try:
        core = fill_core(cr, read_table(core_path), args.add_core)
    except UnknownCoreTerm as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    write_table(kw_path, rows)
    write_table(core_path, core)
    print(f"{kw_path}: {len(rows)} rows; {core_path}: {len(core)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
