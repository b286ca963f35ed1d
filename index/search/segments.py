"""The default scope in segments of its own, so a plain search reads only those.

A plain search covers the newest release: about 4,000 of the archive's 23,000 units. whoosh
walks a query's postings in every segment before it intersects them with ``scope:default``,
so a search over one segment holding every release costs as if it searched them all. The
builder therefore keeps the two kinds apart: each build commits what it writes as two
segments, first the units outside the default scope (together with the deletions), then the
default ones, and a merge joins segments of one kind only (`merge_policy`). A plain search
skips every segment without a ``scope:default`` posting (`ScopedSearcher`); the scores stay
the same, because whoosh scores each segment with the whole index's statistics.

A default segment loses units as newer releases change them (they are deleted there and
written again as "other"). When deleted documents reach `COMPACT_AT` of the default segments,
the build merges them into its new segment, which leaves the deleted ones behind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from whoosh.searching import Searcher

#: The term every unit of the default scope has (``whoosh_index.schema``'s ``scope`` field).
DEFAULT = ("scope", "default")
#: Merge the default segments into one when this share of their documents is deleted.
COMPACT_AT = 0.3
#: Merge a kind's smaller segments into the new one when it has more than this many.
MAX_SEGMENTS = 4


def is_default(reader: Any) -> bool:
    """Does this segment's reader hold default-scope units?"""
    return DEFAULT in reader


def merge_policy(default: bool) -> Callable[[Any, list[Any]], list[Any]]:
    """A whoosh ``mergetype`` for the commit of one kind's segment: it merges segments of
    that kind only, and leaves the others as they are."""

    def merge(writer: Any, segments: list[Any]) -> list[Any]:
        from whoosh.reading import SegmentReader

        mine = []
        for seg in segments:
            reader = SegmentReader(writer.storage, writer.schema, seg)
            try:
                if is_default(reader) == default:
                    mine.append(seg)
            finally:
                reader.close()
        chosen = _to_merge(mine, default)
        for seg in chosen:
            reader = SegmentReader(writer.storage, writer.schema, seg)
            try:
                writer.add_reader(reader)
            finally:
                reader.close()
        return [s for s in segments if s not in chosen]

    return merge


def _to_merge(segments: list[Any], default: bool) -> list[Any]:
    """Which of one kind's segments to merge: every default one when too many of their
    documents are deleted; else, past MAX_SEGMENTS, all but the largest."""
    if default:
        total = sum(s.doc_count_all() for s in segments)
        if total and sum(s.deleted_count() for s in segments) >= COMPACT_AT * total:
            return list(segments)
    if len(segments) <= MAX_SEGMENTS:
        return []
    largest = max(segments, key=lambda s: s.doc_count_all())
    return [s for s in segments if s is not largest]


class ScopedSearcher(Searcher):  # type: ignore[misc]  # whoosh has no type hints
    """A whoosh searcher that, while `default_only` is set, searches only the segments that
    hold default-scope units (the statistics stay the whole index's)."""

    default_only = False

    def leaf_searchers(self) -> list[tuple[Any, int]]:
        found: list[tuple[Any, int]] = list(super().leaf_searchers())
        if not self.default_only or len(found) < 2:
            return found
        return [(s, offset) for s, offset in found if is_default(s.reader())]

    def scope_is_whole(self) -> bool:
        """Does every document of the segments a default-only search reads carry
        ``scope:default``? Then requiring that term filters nothing: each default segment
        holds default units only (a unit leaving the scope is deleted there and written to
        another segment), but a segment that does not (counted with its deleted documents; a
        lone segment is read whatever it holds) keeps the requirement."""
        default_only, self.default_only = self.default_only, True
        try:
            leaves = [s.reader() for s, _ in self.leaf_searchers()]
        finally:
            self.default_only = default_only
        return all(r.doc_frequency(*DEFAULT) == r.doc_count_all() for r in leaves)


__all__ = ["COMPACT_AT", "DEFAULT", "MAX_SEGMENTS", "ScopedSearcher", "is_default", "merge_policy"]
