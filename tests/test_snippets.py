"""Snippets: the window around the densest run of query terms, found by a sliding count."""

from __future__ import annotations

import random
import re

import pytest

from regelwerk.index.search.snippets import HIGHLIGHT, SENTENCE_BACK, snippet

WORDS = ["trample", "damage", "the", "creature", "blocking", "assigns", "its", "player"]


def _analyze(lang: str, word: str) -> frozenset[str]:
    return frozenset({word.lower().rstrip("s")})


def _densest(text: str, wanted: set[str], width: int) -> int:
    """The first window start with the most marked words, counted window by window."""
    words = re.findall(r"\w+", text)
    marks = [bool(_analyze("en", w) & wanted) for w in words]
    counts = [sum(marks[s : s + width]) for s in range(max(1, len(words) - width + 1))]
    return counts.index(max(counts))


def _sentence_start(words: list[str], i: int) -> int:
    """The first word of word `i`'s sentence if at most SENTENCE_BACK words back, else `i`
    (words as written, a sentence's last one ending in '.')."""
    for j in range(i, max(0, i - SENTENCE_BACK) - 1, -1):
        if j == 0 or words[j - 1].endswith("."):
            return j
    return i


def test_the_window_is_the_first_densest_one_from_its_sentence_start() -> None:
    """The densest window's words, and before them those of its first sentence up to
    SENTENCE_BACK words back; all the window's marked words stay in."""
    rng = random.Random(5)
    for _ in range(400):
        words = [rng.choice(WORDS) + ("." if rng.random() < 0.1 else "") for _ in range(rng.randint(1, 90))]
        text = " ".join(words)
        wanted = set(rng.sample(["trample", "damage", "creature", "player"], rng.randint(1, 2)))
        width = rng.choice((4, 8, 32))
        got = snippet(text, "en", wanted, _analyze, width=width)
        densest = _densest(text, wanted, width)
        start = _sentence_start(words, densest)
        body = got.removeprefix("…").replace(HIGHLIGHT[0], "").replace(HIGHLIGHT[1], "")
        assert body.split()[0] == words[start] and got.startswith("…") == (start > 0)
        assert len(re.findall(r"\w+", body)) == min(densest + width, len(words)) - start


def test_a_snippet_opens_with_its_sentence() -> None:
    """307.5's densest window once began "…could «cast». Effects that…": the sentence the
    window opens in is near, so the snippet starts with it."""
    text = (
        "It means only that the player must have priority. The player doesn't need to have a"
        " sorcery card they could cast. Effects that would preclude that player from casting a"
        " sorcery spell don't affect the player's capability to perform that action."
    )
    got = snippet(text, "en", {"cast", "casting", "sorcery"}, _analyze, width=22)
    assert got.startswith("…The player doesn't need to have a «sorcery» card they could «cast». Effects")
    far = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen damage"
    assert snippet(far, "en", {"damage"}, _analyze, width=2) == "…fourteen «damage»"


def test_marks_follow_the_analyzer() -> None:
    got = snippet("A creature assigns its damage.", "en", {"damage", "assign"}, _analyze)
    assert got == f"A creature {HIGHLIGHT[0]}assigns{HIGHLIGHT[1]} its {HIGHLIGHT[0]}damage{HIGHLIGHT[1]}."


def test_a_texts_words_are_cached_per_analyzer_function_not_per_engine() -> None:
    """The word positions a snippet reads are cached by text, language and the analyzer's
    function: two analyzers never share an entry (each marks its own words), the same text
    in the other language is analysed anew, and an engine's bound analyzer is not kept."""
    from regelwerk.index.search import snippets

    class Engine:
        def analyze(self, lang: str, word: str) -> frozenset[str]:
            return frozenset({word.lower()} if lang == "en" else {word.upper()})

    def upper(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.upper()})

    engine = Engine()
    text = "Trample damage goes through"
    assert snippet(text, "en", {"damage"}, engine.analyze) == "Trample «damage» goes through"
    assert snippet(text, "en", {"damage"}, upper) == text
    assert snippet(text, "de", {"DAMAGE"}, engine.analyze) == "Trample «damage» goes through"
    assert snippet(text, "en", {"goes"}, Engine().analyze) == "Trample damage «goes» through"
    assert not any(getattr(key[2], "__self__", None) is engine for key in snippets._WORDS)


def test_the_word_cache_starts_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    from regelwerk.index.search import snippets
    from regelwerk.index.search.analysis import TextCache

    monkeypatch.setattr(snippets, "_WORDS", TextCache(3))
    for n in range(7):
        assert snippet(f"word{n} damage", "en", {"damage"}, _analyze) == f"word{n} «damage»"
        assert 1 <= len(snippets._WORDS) <= 3


def test_an_english_rules_opening_quote_mark_is_kept() -> None:
    """702.22b opens with a quote mark; the snippet once began "«Bands» with «other»” is"."""
    text = "“Bands with other” is a special form of banding."
    got = snippet(text, "en", {"band", "other"}, _analyze)
    assert got == "“«Bands» with «other»” is a special form of banding."


def test_a_german_rules_opening_quote_mark_is_kept() -> None:
    """The German seed's 702.19b opens with „ and closes with “ (an initial quote in Unicode)."""
    text = "„Bündnis mit anderen“ ist eine spezielle Form von Bündnisfähigkeit."
    got = snippet(text, "de", {"bündni", "anderen"}, _analyze)
    assert got == "„«Bündnis» mit «anderen»“ ist eine spezielle Form von Bündnisfähigkeit."


def test_a_window_keeps_the_quote_marks_of_its_first_and_last_words() -> None:
    text = "one two three. “bands with other” four five six seven"
    got = snippet(text, "en", {"band", "other"}, _analyze, width=3)
    assert got == "…“«bands» with «other»”…"
    german = "eins zwei drei. „Bündnis mit anderen“ vier fünf sechs"
    got = snippet(german, "de", {"bündni", "anderen"}, _analyze, width=3)
    assert got == "…„«Bündnis» mit «anderen»“…"
    assert snippet("a b. c player's d e", "en", {"player"}, _analyze, width=2) == "…c «player»…"
