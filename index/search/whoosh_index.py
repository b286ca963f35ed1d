"""The whoosh index over every ingested document: schema, what goes into it, and opening it.

One whoosh document per distinct *unit*: the indexed fields of a numbered section, keyword
section or glossary entry. A rule that reads the same in forty releases is one unit with forty
rows in the membership table (``members``), which also says which units a plain search covers,
where each hit occurs (document, version, position) and each occurrence's number today. That
number is no field of the unit: a new release moves the numbers today of thousands of older
occurrences (a renumbered section drags along every older release of its rules), and a
whoosh document cannot change, so keeping it in the table lets an added release write only
its own new units.
Each language has its own title, context, section-title, text and examples fields analyzed
by that language's analyzer (see
``analysis``): a German section fills the ``*_de`` fields, an English one the ``*_en`` fields,
and the keyword names linking knows are added in *both* languages to the context fields, so
"banding" also finds the German "Bündnisfähigkeit" rules. Only keyword rules get context: a
generic section title is not a keyword's name.

The index is a derived artefact of the store (``Store.derived``), keyed by the documents'
sha256s and renamed into place, so a reader never sees half an index and a crash mid-build
loses nothing. It grows per release: the builder (``incremental``) starts from the previous
artefact (its immutable segment files linked, not copied) and writes only the units of the
documents that changed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.formats import Positions
from whoosh.util.text import utf8encode

from regelwerk.index.search import asked
from regelwerk.index.search.analysis import MAX_WORD, english, german, word_positions
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.numbers import RuleNumber, find_references, lineage
from regelwerk.ingest.model.releases import ReleaseKey, is_release, release_key

if TYPE_CHECKING:
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest.model.records import Document, GlossaryEntry, ParsedDocument, Section

#: Bump when the schema or what goes into it changes, so old indexes are rebuilt.
INDEX_SALT = "search24-asked4"
LANGUAGES = ("en", "de")
VOCAB_FILE = "vocabulary.json"
_WORD_SPLIT = re.compile(r"\w+")


#: How many values a text field remembers the analysis of (per field, per build).
REMEMBERED = 1 << 14


class RememberedText(TEXT):  # type: ignore[misc]
    """A text field that analyzes each value once per build: units that differ only in their
    number or context repeat the other fields' text (the archive writes 24,000 units whose
    text and section-title fields hold about 30% repeated characters), and whoosh analyzes
    every field of every document anew. The postings of a value are the same every time, so
    the index is the same; the memo is never pickled with the schema.

    A value is analyzed word by word (``analysis.word_positions``): the same terms at the same
    positions, in the same order, as whoosh's Positions format gathers them from the whole
    pipeline, in a third of the time (a test compares the two on every text of a CR)."""

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_memo"}

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if kwargs or not isinstance(value, str):
            return super().index(value, **kwargs)  # type: ignore[no-any-return]
        memo: dict[str, list[tuple[bytes, int, float, bytes]]] = self.__dict__.setdefault("_memo", {})
        found = memo.get(value)
        if found is None:
            if len(memo) >= REMEMBERED:
                memo.clear()
            found = memo[value] = self._postings(value)
        return iter(found)

    def _postings(self, value: str) -> list[tuple[bytes, int, float, bytes]]:
        """What ``TEXT.index`` gives for `value`: (term, frequency, weight, encoded positions)
        per term, in the order of each term's first position."""
        fmt = self.format
        poses = word_positions(self.analyzer, value) if type(fmt) is Positions else None
        if poses is None:
            return list(super().index(value))
        boost = fmt.field_boost
        return [(utf8encode(t)[0], len(p), float(len(p)) * boost, fmt.encode(p)) for t, p in poses.items()]


def schema() -> Schema:
    en, de = english(), german()
    return Schema(
        key=ID(stored=True, unique=True),  # a hash of the unit's fields
        uid=NUMERIC(stored=True, sortable=True),  # its row in the membership table
        number=ID(stored=True),
        numpath=KEYWORD(),  # the number and its ancestors: "702", "702.22", "702.22j"
        title=STORED(),
        term=STORED(),
        text=STORED(),
        title_en=RememberedText(analyzer=en),
        title_de=RememberedText(analyzer=de),
        ctx_en=RememberedText(analyzer=en),
        ctx_de=RememberedText(analyzer=de),
        name_en=RememberedText(analyzer=en),  # a section's term names: lookups weigh them, questions not
        name_de=RememberedText(analyzer=de),
        sect_en=RememberedText(analyzer=en),
        sect_de=RememberedText(analyzer=de),
        text_en=RememberedText(analyzer=en),
        text_de=RememberedText(analyzer=de),
        ex_en=RememberedText(analyzer=en),  # a rule's "Example:" paragraphs, weighed apart from its text
        ex_de=RememberedText(analyzer=de),
        language=ID(stored=True),
        kind=ID(stored=True),
        order=NUMERIC(sortable=True),  # rule number order: 702.22 < 702.22a < 702.23
        scope=ID(),  # "default": a plain search covers it (see ``members``), else "other"
    )


def default_scope(docs: Iterable[tuple[str, str, str | None, str, frozenset[str]]]) -> set[tuple[str, str]]:
    """(document id, language) pairs a search covers without --version/--all-versions, from
    ``(id, kind, version, document language, languages of its text)`` of every document.

    The newest CR release per language, and every other document in a language no CR release
    covers (today: the German seeds); an undated English excerpt is superseded by any English
    CR release.
    """
    docs = list(docs)
    newest: dict[str, tuple[ReleaseKey, str]] = {}
    for doc_id, kind, version, language, _ in docs:
        if is_release(kind, version):
            key = release_key(kind, version)
            if language not in newest or key > newest[language][0]:
                newest[language] = (key, doc_id)
    out: set[tuple[str, str]] = set()
    for doc_id, kind, version, _, langs in docs:
        for lang in langs:
            if is_release(kind, version):
                if lang in newest and newest[lang][1] == doc_id:
                    out.add((doc_id, lang))
            elif lang not in newest:
                out.add((doc_id, lang))
    return out


def languages(parsed: ParsedDocument) -> frozenset[str]:
    """The languages of a document's text (a bilingual dump has two)."""
    return frozenset(_languages(parsed))


def _languages(parsed: ParsedDocument) -> set[str]:
    found = {s.language for s in parsed.sections} | {g.language for g in parsed.glossary}
    return found or set(parsed.document.language.split("+"))


def _numpath(number: str | None) -> str:
    return " ".join(lineage(number)) if number else ""


def _keyword_names(library: Corpus) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """``(document, rule number) -> (English names, German names)`` from linking's keywords."""
    from regelwerk.index.rules.lookup import keyword_links

    out: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for k in keyword_links(library).keywords():
        en = (k.en,)
        de = tuple(k.german_names)
        for ref in k.rules:
            out.setdefault((ref.document, ref.number), (en, de))
    return out


def _assigned_numbers(library: Corpus, parsed: ParsedDocument) -> dict[int, tuple[str, str | None]]:
    """``position -> (number linking gave it, current number)`` for a document that lost its
    numbers (the excerpt seed), so its hits say where they live in the CR."""
    if all(s.number for s in parsed.sections if s.kind in ("keyword", "paragraph")):
        return {}
    from regelwerk.index.rules.lookup import keyword_links

    links = keyword_links(library)
    assigned = links.excerpt_numbers(parsed.document.id)
    return {pos: (num, links.current(parsed.document.id, num)) for pos, num in assigned.items()}


#: One unit occurrence: (document id, position, its number today, the unit's fields).
Occurrence = tuple[str, int, str | None, dict[str, Any]]


def unit_records(library: Corpus, docs: list[ParsedDocument]) -> Iterator[Occurrence]:
    """Every indexable section and glossary entry of `docs` as a unit, where it occurs and
    its number there today (kept apart from the unit: see the module docstring)."""
    from regelwerk.index.rules.lookup import current_numbers

    currents = current_numbers(library, docs)
    names = _keyword_names(library)
    for parsed in docs:
        d = parsed.document
        numbers = _Numbers(currents, _assigned_numbers(library, parsed), names)
        titles: dict[tuple[str | None, str], Section] = {
            (s.number, s.language): s for s in parsed.sections if s.number
        }
        glossed = _glossed(parsed.glossary, titles)
        for s in parsed.sections:
            if s.kind not in ("front", "credits", "chapter"):
                record = _section_record(d, s, titles, numbers)
                gloss = glossed.get((s.number, s.language))
                if gloss:
                    key = f"sect_{s.language}"
                    record[key] = " ".join(filter(None, [record.get(key), *gloss]))
                given = numbers.assigned.get(s.position, (None, None))[1]
                today = numbers.currents.get((d.id, s.number)) if s.number else given
                if s.kind in ("rule", "subrule"):  # not whoosh fields: ``members.write_asked``
                    record.update(asked.fields_for(today, s.text))
                yield d.id, s.position, today, record
        for g in parsed.glossary:
            yield d.id, 100000 + g.position, None, _glossary_record(g)


#: `unit_key`'s JSON for a value that is no text, made once (``json.dumps`` with options builds
#: an encoder per call).
_KEY_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False)
#: The CR chapters whose title joins their rules' section titles (``sect``): Multiplayer Rules
#: and Casual Variants name a way of playing that their rules' own words often leave unsaid
#: (800.4a never says "multiplayer"). The other chapters' titles ("Spells, Abilities, and
#: Effects", "Card Types", "Turn Structure") are words of most rules' text already: with every
#: chapter's title the dev questions scored the same (de 0.686 -> 0.685, en 0.724 -> 0.722
#: MRR@10), with these two alone better (de 0.694, en 0.731).
TOPIC_CHAPTERS = frozenset("89")
#: A glossary entry names the rules it explains in its first this many references.
GLOSSED_CITES = 2


def _glossed(
    glossary: Iterable[GlossaryEntry], titles: dict[tuple[str | None, str], Section]
) -> dict[tuple[str | None, str], list[str]]:
    """``(rule number, language) -> the terms of the glossary entries citing it``.

    The glossary names in a player's words what a rule is about ("Dies" for 700.4, "Summoning
    Sickness Rule" for 302.6, "Legend Rule" for 704.5j), so its term joins the section-titles
    field (``sect``) of the rules it cites; that field counts for questions only. (The whole
    definition there scored lower on the dev questions: its words are the rule's own.) A
    cited heading ("See rule 701.21", "701.21. Sacrifice") passes the entry to its first
    subrule, which says what the heading names. A cited section ("See rule 506") keeps the
    entry on its heading: passed to the section's first rule (506.1) as well, dev MRR@10 fell
    (session 16, before ``dev2.tsv``: de 0.709 -> 0.703, en 0.767 -> 0.756); its rules' section
    titles say the same already.
    """
    out: dict[tuple[str | None, str], list[str]] = {}
    for g in glossary:
        for n in _cited(g.text):
            head = titles.get((n, g.language))
            if head is not None and (head.text or "").strip() == (head.title or "").strip():
                n = f"{n}a"
            if (n, g.language) in titles:
                out.setdefault((n, g.language), []).append(g.term)
    return out


@functools.lru_cache(maxsize=1 << 13)
def _cited(text: str) -> tuple[str, ...]:
    """The rules a glossary entry explains (cached: the archive repeats each entry's text in
    release after release)."""
    return find_references(text)[:GLOSSED_CITES]


_UNKEYED = frozenset(("key", "uid", "order"))


def unit_key(record: dict[str, Any]) -> str:
    """The identity of a unit: a hash of every field it is indexed and shown with, by name,
    each value with its length (so no two records hash alike by where one value ends). The
    archive keys 270,000 occurrences; hashing the parts costs a third of encoding JSON."""
    digest = hashlib.sha1()
    for name in sorted(record):
        value = record[name]
        if value and name not in _UNKEYED:
            text = value if isinstance(value, str) else _KEY_JSON.encode(value)
            digest.update(f"{name}\0{len(text)}\0{text}\0".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


#: The sections whose rules a question compares as templates (``Members.templates``).
TEMPLATED_SECTIONS = ("701", "702")


def template_of(record: dict[str, Any]) -> str | None:
    """A 701/702 unit's template (``rerank.template`` of its stored text and title), None for
    any other unit. Stored at build time, so ``rerank.template`` changing needs INDEX_SALT
    bumped (a test compares the two on a built index)."""
    from regelwerk.index.search.rerank import template

    if not any(s in TEMPLATED_SECTIONS for s in lineage(record.get("number") or "")):
        return None
    return template(str(record.get("text") or ""), str(record.get("title") or ""))


def number_order(number: str | None) -> int:
    """A sort key in rule number order (702 < 702.22 < 702.22a < 702.23); 0 for no number."""
    if not number:
        return 0
    try:
        rn = RuleNumber.parse(number)
    except InputError:
        return 0
    letter = 0 if rn.letter is None else ord(rn.letter[0]) - ord("a") + 1
    return (rn.section * 10000 + (rn.rule or 0)) * 100 + letter


def document_fields(
    record: dict[str, Any], names: set[str], key: str | None = None, blank: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The whoosh document of a unit record (its key, unless given, and order filled in).

    Empty text of the fields in `blank` is left out: in a field that stores nothing and has no
    column an empty value writes nothing either (no term, no length), but whoosh goes through
    the field for it (a CR's units leave half their language's text fields empty)."""
    out = {k: v for k, v in record.items() if v is not None and k in names and (v != "" or k not in blank)}
    out["key"] = key or unit_key(record)
    out["order"] = number_order(record.get("number"))
    return out


@dataclass(frozen=True)
class _Numbers:
    """What linking says about one document's numbers: today's number of each, the numbers
    it assigned to unnumbered paragraphs, and the keyword names of each keyword rule."""

    currents: dict[tuple[str, str], str | None]
    assigned: dict[int, tuple[str, str | None]]
    names: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]


def _section_record(
    d: Document,
    s: Section,
    titles: dict[tuple[str | None, str], Section],
    numbers: _Numbers,
) -> dict[str, Any]:
    ctx: dict[str, list[str]] = {"en": [], "de": []}
    parent = titles.get((s.parent, s.language)) if s.parent else None
    # shown with the hit: its own title, else the nearest titled ancestor's (704.5q ->
    # "State-Based Actions"); the context field below still takes only the parent's
    above = (titles.get((n, s.language)) for n in lineage(s.parent or ""))
    title = s.title or next((t.title for t in above if t is not None and t.title), "")
    rule_number = s.number if s.kind == "rule" else s.parent
    given = numbers.assigned.get(s.position, (None, None))[0]
    if given is not None:
        rn = RuleNumber.parse(given)
        rule_number = str(rn if rn.letter is None else rn.parent)
    kw = numbers.names.get((d.id, rule_number or ""))
    # A section that is a term's own heading ("122. Counters", "303. Enchantments") has the
    # term's names in both languages in fields of their own (``name``), which a lookup weighs as
    # it weighs a keyword rule's context and a question not at all: a lookup of the German name
    # ("Marke", "Verzauberung") found the keyword rule that shares the English stem first (701.6
    # Counter, 702.5 Enchant, named in their context), on one release as on 104.
    named = numbers.names.get((d.id, s.number)) if s.kind == "section" and s.number else None
    if kw is not None:
        # A keyword rule's title names what every subrule is about ("Trample"); a
        # generic section's ("Life", "Counters") would pull its every subrule into
        # any question using that word, ahead of the rule that answers it.
        if parent is not None and parent.title and not s.title:
            ctx[s.language].append(parent.title)
        ctx["en"].extend(kw[0])
        ctx["de"].extend(kw[1])
    if s.keyword and s.keyword != s.title:
        ctx[s.language].append(s.keyword)
    # The titles of the sections a rule sits in ("Tokens" for 111.2, "Untap Step" for 502.4),
    # and of some chapters ("Multiplayer Rules" for 800.4a, `TOPIC_CHAPTERS`): what the rule
    # is about even where its own words do not say it (questions weigh it).
    ancestors = (titles.get((n, s.language)) for n in (*_chapter(s.number), *lineage(s.parent or "")))
    sect = " ".join(t.title for t in ancestors if t is not None and t.title)
    text = s.text if s.text != s.title else ""
    body = "\n".join([text, *s.examples])
    examples = "\n".join(s.examples)
    return {
        "number": s.number,
        "numpath": _numpath(s.number),
        "title": title,
        "term": None,
        "text": body or s.title,
        f"title_{s.language}": s.title or s.keyword or "",
        "ctx_en": " ".join(ctx["en"]),
        "ctx_de": " ".join(ctx["de"]),
        "name_en": " ".join(named[0]) if named else "",
        "name_de": " ".join(named[1]) if named else "",
        f"sect_{s.language}": sect,
        f"text_{s.language}": text,
        f"ex_{s.language}": examples,
        "language": s.language,
        "kind": s.kind,
    }


def _chapter(number: str | None) -> tuple[str, ...]:
    """The chapter of a CR rule's number when it is one of `TOPIC_CHAPTERS` ("8" for
    800.4a), else ()."""
    if number and len(number) >= 3 and number[:3].isdigit() and number[0] in TOPIC_CHAPTERS:
        return (number[0],)
    return ()


def _glossary_record(g: GlossaryEntry) -> dict[str, Any]:
    return {
        "number": None,
        "numpath": "",
        "title": g.term,
        "term": g.term,
        "text": g.text,
        f"title_{g.language}": g.term,
        f"text_{g.language}": g.text,
        "language": g.language,
        "kind": "glossary",
    }


def vocabulary(spelled: Iterable[tuple[str, int]]) -> dict[str, list[Any]]:
    """``folded word -> [count, most common spelling]`` from (lower-cased word, count) pairs."""
    vocab: dict[str, list[Any]] = {}
    best: dict[str, int] = {}
    for word, n in spelled:
        if len(word) < 3 or len(word) > MAX_WORD or word.isdigit() or n <= 0:
            continue
        folded = fold(word)
        entry = vocab.setdefault(folded, [0, word])
        entry[0] += n
        if n > best.get(folded, 0):
            best[folded] = n
            entry[1] = word
    return vocab


def words_of(record: dict[str, Any]) -> list[str]:
    """The words of a unit's title and text, lower-cased (what the vocabulary counts)."""
    return _WORD_SPLIT.findall(f"{record.get('title') or ''} {record.get('text') or ''}".lower())


def index_dir(library: Corpus) -> Path:
    """The current index directory, growing the previous one first if the documents changed."""
    from regelwerk.index.search.incremental import grow
    from regelwerk.index.terms.shipped import stamp

    salt = f"{INDEX_SALT}-{stamp()}-{asked.stamp()}"
    return library.store.derived("search", lambda tmp: grow(library, tmp, salt), salt=salt)


def open_index(library: Corpus) -> Any:
    return whoosh_index.open_dir(str(index_dir(library)))


def load_vocabulary(folder: Path) -> dict[str, tuple[int, str]]:
    """``folded word -> (count, most common spelling)`` of every indexed title and text word."""
    raw = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
    return {w: (int(v[0]), str(v[1])) for w, v in raw.items()}


__all__ = [
    "LANGUAGES",
    "Occurrence",
    "default_scope",
    "document_fields",
    "index_dir",
    "languages",
    "open_index",
    "schema",
    "template_of",
    "unit_key",
    "unit_records",
    "vocabulary",
    "words_of",
]
