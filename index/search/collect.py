"""A long question's best whoosh hits, collected as whoosh collects them, without its matchers.

A question becomes an Or of dozens of term clauses, which whoosh evaluates with its array
union (`query._union`): each posting of each clause is scored through a chain of matcher
objects, and each matching document then passes a Require, an intersection and the collector,
a dozen Python calls per posting and as many per document: two thirds of a question's time.
This module computes the same hits from the posting blocks:

- `TermCache`: a term's live postings in one segment and the score whoosh's BM25F scorer gives
  each (the scorer's own formula, operation for operation, so the very same floats), kept per
  segment, term and parameters while the engine's index is open;
- `top_hits`: the scores summed per document in clause order, part by part, as whoosh's
  ``ArrayUnionMatcher`` sums them, and the best `limit` kept as ``TopCollector`` keeps them
  (ties to the lower document number). Under ``Require(q, scope:default)`` it also stops
  where whoosh stops: its ``RequireMatcher`` ends the search once the union's ``max_quality``,
  which for an array union is the best *single* clause's, falls below the collector's
  minimum score (as read at the previous of its checks, every ten documents or when the
  minimum moved). The question ranking was tuned on
  those hits, so they are kept exactly (``query.SearchEngine._run``).

A short query's Or is a tree of whoosh's ``UnionMatcher`` instead (`query._union`), which
whoosh walks document by document through a dozen matcher calls each: most of a keyword
lookup's time. `tree_hits` gives its hits from the same cached postings: each segment's
clauses joined in the tree whoosh builds (``make_weighted_tree`` over each clause's document
frequency), a document's score summed node by node as ``UnionMatcher.score`` sums it (so the
very same floats), and every match offered, as whoosh's collector under ``optimize=False``
offers it (the matcher replacements it makes meanwhile only drop documents whose best score
cannot beat the heap's minimum).

Whatever this module does not model (another weighting, a clause that is not a plain term,
a scope segment holding other units) returns None, and the caller asks whoosh.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from typing import Any

from whoosh import query as wq
from whoosh.matching import FilterMatcher, ListMatcher, NullMatcherClass, UnionMatcher, WrappingMatcher
from whoosh.scoring import BM25FScorer
from whoosh.util import make_weighted_tree

#: whoosh's ``ArrayUnionMatcher`` reads its clauses' postings this many documents at a time.
PART = 2048
#: ... and its collector checks whether to stop every this many documents.
REPLACE = 10
#: `TermCache` forgets everything past this many cached postings (16 bytes each).
CACHE_POSTINGS = 1_000_000

#: One term's postings in one segment: live document numbers, their scores, max quality, and
#: the class of the matcher whoosh reads them with (it shapes a tree of unions: `_tree_scores`).
Postings = tuple["array[int]", "array[float]", float, type]


class Unmodelled(Exception):
    """The search takes a path this module does not reproduce; whoosh runs it instead."""


class TermCache:
    """Scored postings per (segment, field, term, B, K1); the index under it never changes."""

    def __init__(self) -> None:
        self._terms: dict[tuple[Any, ...], Postings | None] = {}
        self._lengths: dict[tuple[Any, ...], dict[int, float]] = {}
        self._size = 0

    def postings(self, leaf: Any, fieldname: str, text: str, weighting: Any) -> Postings | None:
        """`text`'s postings in the segment `leaf` searches (None: none there), as Term.matcher
        would read them with `weighting`."""
        key = (id(leaf.reader()), fieldname, text, weighting.B, weighting.K1)
        if key in self._terms:
            return self._terms[key]
        found = self._read(leaf, fieldname, text, weighting)
        if self._size > CACHE_POSTINGS:
            self._terms.clear()
            self._size = 0
        self._terms[key] = found
        self._size += len(found[0]) if found else 0
        return found

    def _read(self, leaf: Any, fieldname: str, text: str, weighting: Any) -> Postings | None:
        if fieldname not in leaf.schema:
            return None
        try:
            tbytes = leaf.schema[fieldname].to_bytes(text)
        except ValueError:
            return None
        if (fieldname, tbytes) not in leaf.reader():
            return None
        m = leaf.postings(fieldname, tbytes, weighting=weighting)
        quality, kind = float(m.max_quality()), type(m)
        deleted: Any = ()
        if type(m) is FilterMatcher and m._exclude:
            deleted, m = m._ids, m.child
        scorer: Any = m._scorer if type(m) is ListMatcher else getattr(m, "scorer", None)
        if type(scorer) is not BM25FScorer:
            raise Unmodelled(f"scorer {type(scorer).__name__}")
        ids, scores = array("l"), array("d")
        idf, avgfl, b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
        norm = self._norms(leaf, fieldname, scorer)
        for docnum, weight in _raw(m):
            if docnum in deleted:
                continue
            den = norm.get(docnum)
            if den is None:
                fl = scorer.dfl(docnum)
                den = norm[docnum] = k1 * ((1 - b) + b * fl / avgfl)
            ids.append(docnum)
            # whoosh.scoring.bm25, with K1 * ((1 - B) + B * fl / avgfl) kept per document
            scores.append(idf * ((weight * (k1 + 1)) / (weight + den)))
        return ids, scores, quality, kind

    def _norms(self, leaf: Any, fieldname: str, scorer: Any) -> dict[int, float]:
        key = (id(leaf.reader()), fieldname, scorer.B, scorer.K1, scorer.avgfl)
        return self._lengths.setdefault(key, {})


def _raw(m: Any) -> Iterable[tuple[int, float]]:
    """(document number, weight) of every posting of a leaf matcher, read block by block."""
    if type(m) is ListMatcher:
        for i, docnum in enumerate(m._ids):
            m._i = i
            yield docnum, m.weight()
        return
    while m.is_active():
        if m._ids is None:
            m._read_ids()
        if m._weights is None:
            m._read_weights()
        yield from zip(m._ids[m._i : m._blocklength], m._weights[m._i : m._blocklength], strict=True)
        m._next_block()


def clauses(q: Any, matcher: str = wq.Or.ARRAY_MATCHER) -> list[tuple[str, str, float]] | None:
    """(field, text, boost) of an Or of plain terms evaluated by whoosh's array union (or by the
    `matcher` given: ``Or.DEFAULT_MATCHER`` for its tree of unions), else None."""
    if type(q) is not wq.Or or q.matcher_type != matcher or q.boost != 1.0 or q.scale or q.minmatch:
        return None
    if len(q.subqueries) < 2 or any(type(t) is not wq.Term or t.minquality for t in q.subqueries):
        return None
    return [(t.fieldname, t.text, float(t.boost)) for t in q.subqueries]


class _Union:
    """whoosh's ``ArrayUnionMatcher`` over one segment's clauses, part by part."""

    def __init__(self, found: list[tuple[Postings, float]], doccount: int) -> None:
        self.found = found
        self.doccount = doccount
        self.at = [0] * len(found)
        self.docs: list[int] = []
        self.scores: dict[int, float] = {}

    def first(self) -> int:
        """The lowest unread posting (``_min_id``): where the next part starts."""
        low = self.doccount
        for ((ids, *_), _), i in zip(self.found, self.at, strict=True):
            if i < len(ids) and ids[i] < low:
                low = ids[i]
        return low

    def read(self, start: int) -> None:
        """The next part: every posting below ``start + PART``, summed in clause order."""
        end = min(start + PART, self.doccount)
        sums: dict[int, float] = {}
        get = sums.get
        for j, ((ids, scores, *_), boost) in enumerate(self.found):
            i = self.at[j]
            stop = bisect_left(ids, end, i)
            if i == stop:
                continue
            if i or stop < len(ids):
                ids, scores = ids[i:stop], scores[i:stop]
            if boost == 1.0:
                for d, value in zip(ids, scores, strict=True):
                    sums[d] = get(d, 0.0) + value
            else:
                for d, value in zip(ids, scores, strict=True):
                    sums[d] = get(d, 0.0) + value * boost
            self.at[j] = stop
        self.scores = sums
        # the union skips a document scoring 0 (a part seldom has one: then none is looked for)
        positive = not sums or min(sums.values()) > 0
        self.docs = sorted(sums) if positive else sorted(d for d, s in sums.items() if s > 0)

    def ceiling(self) -> float:
        """The union's ``max_quality``: the best clause's, read or not (not their sum)."""
        return max((q * boost if boost != 1.0 else q for (_, _, q, _), boost in self.found), default=0.0)


class _Top:
    """whoosh's ``TopCollector`` (with ``FilterCollector``'s `allow`): the heap and its minimum
    (offered to in `_collect`'s loop, a call per document saved)."""

    def __init__(self, limit: int, allow: Any) -> None:
        self.limit = limit
        self.allow = allow if allow else None  # whoosh reads an empty filter as none
        self.items: list[tuple[float, int]] = []
        self.minscore = 0.0

    def results(self) -> list[tuple[float, int]]:
        return [(score, 0 - neg) for score, neg in sorted(self.items, reverse=True)]


def _collect(union: _Union, offset: int, top: _Top, required: bool) -> None:
    """One segment's matches in document order, as ``Collector.matches`` walks them; with
    `required`, stopping where ``RequireMatcher.replace`` turns inactive. Each match is
    offered to `top` as ``TopCollector`` takes it: past the filter, pushed while the heap is
    short, then replacing its least item when it scores more (the minimum moves only then)."""
    items, limit, allow = top.items, top.limit, top.allow
    minscore = top.minscore
    seen = minscore  # the collector's `minscore`, one check behind the heap's
    countdown = 0
    ceiling = union.ceiling()
    start = union.first()
    union.read(start)
    try:
        while start < union.doccount:
            scores = union.scores
            for docnum in union.docs:
                if countdown == 0 or minscore != seen:
                    if required and seen and ceiling < seen:
                        return
                    countdown = REPLACE
                    seen = minscore
                countdown -= 1
                found = offset + docnum
                if allow is not None and found not in allow:
                    continue
                if len(items) < limit:
                    heapq.heappush(items, (scores[docnum], 0 - found))
                elif scores[docnum] > items[0][0]:
                    heapq.heapreplace(items, (scores[docnum], 0 - found))
                    minscore = items[0][0]
            start = union.first()
            union.read(start)
    finally:
        top.minscore = minscore


def top_hits(
    searcher: Any, terms: list[tuple[str, str, float]], limit: int, allow: Any, required: bool,
    cache: TermCache,
) -> list[tuple[float, int]]:
    """``searcher.search(Or(terms), limit, filter=allow, optimize=False)``'s (score, docnum)
    pairs, best first; with `required`, of ``Require(Or(terms), scope:default)`` over
    segments whose every document has ``scope:default``. Raises `Unmodelled`."""
    weighting = searcher.weighting
    if type(weighting).__name__ != "BM25F" or weighting.use_final:
        raise Unmodelled("weighting")
    top = _Top(limit, allow)
    for leaf, offset in searcher.leaf_searchers():
        found = []
        for fieldname, text, boost in terms:
            postings = cache.postings(leaf, fieldname, text, weighting)
            found.append((postings or (array("l"), array("d"), 0.0, NullMatcherClass), boost))
        _collect(_Union(found, leaf.doc_count_all()), offset, top, required)
    return top.results()


def _size(leaf: Any, fieldname: str, text: str) -> int:
    """A clause's weight in whoosh's tree (``Term.estimate_size``): its document frequency."""
    if fieldname not in leaf.schema:
        return 0
    try:
        tbytes = leaf.schema[fieldname].to_bytes(text)
    except ValueError:
        return 0
    return int(leaf.reader().doc_frequency(fieldname, tbytes))


class _Node:
    """A clause's (or a union's) matcher class and scores, ordered as whoosh's matchers order
    themselves when their weights tie in ``make_weighted_tree``: equal if of one class, and
    one before another only if the other's class is a subclass of its own (Python asks the
    subclass's reflected ``__gt__`` first, and whoosh's says yes: a boosted ``WrappingMatcher``
    goes before a ``FilterMatcher`` over a segment with deletions; any other tie keeps its place)."""

    __slots__ = ("kind", "scores")

    def __init__(self, kind: type, scores: dict[int, float]) -> None:
        self.kind = kind
        self.scores = scores

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Node) and self.kind is other.kind

    def __lt__(self, other: _Node) -> bool:
        return self.kind is not other.kind and issubclass(other.kind, self.kind)

    __hash__ = None  # type: ignore[assignment]


def _union(a: _Node, b: _Node) -> _Node:
    """``UnionMatcher(a, b)``'s scores: the sum where both match, else the one that does."""
    big, small = (a.scores, b.scores) if len(a.scores) >= len(b.scores) else (b.scores, a.scores)
    joined = dict(big)
    get = joined.get
    for d, score in small.items():
        other = get(d)
        joined[d] = score if other is None else other + score
    return _Node(UnionMatcher, joined)


def _tree_scores(
    leaf: Any, terms: list[tuple[str, str, float]], weighting: Any, cache: TermCache
) -> dict[int, float]:
    """Every matching document's score in one segment, summed as whoosh's union tree sums it:
    the tree ``make_weighted_tree`` builds from each clause's document frequency and matcher
    (whoosh's own function, over `_Node`s that order as the matchers do). Float addition is
    commutative, so the tree's shape is all that decides a sum's last bit."""
    nodes: list[tuple[int, _Node]] = []
    for fieldname, text, boost in terms:
        postings = cache.postings(leaf, fieldname, text, weighting)
        if postings is None:
            node = _Node(NullMatcherClass, {})
        else:
            ids, scores, _, kind = postings
            if boost != 1.0:  # Term.matcher wraps a boosted term's postings
                node = _Node(WrappingMatcher, {d: s * boost for d, s in zip(ids, scores, strict=True)})
            else:
                node = _Node(kind, dict(zip(ids, scores, strict=True)))
        nodes.append((_size(leaf, fieldname, text), node))
    root: _Node = make_weighted_tree(_union, nodes)
    return root.scores


def tree_hits(
    searcher: Any, terms: list[tuple[str, str, float]], limit: int, allow: Any, cache: TermCache
) -> list[tuple[float, int]]:
    """``searcher.search(Or(terms), limit, filter=allow, optimize=False)``'s (score, docnum)
    pairs, best first, for an Or whoosh evaluates as a tree of unions (no ``Require``: its
    scope must be whole). The collector keeps the best `limit` by score, a tie to the lower
    document number (``TopCollector``'s heap, filled in document order). Raises `Unmodelled`."""
    weighting = searcher.weighting
    if type(weighting).__name__ != "BM25F" or weighting.use_final:
        raise Unmodelled("weighting")
    allow = allow if allow else None  # whoosh reads an empty filter as none
    found: list[tuple[float, int]] = []
    for leaf, offset in searcher.leaf_searchers():
        for docnum, score in _tree_scores(leaf, terms, weighting, cache).items():
            if allow is None or offset + docnum in allow:
                found.append((score, offset + docnum))
    return heapq.nsmallest(limit, found, key=lambda hit: (-hit[0], hit[1]))


__all__ = ["PART", "REPLACE", "TermCache", "Unmodelled", "clauses", "top_hits", "tree_hits"]
