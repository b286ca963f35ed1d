from __future__ import annotations

import pytest

from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.numbers import (
    UNNUMBERED,
    RuleNumber,
    find_references,
    letter_after,
    letters,
    lineage,
    sort_key,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("702.22", "702.22"),
        ("702.22.", "702.22"),
        ("702.22j", "702.22j"),
        ("119.1d.", "119.1d"),
        ("702", "702"),
    ],
)
def test_parse(text: str, expected: str) -> None:
    assert str(RuleNumber.parse(text)) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("702.22 j", "702.22j"),
        ("rule 702.22j", "702.22j"),
        ("CR 510.1c", "510.1c"),
        ("Regel 702.19", "702.19"),
        ("  702.22.  ", "702.22"),
    ],
)
def test_from_query(query: str, expected: str) -> None:
    assert str(RuleNumber.from_query(query)) == expected


@pytest.mark.parametrize("bad", ["", "banding", "702.22l", "702.22o", "7022", "702.22jj", "070.1"])
def test_invalid(bad: str) -> None:
    with pytest.raises(InvalidRuleNumber) as info:
        RuleNumber.from_query(bad)
    assert repr(bad) in str(info.value)


def test_prefix_never_confuses_702_6_with_702_60() -> None:
    assert not RuleNumber.parse("702.6").contains(RuleNumber.parse("702.60"))
    assert RuleNumber.parse("702.6").contains(RuleNumber.parse("702.6c"))
    assert RuleNumber.parse("702").contains(RuleNumber.parse("702.60"))


def test_parent_and_order() -> None:
    n = RuleNumber.parse("702.22j")
    assert str(n.parent) == "702.22"
    assert str(n.parent.parent) == "702"  # type: ignore[union-attr]
    nums = ["702.22k", "702.3", "702.22", "702.22m", "702.22a", "702"]
    assert sorted(nums, key=lambda s: RuleNumber.parse(s).sort_key()) == [
        "702", "702.3", "702.22", "702.22a", "702.22k", "702.22m",
    ]


def test_letters_skip_l_and_o() -> None:
    assert letter_after("k") == "m"
    assert letter_after("n") == "p"
    assert letters(12) == tuple("abcdefghijkm")


def test_find_references() -> None:
    text = "See rules 510.1c–d and rule 702.22, and rule 704. A deck of 100 cards; 702.6 is not 702.60."
    assert find_references(text) == ("510.1c", "510.1d", "702.22", "704", "702.6", "702.60")


def test_lineage() -> None:
    assert RuleNumber.parse("702.22j").lineage() == ("702.22j", "702.22", "702")
    assert lineage("702") == ("702",)
    assert lineage("banding") == ()


def test_sort_key_puts_what_is_no_rule_number_last() -> None:
    """Hits and changes sort by one key: glossary entries and unparseable numbers after every
    rule, in the order the list had them (sorted() is stable)."""
    found = ["Glossary", "702.22j", None, "100.1", "702.22", "702.6", "702.60"]
    assert sorted(found, key=sort_key) == ["100.1", "702.6", "702.22", "702.22j", "702.60", "Glossary", None]
    assert sort_key(None) == sort_key("not a number") == UNNUMBERED
