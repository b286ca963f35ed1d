"""Comprehensive Rules numbers: parsing, parents, ordering and subrule letters.

Everything that compares or sorts rule numbers goes through here, so that "702.6" can never
match "702.60" and the letter sequence skips "l" and "o" the way the CR does.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.message import N_, msg

#: Subrule letters in CR order: "l" and "o" are skipped because they look like 1 and 0.
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"
#: The sections whose rules each define one keyword, and the kind of keyword: a rule there is
#: one keyword, its first subrule defines it and the later ones are its corners (701.21a,
#: 702.19a). The current numbering's; before July 2009 they were 501/502, which ingest finds by
#: their titles ("Keyword Actions", "Keyword Abilities").
KEYWORD_SECTIONS = {701: "keyword_action", 702: "keyword_ability"}

_NUMBER = re.compile(r"^(?P<section>[1-9]\d{2})(?:\.(?P<rule>\d+)(?P<letter>[a-z])?)?\.?$")
_QUERY = re.compile(
    r"^\s*(?:(?:cr|rule|rules|regel|regeln|r)\s*\.?\s*)?"
    r"(?P<section>[1-9]\d{2})(?:\s*\.\s*(?P<rule>\d+)\s*(?P<letter>[a-z])?)?\s*\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=False)
class RuleNumber:
    """A parsed number: "702" (section), "702.22" (rule) or "702.22j" (subrule)."""

    section: int
    rule: int | None = None
    letter: str | None = None

    @classmethod
    def parse(cls, text: str) -> RuleNumber:
        """Parse a number as documents write it ("702.22.", "702.22j", "119.1d.")."""
        if cls is RuleNumber:
            return _parsed(text)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> RuleNumber:
        m = _NUMBER.match(text.strip())
        if not m:
            raise InvalidRuleNumber(text)
        return cls._from_match(text, m)

    @classmethod
    def from_query(cls, text: str) -> RuleNumber:
        """Parse a number as users type it ("rule 702.22 j", "CR 510.1c", "Regel 702.19")."""
        m = _QUERY.match(text)
        if not m:
            raise InvalidRuleNumber(text)
        return cls._from_match(text, m)

    @classmethod
    def _from_match(cls, text: str, m: re.Match[str]) -> RuleNumber:
        letter = m.group("letter")
        if letter is not None:
            letter = letter.lower()
            if letter not in SUBRULE_LETTERS:
                raise InvalidRuleNumber(text, msg(N_("subrule letters a-z without 'l' and 'o'")))
        rule = m.group("rule")
        return cls(int(m.group("section")), int(rule) if rule is not None else None, letter)

    @property
    def chapter(self) -> int:
        return self.section // 100

    @property
    def kind(self) -> str:
        if self.rule is None:
            return "section"
        return "rule" if self.letter is None else "subrule"

    @property
    def parent(self) -> RuleNumber | None:
        if self.letter is not None:
            return RuleNumber(self.section, self.rule)
        if self.rule is not None:
            return RuleNumber(self.section)
        return None

    def lineage(self) -> tuple[str, ...]:
        """This number and its ancestors, nearest first: "702.22j", "702.22", "702"."""
        out: list[str] = []
        n: RuleNumber | None = self
        while n is not None:
            out.append(str(n))
            n = n.parent
        return tuple(out)

    def sort_key(self) -> tuple[int, int, int]:
        return (
            self.section,
            -1 if self.rule is None else self.rule,
            -1 if self.letter is None else SUBRULE_LETTERS.index(self.letter),
        )

    def contains(self, other: RuleNumber) -> bool:
        """True if `other` is this number or lies below it (702.22 contains 702.22j)."""
        if self.section != other.section:
            return False
        if self.rule is None:
            return True
        if self.rule != other.rule:
            return False
        return self.letter is None or self.letter == other.letter

    def __str__(self) -> str:
        if self.rule is None:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letter or ''}"


@functools.lru_cache(maxsize=1 << 14)
def _parsed(text: str) -> RuleNumber:
    """`RuleNumber.parse`, cached (the record is frozen): ingesting the archive parses the
    same few thousand numbers 700,000 times. A bad number raises each time (not cached)."""
    return RuleNumber._parse(text)


def normalize(text: str) -> str:
    """Canonical string form of a number as documents write it ("702.22." -> "702.22")."""
    return str(RuleNumber.parse(text))


@functools.lru_cache(maxsize=1 << 14)
def lineage(number: str) -> tuple[str, ...]:
    """`number` and its ancestors, nearest first; empty if it is not a rule number. Cached:
    indexing the archive asks for the same few thousand numbers 400,000 times."""
    try:
        return RuleNumber.parse(number).lineage()
    except InvalidRuleNumber:
        return ()


#: `sort_key` of what is no rule number (a glossary entry, an unnumbered seed line): after all.
UNNUMBERED = (1 << 30, 0, 0)


def sort_key(number: str | None) -> tuple[int, int, int]:
    """A number's place in rule order; what no release's form parses (or None) goes last
    (`UNNUMBERED`), so a list of hits or changes sorts without a check of its own."""
    try:
        return RuleNumber.parse(number).sort_key() if number else UNNUMBERED
    except InvalidRuleNumber:
        return UNNUMBERED


def letter_after(letter: str | None) -> str:
    """The next subrule letter ("k" -> "m"); None gives "a"."""
    if letter is None:
        return SUBRULE_LETTERS[0]
    i = SUBRULE_LETTERS.index(letter)
    if i + 1 >= len(SUBRULE_LETTERS):
        raise InvalidRuleNumber(letter, msg(N_("a subrule letter before 'z'")))
    return SUBRULE_LETTERS[i + 1]


def letters(count: int) -> tuple[str, ...]:
    """The first `count` subrule letters, skipping "l" and "o"."""
    if count > len(SUBRULE_LETTERS):
        raise ValueError(f"a rule has at most {len(SUBRULE_LETTERS)} subrules, not {count}")
    return tuple(SUBRULE_LETTERS[:count])


#: Cross-references as the CR writes them: "rule 702.22", "rules 510.1c-d", "see rule 704".
#: A dotted number counts anywhere; a bare three-digit section only after "rule"/"Regel"
#: (so "100 cards" is not a reference). A range "510.1c-d" yields both ends.
_DOTTED = re.compile(r"(?<![\d.])([1-9]\d{2}\.\d+[a-z]?)(?![\d])(?:\s*[-\u2013]\s*([a-z])\b)?")
_BARE = re.compile(r"\b(?:rules?|section|regeln?|abschnitt)\s+([1-9]\d{2})(?!\d)(?!\.\d)", re.IGNORECASE)


_ANY_NUMBER = re.compile(r"[1-9]\d{2}")
_BARE_WORDS = ("rule", "section", "regel", "abschnitt")


#: Texts up to this long have their references cached: a rule reads the same in release after
#: release of the archive, so most texts come back; a pasted megabyte is scanned, not kept.
_CACHED_TEXT = 4096


def find_references(text: str) -> tuple[str, ...]:
    """Rule numbers mentioned in running text, in order, without duplicates."""
    if len(text) <= _CACHED_TEXT:
        return _cached_references(text)
    return _references(text)


@functools.lru_cache(maxsize=1 << 15)
def _cached_references(text: str) -> tuple[str, ...]:
    return _references(text)


def _references(text: str) -> tuple[str, ...]:
    found: list[tuple[int, str]] = []
    if not _ANY_NUMBER.search(text):  # most rule texts cite nothing: skip the slower scans
        return ()
    for m in _DOTTED.finditer(text):
        found.append((m.start(), m.group(1)))
        if m.group(2):
            base = RuleNumber.parse(m.group(1))
            found.append((m.start() + 1, f"{base.section}.{base.rule}{m.group(2)}"))
    lower = text.lower()
    if any(word in lower for word in _BARE_WORDS):
        for m in _BARE.finditer(text):
            found.append((m.start(1), m.group(1)))
    seen: dict[str, None] = {}
    for _, raw in sorted(found):
        try:
            seen.setdefault(normalize(raw), None)
        except InvalidRuleNumber:
            continue
    return tuple(seen)
