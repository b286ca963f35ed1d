"""Rule titles in traces: German step names from the term table; winning doesn't cite "lose"."""

from __future__ import annotations

import pytest

from regelwerk.engine.narration import rule_title
from regelwerk.index.facade import LibraryRuleBook
from regelwerk.ingest.model.numbers import lineage

CR_TITLES = {"104": "Ending the Game", "508": "Declare Attackers Step", "122": "Counters"}


@pytest.fixture
def without_cr(monkeypatch: pytest.MonkeyPatch) -> LibraryRuleBook:
    book = LibraryRuleBook()
    monkeypatch.setattr(book, "_find", lambda number, lang: None)
    return book


@pytest.fixture
def with_cr(monkeypatch: pytest.MonkeyPatch) -> LibraryRuleBook:
    book = LibraryRuleBook()

    def find(number: str, lang: str) -> str | None:  # the CR's titles, up the number tree
        found = (CR_TITLES.get(n) for n in lineage(number) if lang == "en")
        return next((t for t in found if t), None)

    monkeypatch.setattr(book, "_find", find)
    return book


@pytest.mark.parametrize(
    ("rule", "german"),
    [
        ("508.1a", "Angreifer-deklarieren-Segment"),
        ("509.1a", "Blocker-deklarieren-Segment"),
        ("511.3", "Ende-des-Kampfes-Segment"),
        ("510.2", "Kampfschadensegment"),
        ("608.2", "Verrechnen"),  # a verb in the table, a heading in the trace
    ],
)
def test_german_step_titles(without_cr: LibraryRuleBook, rule: str, german: str) -> None:
    assert rule_title(without_cr, rule, "de") == german


def test_winning_never_cites_losing(without_cr: LibraryRuleBook, with_cr: LibraryRuleBook) -> None:
    assert rule_title(without_cr, "104.2a", "de") is None  # no CR: no title rather than a wrong one
    assert rule_title(with_cr, "104.2a", "de") == "Ending the Game"
    assert rule_title(with_cr, "104.2a", "en") == "Ending the Game"


def test_the_crs_own_title_picks_among_terms_of_one_number(with_cr: LibraryRuleBook) -> None:
    assert rule_title(with_cr, "122.1a", "de") == "Marke"  # "Counters" is the title of 122
    assert rule_title(with_cr, "508.1a", "en") == "Declare Attackers Step"
