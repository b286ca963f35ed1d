"""The whoosh index over every ingested document: schema, build, and opening it.

One whoosh document per numbered section, keyword section and glossary entry. Each language
has its own title, context, section-title, text and examples fields analyzed by that language's analyzer (see
``analysis``): a German section fills the ``*_de`` fields, an English one the ``*_en`` fields,
and the keyword names linking knows are added in *both* languages to the context fields, so
"banding" also finds the German "Bündnisfähigkeit" rules. Only keyword rules get context: a
generic section title is not a keyword's name.

The index is a derived artefact of the store (``Store.derived``): built on first use into a
temporary directory (whoosh writes it with up to two writer processes, one segment each) and
renamed into place, keyed by the
documents' sha256s, so a reader never sees half an index and a crash mid-build loses nothing.
Which documents a plain search covers (the newest CR per language plus documents without a
newer counterpart) is fixed for a given set of documents, so it is decided here and stored as
the ``scope`` field instead of being recomputed per query.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

from regelwerk.index.rules.lookup import current_numbers, keyword_links
from regelwerk.index.search.analysis import MAX_WORD, english, german
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.numbers import RuleNumber, lineage
from regelwerk.ingest.model.records import Document, GlossaryEntry, ParsedDocument, Section
from regelwerk.ingest.model.releases import newest_release

if TYPE_CHECKING:
    from regelwerk.index.store.corpus import Corpus

#: Bump when the schema or what goes into it changes, so old indexes are rebuilt.
INDEX_SALT = "search11-examples"
LANGUAGES = ("en", "de")
VOCAB_FILE = "vocabulary.json"
_WORD_SPLIT = re.compile(r"\w+")


def schema() -> Schema:
    en, de = english(), german()
    return Schema(
        key=ID(stored=True, unique=True),
        number=ID(stored=True),
        numpath=KEYWORD(),  # the number and its ancestors: "702", "702.22", "702.22j"
        current=ID(stored=True),
        title=STORED(),
        term=STORED(),
        text=STORED(),
        title_en=TEXT(analyzer=en),
        title_de=TEXT(analyzer=de),
        ctx_en=TEXT(analyzer=en),
        ctx_de=TEXT(analyzer=de),
        sect_en=TEXT(analyzer=en),
        sect_de=TEXT(analyzer=de),
        text_en=TEXT(analyzer=en),
        text_de=TEXT(analyzer=de),
        ex_en=TEXT(analyzer=en),  # a rule's "Example:" paragraphs, weighed apart from its text
        ex_de=TEXT(analyzer=de),
        language=ID(stored=True),
        document=ID(stored=True),
        version=ID(stored=True),
        kind=ID(stored=True),
        scope=ID(),
        position=NUMERIC(stored=True, sortable=True),
    )


def default_scope(docs: list[ParsedDocument]) -> set[tuple[str, str]]:
    """(document id, language) pairs a search covers without --version/--all-versions.

    The newest CR release per language, and every other document in a language no CR release
    covers (today: the German seeds); an undated English excerpt is superseded by any English
    CR release.
    """
    newest: dict[str, str] = {}
    for lang in {p.document.language for p in docs if p.document.is_release}:
        found = newest_release(docs, lang)
        if found is not None:
            newest[lang] = found.document.id
    out: set[tuple[str, str]] = set()
    for p in docs:
        d = p.document
        for lang in _languages(p):
            if d.is_release:
                if newest.get(lang) == d.id:
                    out.add((d.id, lang))
            elif lang not in newest:
                out.add((d.id, lang))
    return out


def _languages(parsed: ParsedDocument) -> set[str]:
    found = {s.language for s in parsed.sections} | {g.language for g in parsed.glossary}
    return found or set(parsed.document.language.split("+"))


def _numpath(number: str | None) -> str:
    return " ".join(lineage(number)) if number else ""


def _keyword_names(library: Corpus) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """``(document, rule number) -> (English names, German names)`` from linking's keywords."""
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
    links = keyword_links(library)
    assigned = links.excerpt_numbers(parsed.document.id)
    return {pos: (num, links.current(parsed.document.id, num)) for pos, num in assigned.items()}


def _records(library: Corpus) -> Iterator[dict[str, Any]]:
    """One whoosh document per indexable section and per glossary entry of every document."""
    docs = library.store.all()
    currents = current_numbers(library, docs)
    names = _keyword_names(library)
    scope = default_scope(docs)
    for parsed in docs:
        d = parsed.document
        numbers = _Numbers(currents, _assigned_numbers(library, parsed), names)
        titles: dict[tuple[str | None, str], Section] = {
            (s.number, s.language): s for s in parsed.sections if s.number
        }
        for s in parsed.sections:
            if s.kind not in ("front", "credits", "chapter"):
                yield _section_record(d, s, titles, numbers, (d.id, s.language) in scope)
        for g in parsed.glossary:
            yield _glossary_record(d, g, (d.id, g.language) in scope)


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
    in_scope: bool,
) -> dict[str, Any]:
    ctx: dict[str, list[str]] = {"en": [], "de": []}
    parent = titles.get((s.parent, s.language)) if s.parent else None
    # shown with the hit: its own title, else the nearest titled ancestor's (704.5q ->
    # "State-Based Actions"); the context field below still takes only the parent's
    above = (titles.get((n, s.language)) for n in lineage(s.parent or ""))
    title = s.title or next((t.title for t in above if t is not None and t.title), "")
    rule_number = s.number if s.kind == "rule" else s.parent
    given, given_current = numbers.assigned.get(s.position, (None, None))
    if given is not None:
        rn = RuleNumber.parse(given)
        rule_number = str(rn if rn.letter is None else rn.parent)
    kw = numbers.names.get((d.id, rule_number or ""))
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
    # The titles of the sections a rule sits in ("Tokens" for 111.2, "Untap Step" for 502.4):
    # what the rule is about even where its own words do not say it (questions weigh it).
    ancestors = (titles.get((n, s.language)) for n in lineage(s.parent or ""))
    sect = " ".join(t.title for t in ancestors if t is not None and t.title)
    text = s.text if s.text != s.title else ""
    body = "\n".join([text, *s.examples])
    examples = "\n".join(s.examples)
    return {
        "key": f"{d.id}#{s.position}",
        "number": s.number,
        "numpath": _numpath(s.number),
        "current": numbers.currents.get((d.id, s.number)) if s.number else given_current,
        "title": title,
        "term": None,
        "text": body or s.title,
        f"title_{s.language}": s.title or s.keyword or "",
        "ctx_en": " ".join(ctx["en"]),
        "ctx_de": " ".join(ctx["de"]),
        f"sect_{s.language}": sect,
        f"text_{s.language}": text,
        f"ex_{s.language}": examples,
        "language": s.language,
        "document": d.id,
        "version": d.version,
        "kind": s.kind,
        "scope": "default" if in_scope else "other",
        "position": s.position,
    }


def _glossary_record(d: Document, g: GlossaryEntry, in_scope: bool) -> dict[str, Any]:
    return {
        "key": f"{d.id}#g{g.position}",
        "number": None,
        "numpath": "",
        "current": None,
        "title": g.term,
        "term": g.term,
        "text": g.text,
        f"title_{g.language}": g.term,
        f"text_{g.language}": g.text,
        "language": g.language,
        "document": d.id,
        "version": d.version,
        "kind": "glossary",
        "scope": "default" if in_scope else "other",
        "position": 100000 + g.position,
    }


def build_index(library: Corpus, folder: Path) -> None:
    """Write the whole index (one writer, in this process) plus the vocabulary.

    whoosh's multiprocessing writer nearly halved the build (2.3 s -> 1.3 s for the 2026 CR),
    but its workers are not tied to their parent: after a kill -9 they ran on for minutes. A
    build in one process dies with it and leaves only a temp dir the next build removes.
    """
    fields = schema()
    names = set(fields.names())
    ix = whoosh_index.create_in(str(folder), fields)
    writer = ix.writer(limitmb=128)
    seen: Counter[str] = Counter()
    try:
        for rec in _records(library):
            writer.add_document(**{k: v for k, v in rec.items() if v is not None and k in names})
            seen.update(_WORD_SPLIT.findall(f"{rec['title']} {rec['text']}".lower()))
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    vocab: Counter[str] = Counter()
    spelled: dict[str, tuple[int, str]] = {}
    for word, n in seen.items():
        if len(word) < 3 or len(word) > MAX_WORD or word.isdigit():
            continue
        folded = fold(word)
        vocab[folded] += n
        if n > spelled.get(folded, (0, ""))[0]:
            spelled[folded] = (n, word)
    words = {w: [n, spelled[w][1]] for w, n in vocab.items()}
    (folder / VOCAB_FILE).write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")


def index_dir(library: Corpus) -> Path:
    """The current index directory, building it first if the documents changed."""
    from regelwerk.index.terms.shipped import stamp

    return library.store.derived(
        "search", lambda tmp: build_index(library, tmp), salt=f"{INDEX_SALT}-{stamp()}"
    )


def open_index(library: Corpus) -> Any:
    return whoosh_index.open_dir(str(index_dir(library)))


def load_vocabulary(folder: Path) -> dict[str, tuple[int, str]]:
    """``folded word -> (count, most common spelling)`` of every indexed title and text word."""
    raw = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
    return {w: (int(v[0]), str(v[1])) for w, v in raw.items()}


__all__ = ["LANGUAGES", "build_index", "default_scope", "index_dir", "open_index", "schema"]
