"""What a search returns: plain, frozen records the CLI renders and ``--json`` prints as is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Hit:
    number: str | None
    current: str | None
    title: str
    term: str | None
    language: str
    version: str | None
    document: str
    snippet: str
    score: float
    #: The title's term in both languages, from the term tables ({"en": "Lifelink", "de":
    #: "Lebensverknüpfung"}); a side the tables do not know is None.
    names: tuple[tuple[str, str | None], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "current": self.current,
            "title": self.title,
            "term": self.term,
            "language": self.language,
            "version": self.version,
            "document": self.document,
            "snippet": self.snippet,
            "score": round(self.score, 4),
            "names": dict(self.names),
        }


@dataclass(frozen=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_dict() for h in self.hits], "notes": list(self.notes)}
