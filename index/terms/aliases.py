"""Words people say for a term (``data/terms/aliases.tsv``), and every sense of a word.

The term tables name each term once per language and era; people also say "Spielfeld"
(players), "Zählmarke" (a fan translation) or "Startphase" (6th Edition), and some words name
two terms ("counter": to cancel a spell, 701.6, and the marker, 122). An alias row ties such a
word to one term row and says what kind of word it is (`STATUSES`), so a lookup can show
"Spielfeld: players' word for Battlefield" instead of guessing.

`senses` is the fast, table-only lookup (no linking, no rapidfuzz) that ``rule Trampelschaden``
uses; ``term`` and search add the aliases to their own vocabularies.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from regelwerk.index.terms.shipped import load_terms
from regelwerk.index.terms.table import TermRow, TermTableError
from regelwerk.ingest.model.fold import compact

FILE = "aliases.tsv"
COLUMNS = ("word", "lang", "en", "kind", "status", "note")
#: What an alias is. "sense": one more meaning of an ambiguous word.
STATUSES = ("sense", "player", "fan", "old_official", "literal")
LANGS = ("de", "en")


@dataclass(frozen=True)
class Alias:
    """One row of ``aliases.tsv``: `word` (in `lang`) reaches the term row (`en`, `kind`)."""

    word: str
    lang: str
    en: str
    kind: str
    status: str
    note: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"word": self.word, "lang": self.lang, "en": self.en, "kind": self.kind,
                "status": self.status, "note": self.note}


@dataclass(frozen=True)
class Sense:
    """A term row a word names, and how: "name" (the row's own name) or an alias's status."""

    row: TermRow
    word: str
    how: str
    alias: Alias | None = None


def parse_aliases(text: str, where: str = FILE) -> tuple[Alias, ...]:
    """Rows of an aliases file (``#`` comments, one header line, tab-separated)."""
    rows: list[Alias] = []
    header_seen = False
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if not header_seen:
            if tuple(cells) != COLUMNS:
                expected = "\t".join(COLUMNS)
                raise TermTableError(f"{where}:{lineno}: header is {line!r}; expected {expected!r}")
            header_seen = True
            continue
        if len(cells) != len(COLUMNS):
            raise TermTableError(
                f"{where}:{lineno}: {len(cells)} columns in {line!r}; expected {len(COLUMNS)}"
            )
        alias = Alias(*(c.strip() for c in cells))
        if alias.status not in STATUSES:
            raise TermTableError(f"{where}:{lineno}: status {alias.status!r}; expected one of {STATUSES}")
        if alias.lang not in LANGS:
            raise TermTableError(f"{where}:{lineno}: lang {alias.lang!r}; expected one of {LANGS}")
        rows.append(alias)
    return tuple(rows)


def _entry() -> Traversable:
    return resources.files("regelwerk.data") / "terms" / FILE


@functools.cache
def stamp() -> str:
    """A short hash of the shipped aliases, for cache keys (what holds their words is rebuilt
    when a reviewer edits one)."""
    entry = _entry()
    return hashlib.sha256(entry.read_bytes() if entry.is_file() else b"").hexdigest()[:12]


@functools.cache
def load_aliases() -> tuple[Alias, ...]:
    """The shipped aliases (none if the file is missing)."""
    entry = _entry()
    if not entry.is_file():
        return ()
    return parse_aliases(entry.read_text(encoding="utf-8"))


def target(alias: Alias, rows: tuple[TermRow, ...] | None = None) -> TermRow | None:
    """The term row an alias reaches (None if the tables have no such row)."""
    for row in rows if rows is not None else load_terms():
        if row.en == alias.en and row.kind == alias.kind:
            return row
    return None


@functools.cache
def _senses_by_key() -> dict[str, tuple[Sense, ...]]:
    table: dict[str, list[Sense]] = {}
    rows = load_terms()
    for row in rows:
        for name in dict.fromkeys((row.en, *row.german_names)):
            table.setdefault(compact(name), []).append(Sense(row, name, "name"))
    for alias in load_aliases():
        reached = target(alias, rows)
        if reached is not None:
            table.setdefault(compact(alias.word), []).append(Sense(reached, alias.word, alias.status, alias))
    out: dict[str, tuple[Sense, ...]] = {}
    for key, senses in table.items():
        unique: dict[tuple[str, str], Sense] = {}
        for s in senses:  # a row named twice by one word counts once, its own name first
            unique.setdefault((s.row.en, s.row.kind), s)
        out[key] = tuple(unique.values())
    return out


def senses(word: str) -> tuple[Sense, ...]:
    """Every term row `word` names (folded exact match on names and aliases), names first."""
    return _senses_by_key().get(compact(word), ())
