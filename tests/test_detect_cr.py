"""Format detection recognises every official CR release we ingest, by content."""

from __future__ import annotations

from pathlib import Path

import pytest

from regelwerk.ingest import parse_bytes
from regelwerk.ingest.decode import decode
from regelwerk.ingest.detect import Format, detect

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="../shared corpus not available")

FILES = {
    "en/MagicCompRules-20110204.txt": Format.CR_TEXT,
    "en/MagicCompRules-20151113.txt": Format.CR_TEXT,
    "en/MagicCompRules-20260116.txt": Format.CR_TEXT,
    "en/MagicCompRules-20260417.txt": Format.CR_TEXT,
    "html/MagicCompRules_20140926.htm": Format.CR_HTML,
}


@pytest.mark.parametrize(("name", "fmt"), sorted(FILES.items()))
def test_detect(name: str, fmt: Format) -> None:
    data = (CORPUS / name).read_bytes()
    found = detect(data, decode(data, name).text)
    assert found is not None and found[0] == fmt, found
    assert found[1]  # a reason to show the user


@pytest.mark.parametrize(("name", "fmt"), sorted(FILES.items()))
def test_parse_bytes_routes_to_the_ingestor(name: str, fmt: Format) -> None:
    parsed = parse_bytes((CORPUS / name).read_bytes(), "renamed.dat")  # content, not name
    assert parsed.document.kind == fmt.value
    assert parsed.issues == ()
