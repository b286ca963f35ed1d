"""Every CR release in ../shared/corpus/archive parses exactly (parse only, no store, no index).

The oracle is counted straight from the decoded lines, without the parser: the lines matching
``^\\d{3}\\.\\d+[a-z]?\\.? `` before the last "Glossary" line, and the blank-line-separated
blocks between the last "Glossary" line and the "Credits" line after it. The release date
comes from the table in SOURCES.md ("date (own header)"). Where the parser rightly differs
from that naive count, the difference is listed below line by line with its reason, and the
test checks that exactly those lines differ.

The files are parsed once, by two worker processes, so the whole archive costs CI well under
a minute.
"""

from __future__ import annotations

import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import assert_lines_covered

from regelwerk.ingest import parse_bytes
from regelwerk.ingest.decode import decode
from tests.conftest import CORPUS, NEEDS_SHARED

pytestmark = NEEDS_SHARED

ARCHIVE = CORPUS / "archive"
_ORACLE_RULE = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")
_TABLE_ROW = re.compile(r"^\| (MagicCompRules-\d{8}\.txt) \| (\d{4}-\d{2}-\d{2}) \| \d+ \| ([^|]+) \|", re.M)

#: Lines the naive count takes for rules that are not: a hard-wrapped cross-reference
#: ("... See rule" / "103.4. If a player ...") continues the rule before it.
WRAPPED_REFERENCES = {
    "MagicCompRules-20031001.txt": ('419.8 "Sources of Damage."', "103.4. If a player must"),
    "MagicCompRules-20031201.txt": ('419.8 "Sources of Damage."', "103.4. If a player must"),
    "MagicCompRules-20040201.txt": ("103.4. If a player must",),
}
#: Rules the naive count misses: a number broken by a stray space, read as the subrule of
#: the rule before it.
_TWO_HEADED = ("606. 8b Players win and lose",)
SPLIT_NUMBERS = {
    **{
        f"MagicCompRules-{d}.txt": _TWO_HEADED
        for d in (
            *("20050801", "20051001", "20060201", "20060501"),
            *("20060715", "20061001", "20070201", "20070501"),
        )
    },
    "MagicCompRules-20090711.txt": ("702. 37a Storm", "702. 37b If a spell has multiple instances of storm"),
}
#: Blank-line-separated blocks that continue the glossary entry before them: 2003-03-15 lists
#: the expansion symbols under "Expansion Symbol", one set per paragraph.
GLOSSARY_CONTINUATIONS = {"MagicCompRules-20030315.txt": 42}
#: Numbers a release really prints twice; both records are kept and each reported.
DUPLICATES = {
    "MagicCompRules-20050801.txt": ("605.2c",),
    "MagicCompRules-20060501.txt": ("501.2", "501.3"),
    "MagicCompRules-20060601.txt": ("502.35b",),
    "MagicCompRules-20090904.txt": ("702.30d",),
    "MagicCompRules-20091001.txt": ("702.30d",),
}


@dataclass(frozen=True)
class Result:
    version: str | None
    encoding: str
    rule_lines: frozenset[str]  # first lines of the rule and subrule records
    glossary: int
    issues: tuple[str, ...]
    numbers: tuple[str, ...]
    oracle_rules: frozenset[str]
    oracle_glossary: int
    covered: str  # "" or the assert_lines_covered failure


def _oracle(text: str) -> tuple[frozenset[str], int]:
    lines = text.split("\n")
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    credits = next((i for i in range(glossary, len(lines)) if lines[i].strip() == "Credits"), len(lines))
    numbered = (f"{i + 1}:{line}" for i, line in enumerate(lines[:glossary]) if _ORACLE_RULE.match(line))
    rules = frozenset(numbered)
    blocks = re.split(r"\n\s*\n", "\n".join(lines[glossary + 1 : credits]))
    return rules, sum(1 for b in blocks if b.strip())


def _parse(path: Path) -> Result:
    data = path.read_bytes()
    parsed = parse_bytes(data, path.name)
    text = decode(data, path.name).text
    lines = text.split("\n")
    rules, glossary = _oracle(text)
    try:
        assert_lines_covered(parsed, text)
        covered = ""
    except AssertionError as exc:
        covered = str(exc)
    return Result(
        version=parsed.document.version,
        encoding=parsed.document.encoding,
        rule_lines=frozenset(f"{s.lines[0]}:{lines[s.lines[0] - 1]}" for s in parsed.rules),
        glossary=len(parsed.glossary),
        issues=tuple(i.message for i in parsed.issues),
        numbers=tuple(s.number or "" for s in parsed.rules),
        oracle_rules=rules,
        oracle_glossary=glossary,
        covered=covered,
    )


def _dates() -> dict[str, tuple[str, str]]:
    table = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    return {m.group(1): (m.group(2), m.group(3).strip()) for m in _TABLE_ROW.finditer(table)}


FILES = sorted(p.name for p in ARCHIVE.glob("*.txt")) if ARCHIVE.exists() else []


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(zip(FILES, pool.map(_parse, [ARCHIVE / f for f in FILES], chunksize=4), strict=True))


def test_the_archive_is_all_there() -> None:
    assert len(FILES) == 104
    assert set(FILES) == set(_dates())


@pytest.mark.parametrize("name", FILES)
def test_release_parses_exactly(results: dict[str, Result], name: str) -> None:
    r = results[name]
    date, encoding = _dates()[name]
    assert r.version == date
    assert not r.covered, r.covered
    if encoding.startswith("UTF-16"):
        assert r.encoding == ("utf-16-be" if "BE" in encoding else "utf-16-le")

    wrapped = {line.split(":", 1)[1] for line in r.oracle_rules - r.rule_lines}
    split = {line.split(":", 1)[1] for line in r.rule_lines - r.oracle_rules}
    assert len(wrapped) == len(WRAPPED_REFERENCES.get(name, ())), sorted(wrapped)
    for start in WRAPPED_REFERENCES.get(name, ()):
        assert any(line.startswith(start) for line in wrapped), (start, sorted(wrapped))
    assert len(split) == len(SPLIT_NUMBERS.get(name, ())), sorted(split)
    for start in SPLIT_NUMBERS.get(name, ()):
        assert any(line.startswith(start) for line in split), (start, sorted(split))
    assert r.glossary == r.oracle_glossary - GLOSSARY_CONTINUATIONS.get(name, 0)

    reported = [m for m in r.issues if m.startswith("duplicate number")]
    assert [m.split("'")[1] for m in reported] == list(DUPLICATES.get(name, ()))
    for number in DUPLICATES.get(name, ()):
        assert r.numbers.count(number) == 2  # both kept
    assert sum(m.startswith("number written") for m in r.issues) == len(SPLIT_NUMBERS.get(name, ()))


def test_truncated_release_keeps_its_last_entry_and_says_so(results: dict[str, Result]) -> None:
    r = results["MagicCompRules-20130201.txt"]
    assert r.glossary == r.oracle_glossary == 31
    assert any("ends inside the glossary: 'Attack Multiple Players'" in m for m in r.issues)
    assert any("appears to be truncated" in m for m in r.issues)


def test_only_known_problems_are_reported(results: dict[str, Result]) -> None:
    """Every issue in the archive is one of the known kinds: nothing else goes unexplained."""
    known = re.compile(
        r"^(duplicate number|number written|'\d{3}\.\d+[a-z]' has no parent|the file ends inside"
        r"|no Credits after the Glossary|\d+ '\?' stand between letters)"
    )
    odd = {name: m for name, r in results.items() for m in r.issues if not known.match(m)}
    assert not odd


def test_quotes_lost_to_question_marks_are_noted_where_they_were_lost(results: dict[str, Result]) -> None:
    """2008-05-01 has "?" for every quote and apostrophe (can?t); no other release is noted."""
    noted = {name: m for name, r in results.items() for m in r.issues if "lost to '?'" in m}
    assert list(noted) == ["MagicCompRules-20080501.txt"]
    assert noted["MagicCompRules-20080501.txt"].startswith("1671 '?' stand between letters")


def test_old_era_records() -> None:
    """Before July 2009: "current as of", keyword abilities at 502.x, old glossary."""
    parsed = parse_bytes((ARCHIVE / "MagicCompRules-20030315.txt").read_bytes(), "2003.txt")
    by_number = {s.number: s for s in parsed.sections}
    assert parsed.document.id == "cr-en-2003-03-15"
    assert by_number["5"].kind == "chapter" and by_number["5"].title == "Additional Rules"
    assert by_number["502"].title == "Keyword Abilities"
    assert by_number["502.10"].title == "Banding" and by_number["502.10"].keyword == "Banding"
    assert by_number["502.10a"].parent == "502.10"
    assert any(s.examples for s in parsed.rules)
    symbol = next(g for g in parsed.glossary if g.terms == ("Expansion Symbol",))
    assert "Onslaught" in symbol.text and "Unglued" in symbol.text
    assert any(g.terms[0] == "Banding" for g in parsed.glossary)


@pytest.mark.parametrize(
    ("date", "codec", "word"),
    [
        ("20040201", "mac_roman", "Darksteel™"),
        ("20061001", "mac_roman", "El-Hajjâj"),
        ("20060715", "cp437", "Dandân"),
        ("20070501", "cp437", "El-Hajjâj"),
        ("20130711", "cp437", "Ma'rûf"),
        ("20151113", "cp1252", "Ghazbán"),
        ("20160826", "utf-16-le", "Junún"),
        ("20221118", "utf-16-be", "Khabál"),
    ],
)
def test_encoding_by_known_strings(date: str, codec: str, word: str) -> None:
    decoded = decode((ARCHIVE / f"MagicCompRules-{date}.txt").read_bytes(), date)
    assert decoded.encoding == codec
    assert word in decoded.text
