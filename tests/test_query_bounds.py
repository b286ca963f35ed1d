"""Bounded query cost (issue 14 item 1): wildcards, prefixes and ranges stand for a capped set
of words, a query uses a capped number of patterns, and the user is told what was cut.

Speed itself is measured in bench/ (bench/fuzz.py times every query); these tests check that
the limits are applied.
"""

from __future__ import annotations

import pytest
from whoosh import query as wq
from whoosh.fields import TEXT, Schema
from whoosh.filedb.filestore import RamStorage

from regelwerk.index.search import bounds
from regelwerk.index.search.bounds import bound_query
from regelwerk.index.search.query import SearchEngine
from regelwerk.ingest.model.message import Arg
from tests.search_home import library_with


def _terms(q: object) -> list[wq.Term]:
    return [leaf for leaf in q.leaves() if isinstance(leaf, wq.Term)] if hasattr(q, "leaves") else []


@pytest.fixture(scope="module")
def reader():  # type: ignore[no-untyped-def]
    ix = RamStorage().create_index(Schema(body=TEXT))
    w = ix.writer()
    for i in range(300):
        w.add_document(body=f"alpha{i:03d} beta{i % 7} common")
    w.commit()
    with ix.reader() as r:
        yield r


def test_a_wide_prefix_keeps_its_most_frequent_words_and_says_so(reader) -> None:  # type: ignore[no-untyped-def]
    notes: list[Arg] = []
    q = bound_query(wq.Prefix("body", "alpha"), reader, notes)
    assert len(_terms(q)) == bounds.MAX_EXPANSION
    assert len(notes) == 1 and "alpha* (300)" in str(notes[0])
    notes.clear()
    q = bound_query(wq.Prefix("body", "beta"), reader, notes)  # 7 words: nothing to cut
    assert len(_terms(q)) == 7 and notes == []


def test_most_frequent_words_are_the_ones_kept(reader) -> None:  # type: ignore[no-untyped-def]
    q = bound_query(wq.TermRange("body", "a", "z"), reader, [])
    kept = {t.text for t in _terms(q)}
    assert {"common", "beta0", "beta6"} <= kept


def test_patterns_share_one_budget_and_extra_patterns_are_dropped(reader) -> None:  # type: ignore[no-untyped-def]
    notes: list[Arg] = []
    patterns = [wq.Prefix("body", c) for c in "abcdefghijkl"]
    q = bound_query(wq.Or(patterns), reader, notes)
    assert len(_terms(q)) <= bounds.TERM_BUDGET
    assert any("ignored i*, j*, k*, l*" in str(n) for n in notes)


def test_the_dictionary_scan_is_capped(reader, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(bounds, "MAX_SCAN", 50)
    notes: list[Arg] = []
    bound_query(wq.TermRange("body", "a", "z"), reader, notes)
    assert "(over 50)" in str(notes[0])


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> SearchEngine:
    return SearchEngine(library_with(tmp_path_factory))


def test_the_issue_queries_are_bounded_and_noted(engine: SearchEngine) -> None:
    """The repros of issue 14: ten prefixes; a range over the whole alphabet."""
    r = engine.search("a* b* c* d* e* f* g* h* i* j*", limit=200, all_versions=True)
    assert any("ignored i*, j*" in n for n in r.notes)
    r = engine.search("[a TO z] OR [0 TO 9]", limit=200, all_versions=True)
    assert r.hits and any("[a TO z]" in n for n in r.notes)
