"""A bad scenario file fails with one line naming the file, the field or line, and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import action, attack, block, cast, creature, scenario

from regelwerk.engine.errors import ScenarioError, UnknownScenario
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import load_scenario, parse_scenario, resolve_scenario

ATTACK = attack("bear")


def test_bad_toml_names_the_line() -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(b'id = "x"\ntitle = { de = "a", en = "b" }\nsource = \n', "bad.toml")
    assert err.value.file == "bad.toml" and err.value.where == "line 3"
    assert "valid TOML" in str(err.value)


def test_unknown_keyword() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2", "flyin"), ATTACK)
    assert err.value.where == "cards[0].keywords[0]"
    assert "'flyin'" in str(err.value) and "flying" in err.value.expected


def test_unknown_card_id_suggests_the_close_one() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), attack("baer"))
    assert err.value.where == "actions[0].attackers[0]"
    assert "did you mean 'bear'" in str(err.value)


@pytest.mark.parametrize("pt", ["-1/2", "2", "x/y", "2/-3"])
def test_impossible_pt(pt: str) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", pt), ATTACK)
    assert err.value.where == "cards[0].pt"


def test_action_in_the_wrong_step() -> None:
    s = scenario(
        creature("bear", "a", "2/2") + creature("boar", "b", "4/4"),
        block(boar="bear"),
    )
    with pytest.raises(ScenarioError) as err:
        run_scenario(s, "en")
    assert err.value.where == "actions[0] (do = 'block')"
    assert "'attack' action first" in err.value.expected


def test_unknown_action_and_field() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), action("fly"))
    assert err.value.where == "actions[0].do"
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), attack("bear", blocks={}))
    assert err.value.where == "actions[0].blocks"


def test_reject_needs_a_rule_number() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), attack("bear", reject="flying"))
    assert err.value.where == "actions[0].reject"


def test_messages_are_one_line(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('id = "x"\n[[players]]\nid = 3\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(f)
    assert "\n" not in str(err.value) and str(f) in str(err.value)


def test_resolve_unknown_id_and_file(tmp_path: Path) -> None:
    with pytest.raises(UnknownScenario) as err:
        resolve_scenario("banding-tatzelwrum")
    assert "banding-tatzelwurm" in str(err.value)
    with pytest.raises(ScenarioError):
        resolve_scenario(str(tmp_path / "missing.toml"))


SEARCH_CARD = """
[[cards]]
id = "visions"
name_de = "Traumatische Visionen"
name_en = "Traumatic Visions"
owner = "a"
zone = "hand"
types = ["Instant"]
activated = [{{ id = "cycle", from_hand = true, effect = {effect} }}]
"""


@pytest.mark.parametrize(
    ("effect", "where", "expected"),
    [
        ('{ kind = "search_library" }', "cards[0].activated[0].effect.find", "basic land"),
        ('{ kind = "search_library", find = "artifact" }', "cards[0].activated[0].effect.find", "basic land"),
        ('{ kind = "draw", amount = "one" }', "cards[0].activated[0].effect.amount", "whole"),
        # each effect kind has its own fields: a draw finds nothing
        ('{ kind = "draw", find = "land" }', "cards[0].activated[0].effect.find", "amount"),
    ],
)
def test_new_effect_fields_name_field_and_expectation(effect: str, where: str, expected: str) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(SEARCH_CARD.format(effect=effect), action("activate", source="visions"))
    assert err.value.where == where
    assert expected in err.value.expected and "unit.toml" in str(err.value)


@pytest.mark.parametrize(
    ("extra", "where", "expected"),
    [
        ('zone = "exile"', "cards[0].triggers[0].zone", "graveyard"),
        ('if_paid = "kicker"', "cards[0].triggers[0].if_paid", "prowl"),
        ('on = "leaves"', "cards[0].triggers[0].on", "creatures_combat_damage_to_player"),
    ],
)
def test_new_trigger_fields_name_field_and_expectation(extra: str, where: str, expected: str) -> None:
    on = "" if extra.startswith("on") else 'on = "enters", '
    trig = f'[{{ id = "t", {on}{extra}, effect = {{ kind = "draw", amount = 1 }} }}]'
    with pytest.raises(ScenarioError) as err:
        scenario(creature("faerie", "a", "3/1", triggers=trig), attack("faerie"))
    assert err.value.where == where
    assert expected in err.value.expected


@pytest.mark.parametrize("flag", ["buyback", "prowl", "bestow"])
def test_cast_cost_flags_must_be_booleans(flag: str) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2", zone='"hand"'), cast("bear", **{flag: "yes"}))
    assert err.value.where == f"actions[0].{flag}"
    assert err.value.expected == "true or false" and "'yes'" in str(err.value)
