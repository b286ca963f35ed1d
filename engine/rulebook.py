"""Where the engine gets rule titles from, without depending on the index.

The engine cites rule numbers; a person reading the trace also wants the title ("702.22j
Banding"). The caller injects a ``RuleBook``: the CLI backs it with the ingested rule records,
tests use ``TextRuleBook`` over the records of a CR file, and ``NullRuleBook`` works with nothing at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from regelwerk.ingest.model.numbers import lineage

if TYPE_CHECKING:
    from regelwerk.ingest.model.records import Section


class RuleBook(Protocol):
    def title(self, number: str, lang: str) -> str | None:
        """The title of the rule or of its nearest titled ancestor, or None if unknown."""
        ...

    def names(self, number: str) -> tuple[str | None, str | None]:
        """The English title of the rule or of its nearest titled ancestor and the German name
        of that same heading or term, from one level of the number tree, so they always name
        one thing ("702.22j" -> ("Banding", "Bündnisfähigkeit")); the German None where no official
        German name is known ("601.2" -> ("Casting Spells", None))."""
        ...


class NullRuleBook:
    """Knows no titles; the trace then shows bare rule numbers."""

    def title(self, number: str, lang: str) -> str | None:
        return None

    def names(self, number: str) -> tuple[str | None, str | None]:
        return None, None


class TextRuleBook:
    """Titles from the rule records of a parsed CR (``regelwerk.ingest``), never the text again.

    Sections ("510. Combat Damage Step") and titled rules ("702.22. Banding") carry a title; a
    subrule takes the title of the closest ancestor that has one, so "510.1c" is "Combat Damage
    Step" and "702.22j" is "Banding". There are no German titles in the English CR, so German
    falls back to English at the call site.
    """

    def __init__(self, titles: dict[str, str]) -> None:
        self._titles = titles

    @classmethod
    def from_records(cls, sections: Iterable[Section]) -> TextRuleBook:
        return cls({s.number: s.title for s in sections if s.number and s.title})

    @classmethod
    def from_path(cls, path: str | Path) -> TextRuleBook:
        """Parse a CR file with the ingestor of its format and keep the titles."""
        from regelwerk.ingest import parse_path

        return cls.from_records(parse_path(path).sections)

    def title(self, number: str, lang: str) -> str | None:
        if lang != "en":
            return None
        return next((self._titles[n] for n in lineage(number) if self._titles.get(n)), None)

    def names(self, number: str) -> tuple[str | None, str | None]:
        return self.title(number, "en"), None
