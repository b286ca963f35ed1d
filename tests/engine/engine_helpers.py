"""Build small scenarios in code for the unit tests."""

from __future__ import annotations

import json
import re
from typing import Any

from regelwerk.engine.runner import RunResult, run_scenario
from regelwerk.engine.scenario import Scenario, parse_scenario

PLAYERS = """
[[players]]
id = "a"
name = "Anna"
pronoun_de = "sie"

[[players]]
id = "b"
name = "Bernd"
pronoun_de = "er"
life = {life}
poison = {poison}
"""


def creature(cid: str, owner: str, pt: str, *keywords: str, **extra: Any) -> str:
    kws = ", ".join(f'"{k}"' for k in keywords)
    lines = [
        "[[cards]]",
        f'id = "{cid}"',
        f'name_de = "{cid.capitalize()}"',
        f'name_en = "{cid.capitalize()}"',
        f'owner = "{owner}"',
        'types = ["Creature"]',
        'colors = ["green"]',
        f'pt = "{pt}"',
        f"keywords = [{kws}]",
    ]
    lines += [f"{k} = {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml(value: object) -> str:
    """``value`` as an inline TOML value, so tests write Python data instead of TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = [f"{_key(str(k))} = {toml(v)}" for k, v in value.items()]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    raise TypeError(f"no TOML for {value!r}")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def action(do: str, **fields: object) -> str:
    """One ``[[actions]]`` table: ``action("cast", card="kill", target="finks")``."""
    lines = ["[[actions]]", f"do = {toml(do)}"] + [f"{_key(k)} = {toml(v)}" for k, v in fields.items()]
    return "\n".join(lines) + "\n"


def attack(*attackers: str, **fields: object) -> str:
    return action("attack", attackers=list(attackers), **fields)


def block(**blocks: str) -> str:
    """``block(x="wurm", y="wurm")``: blocker = attacker."""
    return action("block", blocks=blocks)


def damage(**fields: object) -> str:
    return action("damage", **fields)


def cast(card: str, **fields: object) -> str:
    return action("cast", card=card, **fields)


def end_turn() -> str:
    return action("end_turn")


def end_combat() -> str:
    return action("end_combat")


def scenario(
    cards: str, actions: str, expect: str = "life = { a = 20 }", life: int = 20, poison: int = 0
) -> Scenario:
    players = PLAYERS.format(life=life, poison=poison)
    head = 'id = "unit"\nsource = "unit test"\ntitle = { de = "T", en = "T" }\n'
    text = f"{head}{players}\n{cards}\n{actions}\n[expect]\n{expect}\n"
    return parse_scenario(text.encode(), "unit.toml")


def play(
    cards: str,
    actions: str,
    expect: str = "life = { a = 20 }",
    lang: str = "en",
    life: int = 20,
    poison: int = 0,
) -> RunResult:
    return run_scenario(scenario(cards, actions, expect, life, poison), lang)


def disagreements(entry: dict[str, Any], facts: dict[str, object], names_de: list[str]) -> list[str]:
    """Where a scenario's own printed fields contradict the card's facts: "FIELD: FILE has X,
    the card has Y". A German name agrees when any German printing has it."""
    out = []
    for field in ("name_en", "types", "subtypes", "supertypes", "colors", "pt", "keywords"):
        if field in entry:
            mine, theirs = entry[field], facts.get(field)
            same = mine == theirs if isinstance(mine, str) else sorted(mine) == sorted(theirs or [])  # type: ignore[call-overload]
            if not same:
                out.append(f"{field}: the scenario has {mine!r}, the card has {theirs!r}")
    if "name_de" in entry and entry["name_de"] not in names_de:
        out.append(f"name_de: the scenario has {entry['name_de']!r}, German printings have {names_de!r}")
    return out
