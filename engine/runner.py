"""Play a scenario and compare what happened with what it expects.

Each action runs on a snapshot: if the rules refuse it (``IllegalAction``), the game returns
to the moment before, as the CR requires for illegal declarations (508.1, 509.1, 733), and
the refusal becomes a narrated step citing the rule. An action marked ``reject`` must be
refused with that rule; any other refusal, and any outcome that differs, is a mismatch.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from regelwerk.engine import characteristics as ch
from regelwerk.engine.combat import combat_damage, declare_attackers, declare_blockers, end_combat
from regelwerk.engine.errors import IllegalAction, ScenarioError, WrongStep
from regelwerk.engine.events import Event, Label
from regelwerk.engine.narration import names_of, render, rule_title
from regelwerk.engine.rulebook import NullRuleBook, RuleBook
from regelwerk.engine.scenario import PER_CARD_EXPECT_KEYS, Action, Scenario
from regelwerk.engine.spells import activate, cast
from regelwerk.engine.state import Card, Game, Player
from regelwerk.engine.turn import end_turn
from regelwerk.ingest.model.numbers import RuleNumber


@dataclass(frozen=True)
class Step:
    text: str
    rule: str
    title: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "rule": self.rule, "title": self.title}


@dataclass(frozen=True)
class RunResult:
    id: str
    title: str
    passed: bool
    steps: tuple[Step, ...]
    mismatches: tuple[str, ...] = ()
    file: str = ""
    events: tuple[Event, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "passed": self.passed,
            "steps": [s.to_dict() for s in self.steps],
            "mismatches": list(self.mismatches),
        }


def build_game(s: Scenario) -> Game:
    players = {
        p.id: Player(p.id, p.name, p.life, p.poison, pronoun_de=p.pronoun_de, pronoun_en=p.pronoun_en)
        for p in s.players
    }
    cards = {}
    for c in s.cards:
        card = Card(
            c.id,
            c.spec,
            c.owner,
            c.controller,
            zone=c.zone,
            token=c.token,
            damage=c.damage,
            tapped=c.tapped,
            sick=c.sick,
        )
        card.counters.update(dict(c.counters))
        cards[c.id] = card
    return Game(players=players, cards=cards, active=s.active)


def perform(game: Game, action: Action) -> None:
    """Carry out one scenario action on the game."""
    p = action.params
    if game.over and action.do != "expect":
        raise WrongStep(action.do, "no further actions: the game is over")
    if action.do == "attack":
        declare_attackers(game, list(p["attackers"]), [list(b) for b in p.get("bands", [])])
    elif action.do == "block":
        declare_blockers(game, dict(p.get("blocks", {})))
    elif action.do == "damage":
        combat_damage(game, {k: dict(v) for k, v in p.get("assign", {}).items()})
    elif action.do == "end_combat":
        end_combat(game)
    elif action.do == "end_turn":
        end_turn(game)
    elif action.do == "cast":
        cast(
            game,
            p["card"],
            p.get("target"),
            bool(p.get("bestow", False)),
            buyback=bool(p.get("buyback", False)),
            prowl=bool(p.get("prowl", False)),
        )
    elif action.do == "activate":
        activate(game, p["source"], p.get("ability"), p.get("target"))


def _rule_matches(expected: str, actual: str) -> bool:
    return RuleNumber.parse(expected).contains(RuleNumber.parse(actual))


def run_scenario(scenario: Scenario, lang: str = "de", rulebook: RuleBook | None = None) -> RunResult:
    """Play every action, narrate in ``lang``, and check the expected outcomes."""
    book = rulebook or NullRuleBook()
    game = build_game(scenario)
    mismatches: list[str] = []
    if scenario.note_de or scenario.note_en:
        game.events.append(
            Event(scenario.note_rule or "100.1", "note", {"text": Label(scenario.note_de, scenario.note_en)})
        )
    for action in scenario.actions:
        label = f"action {action.index + 1} ({action.do})"
        snapshot = copy.deepcopy(game)
        game.choices, game.order = dict(action.choices), list(action.order)
        try:
            perform(game, action)
        except IllegalAction as exc:
            game = snapshot
            game.events.append(Event(exc.rule, "rejected", {"inner": Event(exc.rule, exc.key, exc.params)}))
            if action.reject is None:
                mismatches.append(f"{label}: expected it to be allowed, but it was refused: {exc}")
                break
            if not _rule_matches(action.reject, exc.rule):
                mismatches.append(
                    f"{label}: expected a refusal citing {action.reject}, got {exc.rule}: {exc}"
                )
        except WrongStep as exc:
            raise ScenarioError(
                scenario.file, f"actions[{action.index}] (do = {action.do!r})", exc.expected
            ) from None
        else:
            if action.reject is not None:
                mismatches.append(f"{label}: expected a refusal citing {action.reject}, but it was allowed")
        game.choices, game.order = {}, []
        if action.expect:
            mismatches.extend(check(game, action.expect, f"after {label}"))
    mismatches.extend(check(game, scenario.expect, "at the end"))
    names = names_of(game)
    steps = tuple(Step(_render(e, lang, names), e.rule, _title(book, e.rule, lang)) for e in game.events)
    return RunResult(
        scenario.id,
        scenario.title(lang),
        not mismatches,
        steps,
        tuple(mismatches),
        scenario.file,
        tuple(game.events),
    )


def _render(event: Event, lang: str, names: Any) -> str:
    if event.key == "rejected":
        inner = render(event.params["inner"], lang, names)
        return render(Event(event.rule, "rejected", {"reason": inner}), lang, names)
    return render(event, lang, names)


def _title(book: RuleBook, rule: str, lang: str) -> str | None:
    return rule_title(book, rule, lang)


# --- expectations ----------------------------------------------------------------------------


def _name(game: Game, ident: str) -> str:
    if ident in game.players:
        return game.players[ident].name
    card = game.cards.get(ident)
    return f"{card.spec.name_en} [{ident}]" if card else ident


def check(game: Game, expect: dict[str, Any], when: str) -> list[str]:
    out: list[str] = []

    def diff(what: str, ident: str, expected: object, actual: object) -> None:
        if expected != actual:
            out.append(f"{when}: {what} of {_name(game, ident)}: expected {expected!r}, got {actual!r}")

    def card(ident: str) -> Card | None:
        found = game.cards.get(ident)
        if found is None:
            out.append(f"{when}: {ident!r} does not exist in the game")
        return found

    for pid, v in expect.get("life", {}).items():
        diff("life", pid, v, game.players[pid].life)
    for pid, v in expect.get("poison", {}).items():
        diff("poison counters", pid, v, game.players[pid].poison)
    if "lost" in expect:
        lost = sorted(p.id for p in game.players.values() if p.lost)
        if sorted(expect["lost"]) != lost:
            out.append(f"{when}: players who lost: expected {sorted(expect['lost'])!r}, got {lost!r}")
    if "died" in expect:
        died = sorted(game.history.deaths)
        if sorted(expect["died"]) != died:
            out.append(f"{when}: creatures that died: expected {sorted(expect['died'])!r}, got {died!r}")
    for cid, v in expect.get("deaths", {}).items():
        diff("number of deaths", cid, v, game.history.deaths[cid])
    for ident, v in expect.get("damage", {}).items():
        diff("damage dealt to it", ident, v, game.history.damage_taken[ident])
    for cid, v in expect.get("assigned_by", {}).items():
        diff("player who assigned its combat damage", cid, v, game.history.assigned_by.get(cid))
    for cid, v in expect.get("blocked_by", {}).items():
        diff("blockers", cid, sorted(v), sorted(game.history.blocked_by.get(cid, [])))
    tokens = Counter(
        c.controller for c in game.cards.values() if c.token and c.on_battlefield and ch.is_creature(game, c)
    )
    for pid, v in expect.get("tokens", {}).items():
        diff("creature tokens", pid, v, tokens[pid])
    for key in PER_CARD_EXPECT_KEYS:
        for cid, v in expect.get(key, {}).items():
            c = card(cid)
            if c is None:
                continue
            if key == "zone":
                diff("zone", cid, v, c.zone)
            elif key == "marked":
                diff("damage marked", cid, v, c.damage)
            elif key == "counters":
                diff("counters", cid, dict(v), {k: n for k, n in c.counters.items() if n})
            elif key == "pt":
                p, t = ch.power_toughness(game, c)
                diff("P/T", cid, v, f"{p}/{t}")
            elif key in ("has", "lacks"):
                kws = {str(k) for k in ch.keywords(game, c)} | {k.name for k in ch.keywords(game, c)}
                for kw in v:
                    if (kw in kws) != (key == "has"):
                        verb = "have" if key == "has" else "not have"
                        out.append(f"{when}: {_name(game, cid)} should {verb} {kw!r}")
            elif key == "tapped":
                diff("tapped", cid, v, c.tapped)
            elif key == "phased_out":
                diff("phased out", cid, v, c.phased_out)
            elif key == "attached":
                diff("attached to", cid, v, c.attached_to or "")
            elif key == "types":
                diff("card types", cid, sorted(v), sorted(ch.types(c)))
    return out
