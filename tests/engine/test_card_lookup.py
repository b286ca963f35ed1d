"""``card = "..."`` entries take their printed fields from a card lookup: the shipped card table
by default, or whatever the caller injects (the facade puts the user's card database first).
What the file states itself wins; an unknown name is one clear line with the nearest names."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest
from engine_helpers import PLAYERS, attack, disagreements

from regelwerk.engine.cards import (
    CardChain,
    DatabaseCards,
    colours,
    facts_from_payload,
    oracle_keywords,
    shipped_cards,
    shipped_table,
    split_type_line,
)
from regelwerk.engine.errors import ScenarioError
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import parse_scenario

HEAD = 'id = "x"\nsource = "s"\ntitle = { de = "T", en = "T" }\n' + PLAYERS.format(life=20, poison=0)
WURM = '[[cards]]\nid = "wurm"\ncard = "Craw Wurm"\nowner = "a"\n'


class Cards:
    """A stand-in card lookup: printed fields by English name."""

    def card_fields(self, name: str) -> dict[str, object] | None:
        if name != "Craw Wurm":
            return None
        return {"name_en": "Craw Wurm", "name_de": "Stand-in-Wurm", "types": ["Creature"], "pt": "5/4"}

    def nearest(self, name: str) -> list[str]:
        return ["Craw Wurm"]

    def describe(self) -> str:
        return "the stand-in"


def _text(card: str = WURM) -> bytes:
    return f'{HEAD}{card}{attack("wurm")}[[actions]]\ndo = "damage"\n[expect]\nlife = {{ b = 14 }}\n'.encode()


def test_the_shipped_table_fills_a_real_card_without_any_database() -> None:
    s = parse_scenario(_text(), "t.toml")
    wurm = s.cards[0]
    assert (wurm.name_en, wurm.name_de, wurm.types, wurm.subtypes, wurm.colors, wurm.pt) == (
        "Craw Wurm",
        "Tatzelwurm",
        ("Creature",),
        ("Wurm",),
        ("green",),
        "6/4",
    )
    result = run_scenario(s, "de")
    assert result.passed, result.mismatches
    assert result.steps[0].text == "Anna greift Bernd mit dem Tatzelwurm an."


@pytest.mark.parametrize(
    ("name", "name_de"),
    [("Tatzelwurm", "Tatzelwurm"), ("tatzelwurm", "Tatzelwurm"), ("craw wurm", "Tatzelwurm")],
)
def test_german_english_and_folded_names_find_the_card(name: str, name_de: str) -> None:
    s = parse_scenario(_text(WURM.replace("Craw Wurm", name)), "t.toml")
    assert (s.cards[0].name_en, s.cards[0].name_de) == ("Craw Wurm", name_de)


@pytest.mark.parametrize(
    ("name", "name_de"),
    [
        ("Mesa Pegasus", "Mesapegasus"),
        ("Mesa-Pegasus", "Mesa-Pegasus"),
        ("mesapegasus", "Mesapegasus"),
        ("Mesa–Pegasus", "Mesapegasus"),
    ],
)
def test_a_german_spelling_asked_for_is_the_one_narrated(name: str, name_de: str) -> None:
    """The newest German printing names the card unless the scenario asks for an older spelling."""
    card = f'[[cards]]\nid = "wurm"\ncard = "{name}"\nowner = "a"\n'
    s = parse_scenario(_text(card), "t.toml")
    assert (s.cards[0].name_de, s.cards[0].keywords[0].name) == (name_de, "flying")


def test_fields_written_in_the_file_win() -> None:
    s = parse_scenario(_text(WURM + 'pt = "3/3"\nname_de = "Großer Wurm"\n'), "t.toml")
    assert (s.cards[0].pt, s.cards[0].name_de, s.cards[0].subtypes) == ("3/3", "Großer Wurm", ("Wurm",))


def test_an_injected_lookup_replaces_the_table() -> None:
    result = run_scenario(parse_scenario(_text(), "t.toml", Cards()), "de")
    assert result.steps[0].text == "Anna greift Bernd mit dem Stand-in-Wurm an."
    assert not result.passed  # a 5/4 deals 5, the file expects 6: the stand-in really was used


def test_a_chain_asks_each_lookup_in_turn() -> None:
    chain = CardChain(Cards(), shipped_cards())
    assert chain.card_fields("Craw Wurm") == Cards().card_fields("Craw Wurm")
    assert chain.card_fields("Serra Angel") == shipped_cards().card_fields("Serra Angel")
    assert chain.card_fields("Nonexistent Card") is None
    assert chain.describe() == f"the stand-in or {shipped_cards().describe()}"


def test_an_unknown_card_names_the_file_field_and_nearest_names() -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(_text(WURM.replace("Craw Wurm", "Craw Wrum")), "t.toml")
    count = len(shipped_table()["cards"])
    assert str(err.value).startswith(
        f"t.toml: cards[0].card: got 'Craw Wrum'; expected a card name (English or German) of the shipped "
        f"card table ({count} cards; ingest MTGJSON card files for others); nearest: Craw Wurm, "
    )
    assert "Tatzelwurm" not in str(err.value)  # one name per card
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("value", ['""', "3", '"   "'])
def test_a_card_that_is_no_name_is_a_scenario_error(value: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(_text(WURM.replace('"Craw Wurm"', value)), "t.toml")
    assert err.value.where == "cards[0].card" and "expected a card name" in str(err.value)


# --- a card payload to scenario fields ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Creature — Wurm", (["Creature"], ["Wurm"], [])),
        ("Legendary Creature — Human Soldier", (["Creature"], ["Human", "Soldier"], ["Legendary"])),
        ("Basic Land — Island", (["Land"], ["Island"], ["Basic"])),
        ("Enchantment Creature — Demon", (["Enchantment", "Creature"], ["Demon"], [])),
        ("Instant", (["Instant"], [], [])),
    ],
)
def test_type_lines(line: str, expected: tuple[list[str], list[str], list[str]]) -> None:
    assert split_type_line(line) == expected


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        ("{4}{G}{G}", ["green"]),
        ("{1}{G/W}{G/W}", ["white", "green"]),
        ("{2}{R}{W}", ["white", "red"]),
        ("{1}", []),
        (None, []),
    ],
)
def test_colours_from_the_mana_cost(cost: str | None, expected: list[str]) -> None:
    assert colours(cost) == expected


@pytest.mark.parametrize(
    ("text", "printed", "expected"),
    [
        (
            "Flying, first strike, vigilance, trample, haste, protection from black and from red",
            ["First strike", "Flying", "Haste", "Protection", "Trample", "Vigilance"],
            [
                "flying",
                "first strike",
                "vigilance",
                "trample",
                "haste",
                "protection from black",
                "protection from red",
            ],
        ),
        (
            "Flying; banding (Any creatures with banding, and up to one without, ...)",
            ["Banding", "Flying"],
            ["flying", "banding"],
        ),
        (
            "Bushido 1 (Whenever this creature blocks ...)\nAs long as you control ...",
            ["Bushido"],
            ["bushido 1"],
        ),
        (
            "Buyback {3} (You may pay an additional {3} ...)\nReturn target permanent to its owner's hand.",
            ["Buyback"],
            ["buyback"],
        ),
        (
            "Bloodthirst 2 (If an opponent was dealt damage ...)\nTrample",
            ["Bloodthirst", "Trample"],
            ["bloodthirst 2", "trample"],
        ),
        (
            "Bestow {5}{W}{W} (If you cast ...)\nFlying, first strike",
            ["Bestow", "First strike", "Flying"],
            ["flying", "first strike"],
        ),
        (
            "Bloodrush — {1}{R}, Discard Pyrewild Shaman: Target attacking creature gets +3/+1.",
            ["Bloodrush"],
            [],
        ),
        ("Keymaster Rogue can't be blocked.", [], []),
        ("Flying\nWhen this creature attacks, it gains trample.", ["Flying"], ["flying"]),
    ],
)
def test_keywords_from_the_oracle_text(text: str, printed: list[str], expected: list[str]) -> None:
    assert oracle_keywords(text, printed) == expected


def test_a_payload_becomes_scenario_fields() -> None:
    payload: dict[str, Any] = {
        "name_en": "Kitchen Finks",
        "names_de": ["Küchenhutzel"],
        "type_en": "Creature — Ouphe",
        "mana_cost": "{1}{G/W}{G/W}",
        "pt": "3/2",
        "keywords": [{"name": "Persist", "rule": "702.79"}],
        "oracle_text": "When Kitchen Finks enters the battlefield, you gain 2 life.\nPersist (When this ...)",
    }
    assert facts_from_payload(payload) == {
        "name_en": "Kitchen Finks",
        "name_de": "Küchenhutzel",
        "types": ["Creature"],
        "subtypes": ["Ouphe"],
        "colors": ["white", "green"],
        "pt": "3/2",
        "keywords": ["persist"],
    }


def test_database_cards_keep_the_german_spelling_asked_for() -> None:
    class Payloads:
        def payload(self, name: str) -> dict[str, Any] | None:
            return {
                "name_en": "Mesa Pegasus",
                "names_de": ["Mesapegasus", "Mesa Pegasus", "Mesa-Pegasus"],
                "type_en": "Creature",
            }

        def nearest(self, name: str) -> list[str]:
            return []

    cards = DatabaseCards(Payloads())
    assert cards.card_fields("Mesa-Pegasus")["name_de"] == "Mesa-Pegasus"  # type: ignore[index]
    assert cards.card_fields("Mesa Pegasus")["name_de"] == "Mesapegasus"  # type: ignore[index]
    assert cards.card_fields("mesapegasus")["name_de"] == "Mesapegasus"  # type: ignore[index]


# --- the shipped scenarios and the shipped table ----------------------------------------------------


def _shipped_card_entries() -> list[tuple[str, dict[str, Any]]]:
    folder = resources.files("regelwerk.data").joinpath("scenarios")
    out = []
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".toml"):
            out += [(f.name, c) for c in tomllib.loads(f.read_text("utf-8"))["cards"] if "card" in c]
    return out


def test_shipped_scenarios_name_real_cards_and_agree_with_the_table() -> None:
    entries = _shipped_card_entries()
    table = shipped_table()["cards"]
    assert len({c["card"] for _, c in entries}) >= 40
    wrong = []
    used = set()
    for file, entry in entries:
        facts = shipped_cards().card_fields(entry["card"])
        assert facts is not None, f"{file}: {entry['card']!r} is not in the shipped card table"
        used.add(facts["name_en"])
        names_de = table[str(facts["name_en"])]["names_de"]
        wrong += [f"{file}: {entry['card']}: {d}" for d in disagreements(entry, facts, names_de)]
    assert not wrong, "\n".join(wrong)
    assert used == set(table), "the table holds exactly the cards the shipped scenarios use"


def test_the_table_says_where_it_comes_from() -> None:
    table = shipped_table()
    assert table["source"]["mtgjson"] and table["source"]["files"]
    for name, entry in table["cards"].items():
        assert entry["sources"], name
        assert entry["fields"]["name_de"] == entry["names_de"][0]
        assert {s["name_de"] for s in entry["sources"]} == set(entry["names_de"]), name
        files = {f"{s['set']}.json.xz" for s in entry["sources"]}
        assert files <= set(table["source"]["files"]), name
