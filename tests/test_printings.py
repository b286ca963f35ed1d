"""The tools' one reader of MTGJSON card files (tools/printings.py): the card ingest's reader
underneath, so any container, and the one pairing of English and German lines."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest
from printings import card_files, german_printings, line_pairs

from tests.conftest import CORPUS, NEEDS_SHARED


def _card(name: str, *foreign: dict[str, str]) -> dict[str, Any]:
    return {"name": name, "text": "Flying", "keywords": ["Flying"], "foreignData": list(foreign)}


GERMAN = {"language": "German", "name": "Mesa-Pegasus", "text": "Kann fliegen"}
FRENCH = {"language": "French", "name": "Pégase", "text": "Vol"}


def test_every_container_and_both_file_shapes_read_alike(tmp_path: Path) -> None:
    one = {"code": "AAA", "cards": [_card("Mesa Pegasus", FRENCH, GERMAN), _card("Plains", FRENCH)]}
    two = {"code": "BBB", "cards": [_card("Craw Wurm", {**GERMAN, "name": "Tatzelwurm"})]}
    (tmp_path / "a.json").write_text(json.dumps({"data": one, "meta": {}}), encoding="utf-8")
    all_printings = {"meta": {}, "data": {"BBB": two, "CCC": {**two, "code": "CCC"}}}
    (tmp_path / "b.json.xz").write_bytes(lzma.compress(json.dumps(all_printings).encode()))
    (tmp_path / "c.json").write_text('{"rules": []}', encoding="utf-8")  # JSON, but no card file
    (tmp_path / "d.txt").write_text("not a card file", encoding="utf-8")
    (tmp_path / "sub.json").mkdir()
    assert [p.name for p in card_files(tmp_path)] == ["a.json", "b.json.xz", "c.json"]
    found = [(p.set_code, p.card["name"], p.german["name"]) for p in german_printings(tmp_path)]
    assert found == [("AAA", "Mesa Pegasus", "Mesa-Pegasus"), ("BBB", "Craw Wurm", "Tatzelwurm"),
                     ("CCC", "Craw Wurm", "Tatzelwurm")]


@pytest.mark.parametrize(
    ("en", "de", "pairs"),
    [
        ("Flying\nDraw a card.", "Fliegend\nZiehe eine Karte.",
         [("Flying", "Fliegend"), ("Draw a card.", "Ziehe eine Karte.")]),
        ("Flying\nDraw a card.", "Fliegend. Ziehe eine Karte.", []),  # cannot be placed
        ("Flying", "", []),
        ("", "Fliegend", []),
    ],
)
def test_lines_pair_only_when_both_texts_have_as_many(en: str, de: str, pairs: list[tuple[str, str]]) -> None:
    assert line_pairs(en, de) == pairs


@NEEDS_SHARED
def test_the_six_set_files_and_the_147_packed_ones() -> None:
    cards = CORPUS / "cards"
    plain = {p.set_code for p in german_printings(cards)}
    assert plain == {"4ED", "BNG", "FRF", "GTC", "RTR", "SHM"}
    assert len(card_files(cards / "mtgjson")) == 147
