"""The stack and priority, cut down: after every action both players pass until it is empty.

Between resolutions the game checks state-based actions and puts waiting triggers on the
stack (704.3, 603.3b). Spells, activated abilities and triggered abilities resolve here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from regelwerk.engine import sba, triggers
from regelwerk.engine.actions import (
    check_target,
    deal_damage,
    enter_battlefield,
    move_to_graveyard,
    move_to_hand,
)
from regelwerk.engine.characteristics import is_creature, protection_from
from regelwerk.engine.effects import add_effect
from regelwerk.engine.events import Label, Ref, refs, say
from regelwerk.engine.keyword_names import kw_label
from regelwerk.engine.model import TARGETED, EffectBase
from regelwerk.engine.narration import illegal
from regelwerk.engine.resolve import resolve_effect
from regelwerk.engine.state import Game
from regelwerk.engine.triggers import PendingTrigger


@dataclass
class StackSpell:
    card: str
    controller: str
    target: str | None = None
    bestow: bool = False


@dataclass
class StackAbility:
    source: str
    controller: str
    effect: EffectBase
    label: Label
    target: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def settle(game: Game) -> None:
    """Both players keep passing: check SBAs, stack triggers, resolve the top, repeat."""
    while not game.over:
        sba.check(game)
        if game.over:
            return
        triggers.put_on_stack(game)
        if not game.stack:
            return
        top = game.stack.pop()
        if isinstance(top, PendingTrigger):
            _resolve_trigger(game, top)
        elif isinstance(top, StackSpell):
            _resolve_spell(game, top)
        else:
            _resolve_ability(game, top)


def _resolve_trigger(game: Game, t: PendingTrigger) -> None:
    source = game.cards[t.source]
    say(game, "608.2", "resolves_trigger", source=Ref(source.id), ability=t.text)
    if t.keyword:
        KEYWORD_TRIGGERS[t.keyword](game, t)
    elif t.spec is not None:
        target = t.data.get("target")
        if t.spec.effect.target in TARGETED:
            target = _choice(game, t)
        resolve_effect(game, t.spec.effect, source, t.controller, target, t.rule, t.data)


def _persist(game: Game, t: PendingTrigger) -> None:
    source = game.cards[t.source]
    if source.zone != "graveyard" or source.incarnation != t.data["incarnation"]:
        say(game, "608.2b", "persist_gone", card=Ref(source.id))
        return
    source.incarnation += 1
    source.counters["-1/-1"] = 1
    enter_battlefield(game, source, source.owner, rule="702.79a", key="persist_returns")


def _battle_cry(game: Game, t: PendingTrigger) -> None:
    attackers = game.combat.attackers if game.combat else []
    others = [game.cards[a] for a in attackers if a != t.source and game.cards[a].on_battlefield]
    add_effect(game, t.source, others, 1, 0)
    say(game, "702.91a", "battle_cry", source=Ref(t.source), cards=refs([c.id for c in others]))


def _self_pump(rule: str) -> Callable[[Game, PendingTrigger], None]:
    """Bushido N and prowess: +N/+N until end of turn, if it is still the same object (400.7)."""

    def pump(game: Game, t: PendingTrigger) -> None:
        source = game.cards[t.source]
        if source.on_battlefield and source.incarnation == t.data["incarnation"]:
            n = int(t.data.get("n", 1))
            add_effect(game, source.id, [source], n, n)
            say(game, rule, "pump", card=Ref(source.id), power=f"+{n}", toughness=f"+{n}", keywords=[])

    return pump


def _poisonous(game: Game, t: PendingTrigger) -> None:
    p = game.players[t.data["player"]]
    p.poison += int(t.data["n"])
    say(game, "702.70a", "poisoned", player=Ref(p.id), n=int(t.data["n"]), total=p.poison)


def _provoke(game: Game, t: PendingTrigger) -> None:
    source = game.cards[t.source]
    target = t.data.get("target")
    if target is None:
        say(game, "702.39a", "provoke_declined", source=Ref(source.id))
        return
    check_target(game, source, target, "target_creature", "603.3d")
    victim = game.cards[target]
    assert game.combat is not None
    if victim.controller != game.combat.defender_of(source.id, game):
        raise illegal(game, "702.39a", "provoke_wrong_player", source=Ref(source.id), target=Ref(target))
    victim.tapped = False
    assert game.combat is not None
    game.combat.provoked[source.id] = target
    say(game, "702.39a", "provoked", source=Ref(source.id), target=Ref(target))


#: The keyword triggers the engine resolves itself (triggers.add_keyword), by keyword.
KEYWORD_TRIGGERS: dict[str, Callable[[Game, PendingTrigger], None]] = {
    "persist": _persist,
    "battle cry": _battle_cry,
    "bushido": _self_pump("702.45a"),
    "prowess": _self_pump("702.108a"),
    "poisonous": _poisonous,
    "provoke": _provoke,
}


def _choice(game: Game, t: PendingTrigger) -> str | None:
    picked = game.choices.get(t.label) or game.choices.get(t.source)
    return None if picked is None else str(picked)


def _resolve_spell(game: Game, s: StackSpell) -> None:
    card = game.cards[s.card]
    if "Instant" in card.spec.types or "Sorcery" in card.spec.types:
        say(game, "608.2", "resolves_spell", card=Ref(card.id))
        for effect in card.spec.spell:
            resolve_effect(game, effect, card, s.controller, s.target, "608.2h")
        if "buyback" in card.paid:
            move_to_hand(game, card, "702.27a", "buyback_to_hand")
        else:
            move_to_graveyard(game, card, "608.2n", "spell_to_graveyard")
        return
    if s.bestow:
        host = game.cards.get(s.target or "")
        legal = host is not None and is_creature(game, host)
        if host is not None and legal:
            legal = protection_from(game, host, card) is None
        if legal and host is not None:
            card.bestowed = True
            card.attached_to = host.id
            enter_battlefield(
                game, card, s.controller, rule="702.103b", key="bestow_enters", host=Ref(host.id)
            )
            return
        say(game, "702.103e", "bestow_fizzles", card=Ref(card.id))
    enter_battlefield(game, card, s.controller, rule="608.3", key="spell_enters")


def _resolve_ability(game: Game, a: StackAbility) -> None:
    source = game.cards[a.source]
    say(game, "608.2", "resolves_ability", source=Ref(source.id), ability=a.label)
    resolve_effect(game, a.effect, source, a.controller, a.target, "608.2h")


__all__ = ["StackAbility", "StackSpell", "deal_damage", "kw_label", "settle"]
