"""Search on the embedded seeds alone: what a user gets right after install, no CR ingested."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelwerk.index.search.query import SearchEngine
from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest.model.errors import InputError


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    eng = SearchEngine(Corpus(Path(tmp_path_factory.mktemp("seeds-only"))))
    yield eng
    eng.close()


def test_german_damage_question_finds_banding_assignment(engine: SearchEngine) -> None:
    hits = engine.search("Bündnis Schaden verteilen").hits[:3]
    assert "702.22j" in [h.current for h in hits]


def test_excerpt_paragraphs_carry_the_numbers_linking_gave_them(engine: SearchEngine) -> None:
    hits = [h for h in engine.search("deathtouch lethal damage").hits if h.document.startswith("cr-excerpt")]
    assert hits, "the number-stripped excerpt should answer a deathtouch question"
    assert hits[0].number is None  # the document itself has no numbers ...
    assert hits[0].current == "702.2c"  # ... but linking knows where the paragraph lives


def test_old_german_numbering_points_to_today(engine: SearchEngine) -> None:
    hits = [h for h in engine.search("702.19j").hits if h.language == "de"]
    assert hits and hits[0].number == "702.19j" and hits[0].current == "702.22j"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_any_query_text_answers_or_is_a_clean_input_error(engine: SearchEngine, query: str) -> None:
    """Whatever a user types (operators, quotes, stars, control characters) never raises
    anything but a clean InputError."""
    try:
        result = engine.search(query)
    except InputError:
        return
    assert isinstance(result.hits, tuple)


def test_overlong_query_is_cut_between_words(engine: SearchEngine) -> None:
    result = engine.search("Bündnis " * 200)
    assert any(n.startswith("query shortened") for n in result.notes)
    assert not any("instead of" in n for n in result.notes)  # no half word "corrected"
    assert result.hits


@pytest.mark.parametrize(
    ("query", "says", "sagt"),
    [
        ("", "empty query: type a rule number, a keyword or a question", "leere Anfrage"),
        ("  \t ", "empty query", "leere Anfrage"),
        ("?", "query '?' has no word to search for", "Anfrage '?' enthält kein Wort"),
        (" ?! … ", "query '?! …' has no word to search for", "enthält kein Wort"),
    ],
)
def test_a_query_with_nothing_to_search_for_is_bad_input(query: str, says: str, sagt: str) -> None:
    """Not an empty answer: one line naming the query and what it wants, exit 1, no traceback;
    ``--json`` the envelope, in English whatever the reader's language."""
    from typer.testing import CliRunner

    from regelwerk.cli.app import app

    runner = CliRunner()
    for cmd, prefix, sentence in (([], "error: ", says), (["--lang", "de"], "Fehler: ", sagt)):
        result = runner.invoke(app, ["search", query, *cmd])
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 1 and len(lines) == 1, result.output
        assert lines[0].startswith(prefix) and sentence in lines[0]
        assert "Traceback" not in result.output
        envelope = json.loads(runner.invoke(app, ["search", query, "--json", *cmd]).stdout)
        assert envelope["ok"] is False and says in envelope["error"]
