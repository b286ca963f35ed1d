"""The keyword index: linked Keyword records for the library's current documents.

This is the API other features (search, ``term``, the engine) use:

    from regelwerk.index.linking.keyword_index import keyword_index
    kw = keyword_index(library)
    kw.find("Bündnisfähigkeit")            # -> Keyword(en="Banding", ...)
    kw.current("cr-en-2011-02-04", "702.19j")  # -> "702.22j" (newest English CR)
    kw.translate("Giftmarken", "de")        # -> ["poison counter"]

Linking runs once per store fingerprint and term-table version; its result is stored as JSON
through ``Store.derived`` (atomic, rebuilt exactly when documents change) and held in memory
per process. Name comparisons use ``regelwerk.ingest.model.fold`` like everything else.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from regelwerk.ingest.model.fold import compact

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from regelwerk.index.linking.keyword import CardRef, Era, Keyword
    from regelwerk.index.linking.link import Linked
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest.model.records import ParsedDocument

#: Bump when Linked's JSON shape or the linking rules change, to force a rebuild.
SCHEMA = 7
#: Linking's lookups of each release (``_lookups``), beside the per-fingerprint artefacts.
LOOKUPS = "releases.sqlite"
ARTEFACT = "keywords"
_FILE = "keywords.json"
#: Every name of a keyword or card, for ``term`` (``terms.lookup.Vocabulary``), written beside
#: the records at build time so a cold lookup reads only the names.
VOCABULARY = "vocabulary.json"
#: Every keyword's names (`names_rows`), beside the records, so a search translating a word
#: reads a small file instead of decoding every release's keyword records.
NAMES = "names.json"

#: A word shorter than this is matched as written only, never by its stem.
_MIN_STEMMED = 4


class KeywordIndex:
    """Lookups over one linking result. Immutable; cheap to share."""

    def __init__(self, linked: Linked) -> None:
        self.linked = linked
        self._by_id = {k.id: k for k in linked.keywords}
        self._versions = dict(linked.versions)
        self._eras = {e.document: e for e in linked.eras}
        self._by_ref: dict[tuple[str, str], tuple[int, Keyword]] | None = None
        self.names: KeywordNames[Keyword] = KeywordNames(linked.keywords)

    # records --------------------------------------------------------------------------------
    def keywords(self) -> list[Keyword]:
        return list(self.linked.keywords)

    def get(self, keyword_id: str) -> Keyword | None:
        return self._by_id.get(keyword_id)

    def cards(self) -> list[CardRef]:
        return list(self.linked.cards)

    def era(self, document: str) -> Era | None:
        """How an undated document's numbering was dated (None for dated releases)."""
        return self._eras.get(document)

    def excerpt_numbers(self, document: str) -> dict[int, str]:
        """``{section position: number}`` for a document whose numbers were lost."""
        from regelwerk.index.linking.link import excerpt_numbers

        return excerpt_numbers(self.linked, document)

    # lookups --------------------------------------------------------------------------------
    def find(self, name: str) -> Keyword | None:
        """The keyword called `name` in English or German (folded exact match)."""
        return self.names.find(name)

    def current(self, doc_id: str, number: str) -> str | None:
        """The same rule's number in the newest English CR (subrules keep their letter).

        Keyword rules are followed by title across releases; other rules only map when the
        document already uses the newest numbering. With no CR ingested, the term table's
        numbers (generated from the newest CR the project knows) stand in for it.
        """
        from regelwerk.ingest.model.errors import InvalidRuleNumber
        from regelwerk.ingest.model.numbers import RuleNumber

        try:
            rn = RuleNumber.parse(number)
        except InvalidRuleNumber:
            return None
        newest = self.linked.newest
        if doc_id == newest:
            return str(rn)
        rule = f"{rn.section}.{rn.rule}" if rn.rule is not None else str(rn.section)
        refs = self._refs()
        exact, whole = refs.get((doc_id, str(rn))), refs.get((doc_id, rule))
        if exact is not None and (whole is None or exact[0] <= whole[0]):
            return self._newest_number(exact[1])  # ability words live at a subrule (207.2c)
        if whole is not None:
            target = self._newest_number(whole[1])
            return None if target is None else target + (rn.letter or "")
        newest_version = self._versions.get(newest) if newest else None
        if newest_version is not None and self._versions.get(doc_id) == newest_version:
            return str(rn)
        era = self._eras.get(doc_id)
        return str(rn) if era is not None and era.current else None

    def _refs(self) -> dict[tuple[str, str], tuple[int, Keyword]]:
        """``(document, number) -> (index, the first keyword with a rule there)``, built once:
        `current` runs for every rule of a release when the index grows."""
        if self._by_ref is None:
            self._by_ref = {}
            for i, k in enumerate(self.linked.keywords):
                for ref in k.rules:
                    self._by_ref.setdefault((ref.document, ref.number), (i, k))
        return self._by_ref

    def _newest_number(self, k: Keyword) -> str | None:
        newest = self.linked.newest
        if newest is None:
            return k.number or None
        return next((r.number for r in k.rules if r.document == newest), None)

    def translate(self, word: str, src: str) -> list[str]:
        """Names of `word` in the other language (`KeywordNames.translate`)."""
        return self.names.translate(word, src)


class Named(Protocol):
    """What name lookups read of a keyword: its English name, kind and German forms."""

    @property
    def en(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def german_names(self) -> tuple[str, ...]: ...


class Names(NamedTuple):
    """A keyword's names alone, as `NAMES` stores them for query translation."""

    en: str
    kind: str
    german_names: tuple[str, ...]


N = TypeVar("N", bound=Named)


class KeywordNames(Generic[N]):
    """The keywords by every name in both languages, the aliases included ("Spielfeld",
    "Priorität", the other sense of "counter" reach their term after its own names), and by
    stem for inflected words ("Giftmarken" -> "Giftmarke"). `KeywordIndex` keeps one over its
    records; a search reads one over `NAMES` alone, without the records."""

    def __init__(self, keywords: Iterable[N]) -> None:
        from regelwerk.index.terms.aliases import load_aliases
        from regelwerk.ingest.model.stemming import StemIndex

        self._en: dict[str, list[N]] = {}
        self._de: dict[str, list[N]] = {}
        self._said: dict[str, list[N]] = {}  # English aliases alone ("ETB", "SBA"): `aliased`
        by_row: dict[tuple[str, str], N] = {}
        for k in keywords:
            self._en.setdefault(compact(k.en), []).append(k)
            for name in k.german_names:
                self._de.setdefault(compact(name), []).append(k)
            by_row[(k.en, k.kind)] = k
        for alias in load_aliases():
            target = by_row.get((alias.en, alias.kind))
            table = self._de if alias.lang == "de" else self._en
            if target is not None and target not in table.get(compact(alias.word), []):
                table.setdefault(compact(alias.word), []).append(target)
            if target is not None and alias.lang == "en" and alias.status != "sense":
                self._said.setdefault(compact(alias.word), []).append(target)
        self._stemmed = {lang: StemIndex(table, lang) for lang, table in (("en", self._en), ("de", self._de))}

    def find(self, name: str) -> N | None:
        """The keyword called `name` in English or German (folded exact match)."""
        key = compact(name)
        hits = self._en.get(key) or self._de.get(key)
        return hits[0] if hits else None

    def translate(self, word: str, src: str) -> list[str]:
        """Names of `word` in the other language, lower-cased, for query expansion.

        ``src="de"``: German word or inflected compound -> English names ("Giftmarken" ->
        ["poison counter"], "Bündnisfähigkeit" -> ["banding"]); ``src="en"``: English name ->
        every German form. A compound no table names is split into two known parts.
        """
        if src not in ("de", "en"):
            raise ValueError(f"src must be 'de' or 'en', not {src!r}")
        hits = self._lookup(word, src)
        if not hits and src == "de":
            hits = self._compound(compact(word))
        out: list[str] = []
        for k in hits:
            names = [k.en] if src == "de" else list(k.german_names)
            out.extend(n.lower() for n in names)
        return list(dict.fromkeys(out))

    def aliased(self, word: str) -> list[str]:
        """English names, lower-cased, of the rows an English players' word names ("SBA" ->
        ["state-based actions"], "ETBs" -> ["enters the battlefield"]): `translate` gives such
        a word's German names, an English query wants the CR's own. An ambiguous word's other
        sense ("counter": Counters) is not one; a plural "s" is tried off ("blockers")."""
        key = compact(word)
        hits = self._said.get(key)
        if not hits and key.endswith("s") and len(key) > 3:
            hits = self._said.get(key[:-1])
        return list(dict.fromkeys(k.en.lower() for k in hits or ()))

    def _lookup(self, word: str, src: str) -> list[N]:
        table = self._de if src == "de" else self._en
        key = compact(word)
        if key in table:
            return table[key]
        if len(key) < _MIN_STEMMED:
            return []
        found: list[N] = []
        for name in self._stemmed[src].find(key):
            found.extend(k for k in table[name] if k not in found)
        return found

    def _compound(self, key: str) -> list[N]:
        for i in range(len(key) - 3, 2, -1):
            head, tail = key[:i], key[i:]
            tails = self._lookup(tail, "de")
            if not tails:
                continue
            heads = self._lookup(head, "de") or (
                self._lookup(head[:-1], "de") if head.endswith("s") else []
            )
            if heads:
                return [*heads, *tails]
        return []


def names_rows(keywords: Iterable[Named]) -> list[list[Any]]:
    """`NAMES`' rows: each keyword's names once, where its last record stands (an alias goes
    to the last record of its row, as in `KeywordNames`), in record order."""
    rows = [(k.en, k.kind, tuple(k.german_names)) for k in keywords]
    kept = list(dict.fromkeys(reversed(rows)))[::-1]
    return [[en, kind, list(german)] for en, kind, german in kept]


def load_names(path: Path) -> KeywordNames[Names]:
    """The keyword names stored in artefact folder `path` (see `keyword_artefact`)."""
    found = _NAMES.get(path)
    if found is None:
        rows = json.loads((path / NAMES).read_text(encoding="utf-8"))
        found = _NAMES[path] = KeywordNames(Names(en, kind, tuple(de)) for en, kind, de in rows)
    return found


def keyword_names(library: Corpus) -> KeywordNames[Names]:
    """`library`'s keyword names for query translation: a small file, not the records."""
    return load_names(keyword_artefact(library))


_TABLE = f"releases{SCHEMA}"


def _lookups(library: Corpus, releases: list[dict[str, Any]]) -> list[Any]:
    """Linking's lookups of each release, from ``linking/releases.sqlite`` (keyed by the
    release's sha256 and SCHEMA, so they never go stale), computing the missing ones.

    A row holds a release's keyword headings (read every time), the rest of its lookups (read
    only for keywords the release has not seen, see ``link._Release.link``) and what each
    keyword had in it; `_keep` writes back what a build learned."""
    from regelwerk.index.linking.link import release_from, release_lookups

    path = library.home / "linking" / LOOKUPS
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    out = []
    try:
        con.execute(
            f"CREATE TABLE IF NOT EXISTS {_TABLE} "
            "(sha256 TEXT PRIMARY KEY, headings BLOB, body BLOB, known BLOB)"
        )
        for s in releases:
            load = functools.partial(library.store.get, str(s["id"]))
            sha = str(s["sha256"])
            row = con.execute(f"SELECT headings, known FROM {_TABLE} WHERE sha256 = ?", (sha,)).fetchone()
            if row is not None:
                with contextlib.suppress(ValueError, KeyError, TypeError, zlib.error):
                    rest = functools.partial(_body, path, sha, load)
                    out.append(release_from(_unpack(row[0]), rest, load, _unpack(row[1])))
                    continue
            release, headings, body = release_lookups(load())
            with con:
                con.execute(f"INSERT OR REPLACE INTO {_TABLE} VALUES (?, ?, ?, ?)",
                            (sha, _pack(headings), _pack(body), _pack({})))
            out.append(release)
    finally:
        con.close()
    return out


def _keep(library: Corpus, releases: list[Any]) -> None:
    """Store what linking learned about releases (each keyword signature's findings)."""
    learned = [r for r in releases if r.learned]
    if not learned:
        return
    con = sqlite3.connect(library.home / "linking" / LOOKUPS)
    try:
        with con:
            con.executemany(f"UPDATE {_TABLE} SET known = ? WHERE sha256 = ?",
                            [(_pack(r.known), r.document.sha256) for r in learned])
    finally:
        con.close()


def _body(path: Path, sha: str, load: Callable[[], ParsedDocument]) -> dict[str, Any]:
    """The rest of a release's lookups, read when a keyword it has not seen needs them; from
    its document again if the stored ones are gone or damaged."""
    try:
        con = sqlite3.connect(path)
        try:
            row = con.execute(f"SELECT body FROM {_TABLE} WHERE sha256 = ?", (sha,)).fetchone()
        finally:
            con.close()
        if row is not None:
            data: dict[str, Any] = _unpack(row[0])
            return data
    except (sqlite3.Error, ValueError, zlib.error):
        pass
    from regelwerk.index.linking.link import release_lookups

    return release_lookups(load())[2]


def _pack(data: Any) -> bytes:
    """zlib's fastest level: a release's lookups are packed once per ingest of it, and each
    level reads back the same."""
    return zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), 1)


def _unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


#: Loaded indexes and names by path (an artefact's files never change once it is in place).
_LOADED: dict[Path, KeywordIndex] = {}
_NAMES: dict[Path, KeywordNames[Names]] = {}


def load_index(path: Path) -> KeywordIndex:
    """The keyword index stored in artefact folder `path` (see `keyword_artefact`)."""
    found = _LOADED.get(path)
    if found is None:
        found = _LOADED[path] = KeywordIndex(_decoded((path / _FILE).read_bytes()))
    return found


def _decoded(raw: bytes) -> Linked:
    """The stored links, decoded by msgspec straight into the frozen records: what
    ``Linked.from_dict`` makes of the JSON (a test compares them) in a fifth of its time, on
    the path of a cold `rule`, `term` or `history` that needs the links (the archive's file is
    7 MB: 36,000 records; a question reads `NAMES` instead). JSON that
    msgspec refuses is read by ``from_dict``, which fails on damage as it always did."""
    import msgspec

    from regelwerk.index.linking.link import Linked

    try:
        return msgspec.json.decode(raw, type=Linked)
    except msgspec.MsgspecError:
        return Linked.from_dict(json.loads(raw.decode("utf-8")))


def keyword_index(library: Corpus) -> KeywordIndex:
    """The linked keywords of `library`'s documents, built on first use per fingerprint."""
    return load_index(keyword_artefact(library))


def keyword_artefact(library: Corpus) -> Path:
    """The folder of `library`'s keyword links (records and `VOCABULARY`), built on first use
    per fingerprint, term tables and aliases.

    What linking reads of each English release is kept per release's bytes (`_lookups`), so
    a build reads only the releases it has not seen and the small other documents."""
    from regelwerk.index.terms import lookup
    from regelwerk.index.terms.aliases import stamp as aliases_stamp
    from regelwerk.index.terms.shipped import stamp

    store = library.store

    def build(tmp: Path) -> None:
        from regelwerk.index.linking.link import link_releases
        from regelwerk.index.terms.shipped import load_terms
        from regelwerk.ingest.model.releases import CR_KINDS

        summaries = store.summaries()
        releases = [s for s in summaries if s["kind"] in CR_KINDS and s["language"] == "en"]
        others = [store.get(str(s["id"])) for s in summaries if s not in releases]
        order = [str(s["id"]) for s in summaries]
        lookups = _lookups(library, releases)
        linked = link_releases(lookups, others, load_terms(), order)
        _keep(library, lookups)
        (tmp / _FILE).write_text(json.dumps(linked.to_dict(), ensure_ascii=False), encoding="utf-8")
        index = KeywordIndex(linked)
        (tmp / VOCABULARY).write_text(lookup.Vocabulary.of(index).to_json(), encoding="utf-8")
        names = json.dumps(names_rows(linked.keywords), ensure_ascii=False)
        (tmp / NAMES).write_text(names, encoding="utf-8")
        built.append(index)

    built: list[KeywordIndex] = []
    salt = f"kw{SCHEMA}-terms{lookup.SCHEMA}-{stamp()}-{aliases_stamp()}"
    path = store.derived(ARTEFACT, build, salt=salt)
    if built and path not in _LOADED:  # the builder just made it: no need to read it back
        _LOADED[path] = built[0]
    return path
