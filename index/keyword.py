"""Keyword records: one rules concept with its names and its place in every ingested document.

These are the output of linking (``regelwerk.index.linking``) and what ``term`` and search
show. Like the ingest records they are frozen dataclasses with tuple fields and no I/O; the
nested references are their own small records so that ``to_dict``/``from_dict`` round-trip
through the JSON cache losslessly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="_Flat")


class _Flat:
    """JSON round trip for records whose fields are scalars or tuples of scalars."""

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
            for f in fields(self)  # type: ignore[arg-type]
        }

    @classmethod
    def from_dict(cls: type[T], data: dict[str, Any]) -> T:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class RuleRef(_Flat):
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
class TextRef(_Flat):
    """A text about a keyword in one document: CR glossary entry, German glossary entry, reminder."""

    document: str
    language: str
    text: str
    title: str = ""
    position: int | None = None


@dataclass(frozen=True)
class CardRef(_Flat):
    """An example card shown for a keyword (English and German names as the seed gives them)."""

    document: str
    name_en: str
    name_de: str | None = None
    set_code: str | None = None
    text: str = ""
    keyword: str | None = None  # Keyword.id it illustrates, once linked


@dataclass(frozen=True)
class Keyword:
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
    glossary: tuple[TextRef, ...] = ()  # CR glossary entries, newest release first
    seed_entries: tuple[TextRef, ...] = ()  # German glossary pages' entries
    reminders: tuple[TextRef, ...] = ()
    cards: tuple[CardRef, ...] = ()

    _nested: ClassVar[dict[str, type[_Flat]]] = {
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

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self._nested:
                out[f.name] = [item.to_dict() for item in value]
            else:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Keyword:
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in cls._nested:
                kwargs[f.name] = tuple(cls._nested[f.name].from_dict(v) for v in value)
            else:
                kwargs[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)


@dataclass(frozen=True)
class Era(_Flat):
    """Which CR release's numbering an undated document follows, and why we think so.

    ``versions`` are the ingested releases that agree with every numbered keyword of the
    document (empty if none is ingested or none agrees); ``reason`` is the human explanation.
    """

    document: str
    versions: tuple[str, ...]
    reason: str
    current: bool = False  # True if the numbering is the newest ingested (or the term table's)


@dataclass(frozen=True)
class AssignedNumber(_Flat):
    """A number linking gave to an unnumbered section (the excerpt seed's paragraphs)."""

    document: str
    position: int
    number: str
    keyword: str | None = None  # Keyword.id of the block the section is in
    how: str = "letter"  # "heading" (a keyword heading), "letter" (n-th paragraph), "text"
    lines: tuple[int, ...] = field(default=(), compare=False)
