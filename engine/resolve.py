"""Resolving one effect of a spell or ability: one handler per effect kind, in one table.

``model.py`` defines the effect structs; ``HANDLERS`` maps each struct to the function that
carries it out, so a new effect kind is one struct, one handler and one table row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regelwerk.engine import model as m
from regelwerk.engine.actions import (
    bolster,
    check_target,
    create_tokens,
    deal_damage,
    destroy,
    draw,
    gain_life,
    move_to_hand,
    phase_out,
    populate,
    proliferate,
    put_counters,
    search_library,
)
from regelwerk.engine.characteristics import is_creature, toughness
from regelwerk.engine.effects import add_effect
from regelwerk.engine.events import Ref, say
from regelwerk.engine.keyword_names import kw_label
from regelwerk.engine.state import Card, Game


@dataclass
class Resolving:
    """What a handler needs: the game, the source and its controller, the chosen target, the
    rule that makes the effect happen, and what the trigger remembered (the entering creature)."""

    game: Game
    source: Card
    controller: str
    target: str | None
    rule: str
    data: dict[str, Any] = field(default_factory=dict)

    def target_card(self) -> Card:
        return self.game.cards[str(self.target)]

    def self_or_target(self, effect: m.EffectBase) -> Card:
        return self.source if effect.target == "self" else self.target_card()

    def creatures(self) -> list[Card]:
        return [c for c in self.game.battlefield() if is_creature(self.game, c)]


def resolve_effect(
    game: Game,
    effect: m.EffectBase,
    source: Card,
    controller: str,
    target: str | None,
    rule: str,
    context: dict[str, Any] | None = None,
) -> None:
    """Check the target again on resolution (608.2b), then do what the effect says."""
    if effect.target in m.TARGETED:
        check_target(game, source, target, effect.target, "608.2b")
    HANDLERS[type(effect)](Resolving(game, source, controller, target, rule, dict(context or {})), effect)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"-{abs(n)}"


def signed_pair(power: int, toughness: int) -> tuple[str, str]:
    """ "+3/+3", "-4/-0": a change of zero takes the sign of the other half (issue 15)."""
    p, t = _signed(power), _signed(toughness)
    if power == 0 and toughness < 0:
        p = "-0"
    if toughness == 0 and power < 0:
        t = "-0"
    return p, t


def _gain_life(r: Resolving, e: m.GainLife) -> None:
    n = toughness(r.game, r.game.cards[r.data["entering"]]) if e.life_from == "toughness" else e.amount
    gain_life(r.game, r.game.players[r.controller], n, r.rule, r.source.id)


def _lose_life(r: Resolving, e: m.LoseLife) -> None:
    p = r.game.players[r.controller]
    p.life -= e.amount
    say(r.game, r.rule, "lose_life", player=Ref(p.id), n=e.amount, life=p.life)


def _pump(r: Resolving, e: m.Pump) -> None:
    affected = [r.target_card()] if e.target != "self" else [r.source] if r.source.on_battlefield else []
    if not affected:
        return
    add_effect(r.game, r.source.id, affected, e.power, e.toughness, e.keywords)
    key = "pump_keywords" if e.keywords else "pump"
    if e.keywords and not (e.power or e.toughness):
        key = "grant"
    power, tough = signed_pair(e.power, e.toughness)
    keywords = [kw_label(str(k)) for k in e.keywords]
    say(r.game, r.rule, key, card=Ref(affected[0].id), power=power, toughness=tough, keywords=keywords)


def _damage(r: Resolving, e: m.Damage) -> None:
    victims = [c.id for c in r.creatures()] if e.target == "each_creature" else [str(r.target)]
    for victim in victims:
        deal_damage(r.game, r.source, victim, e.amount, combat=False)


def _destroy(r: Resolving, e: m.Destroy) -> None:
    for c in r.creatures() if e.target == "each_creature" else [r.target_card()]:
        destroy(r.game, c, "701.8a")


def _create_tokens(r: Resolving, e: m.CreateTokens) -> None:
    create_tokens(r.game, r.controller, e.token, e.count, attacking=e.tapped_attacking, rule="111.1")


def _put_counters(r: Resolving, e: m.PutCounters) -> None:
    put_counters(r.game, r.self_or_target(e), e.counter, e.amount, "122.1")


def _cant_block(r: Resolving, e: m.CantBlock) -> None:
    add_effect(r.game, r.source.id, [], cant_block_max_power=e.amount)
    say(r.game, r.rule, "cant_block_effect", source=Ref(r.source.id), n=e.amount)


def _return_to_hand(r: Resolving, e: m.ReturnToHand) -> None:
    if e.target != "self":
        move_to_hand(r.game, r.target_card(), r.rule)
    elif r.source.zone == "graveyard":
        # "if this card is in your graveyard": checked again on resolution (603.4); the ability
        # moves it out of that zone, so it functions only there (113.6m).
        move_to_hand(r.game, r.source, "113.6m")


HANDLERS: dict[type, Callable[[Resolving, Any], None]] = {
    m.GainLife: _gain_life,
    m.LoseLife: _lose_life,
    m.Pump: _pump,
    m.Damage: _damage,
    m.Destroy: _destroy,
    m.CreateTokens: _create_tokens,
    m.Bolster: lambda r, e: bolster(r.game, r.source, r.controller, e.amount),
    m.Populate: lambda r, e: populate(r.game, r.source, r.controller),
    m.Proliferate: lambda r, e: proliferate(r.game, r.source, r.controller),
    m.PutCounters: _put_counters,
    m.PhaseOut: lambda r, e: phase_out(r.game, r.self_or_target(e)),
    m.CantBlock: _cant_block,
    m.Draw: lambda r, e: draw(r.game, r.game.players[r.controller], e.amount or 1),
    m.ReturnToHand: _return_to_hand,
    m.SearchLibrary: lambda r, e: search_library(r.game, r.source, r.controller, e.find),
}
