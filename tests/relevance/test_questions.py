"""General rules questions (issue 9): every expected answer holds in the CR.

The dev set (``questions.tsv``, see ``bench/questions.py``) was written before any tuning; a
wrong expectation would skew every score measured on it, so each one is checked here against
the 2026-04-17 CR: every expected number exists and the first one's text mentions the check
word.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.questions import Question, expectation_problem, load_questions
from regelwerk.index.library import Library
from tests.conftest import NEEDS_SHARED
from tests.search_home import NEWEST, library_with

ALL = load_questions(split=None)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return library_with(tmp_path_factory, NEWEST)


def test_the_set_is_big_enough_and_split() -> None:
    langs = Counter(q.lang for q in ALL)
    assert len(ALL) >= 120 and langs["de"] >= 70
    held = Counter(q.lang for q in ALL if q.split == "held")
    for lang, n in langs.items():
        assert 0.25 <= held[lang] / n <= 0.35, (lang, held[lang], n)
    assert {q.split for q in ALL} == {"dev", "held"}
    assert len({q.case.query for q in ALL}) == len(ALL), "a question is in the set twice"


@NEEDS_SHARED
@pytest.mark.parametrize("question", ALL, ids=lambda q: f"{q.lang}-{q.category}:{q.case.query}")
def test_expectation_holds_in_the_cr(library: Library, question: Question) -> None:
    problem = expectation_problem(library, question.case)
    assert problem is None, problem
