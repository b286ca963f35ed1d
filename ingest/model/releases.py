"""Release order: which CR release is newer, defined once for every part of regelwerk.

A *release* is a dated Comprehensive Rules document (``.txt`` or the Word ``.htm``). Releases
order by effective date; on the same date the ``.txt`` (the official text) ranks above the
``.htm`` export of it. Every other document (seeds, glossary pages, excerpts, an undated CR)
ranks below every release: it has no place in the release history.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from regelwerk.ingest.model.format import Format

if TYPE_CHECKING:
    from regelwerk.ingest.model.records import ParsedDocument

#: The document kinds that are Comprehensive Rules releases (the one list of them).
CR_KINDS = frozenset({Format.CR_TEXT, Format.CR_HTML})

#: A sortable release key: (is a dated release, effective date, is the official .txt).
ReleaseKey = tuple[bool, str, bool]


def is_release(kind: str, version: str | None) -> bool:
    """A dated CR document: it has a place in the release history."""
    return kind in CR_KINDS and bool(version)


def release_key(kind: str, version: str | None) -> ReleaseKey:
    """Sort key of release order (ascending: oldest first, non-releases before all releases)."""
    dated = is_release(kind, version)
    return (dated, (version or "") if dated else "", kind == Format.CR_TEXT and dated)


def release_date(version: str | None) -> int:
    """An ISO effective date as a number (2026-04-17 -> 20260417; undated -> 0), for ranking."""
    return int(version.replace("-", "")) if version else 0


def newest_release(docs: Iterable[ParsedDocument], language: str | None = "en") -> ParsedDocument | None:
    """The newest release among `docs` in `language` (any language for None), or None."""
    releases = [
        p for p in docs if p.document.is_release and (language is None or p.document.language == language)
    ]
    return max(releases, key=lambda p: p.document.release_key, default=None)
