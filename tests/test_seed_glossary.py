"""The two German keyword glossary pages (data/seeds/glossary-de-*.txt)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelwerk.ingest.decode import decode
from regelwerk.ingest.detect import Format, detect
from regelwerk.ingest.glossary_de import parse
from regelwerk.ingest.model.records import Card, ParsedDocument
from tests.conftest import CORPUS, NEEDS_SHARED
from tests.helpers import assert_lines_covered, parse_random_lines

SEEDS = Path(__file__).resolve().parents[1] / "data" / "seeds"
BANDING = SEEDS / "glossary-de-banding-bataillon-bushido.txt"
PERSIST = SEEDS / "glossary-de-persist-phasing-poison.txt"
FILES = (BANDING, PERSIST)


def _parse(path: Path) -> ParsedDocument:
    return parse(path.read_bytes(), str(path))


@pytest.fixture(scope="module")
def pages() -> dict[str, ParsedDocument]:
    return {p.name: _parse(p) for p in FILES}


@pytest.fixture(scope="module")
def cards(pages: dict[str, ParsedDocument]) -> dict[str, Card]:
    return {c.name_en: c for page in pages.values() for c in page.cards}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_detected_as_german_glossary(path: Path) -> None:
    found = detect(path.read_bytes())
    assert found is not None and found[0] is Format.GLOSSARY_DE


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_line_lands_once(path: Path) -> None:
    parsed = _parse(path)
    assert_lines_covered(parsed, decode(path.read_bytes(), str(path)).text)
    assert parsed.issues == ()


def test_keywords_in_page_order(pages: dict[str, ParsedDocument]) -> None:
    assert [s.keyword for s in pages[BANDING.name].sections] == [
        "Bündnisfähigkeit",
        "Standardlandumwandlung",
        "Battalion",
        "Schlachtruf",
        "Göttergabe",
        "Blutrausch",
        "Blutdurst",
        "Kräftigung",
        "Bushido",
        "Rückkauf",
    ]
    assert [s.keyword for s in pages[PERSIST.name].sections] == [
        "Beharrlichkeit",
        "Phasing",
        "Gift",
        "Bevölkern",
        "Wucherung",
        "Schutz",
        "Provoke",
        "Prowess/Bravour",
        "Beutezug",
    ]
    for page in pages.values():
        for s in page.sections:
            assert (s.kind, s.language, s.number, s.title) == ("keyword", "de", None, s.keyword)


def test_mentions_cover_every_keyword_and_the_cards_names(pages: dict[str, ParsedDocument]) -> None:
    names = {m.name for page in pages.values() for m in page.mentions}
    assert {s.keyword for page in pages.values() for s in page.sections} <= names
    # The prose says "Battalion", the card "Bataillon"; the card references give English names.
    assert {"Bataillon", "Banding", "Buyback"} <= names
    assert "Kreatur" not in names  # type lines ("Kreatur - Engel") are not ability words


def test_exactly_27_cards(pages: dict[str, ParsedDocument]) -> None:
    # Counted by hand: every line starting with "(SET)" is a card, 15 on the first page
    # (2 of them one-line ´´Name´´ references) and 12 on the second (3 references).
    assert [len(p.cards) for p in pages.values()] == [15, 12]
    refs = [c.name_en for p in pages.values() for c in p.cards if c.name_de is None and c.type_line is None]
    assert refs == ["Benalish Hero", "Capsize", "Rainbow Efreet", "Akroma, Angel of Wrath", "Krosan Vorine"]
    for page in pages.values():
        assert [c.position for c in page.cards] == list(range(len(page.cards)))


def test_full_card_fields(cards: dict[str, Card]) -> None:
    finks = cards["Kitchen Finks"]
    assert (finks.name_de, finks.set_code, finks.mana_cost) == ("Küchenhutzel", "SM", "1(G/W)(G/W)")
    assert (finks.type_line, finks.power, finks.toughness) == ("Kreatur-Buboh", "3", "2")
    assert finks.keyword == "Beharrlichkeit"
    # The rules text goes on after a blank line ("Beharrlichkeit" + reminder text).
    assert finks.text.splitlines()[-2:][0] == "Beharrlichkeit"

    avenger = cards["Firemane Avenger"]
    assert (avenger.name_de, avenger.set_code, avenger.mana_cost) == ("Feuerschweif-Rächerin", "GTC", "2RW")
    assert (avenger.type_line, avenger.power, avenger.toughness) == ("Kreatur - Engel", "3", "3")
    assert avenger.keyword == "Battalion"
    assert avenger.text.startswith("Fliegend\nBataillon - Immer wenn")


def test_unusual_layouts(cards: dict[str, Card]) -> None:
    mauler = cards["Scab-Clan Mauler"]
    assert (mauler.name_de, mauler.set_code, mauler.mana_cost) == ("Malmer aus dem Schorf-Clan", "GP", "RG")
    assert (mauler.type_line, mauler.power, mauler.toughness) == ("Kreatur", "1", "1")
    assert mauler.text.splitlines()[0] == "Blutdurst 2" and mauler.keyword == "Blutdurst"

    hero = cards["Hero of Oxid Ridge"]
    assert (hero.type_line, hero.power, hero.toughness) == ("Kreatur - Mensch, Ritter", "4", "2")

    kondas = cards["Kondas Hatamoto"]
    assert (kondas.set_code, kondas.name_de, kondas.type_line) == ("CK", None, "Kreatur")
    assert (kondas.power, kondas.toughness, kondas.text) == ("1", "2", "Bushido 1")

    temple = cards["Wayfaring Temple"]
    assert (temple.power, temple.toughness) == ("*", "*")

    sliver = cards["Virulent Sliver"]
    assert (sliver.type_line, sliver.power, sliver.toughness) == ("Kreatur - Sliver", None, None)

    clasp = cards["Contagion Clasp"]
    assert (clasp.mana_cost, clasp.type_line) == ("2", "Artefakt")


def test_cards_that_continue_after_blank_lines(cards: dict[str, Card]) -> None:
    herald = cards["Herald of Torment"]
    assert herald.text.endswith("Die verzauberte Kreatur erhält +3/+3 und hat Flugfähigkeit.")
    assert "Fliegend" in herald.text.splitlines()
    shaman = cards["Pyrewild Shaman"]
    assert shaman.text.endswith("bringe den Feuerwilden Schamane auf deine Hand zurück.")
    assert "Blutdurst" not in shaman.text  # the next entry starts after it


def test_one_line_references(cards: dict[str, Card]) -> None:
    hero = cards["Benalish Hero"]
    assert (hero.set_code, hero.text, hero.keyword, hero.lines) == (
        "RV",
        "Banding",
        "Bündnisfähigkeit",
        (17,),
    )
    capsize = cards["Capsize"]
    assert (capsize.set_code, capsize.text, capsize.keyword) == ("TP", "Buyback: 3 farblose Mana", "Rückkauf")


def test_odd_quotes_are_normalised(pages: dict[str, ParsedDocument], cards: dict[str, Card]) -> None:
    for page in pages.values():
        for s in page.sections:
            assert "´" not in s.text and not any("´" in e for e in s.examples)
        for c in page.cards:
            assert "´" not in c.name_en + c.text
    schutz = next(s for s in pages[PERSIST.name].sections if s.keyword == "Schutz")
    assert schutz.text.startswith('Eine Kreatur mit "SCHUTZ"')


def test_examples_are_attached(pages: dict[str, ParsedDocument]) -> None:
    banding = pages[BANDING.name].sections[0]
    assert len(banding.examples) == 2
    assert all(e.startswith("Beispiel:") for e in banding.examples)
    assert "Tatzelwurm" in banding.examples[1] and "Tatzelwurm" not in banding.text
    assert banding.text.startswith("Bündnisfähigkeit ist eine Fähigkeit mit 2 unterschiedlichen")


def test_every_card_illustrates_its_entry(pages: dict[str, ParsedDocument]) -> None:
    for page in pages.values():
        keywords = {s.keyword for s in page.sections}
        assert {c.keyword for c in page.cards} == keywords


def test_entry_without_cards_and_cards_without_entry() -> None:
    data = b"Kartenbeispiel:\n(ABC) Foo / Bar\nManakosten: 1W\nKreatur - Mensch, 1/1\n"
    parsed = parse(data, "x.txt")
    assert [i.line for i in parsed.issues] == [1, 2]
    assert parsed.sections == ()
    assert parsed.cards[0].name_de == "Bar" and parsed.cards[0].keyword is None
    assert_lines_covered(parsed, data.decode())


def _mana(cost: str) -> str:
    return re.sub(r"[{}()]", "", cost)


@NEEDS_SHARED
def test_cards_agree_with_mtgjson(cards: dict[str, Card]) -> None:
    """Where the page's English name is in the MTGJSON files, German name, cost and P/T agree."""
    known: dict[str, tuple[str, str | None, str | None, str]] = {}
    for path in sorted((CORPUS / "cards").glob("*.json")):
        for card in json.loads(path.read_text(encoding="utf-8"))["data"]["cards"]:
            for foreign in card.get("foreignData", ()):
                if foreign["language"] == "German":
                    known[card["name"]] = (
                        foreign["name"],
                        card.get("power"),
                        card.get("toughness"),
                        card.get("manaCost", ""),
                    )
    checked = 0
    for name, card in cards.items():
        if name not in known or card.name_de is None:
            continue
        de, power, toughness, cost = known[name]
        assert (card.name_de, card.power, card.toughness) == (de, power, toughness), name
        assert _mana(card.mana_cost or "") == _mana(cost), name
        checked += 1
    assert checked >= 7


_FRAGMENTS = st.sampled_from(
    ["Kartenbeispiel:", "(GTC) A / B", "(RV) ´´Hero´´ Banding", "(CK)Name 1/2 Kreatur", "Manakosten: 2RW",
     "RG", "Kreatur - Engel, 3/3", "1/1 Kreatur", "Beispiel:", "Kreaturen mit der Fähigkeit Foo tun was.",
     "Fliegend", "(Erinnerung)", "", " "]
)  # fmt: skip


@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=30)), max_size=25))
def test_any_text_parses_and_every_line_lands_once(lines: list[str]) -> None:
    parse_random_lines(parse, lines)
