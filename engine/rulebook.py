"""Where the engine gets rule titles from, without depending on the index.

The engine cites rule numbers; a person reading the trace also wants the title ("702.22j
Banding"). The caller injects a ``RuleBook``: the CLI backs it with the ingested rule records,
tests use ``TextRuleBook`` over a CR text file, and ``NullRuleBook`` works with nothing at all.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from regelwerk.ingest.model.numbers import lineage


class RuleBook(Protocol):
    def title(self, number: str, lang: str) -> str | None:
        """The title of the rule or of its nearest titled ancestor, or None if unknown."""
        ...


class NullRuleBook:
    """Knows no titles; the trace then shows bare rule numbers."""

    def title(self, number: str, lang: str) -> str | None:
        return None


# "702.22. Banding" (keyword rules carry a title line) and "510. Combat Damage Step".
_SECTION = re.compile(r"^(?P<num>[1-9]\d{2})\. (?P<title>\S.*)$")
_TITLED_RULE = re.compile(r"^(?P<num>[1-9]\d{2}\.\d+)\. (?P<title>[A-Z][^.:]{0,59})$")


class TextRuleBook:
    """Titles parsed from the heading lines of an English CR text file.

    Only headings are read: section lines ("510. Combat Damage Step") and the short title lines
    of rules such as "702.22. Banding". A subrule takes the title of the closest ancestor that
    has one, so "510.1c" is "Combat Damage Step" and "702.22j" is "Banding". There are no German
    titles in the English CR, so German falls back to English at the call site.
    """

    def __init__(self, titles: dict[str, str]) -> None:
        self._titles = titles

    @classmethod
    def from_path(cls, path: str | Path) -> TextRuleBook:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
        titles: dict[str, str] = {}
        for raw in text.splitlines():
            line = raw.strip()
            m = _TITLED_RULE.match(line) or _SECTION.match(line)
            if m:
                # Body headings come after the contents list; keep the last one seen.
                titles[m.group("num")] = m.group("title").strip()
        return cls(titles)

    def title(self, number: str, lang: str) -> str | None:
        if lang != "en":
            return None
        return next((self._titles[n] for n in lineage(number) if self._titles.get(n)), None)
