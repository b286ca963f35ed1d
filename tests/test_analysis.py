"""Token tests per analyzer (table-driven, German and English) and a pickling test for each.

whoosh pickles the schema, analyzers included, into the index; a filter that does not pickle
(or unpickles into something that tokenizes differently) would break every later search.
"""

from __future__ import annotations

import pickle

import pytest

from regelwerk.index.search.analysis import (
    ANALYZERS,
    CompoundFilter,
    FoldFilter,
    NegationFilter,
    negated_base,
    split_compound,
    terms,
)

GERMAN = [
    # (text, terms that must be produced)
    ("Kampfschaden", {"kampfschad", "kampf", "schad"}),
    ("Schaden", {"schad"}),
    ("Giftmarken", {"giftmark", "gift", "mark"}),
    ("Marke", {"mark"}),
    ("Bündnisfähigkeit", {"bundnisfah", "bundnis", "fahig"}),
    ("Lebenspunkte", {"leb", "punkt"}),
    ("Kampfschadensegment", {"kampf", "schad", "segment"}),
]
GERMAN_SAME = [
    # spellings that must analyze identically
    ("Bündnisfähigkeit", "Buendnisfaehigkeit"),
    ("Bündnisfähigkeit", "Bundnisfahigkeit"),
    ("Größe", "Groesse"),
    ("Straße", "Strasse"),
    ("BÜNDNIS", "bündnis"),
]
GERMAN_STOP = [
    ("wer verteilt den Schaden wenn ein Blocker da ist", ["verteilt", "schad", "block"]),
]
ENGLISH = [
    ("Banding", ["band"]),
    ("bands", ["band"]),
    (
        "What happens when a creature with deathtouch deals damage?",
        ["creatur", "deathtouch", "deal", "damag"],
    ),
    ("poison counters", ["poison", "counter"]),
    ("how many cards do I draw if my library has none", ["card", "draw", "librari", "none"]),
    ("creature’s", ["creatur", "s"]),
    # a negated word keeps its own term and adds its base's at the same place
    ("untapped creatures", ["untap", "tap", "creatur"]),
    ("noncombat damage", ["noncombat", "combat", "damag"]),
    ("the untap step", ["untap", "tap", "step"]),
    # ... but a word that only begins like a negation does not
    ("unless until Undying", ["unless", "until", "undi"]),
]


@pytest.mark.parametrize(("text", "expected"), GERMAN)
def test_german_compounds_and_stems(text: str, expected: set[str]) -> None:
    assert expected <= set(terms("de", text))


@pytest.mark.parametrize(("a", "b"), GERMAN_SAME)
def test_german_folding(a: str, b: str) -> None:
    assert terms("de", a) == terms("de", b)


@pytest.mark.parametrize(("text", "expected"), GERMAN_STOP)
def test_german_stop_words(text: str, expected: list[str]) -> None:
    assert terms("de", text) == expected


@pytest.mark.parametrize(("text", "expected"), ENGLISH)
def test_english_tokens(text: str, expected: list[str]) -> None:
    assert terms("en", text) == expected


@pytest.mark.parametrize(
    ("word", "base"),
    [
        ("untapped", "tapped"),
        ("nontoken", "token"),
        ("noncreature", "creature"),
        ("unblocked", "blocked"),
        ("unless", ""),  # not "less"
        ("unearth", ""),  # a keyword's name
        ("understood", ""),
        ("undo", ""),  # too short a base to be a word of its own
        ("none", ""),
        ("un2", ""),
    ],
)
def test_negated_base(word: str, base: str) -> None:
    assert negated_base(word) == base


def test_a_tapped_question_meets_untapped_text() -> None:
    assert set(terms("en", "tapped")) <= set(terms("en", "untapped"))


def test_english_does_not_fold_or_split() -> None:
    assert terms("en", "Kampfschaden Bündnis") == ["kampfschaden", "bündnis"]


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("kampfschaden", ("kampf", "schaden")),
        ("giftmarken", ("gift", "marken")),
        ("lebenspunkte", ("leben", "punkte")),
        ("schaden", ()),  # a vocabulary word on its own is not a compound
        ("kampfxyz", ()),  # only words made entirely of vocabulary parts split
        ("verteilen", ()),
    ],
)
def test_split_compound(word: str, parts: tuple[str, ...]) -> None:
    assert split_compound(word) == parts


@pytest.mark.parametrize("name", sorted(ANALYZERS))
def test_analyzer_pickles(name: str) -> None:
    analyzer = ANALYZERS[name]()
    text = "Wer verteilt den Kampfschaden? Bündnisfähigkeit, Giftmarken and banding."
    clone = pickle.loads(pickle.dumps(analyzer))
    assert [t.text for t in clone(text)] == [t.text for t in analyzer(text)]


@pytest.mark.parametrize(
    "flt", [FoldFilter(), CompoundFilter(), CompoundFilter(frozenset({"gift", "marke"})), NegationFilter()]
)
def test_custom_filters_pickle(flt: object) -> None:
    clone = pickle.loads(pickle.dumps(flt))
    assert clone == flt
