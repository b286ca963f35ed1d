"""MTGJSON card files: set files and AllPrintings, plain and in every container MTGJSON ships."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from regelwerk.ingest import card_reader, expand_paths, parse_bytes
from regelwerk.ingest.detect import Compression, Format, compression, detect
from regelwerk.ingest.model.errors import IngestError
from regelwerk.ingest.model.records import OracleCard
from regelwerk.ingest.mtgjson import CardFile, MtgjsonReader, parse, read_file
from tests.conftest import CORPUS, NEEDS_SHARED

CARDS = CORPUS / "cards"

# -- synthetic files -------------------------------------------------------------------------


def _card(name: str, set_code: str, number: str, de: str | None, **extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "name": name,
        "setCode": set_code,
        "number": number,
        "type": "Creature — Wurm",
        "manaCost": "{4}{G}{G}",
        "power": "6",
        "toughness": "4",
        "keywords": extra.pop("keywords", []),
        "foreignData": [{"language": "French", "name": "Guivre"}],
    }
    if de is not None:
        card["foreignData"].append({"language": "German", "name": de, "type": "Kreatur — Wurm", **extra})
    return card


def _set(code: str, date: str, cards: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "baseSetSize": len(cards),
        "cards": cards,
        "code": code,
        "name": f"Set {code}",
        "releaseDate": date,
    }


META = {"date": "2022-04-25", "version": "5.2.0+20220425"}
SET_A = _set(
    "AAA",
    "1995-04-01",
    [
        _card("Craw Wurm", "AAA", "238", "Tatzelwurm"),
        _card("Mesa Pegasus", "AAA", "35", "Mesa-Pegasus", text="Kann fliegen", keywords=["Flying"]),
    ],
)
SET_B = _set(
    "BBB",
    "1997-03-24",
    [
        _card("Mesa Pegasus", "BBB", "30", "Mesapegasus", text="Flugfähigkeit", keywords=["Flying"]),
        _card("Plains", "BBB", "1", None),
    ],
)


def _json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()


SET_FILE = _json({"data": SET_A, "meta": META})
ALL_PRINTINGS = _json({"data": {"AAA": SET_A, "BBB": SET_B}, "meta": META})


def _zip(data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("AllPrintings.json", data)
    return buf.getvalue()


PACKERS: dict[str, tuple[Callable[[bytes], bytes], Compression | None]] = {
    ".json": (lambda b: b, None),
    ".json.gz": (gzip.compress, Compression.GZIP),
    ".json.xz": (lzma.compress, Compression.XZ),
    ".json.bz2": (bz2.compress, Compression.BZIP2),
    ".json.zip": (_zip, Compression.ZIP),
}


@pytest.mark.parametrize("suffix", sorted(PACKERS))
def test_every_container_is_recognised_by_content(tmp_path: Path, suffix: str) -> None:
    pack, kind = PACKERS[suffix]
    data = pack(ALL_PRINTINGS)
    assert compression(data[:8]) == kind
    path = tmp_path / "renamed.bin"  # the name says nothing; the bytes decide
    path.write_bytes(data)
    reader = card_reader(path)
    assert reader is not None
    sets = list(reader.sets())
    assert [s.code for s in sets] == ["AAA", "BBB"]
    assert reader.document("x").version == "2022-04-25"


def test_all_printings_merges_a_card_printed_in_two_sets() -> None:
    cards = {c.name: c for c in parse(ALL_PRINTINGS, "AllPrintings.json").cards()}
    assert sorted(cards) == ["Craw Wurm", "Mesa Pegasus", "Plains"]
    pegasus = cards["Mesa Pegasus"]
    assert [(p.set_code, p.number, p.year) for p in pegasus.printings] == [
        ("AAA", "35", 1995),
        ("BBB", "30", 1997),
    ]
    assert pegasus.names_de == ("Mesa-Pegasus", "Mesapegasus")
    assert [p.text_de for p in pegasus.printings] == ["Kann fliegen", "Flugfähigkeit"]
    assert cards["Plains"].printings[0].name_de is None


def test_set_file_document_and_summary() -> None:
    parsed = parse(SET_FILE, "cards/AAA.json")
    assert parsed.document.id == "mtgjson-aaa"
    assert parsed.document.kind == Format.MTGJSON == "mtgjson"
    assert parsed.document.title == "MTGJSON AAA (Set AAA)"
    summary = parsed.summary()
    assert (summary["sets"], summary["printings"], summary["german_printings"]) == (1, 2, 2)


def test_records_round_trip_through_json() -> None:
    card = parse(ALL_PRINTINGS, "x.json").cards()[1]
    assert OracleCard.from_dict(json.loads(json.dumps(card.to_dict()))) == card
    assert eval(repr(card), vars(__import__("regelwerk.ingest.model.records").ingest.model.records)) == card


def test_a_card_without_name_is_an_issue_not_a_failure() -> None:
    broken = _set("CCC", "2001-01-01", [{"number": "1"}, _card("Craw Wurm", "CCC", "2", None)])
    parsed = parse(_json({"data": broken, "meta": META}), "CCC.json")
    assert [c.name for c in parsed.cards()] == ["Craw Wurm"]
    assert len(parsed.issues) == 1 and "card #1 has no name" in str(parsed.issues[0])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (lzma.compress(ALL_PRINTINGS)[:-40], "cannot be read"),
        (ALL_PRINTINGS[: len(ALL_PRINTINGS) // 2], "JSON"),
        (_json({"data": {"x": 1}, "meta": {"cards": 0}}), "without cards"),
    ],
    ids=["truncated-xz", "truncated-json", "no-cards"],
)
def test_broken_files_are_one_clear_error(data: bytes, expected: str) -> None:
    with pytest.raises(IngestError, match=expected) as err:
        parse(data, "bad.json")
    assert str(err.value).startswith("bad.json: ")


def test_zip_with_several_json_files_is_refused(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a.json", SET_FILE)
        zf.writestr("b.json", SET_FILE)
    with pytest.raises(IngestError, match="expected exactly one"):
        parse(buf.getvalue(), "two.zip")


def test_rules_parser_points_card_files_elsewhere() -> None:
    assert detect(SET_FILE) is not None and detect(SET_FILE)[0] is Format.MTGJSON  # type: ignore[index]
    for data in (SET_FILE, gzip.compress(SET_FILE)):
        with pytest.raises(IngestError, match="MTGJSON card file"):
            parse_bytes(data, "AAA.json")


def test_other_json_is_not_a_card_file(tmp_path: Path) -> None:
    other = tmp_path / "rulesraker.json"
    other.write_text('{"EffectiveDate": "2026-01-16", "Rules": []}')
    packed = tmp_path / "AAA.json.xz"
    packed.write_bytes(lzma.compress(SET_FILE))
    rules = tmp_path / "cr.txt"
    rules.write_text("x")
    assert card_reader(other) is None
    assert expand_paths([tmp_path]) == [packed, rules]  # the foreign JSON is skipped


def test_streaming_keeps_one_set_at_a_time() -> None:
    """sets() is a generator: the first set arrives before the second one is parsed."""
    reader = MtgjsonReader("x.json", ALL_PRINTINGS)
    sets = reader.sets()
    first = next(sets)
    assert first.code == "AAA" and reader.set_codes == ["AAA"]
    with pytest.raises(RuntimeError):
        reader.document("x")
    assert [s.code for s in sets] == ["BBB"]


# -- the real files ----------------------------------------------------------------------------

#: From SOURCES.md: printings (card objects), of them with a German name, unique English names.
REAL = {
    "4ED.json": (379, 378, 368),
    "SHM.json": (302, 301, None),
    "RTR.json": (274, 274, None),
    "GTC.json": (249, 248, 249),
    "FRF.json": (191, 185, None),
    "BNG.json": (165, 165, 165),
}


@NEEDS_SHARED
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_set_files(name: str) -> None:
    printings, german, unique = REAL[name]
    parsed = read_file(CARDS / name)
    summary = parsed.summary()
    assert (summary["printings"], summary["german_printings"]) == (printings, german)
    assert parsed.issues == ()
    if unique is not None:
        assert len(parsed.cards()) == unique


@NEEDS_SHARED
def test_old_wording_survives_on_the_printing() -> None:
    cards = {c.name: c for c in read_file(CARDS / "4ED.json").cards()}
    pegasus = cards["Mesa Pegasus"]
    assert pegasus.keywords == ("Banding", "Flying")
    assert pegasus.printings[0].text_de == "Kann fliegen, Bündnisfähigkeit"
    assert cards["Craw Wurm"].names_de == ("Tatzelwurm",)
    assert cards["Craw Wurm"].printings[0].year == 1995


@NEEDS_SHARED
def test_compressed_real_set_with_double_faced_cards() -> None:
    parsed: CardFile = read_file(CARDS / "mtgjson" / "ISD.json.xz")
    assert parsed.document.id == "mtgjson-isd" and parsed.document.version == "2022-04-25"
    cards = {c.name: c for c in parsed.cards()}
    front, back = cards["Delver of Secrets"], cards["Insectile Aberration"]
    assert front.full_name == back.full_name == "Delver of Secrets // Insectile Aberration"
    assert (front.names_de, back.names_de) == (("Geheimnisstöberer",), ("Insekten-Scheußlichkeit",))
    assert back.printings[0].text_de == "Fliegend"
