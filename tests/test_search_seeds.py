"""Search on the embedded seeds alone: what a user gets right after install, no CR ingested."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from regelwerk.index.library import Library
from regelwerk.index.query import SearchEngine


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    eng = SearchEngine(Library(Path(tmp_path_factory.mktemp("seeds-only"))))
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
