"""A bad scenario file fails with one line naming the file, the field or line, and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import creature, scenario

from regelwerk.engine.errors import ScenarioError, UnknownScenario
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import load_scenario, parse_scenario, resolve_scenario

ATTACK = '[[actions]]\ndo = "attack"\nattackers = ["bear"]\n'


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
        scenario(creature("bear", "a", "2/2"), '[[actions]]\ndo = "attack"\nattackers = ["baer"]\n')
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
        '[[actions]]\ndo = "block"\nblocks = { boar = "bear" }\n',
    )
    with pytest.raises(ScenarioError) as err:
        run_scenario(s, "en")
    assert err.value.where == "actions[0] (do = 'block')"
    assert "'attack' action first" in err.value.expected


def test_unknown_action_and_field() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), '[[actions]]\ndo = "fly"\n')
    assert err.value.where == "actions[0].do"
    with pytest.raises(ScenarioError) as err:
        scenario(
            creature("bear", "a", "2/2"), '[[actions]]\ndo = "attack"\nattackers = ["bear"]\nblocks = {}\n'
        )
    assert err.value.where == "actions[0].blocks"


def test_reject_needs_a_rule_number() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(creature("bear", "a", "2/2"), ATTACK + 'reject = "flying"\n')
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
