"""The official CR .txt ingestor, on the real releases in ../shared and on small inline texts."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from helpers import assert_lines_covered

from regelwerk.ingest import cr_text
from regelwerk.ingest.cr_structure import split_terms
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model.numbers import SUBRULE_LETTERS, RuleNumber
from regelwerk.ingest.model.records import ParsedDocument

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus" / "en"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason="../shared corpus not available")

#: file -> (ISO date, encoding, newline, rules+subrules, glossary entries, banding number)
RELEASES = {
    "MagicCompRules-20110204.txt": ("2011-02-04", "ascii", "\r\n", 1781, 449, "702.19"),
    "MagicCompRules-20151113.txt": ("2015-11-13", "cp1252", "\r\n", 2054, 507, "702.21"),
    "MagicCompRules-20260116.txt": ("2026-01-16", "utf-8-sig", "\r", 3114, 725, "702.22"),
    "MagicCompRules-20260417.txt": ("2026-04-17", "utf-8-sig", "\n", 3138, 730, "702.22"),
}
_ORACLE_RULE = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")

_cache: dict[str, tuple[ParsedDocument, str, bytes]] = {}


def load(name: str) -> tuple[ParsedDocument, str, bytes]:
    if name not in _cache:
        path = CORPUS / name
        data = path.read_bytes()
        _cache[name] = (cr_text.parse(data, str(path)), decode(data, str(path)).text, data)
    return _cache[name]


def oracle_counts(text: str) -> tuple[int, int]:
    """Rule lines before the real Glossary and glossary blocks, counted without the parser.

    The Contents list "Glossary" and "Credits" first, so the real ones are the second
    occurrences.
    """
    lines = text.split("\n")
    glossary = [i for i, line in enumerate(lines) if line.strip() == "Glossary"][1]
    credits = [i for i, line in enumerate(lines) if line.strip() == "Credits"][1]
    rules = sum(1 for line in lines[:glossary] if _ORACLE_RULE.match(line))
    blocks = re.split(r"\n\s*\n", "\n".join(lines[glossary + 1 : credits]).strip())
    return rules, len([b for b in blocks if b.strip()])


release = pytest.mark.parametrize("name", sorted(RELEASES))


@needs_shared
@release
def test_counts_match_the_raw_file_and_the_known_numbers(name: str) -> None:
    parsed, text, _ = load(name)
    rules, glossary = oracle_counts(text)
    assert len(parsed.rules) == rules == RELEASES[name][3]
    assert len(parsed.glossary) == glossary == RELEASES[name][4]


@needs_shared
@release
def test_document_record(name: str) -> None:
    parsed, _, data = load(name)
    version, encoding, newline = RELEASES[name][:3]
    doc = parsed.document
    assert doc.version == version
    assert doc.id == f"cr-en-{version}"
    assert doc.kind == "cr-text"
    assert doc.language == "en"
    assert doc.title == f"Magic: The Gathering Comprehensive Rules ({version})"
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert (doc.encoding, doc.newline) == (encoding, newline)


@needs_shared
@release
def test_every_line_lands_in_exactly_one_record(name: str) -> None:
    parsed, text, _ = load(name)
    assert_lines_covered(parsed, text)
    assert parsed.issues == ()


@needs_shared
@release
def test_numbers_are_unique_valid_and_parented(name: str) -> None:
    parsed, _, _ = load(name)
    numbered = [s for s in parsed.sections if s.number is not None]
    numbers = [s.number for s in numbered]
    assert len(numbers) == len(set(numbers))
    known = set(numbers)
    for s in numbered:
        if s.kind == "chapter":
            assert s.parent is None and re.fullmatch(r"[1-9]", s.number or "")
            continue
        assert s.parent in known, s
        rn = RuleNumber.parse(s.number or "")
        assert rn.kind == s.kind
        assert s.parent == (str(rn.chapter) if rn.parent is None else str(rn.parent))
        assert rn.letter is None or rn.letter in SUBRULE_LETTERS
    assert {s.kind for s in parsed.sections} == {
        "front",
        "chapter",
        "section",
        "rule",
        "subrule",
        "paragraph",
        "credits",
    }
    assert sum(s.kind == "chapter" for s in parsed.sections) == 9


@needs_shared
@release
def test_keyword_headings_examples_and_references(name: str) -> None:
    parsed, _, _ = load(name)
    by_number = {s.number: s for s in parsed.sections}
    banding = by_number[RELEASES[name][5]]
    assert (banding.kind, banding.title, banding.keyword) == ("rule", "Banding", "Banding")
    assert by_number["702"].title == "Keyword Abilities"
    assert by_number["702"].parent == "7"
    assert by_number["1"].title == "Game Concepts"
    assert by_number["101"].title == "The Magic Golden Rules"  # _Magic_ italics stripped
    ordinary = by_number["100.1"]
    assert ordinary.title == "" and ordinary.keyword is None
    blocking = by_number["509.1b"]
    assert blocking.examples and blocking.examples[0].startswith("Example: An attacking creature")
    assert "Example:" not in blocking.text
    # The indented continuation paragraph belongs to the rule text, after a line break.
    assert "\nA restriction may be created by an evasion ability" in blocking.text
    italics = re.compile(r"(?<!\w)_[A-Za-z]")  # "Wolf in ________ Clothing" is not italics
    assert not any(italics.search(s.text + s.title) for s in parsed.sections)
    flanking = next(s for s in parsed.sections if s.title == "Flanking")
    assert flanking.keyword == "Flanking"
    cited = [(s, r) for s in parsed.rules for r in s.references]
    assert len(cited) > 500
    for s, ref in cited:
        assert ref.rstrip("abcdefghijkmnpqrstuvwxyz") in s.text + "".join(s.examples), (s, ref)


@needs_shared
@release
def test_glossary_entries(name: str) -> None:
    parsed, _, _ = load(name)
    by_term = {g.terms[0]: g for g in parsed.glossary}
    assert by_term["Banding"].terms == ("Banding", "Bands with Other")
    assert by_term["Active Player, Nonactive Player Order"].terms == (
        "Active Player, Nonactive Player Order",
    )
    assert by_term["You"].terms == ("You", "Your")
    bury = by_term["Bury"]
    assert bury.obsolete and bury.terms == ("Bury",)
    assert not by_term["Banding"].obsolete
    removed = by_term["Remove from the Game"]
    assert removed.terms == ("Remove from the Game", "Removed", "Removed-from-the-Game Zone")
    assert removed.obsolete
    ability = by_term["Ability"]
    assert ability.text.startswith("1. Text on an object")
    assert ability.text.count("\n") == 2
    assert parsed.glossary[-1].terms == ("Zone-Change Triggers",)
    assert [g.position for g in parsed.glossary] == list(range(len(parsed.glossary)))
    assert all("Obsolete" not in t for g in parsed.glossary for t in g.terms)


@needs_shared
def test_newer_release_details() -> None:
    parsed, _, _ = load("MagicCompRules-20260417.txt")
    by_number = {s.number: s for s in parsed.sections}
    brawl = by_number["119.1d"]  # written "119.1d." with a stray period
    assert (brawl.kind, brawl.parent) == ("subrule", "119.1")
    partner = next(g for g in parsed.glossary if g.terms[0] == "Partner")
    assert partner.terms == ("Partner", "Partner—[text]", "Partner with [name]")
    abandon = next(g for g in parsed.glossary if g.terms == ("Abandon",))
    assert abandon.references == ("701.33",)
    front = [s for s in parsed.sections if s.kind == "front"]
    assert [s.title for s in front] == [
        "Magic: The Gathering Comprehensive Rules",
        "Introduction",
        "Contents",
    ]
    assert "702. Keyword Abilities" in front[2].text
    credits = [s for s in parsed.sections if s.kind == "credits"]
    assert len(credits) == 1 and "Richard Garfield" in credits[0].text


@needs_shared
def test_old_release_continuations_and_italics() -> None:
    parsed, _, _ = load("MagicCompRules-20110204.txt")
    by_number = {s.number: s for s in parsed.sections}
    lands = by_number["204.3h"]
    assert lands.text.endswith("basic land types. See rule 305.6.")
    assert "305.6" in lands.references
    assert parsed.sections[0].title == "Magic: The Gathering Comprehensive Rules"


# --- small inline documents: no corpus needed ---------------------------------------------

MINI = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of June 1, 2020.

Contents

1. Game Concepts
100. General
Glossary
Credits

1. Game Concepts

100. General

100.1. These rules apply. See rule 100.1a.

100.1a A subrule.
Example: An example.

7. Additional Rules

702. Keyword Abilities

702.9. Flying

702.9a Flying is an evasion ability.

Glossary

Flying
A keyword ability. See rule 702.9.

Credits

Somebody
"""


def test_mini_document_and_line_endings() -> None:
    for newline in ("\n", "\r\n", "\r"):
        data = ("\ufeff" + MINI.replace("\n", newline)).encode("utf-8")
        parsed = cr_text.parse(data, "mini.txt")
        assert parsed.document.version == "2020-06-01"
        assert parsed.document.newline == newline
        assert parsed.document.encoding == "utf-8-sig"
        assert [s.number for s in parsed.rules] == ["100.1", "100.1a", "702.9", "702.9a"]
        assert parsed.rules[1].examples == ("Example: An example.",)
        assert parsed.rules[2].keyword == "Flying"
        assert parsed.glossary[0].references == ("702.9",)
        assert parsed.issues == ()
        assert_lines_covered(parsed, MINI)


def test_cp1252_bytes_decode_as_cp1252() -> None:
    text = MINI.replace("An example.", "It’s an example.")
    parsed = cr_text.parse(text.encode("cp1252"), "mini.txt")
    assert parsed.document.encoding == "cp1252"
    assert parsed.rules[1].examples == ("Example: It’s an example.",)


def test_problems_become_issues_not_losses() -> None:
    text = MINI.replace("100.1a A subrule.", "100.1a A subrule.\n100.1a Again.\n100.1l Bad letter.")
    body = "1. Game Concepts\n\n100. General\n\n"
    text = text.replace(body, body.replace("\n\n", "\n\nStray line\n\n", 1))
    text = text.replace("June 1, 2020", "someday")
    parsed = cr_text.parse(text.encode("utf-8"), "mini.txt")
    messages = " | ".join(i.message for i in parsed.issues)
    assert "duplicate number '100.1a'" in messages
    assert "'100.1l' is not a rule number" in messages
    assert "unnumbered line under heading '1'" in messages
    assert "effective as of" in messages
    assert parsed.document.version is None
    assert parsed.document.id == "mini"
    assert_lines_covered(parsed, text)


def test_apostrophes_lost_to_question_marks_are_noted_and_kept_as_printed() -> None:
    lost = " ".join(["It can?t and won?t."] * 10)
    parsed = cr_text.parse(MINI.replace("An example.", lost).encode("ascii"), "mini.txt")
    (issue,) = parsed.issues
    assert issue.message.startswith("20 '?' stand between letters")
    assert parsed.rules[1].examples == (f"Example: {lost}",)
    # a few such "?" beside real apostrophes are no loss
    kept = " ".join(["It can't, won?t, isn?t, don?t."] * 10)
    assert cr_text.parse(MINI.replace("An example.", kept).encode("ascii"), "mini.txt").issues == ()


def test_missing_parent_is_reported() -> None:
    text = MINI.replace("100.1. These rules apply. See rule 100.1a.\n\n", "")
    parsed = cr_text.parse(text.encode("utf-8"), "mini.txt")
    assert any("'100.1a' has no parent '100.1'" in i.message for i in parsed.issues)
    assert_lines_covered(parsed, text)


@pytest.mark.parametrize(
    ("head", "terms"),
    [
        ("Banding, “Bands with Other”", ("Banding", "Bands with Other")),
        ('Banding, "Bands with Other"', ("Banding", "Bands with Other")),
        (
            "Partner, “Partner—[text],” “Partner with [name]”",
            ("Partner", "Partner—[text]", "Partner with [name]"),
        ),
        ("Control, Controller", ("Control", "Controller")),
        ("Active Player, Nonactive Player Order", ("Active Player, Nonactive Player Order",)),
        ("Flying", ("Flying",)),
        ("Intervening “If” Clause", ("Intervening “If” Clause",)),
        ('Intervening "If" Clause', ('Intervening "If" Clause',)),
    ],
)
def test_split_terms(head: str, terms: tuple[str, ...]) -> None:
    assert split_terms(head) == terms
