"""`term` lookups on arbitrary input: a ranked answer or a clean InputError, nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelwerk.index.linking.keyword_index import keyword_index
from regelwerk.index.store.corpus import Corpus
from regelwerk.index.terms.lookup import lookup
from regelwerk.ingest.model.errors import InputError


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return keyword_index(Corpus(Path(tmp_path_factory.mktemp("term-props"))))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_any_text(index: Any, query: str) -> None:
    try:
        matches = lookup(index, query, 5)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert matches
    scores = [m.score for m in matches]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    "query", ["Bündnisfähigkeit", "BUENDNISFAEHIGKEIT", "buendnisfahigkeit", "Bundnisfähigkeit"]
)
def test_umlaut_spellings_are_one_term(index: Any, query: str) -> None:
    best = lookup(index, query, 1)[0]
    assert best.keyword is not None and best.keyword.en == "Banding"
    assert best.score == 100
