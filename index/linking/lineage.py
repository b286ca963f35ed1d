"""Rule lineage: each numbered rule of a CR release tied to its successor in the next release.

Pure functions over records (no I/O): ``link_pair(older, newer)`` compares two adjacent
English releases and returns one `Step` per rule of either: same number and text ("same"),
same number and changed text ("text"), another number ("renumbered", found by exact text
and then by rapidfuzz similarity), one rule becoming several ("split") or several one
("merged"), and rules only in the older ("removed") or only in the newer ("new") release.
Chaining the steps of every adjacent pair answers "where does 722 of 2026-01-16 live today"
(723) and follows banding from the 2003 numbering (502.10) through 702.19, 702.20 and 702.21
to 702.22, although 702.22 itself meant Flanking in 2009-2011: a number alone never links
two releases when the texts say otherwise.

Rules are identified by their position in their document (a release may print a number
twice: 702.30d in 2009-09-04). Sections ("702."), rules and subrules take part; chapters and
front matter do not.

The matching, in order; each pass sees only what earlier passes left:

1. same number, same comparable text (rule numbers inside the text removed, so a rule whose
   cross-references were renumbered still counts as the same rule; the step says "text" if
   the raw text differs by more than quotes, ``wording.same``);
2. the same comparable text under another number (unique on both sides, or disambiguated by
   the parent: subrules follow their rule);
3. same number and similar text (rapidfuzz ratio >= `SAME_NUMBER_SIMILARITY`, or one text
   containing the other: a rule that split off or took in a subrule keeps its number);
4. another number and similar text (>= `MOVED_SIMILARITY`), greedily best first, preferring
   the successor of the parent;
5. a leftover newer rule whose text is contained in a matched older rule's text is split from
   it; a leftover older rule contained in a newer rule was merged into it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from regelwerk.index.linking import wording
from regelwerk.ingest.model.records import ParsedDocument, Record, Section

#: The kinds of section that have a lineage.
NUMBERED = frozenset({"section", "rule", "subrule"})
#: Changes a step can record, in the --json contract's words.
CHANGES = ("same", "text", "renumbered", "split", "merged", "new", "removed")
SAME_NUMBER_SIMILARITY = 60.0
MOVED_SIMILARITY = 82.0
CONTAINED = 92.0
_NUMBERS = re.compile(r"(?<!\d)[1-9]\d\d(?:\.\d+[a-z]?)?\.?")


@dataclass(frozen=True)
class Step(Record):
    """One rule's link from release `old` to release `new` (either side None for new/removed)."""

    change: str
    old_position: int | None
    old_number: str | None
    new_position: int | None
    new_number: str | None
    similarity: float = 100.0


@dataclass(frozen=True)
class _Item:
    position: int
    number: str
    parent: str | None
    kind: str
    raw: str  # title and text, as printed
    key: str  # comparable: lowercased, numbers removed, whitespace folded


@functools.lru_cache(maxsize=1 << 15)
def comparable(text: str) -> str:
    """Text as lineage compares it: numbers removed, whitespace folded, lowercased, quotes
    folded (``wording.key``). Cached: a rule reads the same in release after release, and a
    chain meets each release twice."""
    return " ".join(_NUMBERS.sub(" ", wording.key(text)).split()).lower()


def rule_text(s: Section) -> str:
    """What a rule says: its title (a heading's whole text), its text and its examples."""
    return wording.rule_text(s.title, s.text, s.examples)


def _items(parsed: ParsedDocument) -> tuple[_Item, ...]:
    """The numbered rules of `parsed` with their comparable text. The last two documents' are
    kept: a chain of pairs meets each release twice, as the newer and then the older one."""
    for seen, items in _RECENT:
        if seen is parsed:
            return items
    out = []
    for s in parsed.sections:
        if s.kind in NUMBERED and s.number:
            raw = rule_text(s)
            out.append(_Item(s.position, s.number, s.parent, s.kind, raw, comparable(raw)))
    _RECENT.insert(0, (parsed, tuple(out)))
    del _RECENT[2:]
    return _RECENT[0][1]


_RECENT: list[tuple[ParsedDocument, tuple[_Item, ...]]] = []


class _Matcher:
    def __init__(self, old: Sequence[_Item], new: Sequence[_Item]) -> None:
        self.old = old
        self.new = new
        self.forward: dict[int, tuple[_Item, str, float]] = {}  # old position -> (new, change, score)
        self.taken: set[int] = set()  # new positions already matched
        self.successor_number: dict[str, str] = {}  # old number -> new number (first match)

    def free_old(self) -> list[_Item]:
        return [o for o in self.old if o.position not in self.forward]

    def free_new(self) -> list[_Item]:
        return [n for n in self.new if n.position not in self.taken]

    def match(self, o: _Item, n: _Item, score: float = 100.0) -> None:
        change = ("same" if wording.same(o.raw, n.raw) else "text") if o.number == n.number else "renumbered"
        self.forward[o.position] = (n, change, score)
        self.taken.add(n.position)
        self.successor_number.setdefault(o.number, n.number)

    def parent_follows(self, o: _Item, n: _Item) -> bool:
        return o.parent is not None and self.successor_number.get(o.parent) == n.parent

    def run(self) -> list[Step]:
        self._same_number(exact=True)
        self._same_text()
        self._same_number(exact=False)
        self._similar()
        return self._steps()

    def _same_number(self, *, exact: bool) -> None:
        from rapidfuzz import fuzz

        by_number: dict[str, list[_Item]] = {}
        for n in self.free_new():
            by_number.setdefault(n.number, []).append(n)
        for o in self.free_old():
            for n in by_number.get(o.number, ()):
                if n.position in self.taken or n.kind != o.kind:
                    continue
                if exact and n.key == o.key:
                    self.match(o, n)
                    break
                if not exact:
                    score = fuzz.ratio(o.key, n.key)
                    shorter = min(len(o.key), len(n.key))
                    # a rule that grew or shrank (split off a subrule, took one in) keeps its number
                    if score < SAME_NUMBER_SIMILARITY and shorter >= 20:
                        score = max(score, fuzz.partial_ratio(o.key, n.key) if shorter >= 20 else 0.0)
                        score = score if score >= CONTAINED else 0.0
                    if score >= SAME_NUMBER_SIMILARITY:
                        self.match(o, n, score)
                        break

    def _same_text(self) -> None:
        by_key: dict[str, list[_Item]] = {}
        for n in self.free_new():
            by_key.setdefault(n.key, []).append(n)
        olds: dict[str, list[_Item]] = {}
        for o in self.free_old():
            olds.setdefault(o.key, []).append(o)
        for o in self.free_old():  # document order: parents are matched before their subrules
            candidates = [
                n for n in by_key.get(o.key, ()) if n.position not in self.taken and n.kind == o.kind
            ]
            if not candidates or not o.key:
                continue
            if len(candidates) == 1 and len(olds[o.key]) == 1:
                self.match(o, candidates[0])
                continue
            following = [n for n in candidates if self.parent_follows(o, n)]
            if len(following) == 1:
                self.match(o, following[0])

    def _similar(self) -> None:
        from rapidfuzz import fuzz, process

        old, new = self.free_old(), self.free_new()
        if not old or not new:
            return
        choices = [n.key for n in new]
        pairs = []
        for i, o in enumerate(old):
            found = process.extract(
                o.key, choices, scorer=fuzz.ratio, score_cutoff=MOVED_SIMILARITY - 10, limit=8
            )
            for _, score, j in found:
                if o.kind == new[j].kind:
                    pairs.append((float(score), i, j))
        # best first; a subrule whose rule moved to the candidate's parent gets a bonus
        ranked = sorted(
            ((s + (10.0 if self.parent_follows(old[i], new[j]) else 0.0), s, i, j) for s, i, j in pairs),
            reverse=True,
        )
        for total, score, i, j in ranked:
            o, n = old[i], new[j]
            if total < MOVED_SIMILARITY or o.position in self.forward or n.position in self.taken:
                continue
            self.match(o, n, score)

    def _steps(self) -> list[Step]:
        from rapidfuzz import fuzz

        steps: list[Step] = []
        for o in self.old:
            hit = self.forward.get(o.position)
            if hit is not None:
                n, change, score = hit
                steps.append(Step(change, o.position, o.number, n.position, n.number, round(score, 1)))
        # split: a leftover newer rule whose text an older rule (now the leftover's parent or
        # sibling) contained; merged: a leftover older rule whose text a newer one contains
        olds_by_successor: dict[str, list[_Item]] = {}
        for o in self.old:
            if o.position in self.forward:
                successor = self.forward[o.position][0]
                olds_by_successor.setdefault(successor.parent or "", []).append(o)
                olds_by_successor.setdefault(successor.number, []).append(o)
        for n in self.free_new():
            near = olds_by_successor.get(n.parent or "", []) + olds_by_successor.get(n.number, [])
            best = _best_container(n, near, fuzz.partial_ratio)
            if best is not None:
                o, score = best
                steps.append(Step("split", o.position, o.number, n.position, n.number, round(score, 1)))
                self.taken.add(n.position)
        news_by_parent: dict[str, list[_Item]] = {}
        for n in self.new:
            if n.position in self.taken:
                news_by_parent.setdefault(n.parent or "", []).append(n)
                news_by_parent.setdefault(n.number, []).append(n)
        for o in self.free_old():
            parent = self.successor_number.get(o.parent or "", "")
            best = _best_container(o, news_by_parent.get(parent, []), fuzz.partial_ratio)
            if best is not None:
                n, score = best
                steps.append(Step("merged", o.position, o.number, n.position, n.number, round(score, 1)))
                self.forward[o.position] = (n, "merged", score)
        for o in self.free_old():
            steps.append(Step("removed", o.position, o.number, None, None, 0.0))
        for n in self.free_new():
            steps.append(Step("new", None, None, n.position, n.number, 0.0))
        return steps


def _best_container(part: _Item, wholes: Sequence[_Item], scorer: object) -> tuple[_Item, float] | None:
    """The longer rule among `wholes` whose text contains `part`'s (rapidfuzz partial ratio)."""
    if len(part.key) < 40:
        return None
    best: tuple[_Item, float] | None = None
    for whole in wholes:
        if len(whole.key) <= len(part.key) or whole.kind == "section":
            continue
        score = float(scorer(part.key, whole.key, score_cutoff=CONTAINED))  # type: ignore[operator]
        if score and (best is None or score > best[1]):
            best = (whole, score)
    return best


def link_pair(older: ParsedDocument, newer: ParsedDocument) -> tuple[Step, ...]:
    """Every numbered rule of `older` and `newer` in one step (see the module docstring)."""
    return tuple(_Matcher(_items(older), _items(newer)).run())


def summarize(steps: Iterable[Step]) -> dict[str, int]:
    """How many steps of each change: the lineage counts a report or a test quotes."""
    counts = dict.fromkeys(CHANGES, 0)
    for s in steps:
        counts[s.change] += 1
    return counts


__all__ = ["CHANGES", "NUMBERED", "Step", "comparable", "link_pair", "rule_text", "summarize"]
