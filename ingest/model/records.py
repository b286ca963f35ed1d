"""The records every ingestor produces: plain frozen dataclasses with tuple fields.

No I/O and no printing here. Each record keeps the 1-based source ``lines`` it was built from,
so a test can prove that every non-blank line of a document lands in exactly one record or in
an ``IngestIssue`` (nothing is silently dropped). ``to_dict``/``from_dict`` give the JSON form
the store and ``--json`` use.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.releases import ReleaseKey, is_release, release_key

T = TypeVar("T", bound="Record")


class Record:
    """Shared JSON round trip for every record type (here and in linking's keyword records).

    Tuples become lists and back; fields named in ``_nested`` hold tuples of other records.
    """

    _nested: ClassVar[dict[str, type[Record]]] = {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        nested = self._nested
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if name in nested:
                out[name] = [item.to_dict() for item in value]
            else:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls: type[T], data: dict[str, Any]) -> T:
        kwargs: dict[str, Any] = {}
        nested = cls._nested
        for name in _field_names(cls):
            if name not in data:
                continue
            value = data[name]
            if name in nested:
                kwargs[name] = tuple(nested[name].from_dict(v) for v in value)
            else:
                kwargs[name] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A record type's field names, looked up once (a stored archive holds 300,000 records
    and ``dataclasses.fields`` builds its answer anew on every call)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


@dataclass(frozen=True)
class Document(Record):
    """One ingested file. ``id`` is stable per release: the same CR release re-ingested keeps it."""

    id: str
    title: str
    language: str  # "en", "de", or "de+en" for a bilingual dump
    kind: Format  # which ingest module read it (a str given here is converted)
    version: str | None  # ISO effective date ("2026-04-17") when the document states one
    source: str  # the path it was read from
    sha256: str
    encoding: str = "utf-8"
    newline: str = "\n"  # the line ending the file used: "\r\n", "\r" or "\n"

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Format):
            object.__setattr__(self, "kind", Format(self.kind))

    @property
    def is_release(self) -> bool:
        """A dated Comprehensive Rules release (see ``releases``)."""
        return is_release(self.kind, self.version)

    @property
    def release_key(self) -> ReleaseKey:
        """Sortable release order: ``max(docs, key=lambda d: d.release_key)`` is the newest."""
        return release_key(self.kind, self.version)

    def summary(self) -> dict[str, Any]:
        """The fields every document kind shows in ``ingest`` and ``docs``."""
        keys = ("id", "title", "language", "version", "kind", "source", "sha256")
        return {key: getattr(self, key) for key in keys}


@dataclass(frozen=True)
class Section(Record):
    """A numbered or titled piece of rules text.

    ``kind`` is one of: "chapter" ("7."), "section" ("702."), "rule" ("702.22."),
    "subrule" ("702.22j"), "keyword" (an unnumbered section titled by a keyword, as in
    glossary pages and number-stripped excerpts), "front" (title, intro, contents),
    "credits", "paragraph" (text we keep but cannot place under a number).
    """

    document: str
    number: str | None
    parent: str | None
    title: str
    text: str
    language: str
    position: int
    kind: str
    examples: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    references: tuple[str, ...] = ()  # rule numbers the text cites, in order
    keyword: str | None = None  # the keyword name as this document writes it
    lines: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class GlossaryEntry(Record):
    """A CR glossary entry; "Bands with Other, Banding" style heads are split into ``terms``."""

    document: str
    terms: tuple[str, ...]
    text: str
    language: str
    position: int
    obsolete: bool = False
    references: tuple[str, ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False)

    @property
    def term(self) -> str:
        return ", ".join(self.terms)


@dataclass(frozen=True)
class Card(Record):
    """An example card ("Kartenbeispiel") with its English and German names."""

    document: str
    name_en: str
    name_de: str | None
    set_code: str | None
    mana_cost: str | None
    type_line: str | None
    power: str | None
    toughness: str | None
    text: str
    keyword: str | None = None  # the keyword the page shows this card for
    position: int = 0
    lines: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Printing(Record):
    """One printing of a card in one set, with what the German card of it says (if any).

    German fields are None when that set has no German printing of the card; a vanilla
    creature's German printing has a name and type but no ``text_de``.
    """

    set_code: str
    number: str
    year: int | None
    name_de: str | None = None
    type_de: str | None = None
    text_de: str | None = None


@dataclass(frozen=True)
class OracleCard(Record):
    """A card as the rules know it (its Oracle identity), with the printings seen of it.

    Each face of a double-faced, split or adventure card is its own OracleCard (``name`` is the
    face's English name); ``full_name`` keeps MTGJSON's "Front // Back" name for those. A card
    printed in many sets is one OracleCard with many ``printings``.
    """

    name: str
    type_line: str | None
    mana_cost: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    keywords: tuple[str, ...] = ()
    text: str | None = None  # Oracle text, English
    full_name: str | None = None
    layout: str | None = None
    printings: tuple[Printing, ...] = ()
    _nested: ClassVar[dict[str, type[Record]]] = {"printings": Printing}

    @property
    def names_de(self) -> tuple[str, ...]:
        """German names of its printings in first-seen order, each spelling once."""
        return tuple(dict.fromkeys(p.name_de for p in self.printings if p.name_de))


@dataclass(frozen=True)
class CardSet(Record):
    """One set of an MTGJSON file with the cards printed in it (printings of this set only)."""

    code: str
    name: str
    release_date: str | None
    cards: tuple[OracleCard, ...] = ()
    _nested: ClassVar[dict[str, type[Record]]] = {"cards": OracleCard}

    @property
    def year(self) -> int | None:
        return int(self.release_date[:4]) if self.release_date else None


@dataclass(frozen=True)
class KeywordMention(Record):
    """A keyword name exactly as a document gives it ("Bündnisfähigkeit", "Prowess/Bravour")."""

    document: str
    name: str
    language: str
    number: str | None = None  # the number the document gives it, if any
    section_position: int | None = None


@dataclass(frozen=True)
class IngestIssue(Record):
    """Something the lenient parser noticed and did not turn into a record."""

    file: str
    line: int | None
    message: str
    text: str = ""  # the offending line, so nothing is lost
    lines: tuple[int, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class ParsedDocument(Record):
    """Everything one ingestor got out of one file."""

    document: Document
    sections: tuple[Section, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    cards: tuple[Card, ...] = ()
    mentions: tuple[KeywordMention, ...] = ()
    issues: tuple[IngestIssue, ...] = ()

    @property
    def rules(self) -> tuple[Section, ...]:
        """Numbered rules and subrules (not chapters or "NNN." section headings)."""
        return tuple(s for s in self.sections if s.kind in ("rule", "subrule"))

    def summary(self) -> dict[str, Any]:
        """The ``--json`` contract of ``ingest`` and ``docs``."""
        return {
            **self.document.summary(),
            "sections": len(self.sections),
            "rules": len(self.rules),
            "glossary": len(self.glossary),
            "cards": len(self.cards),
            "issues": [str(i) for i in self.issues],
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.document.to_dict(),
            "sections": [s.to_dict() for s in self.sections],
            "glossary": [g.to_dict() for g in self.glossary],
            "cards": [c.to_dict() for c in self.cards],
            "mentions": [m.to_dict() for m in self.mentions],
            "issues": [i.to_dict() for i in self.issues],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ParsedDocument:
        return cls(
            document=Document.from_dict(data["document"]),
            sections=tuple(Section.from_dict(s) for s in data.get("sections", ())),
            glossary=tuple(GlossaryEntry.from_dict(g) for g in data.get("glossary", ())),
            cards=tuple(Card.from_dict(c) for c in data.get("cards", ())),
            mentions=tuple(KeywordMention.from_dict(m) for m in data.get("mentions", ())),
            issues=tuple(IngestIssue.from_dict(i) for i in data.get("issues", ())),
        )
