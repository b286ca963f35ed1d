"""Casting spells (601) and activating abilities (602), including bestow, prowl, buyback
and abilities activated from the hand (bloodrush, typecycling).

Casting a spell triggers "whenever you cast" abilities such as prowess (702.108a); a spell
cast bestowed is an Aura spell, so it is a noncreature spell for prowess too (702.103b).
Bestow and prowl are alternative costs, of which a spell can use only one (601.2b); buyback
is an additional cost (702.27a). Mana is not modelled: a cost the rules allow is paid.
"""

from __future__ import annotations

from regelwerk.engine import triggers
from regelwerk.engine.actions import check_target, move_to_graveyard
from regelwerk.engine.characteristics import has, is_creature, keywords
from regelwerk.engine.events import Label, Ref, say
from regelwerk.engine.keyword_names import kw_label
from regelwerk.engine.model import TARGETED
from regelwerk.engine.narration import illegal
from regelwerk.engine.stack import StackAbility, StackSpell, settle
from regelwerk.engine.state import Card, Game

_MAIN = ("main1", "main2")


def _prowl_source(game: Game, player: str, card: Card) -> str | None:
    """702.76a: a source under ``player``'s control that shared a creature type with the spell
    dealt combat damage to a player this turn (the log keeps its types as they were then)."""
    wanted = set(card.spec.subtypes)
    for controller, source, kinds in game.combat_damage_log:
        if controller == player and wanted & set(kinds):
            return source
    return None


def _check_costs(game: Game, card: Card, player: str, bestow: bool, buyback: bool, prowl: bool) -> str | None:
    """Refuse costs the spell doesn't offer; returns the prowl-enabling source, if prowl."""
    if bestow and prowl:
        raise illegal(game, "601.2b", "one_alternative_cost", ways=[kw_label("bestow"), kw_label("prowl")])
    if buyback and not has(game, card, "buyback"):
        raise illegal(game, "702.27a", "no_buyback", card=Ref(card.id))
    if not prowl:
        return None
    if not has(game, card, "prowl"):
        raise illegal(game, "702.76a", "no_prowl", card=Ref(card.id))
    source = _prowl_source(game, player, card)
    if source is None:
        raise illegal(game, "702.76a", "prowl_unavailable", card=Ref(card.id), player=Ref(player))
    return source


def cast(
    game: Game, card_id: str, target: str | None, bestow: bool, buyback: bool = False, prowl: bool = False
) -> None:
    card = game.cards[card_id]
    player = card.owner
    if card.zone != "hand":
        raise illegal(game, "601.3", "cast_not_in_hand", card=Ref(card_id))
    instant = "Instant" in card.spec.types
    if not instant and (game.active != player or game.step not in _MAIN or game.stack):
        raise illegal(game, "117.1a", "cast_timing", card=Ref(card_id), player=Ref(player))
    prowl_source = _check_costs(game, card, player, bestow, buyback, prowl)
    if bestow:
        if not card.spec.bestow:
            raise illegal(game, "702.103a", "no_bestow", card=Ref(card_id))
        check_target(game, card, target, "target_creature", "601.2c")
    else:
        for effect in card.spec.spell:
            if effect.target in TARGETED:
                check_target(game, card, target, effect.target, "601.2c")
    card.zone = "stack"
    card.controller = player
    card.paid = tuple(
        name for name, chosen in (("bestow", bestow), ("buyback", buyback), ("prowl", prowl)) if chosen
    )
    if bestow:
        say(game, "702.103b", "cast_bestow", player=Ref(player), card=Ref(card_id), target=Ref(str(target)))
    elif prowl_source is not None:
        say(
            game,
            "702.76a",
            "cast_prowl",
            player=Ref(player),
            card=Ref(card_id),
            source=Ref(prowl_source),
        )
    elif target is not None:
        say(game, "601.2", "cast_target", player=Ref(player), card=Ref(card_id), target=Ref(target))
    else:
        say(game, "601.2", "cast", player=Ref(player), card=Ref(card_id))
    if buyback:
        say(game, "702.27a", "cast_buyback", player=Ref(player), card=Ref(card_id))
    creature_spell = "Creature" in card.spec.types and not bestow
    for other in game.battlefield():
        if other.controller != player:
            continue
        if not creature_spell:
            for kw in keywords(game, other):
                if kw.name == "prowess" and is_creature(game, other):
                    triggers.add_keyword(
                        game, player, other.id, "prowess", "702.108a", incarnation=other.incarnation
                    )
        for spec in other.spec.triggers:
            if spec.on == "cast_spell" or (spec.on == "cast_noncreature" and not creature_spell):
                triggers.add_spec(game, player, other.id, spec, "603.2")
    game.stack.append(StackSpell(card_id, player, target, bestow))
    settle(game)


def activate(game: Game, source_id: str, ability: str | None, target: str | None) -> None:
    card = game.cards[source_id]
    specs = card.spec.activated
    spec = next((a for a in specs if a.id == ability), None) if ability else (specs[0] if specs else None)
    if spec is None:
        raise illegal(game, "602.1", "no_such_ability", card=Ref(source_id), ability=ability or "")
    player = card.owner if spec.from_hand else card.controller
    if spec.from_hand:
        if card.zone != "hand":
            raise illegal(game, "602.2", "activate_not_in_hand", card=Ref(source_id))
    elif not card.on_battlefield:
        raise illegal(game, "602.2", "not_on_battlefield", card=Ref(source_id))
    if spec.tap:
        if card.tapped:
            raise illegal(game, "701.26a", "already_tapped", card=Ref(source_id))
        if card.sick and is_creature(game, card) and not has(game, card, "haste"):
            raise illegal(game, "302.6", "tap_sick", card=Ref(source_id))
    if spec.effect.target in TARGETED:
        check_target(game, card, target, spec.effect.target, "602.2b")
    label = Label(spec.id, spec.id)
    if target:  # announced first, then the costs are paid (602.2a-b, 601.2h)
        say(game, "602.2", "activate_target", player=Ref(player), card=Ref(source_id), target=Ref(target))
    else:
        say(game, "602.2", "activate", player=Ref(player), card=Ref(source_id))
    if spec.from_hand:
        move_to_graveyard(game, card, "602.2", "discard_cost", player=Ref(player))
    if spec.tap:
        card.tapped = True
    game.stack.append(StackAbility(source_id, player, spec.effect, label, target))
    settle(game)
