"""Hostile input never crashes the CR ingestors: a ParsedDocument or a clean InputError."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from helpers import assert_lines_covered
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelwerk.ingest import cr_html, cr_text
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.records import ParsedDocument

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CR_2026 = SHARED / "corpus" / "en" / "MagicCompRules-20260417.txt"
CR_2015 = SHARED / "corpus" / "en" / "MagicCompRules-20151113.txt"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason="../shared corpus not available")

PARSERS = [cr_text.parse, cr_html.parse]


def parse_or_clean_error(parse: object, data: bytes) -> ParsedDocument | None:
    assert callable(parse)
    try:
        result = parse(data, "fuzz.txt")
    except InputError:
        return None
    assert isinstance(result, ParsedDocument)
    return result


@pytest.mark.parametrize("parse", PARSERS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=2000))
def test_random_bytes(parse: object, data: bytes) -> None:
    parse_or_clean_error(parse, data)


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=2000))
def test_random_text_keeps_every_line(text: str) -> None:
    parsed = parse_or_clean_error(cr_text.parse, text.encode("utf-8"))
    if parsed is not None:
        assert_lines_covered(parsed, decode(text.encode("utf-8"), "fuzz.txt").text)


@settings(max_examples=100, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.from_regex(r"\A[1-9]\d{2}\.\d{1,2}[a-z]?\.? [A-Za-z ]{0,20}\Z"),
            st.from_regex(r"\A[1-9]\d{0,2}\. [A-Za-z ]{1,20}\Z"),
            st.sampled_from(["", "Example: x", "Glossary", "Credits", "   indented", "Term"]),
        ),
        max_size=60,
    )
)
def test_rule_shaped_noise_keeps_every_line(lines: list[str]) -> None:
    text = "Magic: The Gathering Comprehensive Rules\n\n" + "\n".join(lines)
    parsed = parse_or_clean_error(cr_text.parse, text.encode("utf-8"))
    assert parsed is not None
    assert_lines_covered(parsed, text)
    numbers = Counter(s.number for s in parsed.sections if s.number is not None)
    duplicates = (i.message for i in parsed.issues if i.message.startswith("duplicate number"))
    reported = Counter(m.split("'")[1] for m in duplicates)
    # a number used twice is kept twice (the text is real) and each repeat is reported
    assert reported == Counter({n: c - 1 for n, c in numbers.items() if c > 1})


def test_one_megabyte_line() -> None:
    data = b"Comprehensive Rules\n" + b"_a " * 350_000 + b"\n100.1. x\n"
    parsed = cr_text.parse(data, "big.txt")
    assert_lines_covered(parsed, data.decode())
    html = b"<html><body><p>" + b"word " * 210_000 + b"</p></body></html>"
    assert cr_html.parse(html, "big.htm").issues


@needs_shared
@settings(max_examples=25, deadline=None)
@given(fraction=st.floats(min_value=0.0, max_value=1.0))
def test_truncated_release(fraction: float) -> None:
    data = CR_2026.read_bytes()
    cut = data[: int(len(data) * fraction)]
    parsed = parse_or_clean_error(cr_text.parse, cut)
    if parsed is not None:
        assert_lines_covered(parsed, decode(cut, "cut").text)


@needs_shared
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be-bom", "utf-16-le", "mac_roman", "latin-1"])
def test_wrong_encodings(encoding: str) -> None:
    text = decode(CR_2015.read_bytes(), "x").text
    if encoding == "utf-16-be-bom":
        data = b"\xfe\xff" + text.encode("utf-16-be")
    else:
        data = text.encode(encoding, errors="replace")  # "utf-16" writes a BOM, "utf-16-le" none
    parsed = parse_or_clean_error(cr_text.parse, data)
    if encoding == "utf-16-le":
        assert parsed is None  # NUL bytes and no BOM to say what they are: rejected as binary
    else:
        assert parsed is not None
        assert len(parsed.rules) == 2054  # the structure survives mis-decoded quotes
        assert_lines_covered(parsed, decode(data, "x").text)
