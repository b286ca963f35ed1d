"""No scenario file crashes the loader or the runner (issue 14, item 2).

Mutated packaged scenarios (a value replaced by one of another type or by an id from the file,
a field removed, an array nested deep) must either play or fail with a ``ScenarioError``: one
line naming the file and the field. Any other exception is an internal error. CI runs a bounded
number of examples; ``REGELWERK_FUZZ_EXAMPLES`` runs more.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelwerk.engine.errors import ScenarioError
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import parse_scenario, scenario_from_dict
from tests.fuzzing import edit_scenario_lines, mutate_scenario, scenario_docs, scenario_text, scenario_values

DOCS = scenario_docs()
FILES = sorted(DOCS)
EXAMPLES = int(os.environ.get("REGELWERK_FUZZ_EXAMPLES", "150"))
VALUES = {name: scenario_values(doc) for name, doc in DOCS.items()}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize="REGELWERK_FUZZ_EXAMPLES" not in os.environ,
)
@given(data=st.data())
def test_mutated_scenarios_play_or_fail_with_a_scenario_error(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(FILES))
    doc = DOCS[name]
    values = VALUES[name]
    for _ in range(data.draw(st.integers(1, 3))):
        doc = mutate_scenario(data, doc, values)
    try:
        scenario = scenario_from_dict(doc, f"fuzz/{name}")
        run_scenario(scenario, data.draw(st.sampled_from(["de", "en"])))
    except ScenarioError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(f"fuzz/{name}: ")


@settings(
    max_examples=EXAMPLES // 3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize="REGELWERK_FUZZ_EXAMPLES" not in os.environ,
)
@given(data=st.data())
def test_edited_scenario_text_plays_or_fails_with_a_scenario_error(data: st.DataObject) -> None:
    """Line-level edits of the file text: lines dropped, doubled, or with characters inserted."""
    name = data.draw(st.sampled_from(FILES))
    lines = edit_scenario_lines(data, scenario_text(name))
    try:
        run_scenario(parse_scenario("\n".join(lines).encode(), f"fuzz/{name}"), "de")
    except ScenarioError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(f"fuzz/{name}: ")


# --- the repro cases of issue 14 ---------------------------------------------------------------

PLAYERS = '[[players]]\nid = "a"\nname = "A"\n[[players]]\nid = "b"\nname = "B"\n'
HEAD = 'id = "x"\nsource = "s"\ntitle = { de = "T", en = "T" }\n' + PLAYERS
ATTACK = '[[actions]]\ndo = "attack"\nattackers = ["bear"]\n'
BEAR = '[[cards]]\nid = "bear"\nname_de = "B"\nname_en = "B"\nowner = "a"\ntypes = ["Creature"]\npt = "2/2"\n'


@pytest.mark.parametrize("depth", [50, 400, 3000, 20000])
def test_deeply_nested_arrays(depth: int) -> None:
    text = f"{HEAD}a = {'[' * depth}{']' * depth}\n"
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "deep.toml")
    assert str(err.value).startswith("deep.toml: ") and "\n" not in str(err.value)
    assert len(str(err.value)) < 300


@pytest.mark.parametrize(
    ("line", "where", "expected"),
    [
        ("colors = 5", "cards[0].colors", "a list of"),
        ('colors = ["purple"]', "cards[0].colors[0]", "one of black, blue"),
        ("types = 5", "cards[0].types", "a non-empty list of card types"),
        ("keywords = 5", "cards[0].keywords", "a list of keywords"),
        ("keywords = [5]", "cards[0].keywords[0]", "a keyword string"),
        ("counters = 5", "cards[0].counters", "a table"),
        ('counters = { "+1/+1" = "x" }', "cards[0].counters.+1/+1", "a whole number"),
        ("triggers = 5", "cards[0].triggers", "a list of tables"),
        ("triggers = [5]", "cards[0].triggers[0]", "a table with the fields"),
        (
            'spell = [{ kind = "pump", keywords = "trample" }]',
            "cards[0].spell[0].keywords",
            "a list of keywords",
        ),
        ("forms_de = 5", "cards[0].forms_de", "a table with the fields"),
        ("statics = [{ kind = 5 }]", "cards[0].statics[0].kind", "grant"),
        ("damage = -1", "cards[0].damage", "0 to 10000"),
        ("enchanted = []", "cards[0].enchanted", "a table with the fields"),
    ],
)
def test_wrong_value_types_on_a_card(line: str, where: str, expected: str) -> None:
    bear = "".join(f"{x}\n" for x in BEAR.splitlines() if x.split(" = ")[0] != line.split(" = ")[0])
    text = f"{HEAD}{bear}{line}\n{ATTACK}[expect]\nlife = {{ b = 18 }}\n"
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "t.toml")
    assert err.value.where == where, str(err.value)
    assert expected in err.value.expected, str(err.value)


@pytest.mark.parametrize(
    ("action", "where"),
    [
        ('do = "attack"\nattackers = "bear"', "actions[0].attackers"),
        ('do = "attack"\nattackers = ["bear"]\nbands = 5', "actions[0].bands"),
        ('do = "attack"\nattackers = ["bear"]\nchoices = 5', "actions[0].choices"),
        ('do = "attack"\nattackers = ["bear"]\norder = "x"', "actions[0].order"),
        ('do = "attack"\nattackers = ["bear"]\nexpect = 5', "actions[0].expect"),
        ('do = "attack"\nattackers = ["bear"]\nreject = 5', "actions[0].reject"),
        ('do = "block"\nblocks = []', "actions[0].blocks"),
        ('do = "damage"\nassign = { bear = 5 }', "actions[0].assign.bear"),
        ("do = 5", "actions[0].do"),
    ],
)
def test_wrong_value_types_in_actions(action: str, where: str) -> None:
    text = f"{HEAD}{BEAR}[[actions]]\n{action}\n[expect]\nlife = {{ b = 18 }}\n"
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "t.toml")
    assert err.value.where == where, str(err.value)


@pytest.mark.parametrize(
    ("expect", "where"),
    [
        ("life = 5", "expect.life"),
        ('life = { b = "x" }', "expect.life.b"),
        ("died = 5", "expect.died"),
        ("pt = { bear = 5 }", "expect.pt.bear"),
        ('has = { bear = "flying" }', "expect.has.bear"),
        ("zone = { bear = 5 }", "expect.zone.bear"),
    ],
)
def test_wrong_value_types_in_expectations(expect: str, where: str) -> None:
    text = f'{HEAD}{BEAR}[[actions]]\ndo = "attack"\nattackers = ["bear"]\n[expect]\n{expect}\n'
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "t.toml")
    assert err.value.where == where, str(err.value)


def test_a_huge_value_is_quoted_short() -> None:
    text = f"{HEAD}{BEAR}{ATTACK}comment = 1\n[expect]\nlife = {{ b = {'9' * 5000} }}\n"
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "t.toml")
    assert len(str(err.value)) < 300
