"""`collect` gives exactly whoosh's hits of a long Or: the same documents, the same float scores,
the same order, and, under ``Require(q, scope:default)``, the same early stop (whoosh's
``RequireMatcher`` ends the collection once the array union's best single clause cannot reach
the heap's minimum); and whoosh's hits of a short Or, a tree of unions. Checked on a whoosh
index of several segments, one with deleted documents, for random queries, limits, filters and
BM25F parameters."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index
from whoosh import query as wq
from whoosh import scoring
from whoosh.fields import ID, NUMERIC, TEXT, Schema
from whoosh.writing import NO_MERGE

from regelwerk.index.search import collect
from regelwerk.index.search.segments import ScopedSearcher

WORDS = [f"w{i}" for i in range(60)]


def _doc(rng: random.Random, n: int, scope: str) -> dict[str, Any]:
    # a skewed vocabulary: low words are common, high ones rare, as in rule text
    def words(k: int) -> str:
        return " ".join(WORDS[min(int(rng.expovariate(0.08)), len(WORDS) - 1)] for _ in range(k))

    return {"uid": n, "title": words(rng.randint(0, 3)), "text": words(rng.randint(1, 40)), "scope": scope}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder: Path = tmp_path_factory.mktemp("collect")
    schema = Schema(uid=NUMERIC(stored=True, unique=True), title=TEXT(), text=TEXT(), scope=ID())
    ix = whoosh_index.create_in(str(folder), schema)
    rng = random.Random(7)
    n = 0
    for count, scope, delete in ((300, "other", 0), (1200, "default", 30), (200, "default", 0)):
        writer = ix.writer()
        for _ in range(count):
            writer.add_document(**_doc(rng, n, scope))
            n += 1
        writer.commit(mergetype=NO_MERGE)
        if delete:  # deletions in the segment just written: its postings pass a FilterMatcher
            writer = ix.writer()
            for uid in rng.sample(range(n - count, n), delete):
                writer.delete_by_term("uid", uid)
            writer.commit(mergetype=NO_MERGE)
    return ix


def _query(rng: random.Random) -> tuple[Any, list[tuple[str, str, float]]]:
    boosts = (1.0, 0.25, 0.6, 4.0)
    terms = [wq.Term(rng.choice(("title", "text")), rng.choice(WORDS), boost=rng.choice(boosts))
             for _ in range(rng.randint(13, 40))]
    q = wq.Or(terms)
    q.matcher_type = wq.Or.ARRAY_MATCHER
    found = collect.clauses(q)
    assert found is not None
    return q, found


@pytest.mark.parametrize("required", [False, True])
def test_the_same_hits_as_whoosh(index: Any, required: bool) -> None:
    rng = random.Random(11 if required else 13)
    searcher = ScopedSearcher(index.reader(), fromindex=index)
    try:
        searcher.default_only = required
        assert len(searcher.leaf_searchers()) == (2 if required else 3)
        assert searcher.scope_is_whole() or not required
        cache = collect.TermCache()
        stops = 0
        for _ in range(80):
            b = rng.choice((0.75, 0.9))
            searcher.weighting = scoring.BM25F(B=b, K1=1.2)
            q, terms = _query(rng)
            limit = rng.choice((10, 40))
            allow = None if rng.random() < 0.5 else set(rng.sample(range(1700), 1000))
            whole = wq.Require(q, wq.Term("scope", "default")) if required else q
            results = searcher.search(whole, limit=limit, filter=allow, optimize=False)
            want = [(r.score, r.docnum) for r in results]
            got = collect.top_hits(searcher, terms, limit, allow, required, cache)
            assert got == want
            exhaustive = collect.top_hits(searcher, terms, limit, allow, False, cache)
            stops += exhaustive != got
        assert (stops > 0) == required  # whoosh's early stop happens, and is kept
    finally:
        searcher.close()


def test_the_same_hits_as_whooshs_tree_of_unions(index: Any) -> None:
    """A short Or (2-12 clauses, whoosh's tree of ``UnionMatcher``s, shaped by the clauses'
    document frequencies): the same documents, float scores and order as whoosh, over every
    segment (one with deletions), with and without a filter, some clauses absent from a
    segment or from the index."""
    rng = random.Random(17)
    searcher = ScopedSearcher(index.reader(), fromindex=index)
    try:
        cache = collect.TermCache()
        for _ in range(150):
            searcher.weighting = scoring.BM25F(B=rng.choice((0.75, 0.9)), K1=1.2)
            words = [*WORDS, "absent"]
            boosts = (1.0, 0.25, 4.0)
            terms = [wq.Term(rng.choice(("title", "text")), rng.choice(words), boost=rng.choice(boosts))
                     for _ in range(rng.randint(2, 12))]
            q = wq.Or(terms)
            q.matcher_type = wq.Or.DEFAULT_MATCHER
            found = collect.clauses(q, wq.Or.DEFAULT_MATCHER)
            assert found is not None and collect.clauses(q) is None
            limit = rng.choice((3, 10, 40))
            allow = None if rng.random() < 0.5 else set(rng.sample(range(1700), 1000))
            results = searcher.search(q, limit=limit, filter=allow, optimize=False)
            want = [(r.score, r.docnum) for r in results]
            assert collect.tree_hits(searcher, found, limit, allow, cache) == want
    finally:
        searcher.close()


def test_other_queries_are_left_to_whoosh() -> None:
    short = wq.Or([wq.Term("text", "a"), wq.Term("text", "b")])
    assert collect.clauses(short) is None  # a tree union: not an array union
    scaled = wq.Or([wq.Term("text", "a"), wq.Term("text", "b")], scale=0.5)
    scaled.matcher_type = wq.Or.DEFAULT_MATCHER
    assert collect.clauses(scaled, wq.Or.DEFAULT_MATCHER) is None  # whoosh's CoordMatcher
    mixed = wq.Or([wq.Term("text", w) for w in WORDS[:20]] + [wq.Prefix("text", "w1")])
    mixed.matcher_type = wq.Or.ARRAY_MATCHER
    assert collect.clauses(mixed) is None
