"""Multiplayer (issue 15): seats and turn order, APNAP over all players, attack targets, who
decides (``by``), lists of acceptable rules, leaving the game."""

from __future__ import annotations

from engine_helpers import action, attack, cast, creature, damage, end_turn

from regelwerk.engine.events import Event, Ref
from regelwerk.engine.narration import Name, render
from regelwerk.engine.resolve import signed_pair
from regelwerk.engine.runner import RunResult, run_scenario
from regelwerk.engine.scenario import parse_scenario


def players(*ids: str, teams: dict[str, str] | None = None) -> str:
    out = []
    for seat, pid in enumerate(ids, 1):
        team = f'team = "{teams[pid]}"\n' if teams and pid in teams else ""
        out.append(f'[[players]]\nid = "{pid}"\nname = "{pid.capitalize()}"\nseat = {seat}\n{team}')
    return "\n".join(out)


def play3(
    cards: str, actions: str, expect: str, *, ids: tuple[str, ...] = ("a", "b", "c"), head: str = ""
) -> RunResult:
    text = (
        f'id = "mp"\nsource = "unit"\ntitle = {{ de = "T", en = "T" }}\n{head}\n{players(*ids)}\n'
        f"{cards}\n{actions}\n[expect]\n{expect}\n"
    )
    return run_scenario(parse_scenario(text.encode(), "mp.toml"), "en")


def finks(cid: str, owner: str) -> str:
    return creature(cid, owner, "3/2", "persist")


WRATH = (
    '[[cards]]\nid = "wrath"\nname_de = "Zorn"\nname_en = "Wrath"\nowner = "{owner}"\nzone = "hand"\n'
    'types = ["Sorcery"]\nspell = [{{ kind = "destroy", target = "each_creature" }}]\n'
)


def test_simultaneous_triggers_of_three_players_go_on_the_stack_in_apnap_order() -> None:
    cards = finks("fa", "a") + finks("fb", "b") + finks("fc", "c") + WRATH.format(owner="a")
    r = play3(cards, cast("wrath"), 'zone = { fa = "battlefield", fb = "battlefield", fc = "battlefield" }')
    assert r.passed, r.mismatches
    returned = [e.params["card"].id for e in r.events if e.key == "persist_returns"]
    # a (active) puts its trigger on the stack first, then b, then c: c's resolves first
    assert returned == ["fc", "fb", "fa"]


def test_apnap_starts_with_the_active_player() -> None:
    cards = finks("fa", "a") + finks("fb", "b") + finks("fc", "c") + WRATH.format(owner="b")
    r = play3(cards, cast("wrath"), "life = { a = 20 }", head='active = "b"')
    assert r.passed, r.mismatches
    assert [e.params["card"].id for e in r.events if e.key == "persist_returns"] == ["fa", "fc", "fb"]


def test_attack_needs_a_target_when_several_players_can_be_attacked() -> None:
    cards = creature("bear", "a", "2/2")
    r = play3(
        cards,
        attack("bear", reject="508.1b") + attack("bear", targets={"bear": "c"}) + damage(),
        "life = { c = 18, b = 20 }",
    )
    assert r.passed, r.mismatches


def test_attack_left_allows_only_the_nearest_opponent_on_the_left() -> None:
    cards = creature("bear", "a", "2/2")
    r = play3(
        cards,
        attack("bear", targets={"bear": "c"}, reject="803.1a") + attack("bear") + damage(),
        "life = { b = 18, c = 20 }",
        head='attack = "left"',
    )
    assert r.passed, r.mismatches


def test_a_teammate_cannot_be_attacked() -> None:
    text = (
        'id = "mp"\nsource = "unit"\ntitle = { de = "T", en = "T" }\nformat = "free_for_all"\n'
        + players("a", "b", "c", teams={"a": "x", "b": "x"})
        + creature("bear", "a", "2/2")
        + attack("bear", targets={"bear": "b"}, reject=["506.2", "508.1b"])
        + attack("bear")
        + damage()
        + "[expect]\nlife = { c = 18, b = 20 }\n"
    )
    r = run_scenario(parse_scenario(text.encode(), "mp.toml"), "en")
    assert r.passed, r.mismatches


def test_a_creature_cannot_be_attacked_but_a_planeswalker_can() -> None:
    walker = (
        '[[cards]]\nid = "jace"\nname_de = "Jace"\nname_en = "Jace"\ngenus = "name"\nowner = "b"\n'
        'types = ["Planeswalker"]\ncounters = { loyalty = 3 }\n'
    )
    cards = creature("bear", "a", "3/3") + creature("elk", "b", "1/1") + walker
    r = play3(
        cards,
        attack("bear", targets={"bear": "elk"}, reject="506.3")
        + attack("bear", targets={"bear": "jace"})
        + damage(),
        'zone = { jace = "graveyard" }\nlife = { b = 20 }',
    )
    assert r.passed, r.mismatches
    assert [e.rule for e in r.events if e.key in ("damage_planeswalker", "dies_loyalty")] == [
        "120.3c",
        "704.5i",
    ]


def test_losing_player_leaves_and_the_turn_skips_them() -> None:
    text = (
        'id = "mp"\nsource = "unit"\ntitle = { de = "T", en = "T" }\n'
        + players("a", "b", "c").replace('id = "c"\nname = "C"\n', 'id = "c"\nname = "C"\nlife = 2\n')
        + creature("bear", "a", "2/2")
        + creature("elk", "c", "1/1", tapped="true")
        + creature("stolen", "b", "1/1", controller='"c"', tapped="true")
        + attack("bear", targets={"bear": "c"})
        + damage()
        + end_turn()
        + end_turn()
        + '[expect]\nlost = ["c"]\nzone = { elk = "gone", stolen = "exile" }\n'
    )
    r = run_scenario(parse_scenario(text.encode(), "mp.toml"), "en")
    assert r.passed, r.mismatches
    turns = [e.params["player"].id for e in r.events if e.key == "new_turn"]
    assert turns == ["b", "a"]
    assert not any(e.key == "wins" for e in r.events)


def test_by_checks_who_decides() -> None:
    cards = creature("bear", "a", "2/2") + creature("elk", "b", "1/1")
    r = play3(
        cards,
        attack("bear", by="b", targets={"bear": "b"}, reject="508.1")
        + attack("bear", by="a", targets={"bear": "b"})
        + action("block", blocks={"elk": "bear"}, by="a", reject="509.1a")  # the attacker
        + action("block", blocks={"elk": "bear"}, by="c", reject="509.1a")  # a defender, but not elk's
        + action("block", blocks={"elk": "bear"}, by="b")
        + damage(),
        'died = ["elk"]\nlife = { b = 20 }',
    )
    assert r.passed, r.mismatches
    refusals = [e.params["inner"].key for e in r.events if e.key == "rejected"]
    assert refusals == ["attack_by", "block_by", "block_not_by"]


def test_by_on_cast_and_choices() -> None:
    cards = creature("bear", "a", "2/2") + WRATH.format(owner="a")
    r = play3(
        cards,
        action("cast", card="wrath", by="b", reject="601.2") + action("cast", card="wrath", by="a"),
        'died = ["bear"]',
    )
    assert r.passed, r.mismatches


def test_reject_list_accepts_any_listed_rule_and_says_so_when_none_matches() -> None:
    cards = creature("bear", "a", "2/2", sick="true")
    ok = play3(cards, attack("bear", targets={"bear": "b"}, reject=["508.1a", "302.6"]), "life = { b = 20 }")
    assert ok.passed, ok.mismatches
    general = play3(cards, attack("bear", targets={"bear": "b"}, reject="508.1a"), "life = { b = 20 }")
    assert general.passed, general.mismatches  # the general rule 302.6 falls under is accepted
    wrong = play3(
        cards, attack("bear", targets={"bear": "b"}, reject=["702.9b", "509.1b"]), "life = { b = 20 }"
    )
    assert not wrong.passed
    assert "one of 702.9b, 509.1b, got 302.6" in wrong.mismatches[0]


def test_a_change_of_zero_takes_the_sign_of_the_other_half() -> None:
    assert signed_pair(-4, 0) == ("-4", "-0")
    assert signed_pair(0, -2) == ("-0", "-2")
    assert signed_pair(3, 0) == ("+3", "+0")
    names = {"bear": Name("Bär", "Bear", "m")}
    power, toughness = signed_pair(-4, 0)
    e = Event("608.2h", "pump", {"card": Ref("bear"), "power": power, "toughness": toughness, "keywords": []})
    assert render(e, "en", names) == "Bear gets -4/-0 until end of turn."
