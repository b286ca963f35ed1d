"""The German+English 702.19 banding dump (data/seeds/rule-702.19-banding-de-en.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelwerk.ingest import parse_bytes
from regelwerk.ingest.bilingual import parse
from regelwerk.ingest.decode import decode
from regelwerk.ingest.detect import Format, detect
from regelwerk.ingest.model.numbers import letters
from regelwerk.ingest.model.records import ParsedDocument, Section
from tests.helpers import assert_lines_covered, parse_random_lines

SEED = Path(__file__).resolve().parents[1] / "data" / "seeds" / "rule-702.19-banding-de-en.txt"


@pytest.fixture(scope="module")
def parsed() -> ParsedDocument:
    return parse(SEED.read_bytes(), str(SEED))


def _by_language(parsed: ParsedDocument, language: str) -> dict[str, Section]:
    return {s.number: s for s in parsed.sections if s.language == language and s.number}


def test_detected_as_bilingual_dump() -> None:
    found = detect(SEED.read_bytes())
    assert found is not None and found[0] is Format.BILINGUAL_DUMP


def test_document_is_undated_and_bilingual(parsed: ParsedDocument) -> None:
    doc = parsed.document
    assert (doc.language, doc.version, doc.kind) == ("de+en", None, "bilingual-dump")
    assert parsed.issues == ()


def test_every_line_lands_once(parsed: ParsedDocument) -> None:
    assert_lines_covered(parsed, decode(SEED.read_bytes(), str(SEED)).text)


@pytest.mark.parametrize(("language", "title"), [("de", "Bündnisfähigkeit"), ("en", "Banding")])
def test_each_language_has_rule_and_twelve_subrules(
    parsed: ParsedDocument, language: str, title: str
) -> None:
    sections = [s for s in parsed.sections if s.language == language]
    top, subs = sections[0], sections[1:]
    assert (top.number, top.kind, top.title, top.keyword) == ("702.19", "rule", title, title)
    assert [s.number for s in subs] == [f"702.19{x}" for x in letters(12)]
    assert "702.19l" not in {s.number for s in subs}
    assert all(s.kind == "subrule" and s.parent == "702.19" for s in subs)


def test_702_19j_in_both_languages(parsed: ParsedDocument) -> None:
    de = _by_language(parsed, "de")["702.19j"]
    en = _by_language(parsed, "en")["702.19j"]
    assert de.text.startswith("Wenn eine angreifende Kreatur") and de.language == "de"
    assert en.text.startswith("During the combat damage step") and en.language == "en"
    # "Regel 510.1c–d" is a range: both ends are references.
    assert de.references == ("510.1c", "510.1d")
    assert en.references == ("510.1c",)


def test_german_quotes_are_kept(parsed: ParsedDocument) -> None:
    b = _by_language(parsed, "de")["702.19b"]
    assert b.text.startswith("„Bündnis mit anderen“")


def test_rulings_attach_to_the_top_rule_of_their_block(parsed: ParsedDocument) -> None:
    for language, first in (("de", "Wenn eine Kreatur mit Bündnis"), ("en", "If a creature with banding")):
        sections = [s for s in parsed.sections if s.language == language]
        assert len(sections[0].rulings) == 4
        assert sections[0].rulings[0].startswith(first)
        assert not any(s.rulings for s in sections[1:])
        assert not any(r.startswith("•") for r in sections[0].rulings)


def test_examples_attach_to_their_rule(parsed: ParsedDocument) -> None:
    with_examples = [(s.language, s.number) for s in parsed.sections if s.examples]
    assert with_examples == [("de", "702.19h"), ("en", "702.19h")]
    de_h = _by_language(parsed, "de")["702.19h"]
    assert de_h.examples[0].startswith("Beispiel: Ein Spieler greift")


def test_keyword_mentions(parsed: ParsedDocument) -> None:
    assert {(m.name, m.language, m.number) for m in parsed.mentions} == {
        ("Bündnisfähigkeit", "de", "702.19"),
        ("Banding", "en", "702.19"),
    }


def test_parse_bytes_dispatches_here() -> None:
    parsed = parse_bytes(SEED.read_bytes(), str(SEED))
    assert parsed.document.kind == "bilingual-dump" and len(parsed.rules) == 26


def test_continuation_lines_and_stray_text() -> None:
    data = (
        "Vorwort ohne Nummer\n"
        "702.19 Bündnisfähigkeit\n702.19a Erste Zeile\nzweite Zeile\n"
        "• Ruling eins\nweiter\n"
        "702.19. Banding\n702.19a. First line\n"
    ).encode()
    parsed = parse(data, "dump.txt")
    assert [i.line for i in parsed.issues] == [1]
    de_a = parsed.sections[1]
    assert de_a.text == "Erste Zeile\nzweite Zeile"
    assert parsed.sections[0].rulings == ("Ruling eins\nweiter",)
    assert_lines_covered(parsed, data.decode())


_FRAGMENTS = st.sampled_from(
    ["702.19 Titel", "702.19a Text", "702.19. Title", "702.19a. Text", "000.1 Null", "702.19l Ell",
     "• Ruling", "Beispiel: x", "Example: y", "", "  ", "freier Text"]
)  # fmt: skip


@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=30)), max_size=25))
def test_any_text_parses_and_every_line_lands_once(lines: list[str]) -> None:
    parse_random_lines(parse, lines)
