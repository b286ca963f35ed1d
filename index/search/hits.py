"""What a search returns: plain, frozen records the CLI renders and ``--json`` prints as is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from regelwerk.ingest.model.message import Arg, Message


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
    #: What the search did with the query, in English (``--json``)...
    notes: tuple[str, ...] = ()
    #: ... and the same as template + arguments, for a reader of another language.
    messages: tuple[Arg, ...] = ()

    @classmethod
    def of(cls, query: str, hits: tuple[Hit, ...], notes: Iterable[Arg] = ()) -> SearchResult:
        said = tuple(notes)
        return cls(query, hits, tuple(str(n) for n in said), said)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_dict() for h in self.hits], "notes": list(self.notes),
                "messages": [m.to_dict() if isinstance(m, Message) else m for m in self.messages]}
