"""Term lookup: a user's spelling of a keyword or card name to ranked keyword records.

Matching goes from strict to loose and stops at the first level that finds something, so an
exact hit is never drowned in fuzzy noise: exact names (English, current German) and the
other senses of an ambiguous word ("counter": Counter and Counters, from ``aliases.tsv``),
synonyms (German variants and old names, names documents use, players' and fan words), example
cards, German inflections
("Giftmarken"), then rapidfuzz QRatio over the whole vocabulary. Every comparison is on
``compact`` forms, so case, umlaut spelling, ß, spaces and hyphens never matter. The
vocabulary is prepared once per keyword index.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from regelwerk.index.terms.check import check_query
from regelwerk.ingest.model.errors import UnknownKeyword
from regelwerk.ingest.model.fold import compact
from regelwerk.ingest.model.message import N_, msg
from regelwerk.ingest.model.stemming import StemIndex

if TYPE_CHECKING:
    from regelwerk.index.linking.keyword import CardRef, Keyword
    from regelwerk.index.linking.keyword_index import KeywordIndex
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.index.terms.aliases import Alias

FUZZY_CUTOFF = 75.0
#: Rank of each way of matching at equal score (lower first).
_HOW_ORDER = {"exact": 0, "sense": 1, "synonym": 2, "card": 3, "inflection": 4, "fuzzy": 5}
#: Version of the vocabulary's JSON shape (`Vocabulary.to_json`): part of the keyword links'
#: salt, so stored vocabularies are rebuilt when it changes.
SCHEMA = 1


class _Entry(NamedTuple):
    """One name in the vocabulary (a tuple, so thousands load from JSON at once)."""

    key: str  # compact form
    name: str  # as written
    how: str  # "exact", "sense", "synonym" or "card"
    keyword: str | None = None  # Keyword.id
    card: int | None = None  # index into KeywordIndex.cards()
    alias: tuple[str, ...] | None = None  # the aliases.tsv row's cells, for a word people say


@dataclass(frozen=True)
class TermMatch:
    """One ranked answer: a keyword, or a card (with the keyword it shows, if linked)."""

    name: str  # the vocabulary entry that matched
    how: str
    score: float
    keyword: Keyword | None = None
    card: CardRef | None = None
    alias: Alias | None = None

    def to_dict(self) -> dict[str, Any]:
        k = self.keyword
        out: dict[str, Any]
        if self.card is not None:
            c = self.card
            out = {"en": c.name_en, "de": c.name_de, "kind": "card", "set": c.set_code,
                   "document": c.document, "text": c.text,
                   "keyword": None if k is None else {"id": k.id, "en": k.en, "de": k.de},
                   "rules": {} if k is None else k.rules_by_key()}
        else:
            assert k is not None
            out = {
                "id": k.id, "en": k.en, "de": k.de, "de_variants": list(k.de_variants),
                "de_old": list(k.de_old), "kind": k.kind, "rules": k.rules_by_key(),
                "number": k.number or None,
                "documents": [r.to_dict() for r in k.rules],
                "glossary": k.glossary[0].text if k.glossary else None,
                "seed_entries": [e.to_dict() for e in k.seed_entries],
                "reminders": [r.text for r in k.reminders],
                "cards": [{"en": c.name_en, "de": c.name_de, "set": c.set_code} for c in k.cards],
            }
        out.update({"score": round(self.score, 1), "match": self.how, "matched": self.name,
                    "alias": None if self.alias is None else self.alias.to_dict()})
        return out


class Vocabulary:
    """Every name a keyword or card goes by, in compact form, for exact and fuzzy lookup.

    Made from a keyword index (`of`) and kept in derived data (`term_vocabulary`), so a lookup
    reads only these names; the keyword records are loaded when there is a hit to show.
    """

    def __init__(self, entries: list[_Entry], index: Callable[[], KeywordIndex]) -> None:
        self.entries = entries
        self.keys = [e.key for e in entries]
        self.by_key: dict[str, list[_Entry]] = {}
        for e in entries:
            self.by_key.setdefault(e.key, []).append(e)
        # Inflected forms ("Trampelschadens", "Giftmarken") meet their entry by stem.
        self.by_stem = {lang: StemIndex(self.by_key, lang) for lang in ("de", "en")}
        self._load_index = index
        self._index: KeywordIndex | None = None
        self._cards: list[CardRef] | None = None

    @classmethod
    def of(cls, index: KeywordIndex) -> Vocabulary:
        """The names of `index`'s keywords, of the words people say for them (``aliases.tsv``)
        and of its example cards."""
        from regelwerk.index.terms.aliases import load_aliases

        entries: list[_Entry] = []
        for k in index.keywords():
            entries.append(_Entry(compact(k.en), k.en, "exact", k.id))
            if k.de:
                entries.append(_Entry(compact(k.de), k.de, "exact", k.id))
            titles = [r.title for r in k.rules if r.title] + [e.title for e in k.seed_entries]
            for name in (*k.de_variants, *k.de_old, *titles):
                entries.append(_Entry(compact(name), name, "synonym", k.id))
        by_row = {(k.en, k.kind): k.id for k in index.keywords()}
        for alias in load_aliases():
            target = by_row.get((alias.en, alias.kind))
            if target is not None:
                how = "sense" if alias.status == "sense" else "synonym"
                cells = (alias.word, alias.lang, alias.en, alias.kind, alias.status, alias.note)
                entries.append(_Entry(compact(alias.word), alias.word, how, target, alias=cells))
        for i, c in enumerate(index.cards()):
            for card_name in (c.name_en, c.name_de):
                if card_name:
                    entries.append(_Entry(compact(card_name), card_name, "card", c.keyword, i))
        return cls([e for e in entries if e.key], lambda: index)

    def to_json(self) -> str:
        return json.dumps({"schema": SCHEMA, "entries": self.entries}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, index: Callable[[], KeywordIndex]) -> Vocabulary:
        data = json.loads(text)
        if data.get("schema") != SCHEMA:
            raise ValueError(f"vocabulary schema {data.get('schema')!r}; expected {SCHEMA}")
        entries = [_Entry(k, n, h, kw, c, None if a is None else tuple(a))
                   for k, n, h, kw, c, a in data["entries"]]
        return cls(entries, index)

    @property
    def index(self) -> KeywordIndex:
        """The keyword records the names belong to, loaded on first need."""
        if self._index is None:
            self._index = self._load_index()
        return self._index

    def _card(self, i: int) -> CardRef:
        if self._cards is None:
            self._cards = self.index.cards()
        return self._cards[i]

    def lookup(self, query: str) -> list[TermMatch]:
        key = compact(query)
        hits = [(e, 100.0, e.how) for e in self.by_key.get(key, [])]
        if not hits:
            for lang in ("de", "en") if len(key) >= 4 else ():
                inflected = [e for name in self.by_stem[lang].find(key) for e in self.by_key[name]]
                if inflected:
                    hits = [(e, 95.0, "inflection") for e in dict.fromkeys(inflected)]
                    break
        if not hits:
            from rapidfuzz import fuzz, process

            found = process.extract(key, self.keys, scorer=fuzz.QRatio,
                                    score_cutoff=FUZZY_CUTOFF, limit=50)
            hits = [(self.entries[i], float(score), "fuzzy") for _, score, i in found]
        return self._rank(hits)

    def nearest(self, query: str, count: int = 3) -> list[str]:
        """The closest names at any score, for a "did you mean" suggestion."""
        from rapidfuzz import fuzz, process

        found = process.extract(compact(query), self.keys, scorer=fuzz.QRatio, limit=count * 4)
        names = [self.entries[i].name for _, _, i in found]
        return list(dict.fromkeys(names))[:count]

    def _rank(self, hits: list[tuple[_Entry, float, str]]) -> list[TermMatch]:
        best: dict[tuple[str, str | int | None], TermMatch] = {}
        for e, score, how in hits:
            if e.how == "card" and how != "fuzzy":
                how = "card"
            target: tuple[str, str | int | None] = (
                ("card", e.card) if e.card is not None else ("kw", e.keyword)
            )
            match = TermMatch(
                e.name, how, score,
                keyword=self.index.get(e.keyword) if e.keyword else None,
                card=self._card(e.card) if e.card is not None else None,
                alias=_alias(e.alias),
            )
            old = best.get(target)
            if old is None or (score, -_HOW_ORDER[how]) > (old.score, -_HOW_ORDER[old.how]):
                best[target] = match
        return sorted(best.values(), key=lambda m: (-m.score, _HOW_ORDER[m.how], m.name.casefold()))


def _alias(cells: tuple[str, ...] | None) -> Alias | None:
    if cells is None:
        return None
    from regelwerk.index.terms.aliases import Alias

    return Alias(*cells)


@functools.cache
def vocabulary(index: KeywordIndex) -> Vocabulary:
    """`index`'s vocabulary, made in memory once per index."""
    return Vocabulary.of(index)


#: Vocabularies read from derived data, by artefact path (its files never change once in place).
_READ: dict[Path, Vocabulary] = {}


def term_vocabulary(library: Corpus) -> Vocabulary:
    """The vocabulary of `library`'s keyword links, read from the file linking writes beside
    them (``keyword_index.VOCABULARY``): a cold ``term`` reads a list of names, and loads the
    keyword records only for a hit (``term Tatzelwurm``, a card, loads none)."""
    from regelwerk.index.linking.keyword_index import VOCABULARY, keyword_artefact, load_index

    path = keyword_artefact(library)
    found = _READ.get(path)
    if found is None:
        text = (path / VOCABULARY).read_text(encoding="utf-8")
        found = _READ[path] = Vocabulary.from_json(text, lambda: load_index(path))
    return found


def lookup(names: Vocabulary | KeywordIndex, query: str, limit: int = 10) -> list[TermMatch]:
    """Ranked matches for `query`, best first; UnknownKeyword (with suggestions) if none.
    `names`: a vocabulary, or a keyword index to make one of."""
    text = check_query(query)
    vocab = names if isinstance(names, Vocabulary) else vocabulary(names)
    matches = vocab.lookup(text)
    if not matches:
        near = vocab.nearest(text)
        if near:
            raise UnknownKeyword(msg(N_("no keyword or card matches {text!r}; nearest: {nearest}"),
                                     text=text, nearest=", ".join(near)))
        raise UnknownKeyword(msg(N_("no keyword or card matches {text!r}"), text=text))
    return matches[:limit]
