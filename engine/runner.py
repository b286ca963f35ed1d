"""Play a scenario and compare what happened with what it expects.

Each action runs on a snapshot: if the rules refuse it (``IllegalAction``), the game returns
to the moment before, as the CR requires for illegal declarations (508.1, 509.1, 733), and
the refusal becomes a narrated step citing the rule. An action marked ``reject`` must be
refused with that rule; any other refusal, and any outcome that differs, is a mismatch.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regelwerk.engine import characteristics as ch
from regelwerk.engine import model as m
from regelwerk.engine.combat import combat_damage, declare_attackers, declare_blockers, end_combat
from regelwerk.engine.decisions import check_decider
from regelwerk.engine.errors import IllegalAction, ScenarioError, WrongStep
from regelwerk.engine.events import Event, Label
from regelwerk.engine.narration import names_of, render, rule_title
from regelwerk.engine.rulebook import NullRuleBook, RuleBook
from regelwerk.engine.scenario import Scenario
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
        p.id: Player(
            p.id, p.name, p.life, p.poison, pronoun_de=p.pronoun_de, pronoun_en=p.pronoun_en, team=p.team
        )
        for p in s.players
    }
    cards = {}
    for c in s.cards:
        card = Card(
            c.id,
            c.spec(),
            c.owner,
            c.controller or c.owner,
            zone=c.zone,
            token=c.token,
            damage=c.damage,
            tapped=c.tapped,
            sick=c.sick,
        )
        card.counters.update(c.counters)
        cards[c.id] = card
    return Game(players=players, cards=cards, active=s.active, attack_option=s.attack)


#: What each kind of action does to the game.
PERFORM: dict[type, Callable[[Game, Any], None]] = {
    m.Attack: lambda g, a: declare_attackers(
        g, list(a.attackers), [list(b) for b in a.bands], dict(a.targets)
    ),
    m.Block: lambda g, a: declare_blockers(g, dict(a.blocks), a.by),
    m.DamageStep: lambda g, a: combat_damage(g, {k: dict(v) for k, v in a.assign.items()}, a.by),
    m.EndCombat: lambda g, a: end_combat(g),
    m.EndTurn: lambda g, a: end_turn(g),
    m.Cast: lambda g, a: cast(g, a.card, a.target, a.bestow, buyback=a.buyback, prowl=a.prowl),
    m.Activate: lambda g, a: activate(g, a.source, a.ability, a.target),
    m.Check: lambda g, a: None,
}


def perform(game: Game, action: m.ActionBase) -> None:
    """Carry out one scenario action on the game."""
    if game.over and not isinstance(action, m.Check):
        raise WrongStep(action.do, "no further actions: the game is over")
    if action.by:
        check_decider(game, action)
    PERFORM[type(action)](game, action)


def _rule_matches(acceptable: tuple[str, ...], cited: tuple[str, ...]) -> bool:
    """A refusal matches when one acceptable rule is (an ancestor of) a rule it cites."""
    return any(RuleNumber.parse(a).contains(RuleNumber.parse(c)) for a in acceptable for c in cited)


def _rules_text(rules: tuple[str, ...]) -> str:
    return rules[0] if len(rules) == 1 else "one of " + ", ".join(rules)


def _play(
    game: Game, action: m.ActionBase, label: str, file: str, index: int
) -> tuple[Game, list[str], bool]:
    """One action on a snapshot; returns the game (restored if refused), mismatches, and
    whether to stop."""
    snapshot = copy.deepcopy(game)
    game.choices, game.order = dict(action.choices), list(action.order)
    wanted = action.rejects
    try:
        perform(game, action)
    except IllegalAction as exc:
        snapshot.events.append(Event(exc.rule, "rejected", {"inner": Event(exc.rule, exc.key, exc.params)}))
        if not wanted:
            return snapshot, [f"{label}: expected it to be allowed, but it was refused: {exc}"], True
        if not _rule_matches(wanted, (exc.rule, *exc.also)):
            return (
                snapshot,
                [f"{label}: expected a refusal citing {_rules_text(wanted)}, got {exc.rule}: {exc}"],
                False,
            )
        return snapshot, [], False
    except WrongStep as exc:
        raise ScenarioError(file, f"actions[{index}] (do = {action.do!r})", exc.expected) from None
    game.choices, game.order = {}, []
    if wanted:
        return game, [f"{label}: expected a refusal citing {_rules_text(wanted)}, but it was allowed"], False
    return game, [], False


def run_scenario(scenario: Scenario, lang: str = "de", rulebook: RuleBook | None = None) -> RunResult:
    """Play every action, narrate in ``lang``, and check the expected outcomes."""
    book = rulebook or NullRuleBook()
    game = build_game(scenario)
    mismatches: list[str] = []
    if scenario.note_de or scenario.note_en:
        note = Label(scenario.note_de, scenario.note_en)
        game.events.append(Event(scenario.note_rule or "100.1", "note", {"text": note}))
    for index, action in enumerate(scenario.actions):
        label = f"action {index + 1} ({action.do})"
        game, found, stop = _play(game, action, label, scenario.file, index)
        mismatches.extend(found)
        if stop:
            break
        if action.expect.given():
            mismatches.extend(check(game, action.expect, f"after {label}"))
    mismatches.extend(check(game, scenario.expect, "at the end"))
    names = names_of(game)
    steps = tuple(Step(_render(e, lang, names), e.rule, rule_title(book, e.rule, lang)) for e in game.events)
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


# --- expectations: one checker per kind ----------------------------------------------------------


def _name(game: Game, ident: str) -> str:
    if ident in game.players:
        return game.players[ident].name
    card = game.cards.get(ident)
    return f"{card.spec.name_en} [{ident}]" if card else ident


@dataclass
class _Checker:
    game: Game
    when: str
    out: list[str] = field(default_factory=list)

    def diff(self, what: str, ident: str, expected: object, actual: object) -> None:
        if expected != actual:
            self.out.append(
                f"{self.when}: {what} of {_name(self.game, ident)}: expected {expected!r}, got {actual!r}"
            )

    def exact(self, what: str, expected: object, actual: object) -> None:
        if expected != actual:
            self.out.append(f"{self.when}: {what}: expected {expected!r}, got {actual!r}")

    def per_card(self, what: str, value: dict[str, Any], actual: Callable[[Card], object]) -> None:
        for cid, v in value.items():
            card = self.game.cards.get(cid)
            if card is None:
                self.out.append(f"{self.when}: {cid!r} does not exist in the game")
            else:
                self.diff(what, cid, v, actual(card))

    def keywords(self, value: dict[str, tuple[str, ...]], present: bool) -> None:
        for cid, wanted in value.items():
            card = self.game.cards.get(cid)
            if card is None:
                self.out.append(f"{self.when}: {cid!r} does not exist in the game")
                continue
            kws = {str(k) for k in ch.keywords(self.game, card)} | {
                k.name for k in ch.keywords(self.game, card)
            }
            for kw in wanted:
                if (kw in kws) != present:
                    verb = "have" if present else "not have"
                    self.out.append(f"{self.when}: {_name(self.game, cid)} should {verb} {kw!r}")


def _tokens(game: Game) -> Counter[str]:
    return Counter(
        c.controller for c in game.cards.values() if c.token and c.on_battlefield and ch.is_creature(game, c)
    )


def _pt(game: Game, card: Card) -> str:
    p, t = ch.power_toughness(game, card)
    return f"{p}/{t}"


def _players(what: str, attr: str) -> Callable[[_Checker, dict[str, int]], None]:
    def checker(c: _Checker, value: dict[str, int]) -> None:
        for pid, v in value.items():
            c.diff(what, pid, v, getattr(c.game.players[pid], attr))

    return checker


def _counted(what: str, table: Callable[[Game], Counter[str]]) -> Callable[[_Checker, dict[str, int]], None]:
    def checker(c: _Checker, value: dict[str, int]) -> None:
        got = table(c.game)
        for ident, v in value.items():
            c.diff(what, ident, v, got[ident])

    return checker


def _assigned_by(c: _Checker, value: dict[str, str]) -> None:
    for cid, v in value.items():
        c.diff("player who assigned its combat damage", cid, v, c.game.history.assigned_by.get(cid))


def _blocked_by(c: _Checker, value: dict[str, tuple[str, ...]]) -> None:
    for cid, v in value.items():
        c.diff("blockers", cid, sorted(v), sorted(c.game.history.blocked_by.get(cid, [])))


#: Each expectation kind (a field of ``model.Expect``) and how it is checked.
CHECKS: dict[str, Callable[[_Checker, Any], None]] = {
    "life": _players("life", "life"),
    "poison": _players("poison counters", "poison"),
    "lost": lambda c, v: c.exact(
        "players who lost", sorted(v), sorted(p.id for p in c.game.players.values() if p.lost)
    ),
    "died": lambda c, v: c.exact("creatures that died", sorted(v), sorted(c.game.history.deaths)),
    "deaths": _counted("number of deaths", lambda g: g.history.deaths),
    "damage": _counted("damage dealt to it", lambda g: g.history.damage_taken),
    "assigned_by": _assigned_by,
    "blocked_by": _blocked_by,
    "tokens": _counted("creature tokens", _tokens),
    "zone": lambda c, v: c.per_card("zone", v, lambda card: card.zone),
    "marked": lambda c, v: c.per_card("damage marked", v, lambda card: card.damage),
    "counters": lambda c, v: c.per_card(
        "counters", v, lambda card: {k: n for k, n in card.counters.items() if n}
    ),
    "pt": lambda c, v: c.per_card("P/T", v, lambda card: _pt(c.game, card)),
    "has": lambda c, v: c.keywords(v, True),
    "lacks": lambda c, v: c.keywords(v, False),
    "tapped": lambda c, v: c.per_card("tapped", v, lambda card: card.tapped),
    "phased_out": lambda c, v: c.per_card("phased out", v, lambda card: card.phased_out),
    "attached": lambda c, v: c.per_card("attached to", v, lambda card: card.attached_to or ""),
    "types": lambda c, v: c.per_card(
        "card types", {k: sorted(x) for k, x in v.items()}, lambda card: sorted(ch.types(card))
    ),
}


def check(game: Game, expect: m.Expect, when: str) -> list[str]:
    """Compare the game with the expected outcomes; one line per difference."""
    checker = _Checker(game, when)
    for key in expect.given():
        CHECKS[key](checker, getattr(expect, key))
    return checker.out
