"""One release, every byte layout Wizards has shipped: the records must not change.

The held-out releases we cannot see (e.g. 2020: UTF-8 with BOM and CRLF) differ from the corpus
files only in such layout, so re-encoding a real release covers them.
"""

from __future__ import annotations

import pytest

from regelwerk.ingest import parse_bytes
from regelwerk.ingest.model.records import ParsedDocument
from tests.conftest import CORPUS, NEEDS_SHARED

pytestmark = NEEDS_SHARED


def _shape(parsed: ParsedDocument) -> list[tuple[object, ...]]:
    return [(s.number, s.kind, s.title, s.text, s.examples) for s in parsed.sections] + [
        (g.terms, g.text, g.obsolete) for g in parsed.glossary
    ]


@pytest.fixture(scope="module")
def reference() -> tuple[str, ParsedDocument]:
    data = (CORPUS / "en" / "MagicCompRules-20260417.txt").read_bytes()
    return data.decode("utf-8-sig"), parse_bytes(data, "ref.txt")


@pytest.mark.parametrize("bom", [True, False])
@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_endings_and_bom_do_not_change_records(
    reference: tuple[str, ParsedDocument], bom: bool, newline: str
) -> None:
    text, ref = reference
    data = text.replace("\n", newline).encode("utf-8")
    if bom:
        data = b"\xef\xbb\xbf" + data
    parsed = parse_bytes(data, "variant.txt")
    assert parsed.document.version == "2026-04-17"
    assert parsed.document.newline == newline
    assert len(parsed.rules) == 3138 and len(parsed.glossary) == 730
    assert _shape(parsed) == _shape(ref)
    assert not parsed.issues


def test_cp1252_release_layout(reference: tuple[str, ParsedDocument]) -> None:
    """A release saved as cp1252 (as 2015 was) reads the same once its quotes map back."""
    text, ref = reference
    encodable = text.encode("cp1252", errors="replace")
    parsed = parse_bytes(encodable.replace(b"\n", b"\r\n"), "cp1252.txt")
    assert parsed.document.encoding == "cp1252"
    assert len(parsed.rules) == len(ref.rules)
    assert len(parsed.glossary) == len(ref.glossary)
