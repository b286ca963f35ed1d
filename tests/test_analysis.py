"""Token tests per analyzer (table-driven, German and English) and a pickling test for each.

whoosh pickles the schema, analyzers included, into the index; a filter that does not pickle
(or unpickles into something that tokenizes differently) would break every later search.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.analysis import StopFilter

from regelwerk.index.search.analysis import (
    ANALYZERS,
    CompoundFilter,
    FoldFilter,
    NegationFilter,
    negated_base,
    split_compound,
    terms,
    word_positions,
)
from tests.conftest import CORPUS, NEEDS_SHARED

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


def _whoosh_positions(field: object, text: str) -> list[tuple[bytes, int, float, bytes]]:
    """What whoosh's own ``TEXT.index`` gives for `text` (the whole pipeline, token by token)."""
    from whoosh.fields import TEXT

    return list(TEXT.index(field, text))


def _texts_of(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]


SAMPLES = [
    "",
    "the of and",  # stop words only
    "Wer verteilt den Kampfschaden, wenn ein Blocker Bündnisfähigkeit hat?",
    "der die das Kampfschadensegment der Giftmarken und Lebenspunkte",  # parts after stop words
    "untapped noncreature unless the untap step untapped",  # negations, a repeated word
    "702.19b Banding · Bündnis; creature’s ÄÖÜ straße STRASSE " + "x" * 90,  # a too-long word
]


@pytest.mark.parametrize("field", ["text_en", "text_de"])
@pytest.mark.parametrize("text", SAMPLES)
def test_word_positions_index_as_whoosh_does(field: str, text: str) -> None:
    from regelwerk.index.search.whoosh_index import schema

    f = schema()[field]
    assert f._postings(text) == _whoosh_positions(f, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["der", "Kampfschaden", "the", "untapped", "Bündnis", "x", "  ", ", ",
                                 "ß", "é", "2", "_", "Giftmarken", "und", "non", "’s", "a" * 81]),
                max_size=30).map("".join))
def test_word_positions_on_any_mix_of_words(text: str) -> None:
    from regelwerk.index.search.whoosh_index import schema

    s = schema()
    for field in ("text_en", "text_de"):
        assert s[field]._postings(text) == _whoosh_positions(s[field], text)


@NEEDS_SHARED
def test_word_positions_on_every_line_of_a_cr_and_the_seeds() -> None:
    """Both analyzers over the 2026-04-17 CR and the German seeds, line by line: the same terms,
    frequencies, weights and encoded positions, in the same order, as whoosh's pipeline."""
    from regelwerk.index.search.whoosh_index import schema

    lines = _texts_of(CORPUS / "en" / "MagicCompRules-20260417.txt")
    seeds = Path(__file__).resolve().parents[1] / "data" / "seeds"
    lines += [line for p in sorted(seeds.glob("*.txt")) for line in _texts_of(p)]
    s = pickle.loads(pickle.dumps(schema()))  # as a grown index reads it from its folder
    for field in ("text_en", "text_de"):
        f = s[field]
        assert word_positions(f.analyzer, "") is not None  # worked out word by word, not by whoosh
        assert [f._postings(t) for t in lines] == [_whoosh_positions(f, t) for t in lines]


def test_word_positions_leaves_an_unknown_pipeline_to_whoosh() -> None:
    from whoosh.analysis import RegexTokenizer, StemFilter

    assert word_positions(RegexTokenizer(r"\w+") | StemFilter(), "a b") is None  # no stop filter
    assert word_positions(RegexTokenizer(r"[\w.]+") | StopFilter(), "a b") is None  # another pattern
    assert word_positions(ANALYZERS["en"](), "the bands") == {"band": [1]}


def test_word_positions_shares_its_words_between_equal_analyzers_and_holds_a_few() -> None:
    from regelwerk.index.search import analysis

    for _ in range(analysis._HELD - 1 - len(analysis._WORDS)):  # sharing across a clearing too
        analysis._words_of(ANALYZERS["name"]())
    first, second = ANALYZERS["en"](), pickle.loads(pickle.dumps(ANALYZERS["en"]()))
    word_positions(first, "Zebras trample")
    assert "Zebras" in analysis._words_of(second)  # a writer's own schema meets the words
    assert "Zebras" not in analysis._words_of(ANALYZERS["de"]())
    for _ in range(3 * analysis._HELD):
        word_positions(ANALYZERS["en"](), "again")
    assert len(analysis._WORDS) <= analysis._HELD
