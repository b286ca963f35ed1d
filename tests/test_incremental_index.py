"""The search index grows per release (issue 10 item 2): each distinct rule text is indexed
once, an added release writes only its new units beside the previous segments, a forgotten one
takes its units with it, and the grown index says exactly what a fresh build says."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from regelwerk.index.facade import Library
from regelwerk.index.search.members import FILE

HEAD = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
    "1. Game Concepts\n\n"
)
TAIL = "\nGlossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
RULES = {
    "January 1, 2020": "100. General\n\n100.1. Players shuffle decks.\n\n100.2. Flanking hurts blockers.\n\n",
    # 100.2 moves to 100.3 unchanged; a new 100.2
    "February 1, 2020": (
        "100. General\n\n100.1. Players shuffle decks.\n\n100.2. Zebras count twice.\n\n"
        "100.3. Flanking hurts blockers.\n\n"
    ),
    # 100.1 changes its text
    "March 1, 2020": (
        "100. General\n\n100.1. Players shuffle their decks.\n\n100.2. Zebras count twice.\n\n"
        "100.3. Flanking hurts blockers.\n\n"
    ),
}


def _release(folder: Path, n: int, date: str) -> Path:
    path = folder / f"cr{n}.txt"
    path.write_text(HEAD.format(date=date) + RULES[date] + TAIL, encoding="utf-8")
    return path


def _search_dir(home: Path, name: str = "search") -> Path:
    folders = sorted((home / "derived").glob(f"*/{name}"), key=lambda p: p.stat().st_mtime)
    return folders[-1]


def _rules(home: Path) -> tuple[set[tuple[object, ...]], set[tuple[object, ...]]]:
    """Every row of the newest rules table (sections, and documents with their rank)."""
    con = sqlite3.connect(_search_dir(home, "rules") / "rules.sqlite")
    try:
        return set(con.execute("SELECT * FROM sections")), set(con.execute("SELECT * FROM docs"))
    finally:
        con.close()


Occurrences = set[tuple[str, int, str, str | None]]


def _state(home: Path) -> tuple[Occurrences, set[tuple[str, str]], set[tuple[str, int]], dict[str, object]]:
    """(occurrence -> unit key and number today, default scope, live units with their
    default-scope mark, vocabulary) of the newest index."""
    folder = _search_dir(home)
    con = sqlite3.connect(folder / FILE)
    try:
        members = set(con.execute(
            "SELECT d.id, m.position, u.key, m.current FROM members m JOIN docs d ON d.ord = m.doc "
            "JOIN units u ON u.uid = m.uid"
        ))
        scope = set(con.execute("SELECT d.id, s.language FROM scope s JOIN docs d ON d.ord = s.doc"))
        units = set(con.execute("SELECT key, dflt FROM units"))
    finally:
        con.close()
    vocab = json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
    return members, scope, units, vocab


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    return [_release(tmp_path, n, date) for n, date in enumerate(RULES)]


def _library(home: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setenv("REGELWERK_HOME", str(home))
    return Library(home)


def _grown(home: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch) -> Library:
    """A library that got `files` one ingest at a time (each build grows the last one)."""
    library = _library(home, monkeypatch)
    for f in files:
        library.ingest([f])
    return library


def test_a_grown_index_equals_a_fresh_one(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _grown(tmp_path / "grown", files, monkeypatch)
    fresh = _library(tmp_path / "fresh", monkeypatch)
    fresh.ingest(files)
    assert _state(tmp_path / "grown") == _state(tmp_path / "fresh")
    assert _rules(tmp_path / "grown") == _rules(tmp_path / "fresh")
    rows, _ = _rules(tmp_path / "grown")
    assert ("cr-en-2020-01-01", "100.2", "100.3") in {(r[0], r[2], r[10]) for r in rows}
    # a new table gets its indexes after its rows (``MEMBER_INDEXES``, ``lookup._INDEXES``); every
    # build the default scope's (``SCOPE_INDEX``)
    wanted = {"members_uid", "members_current", "units_docnum", "units_template", "units_scope",
              "placed_number", "placed_position", "placed_parent", "placed_current"}
    assert _indexes(tmp_path / "grown") == _indexes(tmp_path / "fresh") == wanted


def _indexes(home: Path) -> set[str]:
    """The named indexes of the newest search members table and rules table."""
    found: set[str] = set()
    for folder, name in ((_search_dir(home), FILE), (_search_dir(home, "rules"), "rules.sqlite")):
        con = sqlite3.connect(folder / name)
        try:
            sql = "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            found |= {n for (n,) in con.execute(sql)}
        finally:
            con.close()
    return found


def test_adding_a_release_keeps_the_previous_segments(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    library = _library(home, monkeypatch)
    library.ingest(files[:2])
    before = _search_dir(home)
    segments = {p.name: p.stat().st_ino for p in before.glob("*.trm")}  # a segment's terms
    library.ingest(files[2:])
    after = _search_dir(home)
    assert after != before and segments
    # the old segments are the same files (linked, never rewritten); one small one is new
    kept = [name for name in segments if (after / name).exists()]
    assert kept and all((after / name).stat().st_ino == segments[name] for name in kept)
    assert len(list(after.glob("*.trm"))) >= 1
    members, _, units, _ = _state(home)
    # seven rule texts in three releases (100.3 = the old 100.2), plus sections and glossary
    texts = {key for _, _, key, _ in members}
    assert len(units) == len(texts) < len(members)
    flagged = {key for key, flag in units if flag}  # a plain search's units: newest release, seeds
    newest = {k for d, _, k, _ in members if d == "cr-en-2020-03-01"}
    older = {k for d, _, k, _ in members if d.startswith("cr-en-")} - newest
    assert newest <= flagged and older and not older & flagged


def test_an_unchanged_rule_is_one_unit_and_its_number_today_follows_lineage(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    library = _grown(tmp_path / "home", files, monkeypatch)
    old = library.search("flanking", version="2020-01-01")["hits"]
    assert (old[0]["number"], old[0]["current"], old[0]["version"]) == ("100.2", "100.3", "2020-01-01")
    assert [h["version"] for h in library.search("flanking")["hits"]][:1] == ["2020-03-01"]
    versions = {h["version"] for h in library.search("shuffle", all_versions=True)["hits"]}
    assert versions == {"2020-03-01", "2020-02-01"}  # two texts; the older one placed newest


def test_forget_takes_its_units_along(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    grown = _library(tmp_path / "grown", monkeypatch)
    grown.ingest(files)
    grown.forget("2020-03-01")
    fresh = _library(tmp_path / "fresh", monkeypatch)
    fresh.ingest(files[:2])
    assert _state(tmp_path / "grown") == _state(tmp_path / "fresh")
    assert _rules(tmp_path / "grown") == _rules(tmp_path / "fresh")
    assert grown.search("shuffle their")["hits"][0]["version"] == "2020-02-01"


def test_the_default_scope_has_segments_of_its_own_and_every_docnum_is_right(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from whoosh import index as whoosh_index

    from regelwerk.index.search.segments import is_default

    home = tmp_path / "home"
    library = _grown(home, files, monkeypatch)
    folder = _search_dir(home)
    con = sqlite3.connect(folder / FILE)
    try:
        docnums = dict(con.execute("SELECT uid, docnum FROM units"))
    finally:
        con.close()
    kinds = []
    with whoosh_index.open_dir(str(folder)).reader() as reader:
        for leaf, _ in reader.leaf_readers():
            alive = [n for n in range(leaf.doc_count_all()) if not leaf.is_deleted(n)]
            live = {leaf.stored_fields(n)["uid"] for n in alive}
            default = is_default(leaf)
            kinds.append(default)
            marked = {int(leaf.stored_fields(n)["uid"]) for n in leaf.postings("scope", "default").all_ids()
                      if not leaf.is_deleted(n)} if default else set()
            # a default segment holds default units only; no other segment holds any
            assert live == marked or not default
        for uid, docnum in docnums.items():
            assert reader.stored_fields(docnum)["uid"] == uid and not reader.is_deleted(docnum)
    assert True in kinds and False in kinds
    from regelwerk.index.search.segments import ScopedSearcher

    index = whoosh_index.open_dir(str(folder))
    with ScopedSearcher(index.reader(), fromindex=index) as searcher:
        assert searcher.scope_is_whole()  # so a plain search needs no scope:default Require
    # skipping the other segments changes nothing a plain search finds, nor its scores
    from regelwerk.index.search import segments

    plain = library.search("shuffle decks")
    monkeypatch.setattr(segments.ScopedSearcher, "leaf_searchers", segments.Searcher.leaf_searchers)
    library = _library(home, monkeypatch)
    assert library.search("shuffle decks") == plain


def test_a_segment_holding_other_units_keeps_the_scope_requirement(tmp_path: Path) -> None:
    from whoosh import index as whoosh_index
    from whoosh.fields import ID, Schema
    from whoosh.writing import NO_MERGE

    from regelwerk.index.search.segments import ScopedSearcher

    index = whoosh_index.create_in(str(tmp_path), Schema(key=ID(stored=True), scope=ID()))
    with index.writer() as writer:  # one segment: searched whatever it holds
        writer.add_document(key="a", scope="default")
        writer.add_document(key="b", scope="other")
    with ScopedSearcher(index.reader(), fromindex=index) as searcher:
        assert not searcher.scope_is_whole()
    writer = index.writer()
    writer.delete_by_term("key", "b")
    writer.add_document(key="c", scope="default")
    writer.commit(mergetype=NO_MERGE)  # two default segments, one with a deleted "other"
    with ScopedSearcher(index.reader(), fromindex=index) as searcher:
        assert len(searcher.leaf_searchers()) == 2
        assert not searcher.scope_is_whole()  # a deleted "other" document still counts


class _Segment:
    def __init__(self, docs: int, deleted: int = 0) -> None:
        self.docs, self.deleted = docs, deleted

    def doc_count_all(self) -> int:
        return self.docs

    def deleted_count(self) -> int:
        return self.deleted


def test_merges_compact_sparse_default_segments_and_bound_their_number() -> None:
    from regelwerk.index.search.segments import MAX_SEGMENTS, _to_merge

    dense = [_Segment(1000, 10), _Segment(100)]
    assert _to_merge(dense, default=True) == []
    sparse = [_Segment(1000, 400), _Segment(100)]
    assert _to_merge(sparse, default=True) == sparse
    assert _to_merge(sparse, default=False) == []  # other units' deletions do not count
    many = [_Segment(5000), *(_Segment(10) for _ in range(MAX_SEGMENTS))]
    assert _to_merge(many, default=False) == many[1:]


def test_adding_a_release_links_only_it_and_links_as_a_fresh_build_does(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelwerk.index.linking import keyword_index

    reads: list[str] = []
    body = keyword_index._body

    def counted(path: Path, sha: str, load: object) -> object:
        reads.append(sha)
        return body(path, sha, load)  # type: ignore[arg-type]

    monkeypatch.setattr(keyword_index, "_body", counted)
    grown = _library(tmp_path / "grown", monkeypatch)
    grown.ingest(files[:2])
    reads.clear()
    grown.ingest(files[2:])
    assert reads == []  # the older releases' findings were kept; none was read again
    fresh = _library(tmp_path / "fresh", monkeypatch)
    fresh.ingest(files)

    def links(home: Path) -> object:
        return json.loads((_search_dir(home, "keywords") / "keywords.json").read_text(encoding="utf-8"))

    assert links(tmp_path / "grown") == links(tmp_path / "fresh")


def test_a_release_that_moves_older_numbers_writes_only_its_own_units(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """February moves January's 100.2 to 100.3: only the occurrence's number today changes
    (in the membership table); January's unit keeps its uid and no whoosh document of it is
    written again, and a search for 100.3 still finds it in January."""
    home = tmp_path / "home"
    library = _library(home, monkeypatch)
    library.ingest(files[:1])
    con = sqlite3.connect(_search_dir(home) / FILE)
    try:
        before = dict(con.execute("SELECT key, uid FROM units"))
    finally:
        con.close()
    library.ingest(files[1:2])
    con = sqlite3.connect(_search_dir(home) / FILE)
    try:
        after = dict(con.execute("SELECT key, uid FROM units"))
        january = set(con.execute(
            "SELECT m.position, u.number, m.current FROM members m JOIN docs d ON d.ord = m.doc "
            "JOIN units u ON u.uid = m.uid WHERE d.id = 'cr-en-2020-01-01' AND u.number LIKE '100.%'"
        ))
        february = {k for (k,) in con.execute(
            "SELECT u.key FROM members m JOIN docs d ON d.ord = m.doc JOIN units u ON u.uid = m.uid "
            "WHERE d.id = 'cr-en-2020-02-01'"
        )}
    finally:
        con.close()
    assert {n: c for _, n, c in january} == {"100.1": "100.1", "100.2": "100.3"}
    kept = {k: u for k, u in after.items() if k in before}
    assert kept and all(before[k] == u for k, u in kept.items())  # no unit written again
    new = set(after) - set(before)
    assert new and new <= february  # every new unit is one of the added release's
    hits = library.search("100.3", version="2020-01-01")["hits"]
    assert [(h["number"], h["current"]) for h in hits][:1] == [("100.2", "100.3")]
    mixed = library.search("flanking 100.3", all_versions=True)["hits"]
    assert {(h["number"], h["current"], h["version"]) for h in mixed} >= {("100.3", "100.3", "2020-02-01")}


def test_adding_a_release_reads_only_the_newest_lineage_pair(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Older releases' numbers today move through the newest pair only, so that pair is the
    only one whose steps an add reads from the lineage table (all of them were read first)."""
    from regelwerk.index.linking import lineage_table

    library = _library(tmp_path / "home", monkeypatch)
    library.ingest(files[:2])
    read: list[tuple[str, str]] = []
    get = lineage_table._PairRows.get

    def counted(self: lineage_table._PairRows, key: tuple[str, str], default: object = ()) -> object:
        if key in self.shas and key not in self.read:
            read.append(key)
        return get(self, key, default)  # type: ignore[arg-type]

    monkeypatch.setattr(lineage_table._PairRows, "get", counted)
    library.ingest(files[2:])
    assert read == [("cr-en-2020-02-01", "cr-en-2020-03-01")]
    hits = library.search("100.3", version="2020-01-01")["hits"]
    assert [(h["number"], h["current"]) for h in hits][:1] == [("100.2", "100.3")]


def _scope_by_join(folder: Path, lang: str | None) -> set[int]:
    """The default scope's whoosh document numbers by their definition: units occurring in a
    document of the scope in their own language (what `Members.allowed` reads from ``dflt``)."""
    con = sqlite3.connect(folder / FILE)
    try:
        sql = ("SELECT DISTINCT u.docnum FROM members m JOIN units u ON u.uid = m.uid JOIN scope s "
               "ON s.doc = m.doc AND s.language = u.language WHERE ? IS NULL OR u.language = ?")
        return {n for (n,) in con.execute(sql, (lang, lang))}
    finally:
        con.close()


def test_the_default_scope_filter_follows_growth_and_forgetting(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelwerk.index.search.members import Members

    library = _library(tmp_path, monkeypatch)
    for step in [*([f] for f in files), None]:
        if step is None:
            library.forget("2020-03-01")
        else:
            library.ingest(step)
        library.search("decks")  # builds the index
        folder = _search_dir(tmp_path)
        members = Members(folder)
        try:
            for lang in (None, "en", "de"):
                expected = _scope_by_join(folder, lang)
                assert members.allowed(None, False, lang) == expected
                assert expected or lang == "de"
            plan = members.con.execute(
                "EXPLAIN QUERY PLAN SELECT docnum FROM units u WHERE dflt = 1 AND u.language = 'en'"
            ).fetchall()
            assert "COVERING INDEX units_scope" in str(plan)  # every build makes it, grown ones too
        finally:
            members.close()


def test_an_empty_text_left_out_writes_the_same_index() -> None:
    """`document_fields` leaves out the empty text of fields that store nothing and have no
    column (``_Growth.blank``): whoosh writes nothing for one either, so the postings, field
    lengths and stored fields are those of the document with every empty field given."""
    from whoosh.filedb.filestore import RamStorage

    from regelwerk.index.search.whoosh_index import document_fields, schema

    s = schema()
    blank = frozenset(n for n, f in s.items() if not f.stored and f.column_type is None)
    assert {"text_en", "ctx_de", "ex_en"} <= blank and not {"title", "text", "number", "uid"} & blank
    text = "A creature with banding"
    record = {"number": "702.19b", "title": "Banding", "term": None, "text": text, "title_en": "",
              "ctx_en": "banding", "ctx_de": "", "sect_en": "", "text_en": text, "ex_en": "",
              "language": "en", "kind": "rule"}

    def written(fields: dict[str, object]) -> tuple[object, ...]:
        ix = RamStorage().create_index(s)
        with ix.writer() as w:
            w.add_document(uid=1, scope="default", **fields)
        with ix.reader() as r:
            postings = []
            for f, t in r.all_terms():  # one document: one posting per term
                m = r.postings(f, t)
                postings.append((f, t, m.id(), m.weight(), m.value()))
            lengths = {n: r.doc_field_length(0, n) for n in s.names() if s[n].scorable}
            totals = {n: r.field_length(n) for n in s.names() if s[n].scorable}
            return postings, lengths, totals, r.stored_fields(0)

    names = set(s.names())
    given, left_out = document_fields(record, names), document_fields(record, names, None, blank)
    assert "ctx_de" in given and "ctx_de" not in left_out and left_out["title"] == given["title"]
    assert written(left_out) == written(given)
