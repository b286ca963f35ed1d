"""The glossary feedback of a question (`feedback.glossed`): which definitions lend words."""

from __future__ import annotations

from typing import Any

from regelwerk.index.search import feedback
from regelwerk.index.search.analysis import terms


def analyze(lang: str, word: str) -> frozenset[str]:
    return frozenset(terms(lang, word))


Hit = tuple[dict[str, Any], float]


def entry(title: str, text: str, language: str = "en", kind: str = "glossary") -> Hit:
    return {"title": title, "text": text, "language": language, "kind": kind}, 1.0


UNTAP_STEP = entry(
    "Untap Step",
    "Part of the turn. This step is the first step of the beginning phase. See rule 502, “Untap Step.”",
)


def wanted(question: str) -> set[str]:
    return set(terms("en", question))


def test_a_named_head_lends_its_definition_without_its_pointers() -> None:
    got = feedback.glossed([UNTAP_STEP], wanted("priority during the untap step"), analyze)
    assert {"begin", "phase", "first", "part", "turn"} <= got
    assert not got & wanted("priority during the untap step")  # the question's own terms
    assert "502" not in got and "see" not in got and "rule" not in got  # "See rule 502, ..." is cut


def test_a_head_the_question_names_only_in_part_lends_nothing() -> None:
    assert feedback.glossed([UNTAP_STEP], wanted("priority during the untap"), analyze) == set()


def test_only_english_glossary_hits_lend_words() -> None:
    rule = entry("Untap Step", "Rule text about the untap step and its turn.", kind="rule")
    german = entry("Enttappsegment", "Teil des Zuges.", language="de")
    assert feedback.glossed([rule, german], wanted("untap step"), analyze) == set()


def test_sense_numbers_and_single_letters_are_no_words() -> None:
    ability = entry("Ability", "1. Text on an object.\n2. An activated ability on the stack. See rule 113.")
    got = feedback.glossed([ability], wanted("what is an ability"), analyze)
    assert "text" in got and "stack" in got
    assert not any(t.isdigit() or len(t) < 2 for t in got)
