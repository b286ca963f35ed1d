"""Linking: tie the parsed documents and the term tables into one Keyword record per concept.

Run after parsing, whenever the documents change (the result is cached per store fingerprint by
``regelwerk.index.linking.keyword_index``). The steps, each documented where it happens:

1. **Names.** Every term-table row is a keyword; every 701/702 heading of an ingested CR that
   the table lacks becomes one too, so each keyword of every release has a record.
2. **Dated CR releases** (newest first): a keyword's number in a release is the 701/702
   heading with its English name (702.19 in 2011 = 702.21 in 2015 = 702.22 in 2026, matched by
   title); ability words point at the subrule listing them (207.2c, 206.2c in 2011); core
   terms at the section titled with their name, else the first rule their glossary entry cites.
3. **Undated documents** get an *era*: the releases whose numbering agrees with every keyword
   the document numbers (an English heading, or a cross-reference followed by a quoted title
   such as ``rule 702.22, "Banding."``); see `Era`. Inside one document a German rule and the
   English rule with the same number are one rule (the bilingual seed's "702.19
   Bündnisfähigkeit" is "702.19. Banding"), and its German title becomes a German variant.
4. **Unnumbered excerpts**: a keyword heading gets the keyword's number in the document's era;
   the paragraphs after it get that number plus subrule letters in order (skipping l and o)
   while they still talk about the keyword; leftovers are matched verbatim against the era's
   CR text when one is ingested.
5. **German glossary pages** link their entries, cards and mentions by German name through the
   folded names (``Prowess/Bravour`` tries both halves, ``Gift X`` drops the variable).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypeVar

from regelwerk.index.linking.keyword import AssignedNumber, CardRef, Era, Keyword, RuleRef, TextRef
from regelwerk.index.terms.table import TermRow
from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.fold import compact, fold
from regelwerk.ingest.model.ids import slug
from regelwerk.ingest.model.numbers import KEYWORD_SECTIONS, SUBRULE_LETTERS, RuleNumber
from regelwerk.ingest.model.records import Document, ParsedDocument, Section
from regelwerk.ingest.model.releases import CR_KINDS
from regelwerk.ingest.model.stemming import mentions

R = TypeVar("R")

#: Keyword sections by title: 701/702 today, 501/502 before July 2009.
_KEYWORD_SECTION_TITLES = {"keyword actions": "keyword_action", "keyword abilities": "keyword_ability"}
#: "rule 702.22, “Banding.”": a number followed by the quoted title of what it numbers.
_TITLED_REF = re.compile(r"\b([1-9]\d{2}\.\d+)[a-z]?\s*,\s*[“\"„]([^”\"“]{2,60}?)[.,]?[”\"“]")
#: A headingless keyword paragraph of an excerpt: "Morph is a static ability ...".
_DEFINES = re.compile(r"^[“\"]?(?P<name>[^“”\".,:;()]{2,40}?)[”\"]? (?:is|are|represents) ")
#: "Gift X", "Bushido 1", "Kräftigung N": the variable after a keyword name.
_VARIABLE = re.compile(r"\s+(?:[XNxn]|\d+)$")
_ABILITY_WORD_LIST = "The ability words are"
_REMINDER = re.compile(r"\(([^()]{10,400})\)")
_SEE = re.compile(r"^See ([^.,;]+)\.$")
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$")
_NUMBER_TOKEN = re.compile(r"[1-9]\d{2}(?:\.\d+[a-z]?)?")


@dataclass
class _Draft:
    """A keyword while linking collects its references (mutable; frozen into `Keyword`)."""

    id: str
    en: str
    kind: str
    de: str | None = None
    de_variants: list[str] = field(default_factory=list)
    de_old: list[str] = field(default_factory=list)
    number: str = ""
    source: str = ""
    rules: list[RuleRef] = field(default_factory=list)
    glossary: list[TextRef] = field(default_factory=list)
    seed_entries: list[TextRef] = field(default_factory=list)
    reminders: list[TextRef] = field(default_factory=list)
    cards: list[CardRef] = field(default_factory=list)

    def german(self) -> list[str]:
        return [n for n in (self.de, *self.de_variants, *self.de_old) if n]

    def add_variant(self, name: str) -> None:
        name = name.strip()
        if name and fold(name) not in {fold(n) for n in self.german()}:
            self.de_variants.append(name)

    def freeze(self) -> Keyword:
        return Keyword(
            id=self.id,
            en=self.en,
            kind=self.kind,
            de=self.de,
            de_variants=tuple(self.de_variants),
            de_old=tuple(self.de_old),
            number=self.number,
            source=self.source,
            rules=tuple(self.rules),
            glossary=tuple(self.glossary),
            seed_entries=tuple(self.seed_entries),
            reminders=tuple({(r.language, r.text): r for r in self.reminders}.values()),
            cards=tuple(_dedupe(self.cards)),
        )


def _dedupe(items: Iterable[R]) -> list[R]:
    return list(dict.fromkeys(items))


@dataclass(frozen=True)
class Linked:
    """Everything linking produced: the JSON the keyword cache stores."""

    keywords: tuple[Keyword, ...]
    eras: tuple[Era, ...] = ()
    assigned: tuple[AssignedNumber, ...] = ()
    cards: tuple[CardRef, ...] = ()
    newest: str | None = None  # id of the newest English CR release, if any is ingested
    unlinked: tuple[str, ...] = ()  # names documents use that matched no keyword
    versions: tuple[tuple[str, str | None], ...] = ()  # (document id, version) of every document

    def to_dict(self) -> dict[str, Any]:
        return {
            "keywords": [k.to_dict() for k in self.keywords],
            "eras": [e.to_dict() for e in self.eras],
            "assigned": [a.to_dict() for a in self.assigned],
            "cards": [c.to_dict() for c in self.cards],
            "newest": self.newest,
            "unlinked": list(self.unlinked),
            "versions": [list(v) for v in self.versions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Linked:
        return cls(
            keywords=tuple(Keyword.from_dict(k) for k in data["keywords"]),
            eras=tuple(Era.from_dict(e) for e in data.get("eras", ())),
            assigned=tuple(AssignedNumber.from_dict(a) for a in data.get("assigned", ())),
            cards=tuple(CardRef.from_dict(c) for c in data.get("cards", ())),
            newest=data.get("newest"),
            unlinked=tuple(data.get("unlinked", ())),
            versions=tuple((v[0], v[1]) for v in data.get("versions", ())),
        )


# -- one CR release ---------------------------------------------------------------------------
class _Head(NamedTuple):
    """What linking reads of one numbered section of a release (a slim `Section`; a tuple,
    since a build reads 300,000 of them)."""

    number: str
    title: str
    position: int
    bare: str  # the heading text a 701/702 rule without a title has ("For Mirrodin!"), else ""


class _Body(NamedTuple):
    """What linking reads of a release beyond its keyword headings: read back only for drafts
    the release has not been linked with before (see `_Release.link`)."""

    titles: dict[str, str]  # fold(title) -> number of any titled section or rule
    glossary: dict[str, Sequence[Any]]  # fold(term) -> (head, text, refs), or that as JSON's list
    ability_words: tuple[str, str] | None  # (number, text) of the subrule listing them
    #: number -> its heading: a `_Head`, or as stored its JSON list, made a `_Head` by `head`
    by_number: dict[str, Sequence[Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "titles": self.titles,
            "glossary": {k: [h, t, list(r)] for k, (h, t, r) in self.glossary.items()},
            "ability_words": self.ability_words and list(self.ability_words),
            "by_number": {k: list(h) for k, h in self.by_number.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Body:
        words = data["ability_words"]
        return cls(dict(data["titles"]), dict(data["glossary"]),
                   (str(words[0]), str(words[1])) if words else None, dict(data["by_number"]))


@dataclass
class _Release:
    """The lookups linking needs from one dated CR release. Built once per release's bytes
    and kept (``to_dict``, see ``keyword_index``), so linking a new release reads only it.

    What each keyword has in the release is kept too (`known`, by the keyword's signature), so
    a release linked before costs a dictionary lookup per keyword, and its `_Body` is read only
    for keywords it has not seen (a term-table change, a keyword a newer release brought)."""

    document: Document
    headings: dict[str, _Head]  # fold(keyword title) -> 701/702 heading rule
    keyword_kinds: dict[str, str]  # fold(keyword title) -> "keyword_action" / "keyword_ability"
    #: The other lookups, or how to read them.
    body: _Body | Callable[[], _Body]
    #: The whole document, for matching an excerpt's text (read only then).
    load: Callable[[], ParsedDocument] | None = None
    #: keyword signature -> [number, glossary (head, text) or None, heading title, position]
    known: dict[str, list[Any]] = field(default_factory=dict)
    #: Whether `known` grew by what only the body could say (the caller keeps it).
    learned: bool = False
    #: The folded glossary terms, one per line, where the body is not read yet: a keyword a
    #: newer release brought is then found absent without reading it.
    glossary_names: str | None = None

    @property
    def id(self) -> str:
        return self.document.id

    @property
    def key(self) -> str:
        return self.document.version or self.id

    def sections(self) -> tuple[Section, ...]:
        return self.load().sections if self.load is not None else ()

    def lookups(self) -> _Body:
        if not isinstance(self.body, _Body):
            self.body = self.body()
        return self.body

    @property
    def titles(self) -> dict[str, str]:
        return self.lookups().titles

    @property
    def glossary(self) -> dict[str, Sequence[Any]]:
        return self.lookups().glossary

    @property
    def ability_words(self) -> tuple[str, str] | None:
        return self.lookups().ability_words

    @classmethod
    def of(cls, parsed: ParsedDocument) -> _Release:
        headings: dict[str, _Head] = {}
        titles: dict[str, str] = {}
        by_number: dict[str, Sequence[Any]] = {}
        ability_words = None
        keyword_sections = {
            s.number: kind
            for s in parsed.sections
            if s.kind == "section" and s.number and (kind := _KEYWORD_SECTION_TITLES.get(s.title.lower()))
        }
        keyword_kinds: dict[str, str] = {}
        for s in parsed.sections:
            if s.number is None:
                continue
            head = _Head(s.number, s.title, s.position, _bare_heading(s))
            by_number.setdefault(s.number, head)
            title = s.title or head.bare
            if title and s.kind in ("chapter", "section", "rule"):
                titles.setdefault(fold(title), s.number)
                section = keyword_sections.get(s.parent or "") or KEYWORD_SECTIONS.get(_section_of(s.number))
                if s.kind == "rule" and section is not None and (s.keyword or head.bare):
                    headings.setdefault(fold(title), head)
                    keyword_kinds.setdefault(fold(title), section)
            if ability_words is None and s.kind == "subrule" and _ABILITY_WORD_LIST in s.text:
                ability_words = (s.number, s.text)
        glossary: dict[str, Sequence[Any]] = {}
        for g in parsed.glossary:
            for term in g.terms:
                glossary.setdefault(fold(term), (g.term, g.text, g.references))
        body = _Body(titles, glossary, ability_words, by_number)
        return cls(parsed.document, headings, keyword_kinds, body, lambda: parsed)

    def to_dict(self) -> dict[str, Any]:
        """The headings part (`lookups` gives the rest: ``_Body.to_dict``)."""
        return {
            "document": self.document.to_dict(),
            "headings": {k: list(h) for k, h in self.headings.items()},
            "keyword_kinds": self.keyword_kinds,
            "glossary_names": "\n".join(self.glossary),
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        body: _Body | Callable[[], _Body],
        load: Callable[[], ParsedDocument] | None = None,
        known: dict[str, list[Any]] | None = None,
    ) -> _Release:
        make = _Head._make
        headings = {k: make(v) for k, v in data["headings"].items()}
        return cls(Document.from_dict(data["document"]), headings, dict(data["keyword_kinds"]), body, load,
                   dict(known or {}), glossary_names=data.get("glossary_names"))

    def link(self, draft: _Draft, name: str) -> list[Any]:
        """What `draft` (folded name `name`) has here: ``[number or None, glossary (head, text)
        or None, heading title, heading position]``, from `known` when the release has seen a
        keyword of this signature before."""
        sig = f"{draft.kind}\0{draft.en}\0{name}\0{draft.number}"
        found = self.known.get(sig)
        if found is None and self._absent(draft, name):
            found = self.known[sig] = [None, None, "", None]  # cheap to say again: not kept
        if found is None:
            number = self.number_of(draft, name)
            entry = self.glossary.get(name)
            heading = self.head(number) if number is not None else None
            found = self.known[sig] = [
                number,
                [entry[0], entry[1]] if entry is not None else None,
                (heading.title or heading.bare) if heading is not None else "",
                heading.position if heading is not None else None,
            ]
            self.learned = True
        return found

    def _absent(self, draft: _Draft, name: str) -> bool:
        """Is keyword `draft` surely absent here, neither a heading nor a glossary term, as far
        as the headings part says (no body read)?"""
        if draft.kind not in ("keyword_action", "keyword_ability") or name in self.headings:
            return False
        if isinstance(self.body, _Body):
            return name not in self.body.glossary
        return self.glossary_names is not None and name not in self.glossary_names.split("\n")

    def number_of(self, draft: _Draft, name: str | None = None) -> str | None:
        """`draft`'s number in this release; `name` is its folded name, if known."""
        name = name or _folded_name(draft)
        if draft.kind in ("keyword_action", "keyword_ability"):
            s = self.headings.get(name)
            return s.number if s is not None else None
        if draft.kind == "ability_word":
            listing = self.ability_words
            word = rf"\b{re.escape(draft.en.lower())}\b"
            if listing is not None and listing[0] and re.search(word, listing[1].lower()):
                return listing[0]
            return None
        return self._core_number(name, draft.number, redirects=2)

    def _core_number(self, name: str, table_number: str, redirects: int) -> str | None:
        """A core term's number: its own heading, its glossary citation, or a "See X." target."""
        number = self.titles.get(name)
        if number is not None:
            return number
        entry = self.glossary.get(name)
        if entry is not None:
            if entry[2]:
                return str(entry[2][0])
            see = _SEE.match(entry[1])
            if see and redirects:
                return self._core_number(fold(see.group(1)), "", redirects - 1)
        # The table number, if this release has a heading there (chapters "4." are not
        # cross-referenced, so a glossary entry citing "section 4" yields no reference).
        heading = self.head(table_number)
        return table_number if heading is not None and heading.title else None

    def head(self, number: str) -> _Head | None:
        """The heading of `number` in this release, if it has one."""
        found = self.lookups().by_number.get(number)
        return found if found is None or isinstance(found, _Head) else _Head._make(found)


def _folded_name(draft: _Draft) -> str:
    return fold(_OBSOLETE.sub("", draft.en))


def _bare_heading(s: Section) -> str:
    """A 701/702 heading the parser took for a sentence ("702.163. For Mirrodin!")."""
    if s.kind != "rule" or s.number is None or _section_of(s.number) not in KEYWORD_SECTIONS:
        return ""
    text = s.text.strip()
    return text if 0 < len(text) <= 40 and "\n" not in text and not text.endswith(".") else ""


def _section_of(number: str) -> int:
    try:
        return RuleNumber.parse(number).section
    except InvalidRuleNumber:
        return 0


# -- the whole run ----------------------------------------------------------------------------
class _Linker:
    def __init__(
        self,
        releases: Sequence[_Release],
        others: Sequence[ParsedDocument],
        rows: Sequence[TermRow],
        order: Sequence[str] = (),
    ) -> None:
        self.documents = list(others)
        self._order = {doc_id: i for i, doc_id in enumerate(order)}
        self.releases = sorted(releases, key=lambda r: r.document.release_key, reverse=True)
        self.drafts: dict[str, _Draft] = {}
        for row in rows:
            kid = slug(row.en)
            if kid not in self.drafts:
                self.drafts[kid] = _Draft(
                    kid, row.en, row.kind, row.de or None, list(row.de_variants),
                    list(row.de_old), row.number, row.source,
                )
        for release in self.releases:  # keywords the table lacks (older or newer releases)
            for s in release.headings.values():
                title = s.title or s.bare
                kid = slug(title)
                if kid not in self.drafts and s.number is not None:
                    kind = release.keyword_kinds[fold(title)]
                    self.drafts[kid] = _Draft(kid, title, kind)
        self.eras: list[Era] = []
        self.assigned: list[AssignedNumber] = []
        self.cards: list[CardRef] = []
        self.unlinked: list[str] = []
        self._index_names()

    # names ----------------------------------------------------------------------------------
    def _index_names(self) -> None:
        self.by_en: dict[str, str] = {}
        self.by_de: dict[str, str] = {}
        for d in self.drafts.values():
            self.by_en.setdefault(compact(d.en), d.id)
        # Current names first, so "Standardlandumwandlung" goes to the row that calls it so,
        # not to a row listing it as a variant.
        for d in self.drafts.values():
            if d.de:
                self.by_de.setdefault(compact(d.de), d.id)
        for d in self.drafts.values():
            for name in d.german():
                self.by_de.setdefault(compact(name), d.id)

    def find(self, name: str, language: str) -> str | None:
        """Keyword id for a name as a document writes it, trying that language first."""
        candidates = [name, *name.split("/")] if "/" in name else [name]
        order = (self.by_de, self.by_en) if language.startswith("de") else (self.by_en, self.by_de)
        for table in order:
            for cand in candidates:
                cand = _VARIABLE.sub("", cand.strip().strip("“”\"'´"))
                kid = table.get(compact(cand))
                if kid is not None:
                    return kid
        return None

    # steps ----------------------------------------------------------------------------------
    def run(self) -> Linked:
        names: dict[str, str] = {}
        for release in self.releases:
            self._link_release(release, names)
        undated = list(self.documents)
        # Numbered documents first: their German headings become variants the glossary
        # pages' names are then matched against.
        undated.sort(key=lambda p: not any(s.number for s in p.sections))
        for parsed in undated:
            self._link_undated(parsed)
            self._index_names()
        keywords = tuple(d.freeze() for d in self.drafts.values())
        return Linked(
            keywords=keywords,
            eras=tuple(self.eras),
            assigned=tuple(self.assigned),
            cards=tuple(_dedupe(self.cards)),
            newest=self.releases[0].id if self.releases else None,
            unlinked=tuple(_dedupe(self.unlinked)),
            versions=tuple(
                (d.id, d.version) for d in sorted(
                    [*(r.document for r in self.releases), *(p.document for p in self.documents)],
                    key=lambda d: self._order.get(d.id, 0),
                )
            ),
        )

    def _link_release(self, release: _Release, names: dict[str, str]) -> None:
        doc = release.document
        for d in self.drafts.values():
            name = names.get(d.id) or names.setdefault(d.id, _folded_name(d))
            number, entry, title, position = release.link(d, name)
            if entry is not None and all(g.text != entry[1] for g in d.glossary):  # each text once
                d.glossary.append(TextRef(doc.id, "en", entry[1], title=entry[0]))
            if number is None:
                continue
            d.rules.append(RuleRef(doc.id, release.key, "en", number, title=title, position=position,
                                   version=doc.version))

    def _link_undated(self, parsed: ParsedDocument) -> None:
        doc = parsed.document
        headings = [s for s in parsed.sections if s.number and s.kind == "rule" and (s.title or s.keyword)]
        claims = self._claims(parsed, headings)
        era = self._era(parsed, claims)
        if era is not None:
            self.eras.append(era)
        linked_numbers: dict[str, str] = {}  # number -> keyword id, from English headings
        for s in headings:
            if s.language == "en":
                kid = self.find(s.keyword or s.title, "en")
                if kid is not None and s.number:
                    linked_numbers[s.number] = kid
        for s in headings:
            assert s.number is not None
            name = s.keyword or s.title
            how = "heading"
            kid = linked_numbers.get(s.number) if s.language != "en" else None
            if kid is not None:
                how = "same-number"  # rule (a): the other language's rule with this number
            else:
                kid = self.find(name, s.language)
            if kid is None and era is not None:
                kid = self._keyword_numbered(s.number, era)
                how = "era"
            if kid is None:
                self.unlinked.append(f"{doc.id}: {s.number} {name}")
                continue
            d = self.drafts[kid]
            d.rules.append(
                RuleRef(doc.id, doc.version or doc.id, s.language, s.number, title=name,
                        position=s.position, version=doc.version, how=how)
            )
            if s.language.startswith("de"):
                d.add_variant(name)
        self._number_unnumbered(parsed, era)
        self._link_glossary_pages(parsed)

    # eras -----------------------------------------------------------------------------------
    def _claims(self, parsed: ParsedDocument, headings: list[Section]) -> list[tuple[str, str, str]]:
        """(keyword id, number, evidence) pairs the document states about its numbering."""
        claims: list[tuple[str, str, str]] = []
        for s in headings:
            if s.language != "en" or s.number is None:
                continue
            kid = self.find(s.keyword or s.title, "en")
            if kid is not None:
                claims.append((kid, s.number, f"{s.number} {s.keyword or s.title!r}"))
        for s in parsed.sections:
            for m in _TITLED_REF.finditer(s.text):
                kid = self.find(m.group(2), "en")
                if kid is not None and self.drafts[kid].kind in ("keyword_action", "keyword_ability"):
                    claims.append((kid, m.group(1), f"rule {m.group(1)}, {m.group(2)!r}"))
        return list(dict.fromkeys(claims))

    def _era(self, parsed: ParsedDocument, claims: list[tuple[str, str, str]]) -> Era | None:
        doc = parsed.document
        if not claims:
            return None
        evidence = "; ".join(sorted({c[2] for c in claims}))
        agreeing: list[str] = []
        others: list[str] = []
        for release in self.releases:
            numbers = {kid: self._number_in(release, kid) for kid, _, _ in claims}
            if all(numbers[kid] == num for kid, num, _ in claims):
                agreeing.append(release.key)
            else:
                found = ", ".join(
                    f"{self.drafts[kid].en} {numbers[kid] or 'absent'}" for kid, _, _ in claims[:2]
                )
                others.append(f"{release.key}: {found}")
        table_agrees = all(self.drafts[kid].number == num for kid, num, _ in claims)
        table = ", ".join(f"{self.drafts[k].en} {self.drafts[k].number}" for k, _, _ in claims[:2])
        if agreeing:
            basis, current = "releases", agreeing[0] == self.releases[0].key
        elif self.releases:
            basis, current = "no-release-agrees", False
        else:
            basis, current = ("table-agrees" if table_agrees else "table-differs"), table_agrees
        era = Era(doc.id, tuple(agreeing), "", current, evidence, tuple(others), basis, table)
        return replace(era, reason=era.explain("en"))

    def _number_in(self, release: _Release, kid: str) -> str | None:
        d = self.drafts[kid]
        number: str | None = release.link(d, _folded_name(d))[0]
        return number

    def _release(self, key: str) -> _Release | None:
        return next((r for r in self.releases if r.key == key), None)

    def _keyword_numbered(self, number: str, era: Era) -> str | None:
        """The keyword whose heading has `number` in the document's era."""
        for key in era.versions:
            release = self._release(key)
            if release is None:
                continue
            s = release.head(number)
            if s is not None and s.title:
                return self.by_en.get(compact(s.title))
        if era.current:
            return next((d.id for d in self.drafts.values() if d.number == number), None)
        return None

    def _era_number(self, kid: str, era: Era | None) -> tuple[str | None, str]:
        d = self.drafts[kid]
        if era is not None:
            for key in era.versions:
                release = self._release(key)
                number = self._number_in(release, kid) if release is not None else None
                if number is not None:
                    return number, "era"
            if not era.current:
                return None, ""
        return (d.number or None), "table"

    # excerpts -------------------------------------------------------------------------------
    def _number_unnumbered(self, parsed: ParsedDocument, era: Era | None) -> None:
        doc = parsed.document
        if doc.language != "en" or not any(s.kind == "keyword" and s.number is None for s in parsed.sections):
            return
        kid: str | None = None
        base: str | None = None
        index = 0
        leftovers: list[Section] = []
        for s in sorted(parsed.sections, key=lambda s: s.position):
            if s.number is not None:
                continue
            if s.kind == "keyword":
                kid = self.find(s.keyword or s.title, "en")
                base, how = self._era_number(kid, era) if kid is not None else (None, "")
                index = 0
                if kid is not None and base is not None:
                    self._add_rule(kid, doc.id, s, base, how)
                    if not s.text.strip():  # a bare heading; else it is also paragraph "a"
                        self._assign(s, base, kid, "heading")
                        continue
                else:
                    self.unlinked.append(f"{doc.id}: heading {s.title!r}")
            m = _DEFINES.match(s.text)
            if m:  # a keyword whose heading the copy lost ("Morph is a static ability ...")
                other = self.find(m.group("name"), "en")
                if other is not None and other != kid and self.drafts[other].kind == "keyword_ability":
                    kid = other
                    base, how = self._era_number(kid, era)
                    index = 0
                    if base is not None:
                        self._add_rule(kid, doc.id, s, base, how)
            if kid is None or base is None or not mentions(s.text, self.drafts[kid].en):
                kid = base = None
                leftovers.append(s)
                continue
            if index >= len(SUBRULE_LETTERS):
                leftovers.append(s)
                continue
            self._assign(s, base + SUBRULE_LETTERS[index], kid, "letter")
            index += 1
        self._match_text(doc.id, leftovers, era)

    def _assign(self, s: Section, number: str, kid: str | None, how: str) -> None:
        self.assigned.append(AssignedNumber(s.document, s.position, number, kid, how, lines=s.lines))

    def _add_rule(self, kid: str, doc_id: str, s: Section, number: str, how: str) -> None:
        d = self.drafts[kid]
        if not any(r.document == doc_id for r in d.rules):
            d.rules.append(RuleRef(doc_id, doc_id, s.language, number, title=s.title,
                                   position=s.position, how=how))

    def _match_text(self, doc_id: str, sections: list[Section], era: Era | None) -> None:
        """Paragraphs outside keyword blocks: find them verbatim in the era's CR, if ingested."""
        if era is None or not sections:
            return
        release = next((r for k in era.versions if (r := self._release(k)) is not None), None)
        if release is None:
            return
        by_text: dict[str, str] = {}
        for s in release.sections():
            if s.number is not None and s.text:
                by_text.setdefault(_comparable(s.text), s.number)
        for s in sections:
            number = by_text.get(_comparable(s.text))
            if number is not None:
                self._assign(s, number, None, "text")

    # German glossary pages --------------------------------------------------------------------
    def _link_glossary_pages(self, parsed: ParsedDocument) -> None:
        doc = parsed.document
        by_position = {s.position: s for s in parsed.sections}
        linked_positions: set[int] = set()
        for s in parsed.sections:
            if s.kind != "keyword" or s.number is not None or not s.language.startswith("de"):
                continue
            name = s.keyword or s.title
            kid = self.find(name, s.language)
            if kid is None:
                self.unlinked.append(f"{doc.id}: {name}")
                continue
            linked_positions.add(s.position)
            d = self.drafts[kid]
            d.seed_entries.append(TextRef(doc.id, s.language, s.text, title=name, position=s.position))
            for part in name.split("/"):
                part = _VARIABLE.sub("", part.strip())
                if self.by_en.get(compact(part)) != kid:
                    d.add_variant(part)
        for m in parsed.mentions:
            if not doc.language.startswith("de") or doc.kind == "bilingual-dump":
                break  # English excerpts and rule dumps have rules, not glossary entries
            if m.section_position is None or m.section_position in linked_positions:
                continue
            target = by_position.get(m.section_position)
            kid = self.find(m.name, m.language)
            if target is not None and kid is not None and target.number is None and target.text:
                linked_positions.add(target.position)
                self.drafts[kid].seed_entries.append(
                    TextRef(doc.id, m.language, target.text, title=m.name, position=target.position)
                )
        for card in parsed.cards:
            kid = self.find(card.keyword, doc.language) if card.keyword else None
            ref = CardRef(doc.id, card.name_en, card.name_de, card.set_code, card.text, kid)
            self.cards.append(ref)
            if kid is None:
                continue
            d = self.drafts[kid]
            d.cards.append(ref)
            for reminder in _reminders(card.text, d.german() or [d.en]):
                d.reminders.append(TextRef(doc.id, doc.language.split("+")[0], reminder, title=card.name_en))


def _comparable(text: str) -> str:
    """Text with rule numbers removed: the excerpt lost its numbers, "rule 510" became "rule "."""
    return compact(_NUMBER_TOKEN.sub("", text))


def _reminders(text: str, names: Sequence[str]) -> list[str]:
    """Reminder texts: a parenthesis right after the keyword's name on a card."""
    out: list[str] = []
    for m in _REMINDER.finditer(text):
        before = fold(text[max(0, m.start() - 60) : m.start()])
        if any(re.search(rf"\b{re.escape(fold(n))}\b[^.()\n]{{0,12}}\s*$", before) for n in names):
            out.append(" ".join(m.group(1).split()))
    return out


def is_linked_release(document: Document) -> bool:
    """Is `document` linked as a release (an English CR), through its `_Release` lookups?"""
    return document.kind in CR_KINDS and document.language == "en"


def link(documents: Sequence[ParsedDocument], rows: Sequence[TermRow]) -> Linked:
    """Link `documents` with the term table `rows` (see the module docstring)."""
    releases = [_Release.of(p) for p in documents if is_linked_release(p.document)]
    others = [p for p in documents if not is_linked_release(p.document)]
    return link_releases(releases, others, rows, [p.document.id for p in documents])


def link_releases(
    releases: Sequence[_Release],
    others: Sequence[ParsedDocument],
    rows: Sequence[TermRow],
    order: Sequence[str],
) -> Linked:
    """`link` with the releases' lookups given (each built once per release, see
    ``keyword_index``); `order` is the documents' order in the store."""
    return _Linker(releases, others, rows, order).run()


def release_lookups(parsed: ParsedDocument) -> tuple[_Release, dict[str, Any], dict[str, Any]]:
    """One release's lookups, and their JSON (headings, the rest) that ``keyword_index`` keeps."""
    release = _Release.of(parsed)
    return release, release.to_dict(), release.lookups().to_dict()


def release_from(
    data: dict[str, Any],
    body: Callable[[], dict[str, Any]],
    load: Callable[[], ParsedDocument],
    known: dict[str, list[Any]],
) -> _Release:
    """A release's lookups from its kept JSON: the headings `data`, the rest read by `body` on
    first use, and what each keyword signature had in it (`known`)."""
    return _Release.from_dict(data, lambda: _Body.from_dict(body()), load, known)


def excerpt_numbers(linked: Linked, document: str) -> dict[int, str]:
    """``{section position: number}`` linking assigned in an unnumbered document."""
    return {a.position: a.number for a in linked.assigned if a.document == document}


__all__ = [
    "Linked",
    "excerpt_numbers",
    "is_linked_release",
    "link",
    "link_releases",
    "release_from",
    "release_lookups",
]
