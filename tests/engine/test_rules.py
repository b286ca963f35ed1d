"""Unit tests for the rules that are easy to get wrong."""

from __future__ import annotations

from engine_helpers import attack, block, cast, creature, damage, end_combat, end_turn, play


def rules_of(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.rule for s in result.steps]


def test_banding_blocker_gives_the_defender_the_division() -> None:
    cards = creature("wurm", "a", "6/4") + creature("x", "b", "4/4", "banding") + creature("y", "b", "4/4")
    actions = attack("wurm") + block(x="wurm", y="wurm") + damage(assign={"wurm": {"x": 3, "y": 3}})
    r = play(
        cards, actions, 'assigned_by = { wurm = "b", x = "b" }\ndied = ["wurm"]\nmarked = { x = 3, y = 3 }'
    )
    assert r.passed, r.mismatches
    assert "702.22j" in rules_of(r)


def test_without_banding_the_attacker_divides() -> None:
    cards = creature("wurm", "a", "6/4") + creature("x", "b", "4/4") + creature("y", "b", "4/4")
    actions = attack("wurm") + block(x="wurm", y="wurm") + damage(assign={"wurm": {"x": 4, "y": 2}})
    r = play(cards, actions, 'assigned_by = { wurm = "a" }\ndied = ["wurm", "x"]')
    assert r.passed, r.mismatches
    assert "702.22j" not in rules_of(r) and "510.1c" in rules_of(r)


def test_blocking_a_banding_attacker_gives_the_active_player_the_division() -> None:
    cards = creature("h", "a", "1/1", "banding") + creature("m", "a", "3/3") + creature("boar", "b", "4/4")
    actions = attack("h", "m", bands=[["h", "m"]]) + block(boar="m") + damage(assign={"boar": {"h": 4}})
    r = play(
        cards, actions, 'assigned_by = { boar = "a" }\ndied = ["boar", "h"]\nblocked_by = { h = ["boar"] }'
    )
    assert r.passed, r.mismatches
    assert "702.22k" in rules_of(r)


def _trample_deathtouch(assign: dict[str, int], **reject: str) -> str:
    return attack("rats") + block(x="rats", y="rats") + damage(assign={"rats": assign}, **reject)


def test_deathtouch_makes_one_damage_lethal_for_trample() -> None:
    cards = (
        creature("rats", "a", "5/5", "deathtouch", "trample")
        + creature("x", "b", "6/6")
        + creature("y", "b", "1/9")
    )
    r = play(
        cards, _trample_deathtouch({"x": 1, "y": 1, "b": 3}), 'life = { b = 17 }\ndied = ["rats", "x", "y"]'
    )
    assert r.passed, r.mismatches
    assert "704.5h" in rules_of(r)


def test_trample_without_lethal_to_every_blocker_is_refused() -> None:
    cards = creature("rats", "a", "5/5", "trample") + creature("x", "b", "2/2") + creature("y", "b", "2/2")
    r = play(cards, _trample_deathtouch({"x": 2, "y": 1, "b": 2}, reject="702.19b"), "life = { b = 20 }")
    assert r.passed, r.mismatches


def test_trample_counts_damage_from_other_attackers() -> None:
    cards = (
        creature("h", "a", "1/1", "banding")
        + creature("m", "a", "3/3", "trample")
        + creature("boar", "b", "2/2")
    )
    actions = (
        attack("h", "m", bands=[["h", "m"]])
        + block(boar="h")
        + damage(assign={"m": {"boar": 1, "b": 2}, "boar": {"h": 2}})
    )
    r = play(cards, actions, "life = { b = 18 }")
    assert r.passed, r.mismatches


def test_double_strike_deals_damage_in_both_steps() -> None:
    cards = creature("twin", "a", "3/3", "double strike") + creature("fs", "a", "2/2", "first strike")
    actions = attack("twin", "fs") + damage(expect={"life": {"b": 15}}) + damage()
    r = play(cards, actions, "life = { b = 12 }")
    assert r.passed, r.mismatches
    assert "510.4" in rules_of(r) and "702.4b" in rules_of(r)


def test_first_strike_kills_before_regular_damage() -> None:
    cards = creature("knight", "a", "2/2", "first strike") + creature("bear", "b", "2/2")
    actions = attack("knight") + block(bear="knight") + damage() + damage()
    r = play(cards, actions, 'died = ["bear"]\nmarked = { knight = 0 }')
    assert r.passed, r.mismatches


def test_persist_returns_once_and_counters_cancel() -> None:
    cards = creature("finks", "a", "3/2", "persist", zone='"battlefield"')
    cards += """
[[cards]]
id = "kill"
name_de = "Terror"
name_en = "Terror"
owner = "b"
zone = "hand"
types = ["Instant"]
spell = [{ kind = "destroy", target = "target_creature" }]
"""
    r = play(
        cards,
        cast("kill", target="finks"),
        'zone = { finks = "battlefield" }\ncounters = { finks = { "-1/-1" = 1 } }\n'
        'pt = { finks = "2/1" }\ndeaths = { finks = 1 }',
    )
    assert r.passed, r.mismatches
    # With a +1/+1 counter the -1/-1 counter is cancelled (704.5q), so persist works again.
    cards2 = creature("finks", "a", "3/2", "persist", counters='{ "-1/-1" = 1, "+1/+1" = 1 }')
    r2 = play(cards2, end_turn(), 'counters = { finks = {} }\npt = { finks = "3/2" }')
    assert r2.passed, r2.mismatches
    assert "704.5q" in rules_of(r2)


def test_state_based_actions_life_and_zero_toughness() -> None:
    cards = creature("zero", "a", "1/1", counters='{ "-1/-1" = 1 }') + creature("bear", "a", "2/2")
    actions = attack("bear") + damage()
    r = play(cards, actions, 'lost = ["b"]\ndied = ["zero"]\nlife = { b = 0 }', life=2)
    assert r.passed, r.mismatches
    assert {"704.5a", "704.5f", "104.2a"} <= set(rules_of(r))
    survivor = play(cards, actions, 'lost = ["b"]', life=3)
    assert not survivor.passed and any("players who lost" in m for m in survivor.mismatches)


def test_ten_poison_counters_lose() -> None:
    cards = creature("sliver", "a", "1/1", "poisonous 2")
    actions = attack("sliver") + damage()
    r = play(cards, actions, 'lost = ["b"]\npoison = { b = 10 }', poison=8)
    assert r.passed, r.mismatches
    assert "704.5c" in rules_of(r) and "702.70a" in rules_of(r)


def test_indestructible_ignores_lethal_damage_but_not_zero_toughness() -> None:
    cards = creature("tajic", "a", "2/2", "indestructible") + creature("wurm", "b", "6/4")
    actions = attack("tajic") + block(wurm="tajic") + damage()
    r = play(cards, actions, 'died = []\nzone = { tajic = "battlefield" }\nmarked = { tajic = 6 }')
    assert r.passed, r.mismatches
    assert "702.12b" in rules_of(r)
    r2 = play(
        creature("tajic", "a", "2/2", "indestructible", counters='{ "-1/-1" = 2 }'),
        end_turn(),
        'died = ["tajic"]',
    )
    assert r2.passed, r2.mismatches
    assert "704.5f" in rules_of(r2)


def test_a_refused_action_leaves_the_game_as_it_was() -> None:
    cards = creature("bear", "a", "2/2") + creature("wall", "a", "0/8", "defender")
    actions = attack("bear", "wall", reject="702.3b") + attack("bear") + damage()
    r = play(cards, actions, "life = { b = 18 }\ntapped = { wall = false, bear = true }")
    assert r.passed, r.mismatches


def test_bands_with_other() -> None:
    cards = (
        creature("w1", "a", "1/1", "bands with other Wolf", subtypes='["Wolf"]')
        + creature("w2", "a", "1/1", subtypes='["Wolf"]')
        + creature("w3", "a", "1/1", subtypes='["Wolf"]')
        + creature("cat", "a", "1/1", subtypes='["Cat"]')
    )
    ok = attack("w1", "w2", "w3", bands=[["w1", "w2", "w3"]])
    assert play(cards, ok, "life = { a = 20 }").passed
    bad = attack("w1", "w2", "cat", bands=[["w1", "w2", "cat"]], reject="702.22c")
    assert play(cards, bad, "life = { a = 20 }").passed


FAERIE = creature(
    "faerie",
    "a",
    "3/1",
    "flying",
    "prowl",
    zone='"hand"',
    subtypes='["Faerie", "Rogue"]',
    triggers='[{ id = "draw", on = "enters", if_paid = "prowl", effect = { kind = "draw", amount = 1 } }]',
) + creature("card", "a", "1/1", zone='"library"')


def test_prowl_draw_is_an_intervening_if() -> None:
    """Cast for its mana cost, the prowl card's "if its prowl cost was paid" never triggers (603.4)."""
    r = play(
        FAERIE,
        cast("faerie"),
        'zone = { faerie = "battlefield", card = "library" }',
    )
    assert r.passed, r.mismatches
    assert "603.4" in rules_of(r) and "121.1" not in rules_of(r)


def test_prowl_needs_a_shared_creature_type_and_excludes_bestow() -> None:
    rogue = creature("rogue", "a", "2/2", subtypes='["Human", "Rogue"]')
    actions = (
        attack("rogue")
        + damage()
        + end_combat()
        + cast("faerie", prowl=True, bestow=True, reject="601.2b")
        + cast("faerie", prowl=True)
    )
    r = play(FAERIE + rogue, actions, 'zone = { card = "hand" }')
    assert r.passed, r.mismatches
    assert "702.76a" in rules_of(r)


def test_one_or_more_creatures_trigger_once_from_the_graveyard() -> None:
    shaman = creature(
        "shaman",
        "a",
        "3/1",
        zone='"graveyard"',
        triggers='[{ id = "back", on = "creatures_combat_damage_to_player", zone = "graveyard", '
        'effect = { kind = "return_to_hand", target = "self" } }]',
    )
    cards = shaman + creature("x", "a", "1/1") + creature("y", "a", "1/1")
    actions = attack("x", "y") + damage()
    r = play(cards, actions, 'zone = { shaman = "hand" }\nlife = { b = 18 }')
    assert r.passed, r.mismatches
    assert [e.key for e in r.events].count("trigger") == 1
    # On the battlefield the same ability does nothing: it works only from the graveyard.
    stays = play(
        cards.replace('zone = "graveyard"\n', 'zone = "battlefield"\n', 1),
        actions,
        'zone = { shaman = "battlefield" }',
    )
    assert stays.passed, stays.mismatches
    assert "603.2c" not in rules_of(stays)


def test_buyback_returns_the_spell_only_when_paid() -> None:
    cards = (
        """
[[cards]]
id = "capsize"
name_de = "Kentern"
name_en = "Capsize"
owner = "a"
zone = "hand"
types = ["Instant"]
keywords = ["buyback"]
spell = [{ kind = "return_to_hand", target = "target_permanent" }]
"""
        + creature("x", "b", "2/2")
        + creature("y", "b", "2/2")
    )

    def actions(reject: str) -> str:
        return (
            cast("capsize", target="b", reject=reject)
            + cast("capsize", target="x", buyback=True)
            + cast("capsize", target="y")
        )

    r = play(cards, actions("608.2b"), 'zone = { x = "hand", y = "hand", capsize = "graveyard" }')
    assert not r.passed  # a player is no permanent: the refusal cites 601.2c, not 608.2b
    assert any("601.2c" in m for m in r.mismatches)
    r = play(
        cards,
        actions("601.2c"),
        'zone = { x = "hand", y = "hand", capsize = "graveyard" }',
    )
    assert r.passed, r.mismatches
    assert "702.27a" in rules_of(r)
