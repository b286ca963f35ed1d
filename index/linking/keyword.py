"""Keyword records: one rules concept with its names and its place in every ingested document.

These are the output of linking (``regelwerk.index.linking.link``) and what ``term`` and search
show. Like the ingest records they are frozen dataclasses with tuple fields and no I/O; the
nested references are their own small records so that ``to_dict``/``from_dict`` round-trip
through the JSON cache losslessly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from regelwerk.ingest.model.records import Record


@dataclass(frozen=True)
class RuleRef(Record):
    """Where a keyword lives in one document.

    ``key`` is what the ``term --json`` contract uses: the document's version for dated CR
    releases, else the document id. ``how`` says how the number was established: "heading"
    (the document numbers it), "same-number" (the other language's rule with the same number
    in the same document), "table" (the term table's current number, for undated documents in
    the current era) or "era" (the number the keyword had in the CR release whose numbering
    the document was found to follow).
    """

    document: str
    key: str
    language: str
    number: str
    title: str = ""  # the heading as this document writes it ("Bündnisfähigkeit")
    position: int | None = None  # position of the heading section, if the document has one
    version: str | None = None
    how: str = "heading"


@dataclass(frozen=True)
class TextRef(Record):
    """A text about a keyword in one document: CR glossary entry, German glossary entry, reminder."""

    document: str
    language: str
    text: str
    title: str = ""
    position: int | None = None


@dataclass(frozen=True)
class CardRef(Record):
    """An example card shown for a keyword (English and German names as the seed gives them)."""

    document: str
    name_en: str
    name_de: str | None = None
    set_code: str | None = None
    text: str = ""
    keyword: str | None = None  # Keyword.id it illustrates, once linked


@dataclass(frozen=True)
class Keyword(Record):
    """One keyword ability, keyword action, ability word or core game term.

    ``id`` is the slug of the English name ("banding", "for-mirrodin"). ``de`` is the current
    German name from the term table; ``de_variants`` holds further German spellings, including
    names the documents use ("Bündnisfähigkeit" from the bilingual seed); ``de_old`` older
    official names. ``number`` is the term table's number in the CR release it was generated
    from.
    """

    id: str
    en: str
    kind: str
    de: str | None = None
    de_variants: tuple[str, ...] = ()
    de_old: tuple[str, ...] = ()
    number: str = ""
    source: str = ""  # the term table's source column: seed / official / known
    rules: tuple[RuleRef, ...] = ()
    #: CR glossary entries, newest release first, each text once (from the newest release that
    #: has it: an entry unchanged over a hundred releases is one)
    glossary: tuple[TextRef, ...] = ()
    seed_entries: tuple[TextRef, ...] = ()  # German glossary pages' entries
    reminders: tuple[TextRef, ...] = ()
    cards: tuple[CardRef, ...] = ()

    _nested: ClassVar[dict[str, type[Record]]] = {
        "rules": RuleRef,
        "glossary": TextRef,
        "seed_entries": TextRef,
        "reminders": TextRef,
        "cards": CardRef,
    }

    @property
    def german_names(self) -> tuple[str, ...]:
        """Every German form, current first, without duplicates."""
        return tuple(dict.fromkeys(n for n in (self.de, *self.de_variants, *self.de_old) if n))

    def rules_by_key(self) -> dict[str, str]:
        """``{version or document id: number}``, the ``term --json`` contract's ``rules``."""
        out: dict[str, str] = {}
        for ref in self.rules:
            out.setdefault(ref.key, ref.number)
        return out


@dataclass(frozen=True)
class Era(Record):
    """Which CR release's numbering an undated document follows, and why we think so.

    ``versions`` are the ingested releases that agree with every numbered keyword of the
    document (empty if none is ingested or none agrees); ``reason`` is the human explanation.
    """

    document: str
    versions: tuple[str, ...]
    reason: str  # the English explanation (kept for --json consumers); `explain` renders either language
    current: bool = False  # True if the numbering is the newest ingested (or the term table's)
    evidence: str = ""  # the numbered headings/references the dating rests on
    others: tuple[str, ...] = ()  # "2015-11-13: Banding 702.21" for each release that disagrees
    basis: str = ""  # "releases", "no-release-agrees", "table-agrees" or "table-differs"
    table: str = ""  # the term table's numbers for the evidence, when no release is ingested

    def explain(self, lang: str = "en") -> str:
        """The reason as a sentence in English or German."""
        de = lang == "de"
        others = "; ".join(self.others)
        if self.basis == "releases":
            text = (f"{self.evidence} ist nummeriert wie in CR {', '.join(self.versions)}" if de
                    else f"{self.evidence} is numbered as in CR {', '.join(self.versions)}")
            if others:
                text += f" (nicht wie in {others})" if de else f" (not as in {others})"
            return text
        if self.basis == "no-release-agrees":
            return (f"{self.evidence} passt zu keiner eingelesenen CR-Fassung ({others})" if de
                    else f"{self.evidence} matches no ingested CR release ({others})")
        if self.basis == "table-agrees":
            return (f"{self.evidence} entspricht der aktuellen Nummerierung der Begriffstabelle; "
                    "keine CR-Fassung eingelesen" if de else
                    f"{self.evidence} matches the term table's current numbering; no CR release is ingested")
        if self.basis == "table-differs":
            return (f"{self.evidence} weicht von der aktuellen Nummerierung der Begriffstabelle ab "
                    f"({self.table}), folgt also einer älteren Fassung; CR-Dateien einlesen, um sie zu "
                    "datieren" if de else
                    f"{self.evidence} differs from the term table's current numbering ({self.table}), so "
                    "it follows an older release; ingest CR files to date it")
        return self.reason


@dataclass(frozen=True)
class AssignedNumber(Record):
    """A number linking gave to an unnumbered section (the excerpt seed's paragraphs)."""

    document: str
    position: int
    number: str
    keyword: str | None = None  # Keyword.id of the block the section is in
    how: str = "letter"  # "heading" (a keyword heading), "letter" (n-th paragraph), "text"
    lines: tuple[int, ...] = field(default=(), compare=False)
