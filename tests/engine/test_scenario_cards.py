"""The shipped card table against the real MTGJSON files, and the scenarios with a card database.

The table (``data/cards/scenario-cards.json``) lets the shipped scenarios run before any cards are
ingested. With the card database ingested from ../shared (just the set files the table names as
its sources), the database must give every card the same fields, the scenarios' own fields must
agree with it, and every scenario must still pass in both languages. A disagreement names the card
and the field.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from engine_helpers import disagreements

from regelwerk.engine.cards import CardChain, DatabaseCards, shipped_table
from regelwerk.index.cards.lookup import NamedCards
from regelwerk.index.facade import Library
from regelwerk.ingest.model.errors import InputError

MTGJSON = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "cards" / "mtgjson"
NEEDS_MTGJSON = pytest.mark.skipif(
    not MTGJSON.is_dir(),
    reason="../shared/corpus/cards/mtgjson (the real MTGJSON set files) is not available here",
)
SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """A card database of the set files the table names as its sources (about 40 of 147)."""
    lib = Library(tmp_path_factory.mktemp("cards-home"))
    report = lib.ingest([MTGJSON / name for name in shipped_table()["source"]["files"]])
    assert not report["errors"], report["errors"]
    return lib


@NEEDS_MTGJSON
def test_the_source_files_are_the_ones_the_table_was_made_from(library: Library) -> None:
    files = shipped_table()["source"]["files"]
    ingested = {s["source"].rsplit("/", 1)[-1]: s["sha256"] for s in library.cards.summaries()}
    assert ingested == files


@NEEDS_MTGJSON
def test_every_table_card_agrees_with_the_database(library: Library) -> None:
    database = DatabaseCards(NamedCards(library.cards.connect()))
    wrong = []
    for name, entry in shipped_table()["cards"].items():
        facts = database.card_fields(name)
        if facts is None:
            wrong.append(f"{name}: not in the card database")
            continue
        for field in sorted(set(facts) | set(entry["fields"])):
            if facts.get(field) != entry["fields"].get(field):
                wrong.append(
                    f"{name}: {field}: table {entry['fields'].get(field)!r}, database {facts.get(field)!r}"
                )
        payload = NamedCards(library.cards.connect()).payload(name)
        assert payload is not None
        if set(payload["names_de"]) != set(entry["names_de"]):
            wrong.append(f"{name}: names_de: table {entry['names_de']!r}, database {payload['names_de']!r}")
    assert not wrong, "\n".join(wrong)


@NEEDS_MTGJSON
def test_the_scenarios_own_fields_agree_with_the_database(library: Library) -> None:
    """A field a scenario states next to ``card`` must be what the card prints (a German name:
    what one of its German printings prints)."""
    named = NamedCards(library.cards.connect())
    database = DatabaseCards(named)
    wrong = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        for entry in tomllib.loads(path.read_text("utf-8"))["cards"]:
            if "card" in entry:
                facts, payload = database.card_fields(entry["card"]), named.payload(entry["card"])
                assert facts is not None and payload is not None, f"{path.name}: {entry['card']}"
                wrong += [
                    f"{path.name}: {entry['card']}: {d}"
                    for d in disagreements(entry, facts, payload["names_de"])
                ]
    assert not wrong, "\n".join(wrong)


@NEEDS_MTGJSON
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_scenario_passes_with_the_database(library: Library, lang: str) -> None:
    lookup = library.scenario_cards()
    assert isinstance(lookup, CardChain) and isinstance(lookup.lookups[0], DatabaseCards)
    results = library.example(None, lang)["scenarios"]
    assert len(results) == len(list(SCENARIOS.glob("*.toml")))
    assert [r["id"] for r in results if not r["passed"]] == []


USER_SCENARIO = """id = "shivan"
source = "a user's scenario"
title = { de = "Der Shivanische Drache greift an", en = "Shivan Dragon attacks" }
[[players]]
id = "a"
name = "Anna"
[[players]]
id = "b"
name = "Bernd"
[[cards]]
id = "dragon"
card = "Shivan Dragon"
owner = "a"
[[actions]]
do = "attack"
attackers = ["dragon"]
[[actions]]
do = "damage"
[expect]
life = { b = 15 }
has = { dragon = ["flying"] }
"""


@NEEDS_MTGJSON
def test_a_user_scenario_may_name_any_card_of_the_database(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "shivan.toml"
    path.write_text(USER_SCENARIO, encoding="utf-8")
    result = library.example(str(path), "de")["scenarios"][0]
    assert result["passed"], result["mismatches"]
    assert "Shivan" in result["steps"][0]["text"]
    with pytest.raises(InputError) as err:  # without the database only the shipped table answers
        Library(tmp_path / "empty-home").example(str(path), "de")
    assert (
        f"{path}: cards[0].card: got 'Shivan Dragon'; expected a card name (English or German) of the shipped"
        in str(err.value)
    )
