"""Cross-check the 2026-01-16 parse against rulesraker's third-party JSON of the same file.

rulesraker (xremming/rulesraker, data/MagicCompRules.json) is not ground truth, so every way
its shape differs from ours is spelled out here and normalised explicitly; anything else that
differs fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from regelwerk.ingest import cr_text
from regelwerk.ingest.model.records import ParsedDocument

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus" / "en"
pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="../shared corpus not available")

#: rulesraker's Type names -> our Section kinds. They call the one-digit "1." a Part and the
#: three-digit "100." a Chapter, and count both among their 3269 "Rules".
KINDS = {"Part": "chapter", "Chapter": "section", "Rule": "rule", "SubRule": "subrule"}


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, Any], ParsedDocument]:
    theirs = json.loads((CORPUS / "parsed" / "MagicCompRules-20260116.rulesraker.json").read_text())
    path = CORPUS / "MagicCompRules-20260116.txt"
    return theirs, cr_text.parse(path.read_bytes(), str(path))


def number(raw: str) -> str:
    """They keep the CR's trailing period on chapters and rules ("1.", "100.1."); we drop it."""
    return raw.rstrip(".")


def test_effective_date(both: tuple[dict[str, Any], ParsedDocument]) -> None:
    theirs, ours = both
    assert theirs["EffectiveDate"] == f"{ours.document.version}T00:00:00Z"


def test_same_numbers_kinds_and_order(both: tuple[dict[str, Any], ParsedDocument]) -> None:
    theirs, ours = both
    their_rules = [(number(r["Number"]), KINDS[r["Type"]]) for r in theirs["Rules"]]
    numbered = [(s.number, s.kind) for s in ours.sections if s.number is not None]
    assert numbered == their_rules
    # Their 3269 "Rules" are our 3114 rules and subrules plus 146 sections and 9 chapters.
    assert len(their_rules) == 3269 == len(ours.rules) + 146 + 9
    assert all(r["ID"] == r["Number"] for r in theirs["Rules"])  # ID adds nothing for rules


def test_same_texts_and_examples(both: tuple[dict[str, Any], ParsedDocument]) -> None:
    theirs, ours = both
    by_number = {s.number: s for s in ours.sections}
    for r in theirs["Rules"]:
        s = by_number[number(r["Number"])]
        if s.kind in ("chapter", "section"):
            # Their Body of a heading is its title; our heading records keep it as `title`.
            assert r["Body"] == [s.title] and s.text == ""
            continue
        # Body is a list of paragraphs (the rule line, then indented continuation lines);
        # our text joins the same paragraphs with "\n".
        assert "\n".join(r["Body"]) == s.text, s.number
        # They strip the "Example: " label; we keep each example as the CR writes it.
        assert tuple(f"Example: {e}" for e in r.get("Examples", [])) == s.examples, s.number


def test_same_glossary(both: tuple[dict[str, Any], ParsedDocument]) -> None:
    theirs, ours = both
    assert len(theirs["Glossary"]) == len(ours.glossary) == 725
    for g, entry in zip(theirs["Glossary"], ours.glossary, strict=True):
        assert g["Body"] == entry.text
        # KeyText is the head as written; we split it into terms and an obsolete flag.
        head = entry.term + (" (Obsolete)" if entry.obsolete else "")
        parts = [p.strip("“”") for p in g["KeyParts"]]
        if entry.terms[0] == "Partner":
            # They split 'Partner, “Partner—[text],” “Partner with [name]”' at the comma
            # inside the quotes, giving '“Partner—[text]' and '” “Partner with [name]”'.
            assert g["KeyParts"] == ["Partner", "“Partner—[text]", "” “Partner with [name]”"]
            assert g["KeyText"] == "Partner, “Partner—[text],” “Partner with [name]”"
            assert entry.terms == ("Partner", "Partner—[text]", "Partner with [name]")
            continue
        if entry.terms == ("Banding", "Bands with Other"):
            # They keep the quotes around the alternative; we drop them from the term, so the
            # joined head reads 'Banding, Bands with Other'.
            assert g["KeyText"] == "Banding, “Bands with Other”"
        else:
            assert g["KeyText"] == head
        assert tuple(parts) == entry.terms


def test_same_credits(both: tuple[dict[str, Any], ParsedDocument]) -> None:
    theirs, ours = both
    (credits,) = [s for s in ours.sections if s.kind == "credits"]
    # They keep blank-line-separated paragraphs of the Credits and the legal trailer; our
    # one credits section has the "Credits" heading as title and every line joined by "\n".
    assert credits.title == "Credits"
    assert "\n".join(theirs["Credits"]) == credits.text
