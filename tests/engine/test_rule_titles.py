"""Rule titles in traces. German traces cite the English title with the official German name of
the same heading or term beside it ("Banding · Bündnisfähigkeit"), or, where no official German name is
known, the English title with a German gloss marked as one; winning doesn't cite "lose"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelwerk.engine.catalog import title_glosses
from regelwerk.engine.narration import rule_title
from regelwerk.engine.rulebook import NullRuleBook, TextRuleBook
from regelwerk.index.facade import Library, LibraryRuleBook
from regelwerk.index.terms.names import plurals
from regelwerk.index.terms.shipped import load_terms
from regelwerk.ingest.model.fold import compact
from regelwerk.ingest.model.numbers import lineage
from tests.conftest import CORPUS, NEEDS_SHARED

CR_TITLES = {
    "104": "Ending the Game",
    "508": "Declare Attackers Step",
    "509": "Declare Blockers Step",
    "122": "Counters",
    "601": "Casting Spells",
    "113": "Abilities",
    "702.9": "Flying",
}


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
    ("rule", "cited"),
    [
        ("508.1a", "Declare Attackers Step · Angreifer-deklarieren-Segment"),
        ("509.1a", "Declare Blockers Step · Blocker-deklarieren-Segment"),
        ("511.3", "End of Combat Step · Ende-des-Kampfes-Segment"),
        ("510.2", "Combat Damage Step · Kampfschadensegment"),
        ("608.2", "Resolve · Verrechnen"),  # a verb in the table, a heading in the trace
        ("702.9b", "Flying · Fliegend"),
        ("702.22j", "Banding · Bündnisfähigkeit"),
        ("702.26b", "Phasing"),  # German cards print "Phasing" too: no "Phasing · Phasing"
    ],
)
def test_german_traces_cite_both_names_from_the_term_tables(
    without_cr: LibraryRuleBook, rule: str, cited: str
) -> None:
    assert rule_title(without_cr, rule, "de") == cited


def test_both_names_come_from_one_level_of_the_number_tree(with_cr: LibraryRuleBook) -> None:
    """509.1b is the evasion rule inside the Declare Blockers Step: its German name is
    Ausweichfähigkeit, so its English one is Evasion Ability, not the step's title."""
    assert with_cr.names("509.1b") == ("Evasion Ability", "Ausweichfähigkeit")
    assert rule_title(with_cr, "509.1b", "de") == "Evasion Ability · Ausweichfähigkeit"
    assert rule_title(with_cr, "509.1b", "en") == "Declare Blockers Step"


@pytest.mark.parametrize(
    ("rule", "cited"),
    [
        ("601.2", "Casting Spells, dt. etwa „Zaubersprüche wirken“"),
        ("104.2a", "Ending the Game, dt. etwa „Ende des Spiels“"),
    ],
)
def test_without_an_official_german_name_the_english_title_gets_a_marked_gloss(
    with_cr: LibraryRuleBook, rule: str, cited: str
) -> None:
    assert rule_title(with_cr, rule, "de") == cited
    assert rule_title(with_cr, rule, "en") == cited.split(",")[0]


def test_a_plural_section_title_gets_the_german_plural(with_cr: LibraryRuleBook) -> None:
    """113 is titled "Abilities"; none of its terms (Ability, Activated Ability, ...) is that
    title, but German cards print the plural (data/terms/plurals.tsv), as rule headings show it."""
    assert rule_title(with_cr, "113.6m", "de") == "Abilities · Fähigkeiten"
    assert rule_title(with_cr, "122.1a", "de") == "Counters · Marken"


def test_winning_never_cites_losing(without_cr: LibraryRuleBook, with_cr: LibraryRuleBook) -> None:
    assert rule_title(without_cr, "104.2a", "de") is None  # no CR: no title rather than a wrong one
    assert with_cr.names("104.2a") == ("Ending the Game", None)
    assert rule_title(with_cr, "104.2a", "en") == "Ending the Game"


def test_the_crs_own_title_picks_among_terms_of_one_number(with_cr: LibraryRuleBook) -> None:
    assert with_cr.names("122.1a")[0] == "Counters"  # "Counters" is the title of 122
    assert rule_title(with_cr, "508.1a", "en") == "Declare Attackers Step"


def test_rule_books_without_german_names() -> None:
    assert NullRuleBook().names("702.9b") == (None, None)
    assert rule_title(NullRuleBook(), "702.9b", "de") is None
    book = TextRuleBook({"601": "Casting Spells", "702.9": "Flying"})
    assert book.names("601.2") == ("Casting Spells", None)
    assert rule_title(book, "601.2", "de") == "Casting Spells, dt. etwa „Zaubersprüche wirken“"
    assert rule_title(book, "702.9b", "de") == "Flying"  # no term table behind it: English only


def test_a_gloss_never_stands_in_for_an_official_name() -> None:
    """A gloss is only for a title the term tables do not name; each row says what it rests on,
    and its words are German words the term tables or German cards use (the basis quotes them)."""
    official = {compact(row.en) for row in load_terms() if row.de} | set(plurals()[0])
    text = (Path(__file__).resolve().parents[2] / "data" / "narration" / "glosses.tsv").read_text("utf-8")
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    assert {r[0]: r[1] for r in rows} == title_glosses()
    german_words = {w.casefold() for row in load_terms() for n in row.german_names for w in n.split()}
    for en, gloss, basis in rows:
        assert compact(en) not in official, en
        assert basis.startswith("no official German title attested here"), en
        unknown = [w for w in gloss.split() if w.casefold() not in german_words and w not in basis]
        assert not unknown, (en, unknown)


@NEEDS_SHARED
def test_no_german_step_cites_an_english_title_alone(tmp_path: Path) -> None:
    """With the current CR ingested, every step of every German trace cites its rule with a
    German name or a marked gloss beside the English title (or a word both languages share)."""
    library = Library(tmp_path)
    library.ingest([CORPUS / "en" / "MagicCompRules-20260417.txt"])
    steps = [s for sc in library.example(None, "de")["scenarios"] for s in sc["steps"]]
    same_word = {compact(row.en) for row in load_terms() if row.de and compact(row.de) == compact(row.en)}
    english_only = [
        (s["rule"], s["title"])
        for s in steps
        if s["title"] and " · " not in s["title"] and "dt. etwa" not in s["title"]
        if compact(s["title"]) not in same_word
    ]
    assert len(steps) > 400 and english_only == [], json.dumps(english_only, ensure_ascii=False)
