"""Relevance: regelwerk against a plain SQLite FTS5 index on the same documents.

The cases (``queries.tsv``) are English and German keywords, typos, questions in both
languages, rule numbers, numbers that moved between releases and glossary terms. Each case's
expected answer is first checked against the CR text itself, so a wrong expectation fails
loudly instead of skewing the score. Prints hit@1, hit@3 and MRR for both engines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.baseline import Case, Fts5Baseline, load_cases, score
from regelwerk.index.search.query import SearchEngine
from regelwerk.index.store.corpus import Corpus
from tests.conftest import CORPUS, NEEDS_SHARED
from tests.search_home import NEWEST, OLDEST, library_with, semantic_library_with

pytestmark = NEEDS_SHARED
MIN_MRR = 0.85
#: The issue's floor for the keyword cases, which the optional sentence vectors must keep too.
SEMANTIC_MIN_MRR = 0.90
CASES = load_cases()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return library_with(tmp_path_factory, NEWEST, OLDEST, CORPUS / "en" / "MagicCompRules-20151113.txt")


@pytest.fixture(scope="module")
def engine(library: Corpus) -> Iterator[SearchEngine]:
    eng = SearchEngine(library)
    yield eng
    eng.close()


def test_enough_cases_of_every_kind() -> None:
    kinds = {c.category for c in CASES}
    assert len(CASES) >= 80
    assert {
        "en-keyword",
        "de-keyword",
        "typo",
        "en-question",
        "de-question",
        "number",
        "moved",
        "glossary",
    } <= kinds


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.category}:{c.query}")
def test_expectation_holds_in_the_cr(library: Corpus, case: Case) -> None:
    from bench.baseline import expected_exists

    problem = expected_exists(library, case)
    assert problem is None, problem


def _regelwerk(engine: SearchEngine) -> Any:
    def run(case: Case) -> list[dict[str, Any]]:
        result = engine.search(
            case.query, limit=10, version=case.options.get("version"), lang=case.options.get("lang")
        )
        return [h.to_dict() for h in result.hits]

    return run


def test_mrr_beats_threshold_and_baseline(engine: SearchEngine, library: Corpus) -> None:
    ours = score(CASES, _regelwerk(engine))
    fts = Fts5Baseline(library)
    base = score(
        CASES,
        lambda c: fts.search(c.query, version=c.options.get("version"), lang=c.options.get("lang")),
    )
    misses = [
        f"{c.category}: {c.query!r} (rank {r})" for c, r in zip(CASES, ours.ranks, strict=True) if r != 1
    ]
    print()
    print(f"{len(CASES)} queries")
    print(ours.line("regelwerk"))
    print(base.line("FTS5"))
    print("not first:", *misses, sep="\n  ")
    assert ours.mrr >= MIN_MRR, f"regelwerk MRR {ours.mrr:.3f} < {MIN_MRR}"
    assert ours.mrr > base.mrr


def test_mrr_with_sentence_vectors_beats_threshold(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The optional extra re-orders questions only, and the keyword cases' questions with them:
    the set stays over the issue's 0.90 (session 18: 0.907, against 0.945 without; the set's
    questions are the ones the lexical weights were first tuned on)."""
    from regelwerk.index.search import semantic

    library = semantic_library_with(
        tmp_path_factory, NEWEST, OLDEST, CORPUS / "en" / "MagicCompRules-20151113.txt"
    )
    monkeypatch.setenv(semantic.ENV, "on")
    engine = SearchEngine(library)
    try:
        ours = score(CASES, _regelwerk(engine))
    finally:
        engine.close()
    print()
    print(ours.line("regelwerk with sentence vectors"))
    assert ours.mrr >= SEMANTIC_MIN_MRR, f"regelwerk MRR {ours.mrr:.3f} < {SEMANTIC_MIN_MRR}"
