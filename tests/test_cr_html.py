"""The Word "filtered HTML" CR export (2014-09-25, Mac Roman)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from regelwerk.ingest import cr_html
from regelwerk.ingest.model.numbers import RuleNumber
from regelwerk.ingest.model.records import ParsedDocument

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
HTM = SHARED / "corpus" / "html" / "MagicCompRules_20140926.htm"
pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="../shared corpus not available")

_ORACLE_RULE = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")


@pytest.fixture(scope="module")
def parsed() -> ParsedDocument:
    return cr_html.parse(HTM.read_bytes(), str(HTM))


@pytest.fixture(scope="module")
def paras() -> list[tuple[int, str, str]]:
    """(source line, class, flattened text) of every <p>, read independently with bs4."""
    import bs4

    soup = bs4.BeautifulSoup(HTM.read_bytes().decode("mac_roman"), "html.parser")
    return [
        (p.sourceline or 0, (p.get("class") or ["-"])[0], " ".join(p.get_text().split()))
        for p in soup.find_all("p")
    ]


def test_document(parsed: ParsedDocument) -> None:
    doc = parsed.document
    assert doc.version == "2014-09-25"  # the text says September 25; the file name says 26
    assert doc.id == "cr-en-2014-09-25-html"
    assert doc.kind == "cr-html"
    assert doc.encoding == "mac-roman"  # from <meta ... charset=macintosh>
    assert doc.newline == "\n"
    assert parsed.issues == ()


def test_counts(parsed: ParsedDocument, paras: list[tuple[int, str, str]]) -> None:
    # Oracle: numbered paragraphs after the Contents (the second "1. Game Concepts") and
    # before the real Glossary heading; glossary heads = paragraphs right after a spacer.
    texts = [t for _, _, t in paras]
    start = [i for i, t in enumerate(texts) if t == "1. Game Concepts"][1]
    glossary = texts.index("Glossary", start)
    rules = sum(1 for t in texts[start:glossary] if _ORACLE_RULE.match(t))
    credits = texts.index("Credits", glossary)
    heads = sum(1 for i in range(glossary + 2, credits) if texts[i] and not texts[i - 1])
    assert len(parsed.rules) == rules == 2008
    assert len(parsed.glossary) == heads == 496
    # Sanity against the .txt era: the 2015-11-13 release has 2054 rules and 507 entries.
    assert 1900 < len(parsed.rules) < 2054 and 480 < len(parsed.glossary) < 507


def test_classes_mostly_agree_and_the_exceptions_are_word_mislabels(
    parsed: ParsedDocument, paras: list[tuple[int, str, str]]
) -> None:
    """We classify by text; the Word classes agree except for four known mislabels."""
    cls = {line: c for line, c, _ in paras}
    subrule_classes = Counter(cls[s.lines[0]] for s in parsed.sections if s.kind == "subrule")
    rule_classes = Counter(cls[s.lines[0]] for s in parsed.sections if s.kind == "rule")
    head_classes = Counter(cls[g.lines[0]] for g in parsed.glossary)
    assert subrule_classes == {"CR1001a": 1144}
    assert rule_classes == {"CR1001": 863, "CR1001a": 1}  # 102.3 is styled as a subrule
    # "Conspiracy", "Conspiracy Draft", "Hidden Agenda" and "Vote" are styled as definitions.
    assert head_classes == {"CRGlossaryWord": 492, "CRGlossaryText": 4}
    example_classes = {cls[line] for s in parsed.sections for line in s.lines[1:] if s.examples}
    assert example_classes <= {"CREx1001", "CREx1001a", "CR1001", "CR1001a"}


def test_every_paragraph_in_exactly_one_record(
    parsed: ParsedDocument, paras: list[tuple[int, str, str]]
) -> None:
    nonempty = {line for line, _, text in paras if text}
    owners: Counter[int] = Counter()
    for group in (parsed.sections, parsed.glossary, parsed.issues):
        for record in group:
            owners.update(set(record.lines))
    assert set(owners) == nonempty
    assert [line for line, n in owners.items() if n > 1] == []


def test_records(parsed: ParsedDocument) -> None:
    by_number = {s.number: s for s in parsed.sections}
    banding = by_number["702.21"]
    assert (banding.title, banding.keyword) == ("Banding", "Banding")
    assert by_number["101"].title == "The Magic Golden Rules"
    blocking = by_number["509.1b"]
    assert blocking.examples[0].startswith("Example: An attacking creature with flying")
    # Hard-wrapped lines are joined with spaces; the continuation paragraph keeps its break.
    assert "creature can’t block, or that it can’t block" in blocking.text
    assert "\nA restriction may be created" in blocking.text
    numbers = [s.number for s in parsed.sections if s.number]
    assert len(numbers) == len(set(numbers))
    known = set(numbers)
    for s in parsed.rules:
        rn = RuleNumber.parse(s.number or "")
        assert s.parent == str(rn.parent) and s.parent in known
    ability = next(g for g in parsed.glossary if g.terms == ("Ability",))
    assert (
        ability.text.split("\n")[0] == "1. Text on an object that explains what that object does or can do."
    )
    assert ability.text.count("\n") == 2  # the <br> senses
    assert next(g for g in parsed.glossary if g.terms[0] == "Banding").terms == (
        "Banding",
        "Bands with Other",
    )


def test_declared_charset_wins_over_guessing() -> None:
    html = (
        "<html><head><meta http-equiv=Content-Type content='text/html; charset=macintosh'>"
        "</head><body><p>Comprehensive Rules</p><p>These rules are effective as of"
        " May 1, 2014.</p><p>It\xd5s here.</p></body></html>"
    ).encode("latin-1")
    parsed = cr_html.parse(html, "x.htm")
    assert parsed.document.encoding == "mac-roman"
    assert parsed.document.version == "2014-05-01"
    assert any("It’s here." in s.text for s in parsed.sections)  # 0xD5 is ’ in Mac Roman
    assert any("no numbered rules" in i.message for i in parsed.issues)
