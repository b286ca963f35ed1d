"""Build small scenarios in code for the unit tests."""

from __future__ import annotations

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
