"""The things that happen to cards and players: entering, dying, damage, life, tokens,
counters, phasing, and the keyword actions bolster (701.39), populate (701.36) and
proliferate (701.34). Every change narrates itself with the rule that makes it happen.
"""

from __future__ import annotations

import re
from typing import Any

from regelwerk.engine import triggers
from regelwerk.engine.catalog import phrase
from regelwerk.engine.characteristics import (
    has,
    is_creature,
    keywords,
    protection_from,
    subtypes,
    toughness,
    values,
)
from regelwerk.engine.events import Label, Ref, refs, say
from regelwerk.engine.keyword_names import counters_label, kw_label
from regelwerk.engine.model import CardSpec, TriggerSpec
from regelwerk.engine.narration import illegal
from regelwerk.engine.state import Card, Game, Player


def _phrase(table: str, key: str) -> Label:
    """A catalog phrase in both languages."""
    return Label(str(phrase(table, key, "de")), str(phrase(table, key, "en")))


# --- entering and leaving the battlefield --------------------------------------------------


def enter_battlefield(
    game: Game,
    card: Card,
    controller: str,
    *,
    rule: str,
    key: str = "enters",
    tapped: bool = False,
    attacking: bool = False,
    **params: Any,
) -> None:
    """Put a card onto the battlefield and trigger what watches for it (603.6a)."""
    card.zone = "battlefield"
    card.controller = controller
    card.tapped = tapped
    card.phased_out = False
    card.sick = True
    card.damage = 0
    say(game, rule, key, card=Ref(card.id), player=Ref(controller), **params)
    for n in values(game, card, "bloodthirst"):
        opponents = [game.players[p] for p in game.opponents(controller)]
        if any(p.damage_this_turn > 0 for p in opponents):
            card.counters["+1/+1"] += int(n)
            say(game, "702.54a", "bloodthirst_yes", card=Ref(card.id), n=int(n))
        else:
            say(game, "702.54a", "bloodthirst_no", card=Ref(card.id))
    if attacking and game.combat is not None:
        game.combat.attackers.append(card.id)
        game.combat.targets[card.id] = game.defending  # its controller's choice (508.4): the first
        say(game, "508.4", "enters_attacking", card=Ref(card.id), player=Ref(game.defending))
    for spec in card.spec.triggers:
        if spec.on == "enters" and not _condition_holds(game, card, spec):
            continue
        if spec.on == "enters":
            triggers.add_spec(game, controller, card.id, spec, "603.6a")
    if is_creature(game, card):
        for other in game.battlefield():
            if other.id == card.id or other.controller != controller:
                continue
            for spec in other.spec.triggers:
                if spec.on == "another_creature_enters":
                    triggers.add_spec(game, controller, other.id, spec, "603.6a", entering=card.id)


def _condition_holds(game: Game, card: Card, spec: TriggerSpec) -> bool:
    """An intervening "if" clause (603.4): without it the ability doesn't trigger at all."""
    if not spec.if_paid or spec.if_paid in card.paid:
        return True
    say(
        game,
        "603.4",
        "trigger_condition_false",
        source=Ref(card.id),
        ability=triggers.spec_label(spec),
        condition=_phrase("not_paid", spec.if_paid),
    )
    return False


def _leave(game: Game, card: Card) -> None:
    if game.combat is not None:
        game.combat.remove(card.id)
    card.incarnation += 1  # a new object with no memory of its previous existence (400.7)
    card.counters.clear()
    card.damage = 0
    card.deathtouched = False
    card.tapped = False
    card.attached_to = None
    card.bestowed = False
    card.phased_out = False
    card.paid = ()


def _unattach_auras(game: Game, host: Card) -> None:
    """Auras on a permanent that left are attached to nothing (704.5m); a bestowed one becomes
    a creature again instead (702.103f)."""
    for aura in list(game.cards.values()):
        if aura.zone == "battlefield" and aura.attached_to == host.id:
            aura.attached_to = None
            if aura.bestowed:
                aura.bestowed = False
                say(game, "702.103f", "bestow_unattached", aura=Ref(aura.id))


def move_to_hand(game: Game, card: Card, rule: str, key: str = "return_to_hand") -> None:
    """To its owner's hand (400.3) as a new object (400.7); a token there ceases to exist (704.5d)."""
    _leave(game, card)
    card.zone = "hand"
    say(game, rule, key, card=Ref(card.id), owner=Ref(card.owner))
    _unattach_auras(game, card)
    if card.token:
        card.controller = card.owner


def move_to_graveyard(game: Game, card: Card, rule: str, key: str, **params: Any) -> None:
    """Battlefield to graveyard, with the look-back that persist needs (603.10a)."""
    from_battlefield = card.zone == "battlefield"
    was_creature = is_creature(game, card)
    had_persist = from_battlefield and any(k.name == "persist" for k in keywords(game, card))
    had_minus = card.counters["-1/-1"] > 0
    controller = card.controller
    _leave(game, card)
    card.zone = "graveyard"
    say(game, rule, key, card=Ref(card.id), owner=Ref(card.owner), **params)
    if from_battlefield and was_creature:
        game.history.deaths[card.id] += 1
    _unattach_auras(game, card)
    if had_persist:
        if had_minus:
            say(game, "702.79a", "persist_no", card=Ref(card.id))
        else:
            triggers.add_keyword(
                game, controller, card.id, "persist", "702.79a", incarnation=card.incarnation
            )
    if card.token:
        card.controller = card.owner


def destroy(game: Game, card: Card, rule: str) -> bool:
    """Destroy (701.8a), unless it is indestructible (702.12b)."""
    if has(game, card, "indestructible"):
        say(game, "702.12b", "indestructible", card=Ref(card.id))
        return False
    move_to_graveyard(game, card, rule, "destroyed")
    return True


def phase_out(game: Game, card: Card) -> None:
    """Phasing out is no zone change (702.26d); it leaves combat (506.4)."""
    card.phased_out = True
    if game.combat is not None:
        game.combat.remove(card.id)
    say(game, "702.26b", "phases_out", card=Ref(card.id))
    for other in game.cards.values():
        if other.zone == "battlefield" and other.attached_to == card.id and not other.phased_out:
            other.phased_out = True
            say(game, "702.26g", "phases_out_indirectly", card=Ref(other.id), host=Ref(card.id))


def phase_in(game: Game, card: Card) -> None:
    card.phased_out = False
    say(game, "702.26c", "phases_in", card=Ref(card.id))
    for other in game.cards.values():
        if other.zone == "battlefield" and other.attached_to == card.id and other.phased_out:
            other.phased_out = False
            say(game, "702.26g", "phases_in_indirectly", card=Ref(other.id), host=Ref(card.id))


# --- damage and life -----------------------------------------------------------------------


def deal_damage(game: Game, source: Card, target: str, amount: int, *, combat: bool) -> int:
    """Deal damage and process its results (120.3); returns the damage actually dealt."""
    if amount <= 0:
        return 0
    if target in game.players:
        player = game.players[target]
        player.life -= amount
        player.damage_this_turn += amount
        game.history.damage_taken[target] += amount
        if combat:
            game.combat_damage_log.append((source.controller, source.id, subtypes(source)))
        say(
            game,
            "510.2" if combat else "120.3a",
            "combat_damage_player" if combat else "damage_player",
            source=Ref(source.id),
            player=Ref(target),
            n=amount,
            life=player.life,
        )
        if combat:
            for n in values(game, source, "poisonous"):
                triggers.add_keyword(
                    game, source.controller, source.id, "poisonous", "702.70a", player=target, n=int(n)
                )
            for spec in source.spec.triggers:
                if spec.on == "combat_damage_to_player":
                    triggers.add_spec(game, source.controller, source.id, spec, "603.2")
        return amount
    victim = game.cards[target]
    quality = protection_from(game, victim, source)
    if quality is not None:
        say(
            game,
            "702.16e",
            "damage_prevented",
            source=Ref(source.id),
            card=Ref(victim.id),
            n=amount,
            quality=kw_label(f"protection from {quality}"),
        )
        return 0
    if "Planeswalker" in victim.spec.types and not is_creature(game, victim):
        return _damage_planeswalker(game, source, victim, amount, combat)
    victim.damage += amount
    game.history.damage_taken[victim.id] += amount
    say(
        game,
        "510.2" if combat else "120.3e",
        "combat_damage_creature" if combat else "damage_creature",
        source=Ref(source.id),
        card=Ref(victim.id),
        n=amount,
        total=victim.damage,
    )
    if has(game, source, "deathtouch"):
        victim.deathtouched = True
        say(game, "702.2b", "deathtouch_marked", source=Ref(source.id), card=Ref(victim.id))
    return amount


def _damage_planeswalker(game: Game, source: Card, victim: Card, amount: int, combat: bool) -> int:
    """Damage dealt to a planeswalker removes that many loyalty counters (120.3c)."""
    victim.counters["loyalty"] = max(0, victim.counters["loyalty"] - amount)
    game.history.damage_taken[victim.id] += amount
    say(
        game,
        "120.3c",
        "damage_planeswalker",
        source=Ref(source.id),
        card=Ref(victim.id),
        n=amount,
        left=victim.counters["loyalty"],
    )
    return amount


def gain_life(game: Game, player: Player, n: int, rule: str, source: str) -> None:
    player.life += n
    say(game, rule, "gain_life", player=Ref(player.id), n=n, life=player.life, source=Ref(source))


# --- tokens and counters ---------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def create_tokens(
    game: Game, controller: str, spec: CardSpec, count: int, *, attacking: bool, rule: str
) -> list[Card]:
    made: list[Card] = []
    for _ in range(count):
        game.token_serial += 1
        tid = f"{_slug(spec.name_en)}-{game.token_serial}"
        card = Card(id=tid, spec=spec, owner=controller, controller=controller, zone="limbo", token=True)
        game.cards[tid] = card
        made.append(card)
    key = "token_created" if spec.pt else "token_created_plain"
    for card in made:
        enter_battlefield(
            game,
            card,
            controller,
            rule=rule,
            key=key,
            tapped=attacking,
            attacking=attacking,
            pt=spec.pt or "",
        )
    return made


def put_counters(game: Game, card: Card, kind: str, n: int, rule: str) -> None:
    card.counters[kind] += n
    say(
        game,
        rule,
        "counters_added",
        card=Ref(card.id),
        what=counters_label(kind, n),
    )


def bolster(game: Game, source: Card, controller: str, n: int) -> None:
    """701.39a: the creature with the least toughness (the controller breaks ties)."""
    mine = [c for c in game.battlefield() if c.controller == controller and is_creature(game, c)]
    if not mine:
        say(game, "701.39a", "bolster_nothing", player=Ref(controller))
        return
    least = min(toughness(game, c) for c in mine)
    candidates = [c for c in mine if toughness(game, c) == least]
    chosen_id = game.choices.get(source.id)
    if chosen_id is None:
        chosen = candidates[0]
    else:
        chosen = game.cards.get(str(chosen_id)) or candidates[0]
        if chosen not in candidates:
            raise illegal(
                game,
                "701.39a",
                "bolster_not_least",
                card=Ref(chosen.id),
                least=least,
                candidates=refs([c.id for c in candidates]),
            )
    say(game, "701.39a", "bolster", player=Ref(controller), card=Ref(chosen.id), n=n, least=least)
    put_counters(game, chosen, "+1/+1", n, "122.1a")


def populate(game: Game, source: Card, controller: str) -> None:
    """701.36a: copy a creature token you control; without one, nothing happens (701.36b)."""
    tokens = [
        c for c in game.battlefield() if c.controller == controller and c.token and is_creature(game, c)
    ]
    if not tokens:
        say(game, "701.36b", "populate_nothing", player=Ref(controller))
        return
    chosen_id = game.choices.get(source.id)
    chosen = next((t for t in tokens if t.id == chosen_id), tokens[0]) if chosen_id else tokens[0]
    if chosen_id and chosen.id != chosen_id:
        raise illegal(game, "701.36a", "populate_not_token", card=Ref(str(chosen_id)), player=Ref(controller))
    say(game, "701.36a", "populate", player=Ref(controller), card=Ref(chosen.id))
    create_tokens(game, controller, chosen.spec, 1, attacking=False, rule="707.2")


def proliferate(game: Game, source: Card, controller: str) -> None:
    """701.34a: each chosen permanent or player gets one more counter of *each* kind."""
    chosen = game.choices.get(source.id)
    with_counters = [c.id for c in game.battlefield() if any(n > 0 for n in c.counters.values())]
    with_counters += [p.id for p in game.players.values() if p.poison > 0]
    picked = [str(x) for x in chosen] if isinstance(chosen, list) else with_counters
    for pid in picked:
        if pid not in with_counters:
            raise illegal(game, "701.34a", "proliferate_no_counters", thing=Ref(pid))
    say(game, "701.34a", "proliferate", player=Ref(controller), chosen=refs(picked))
    for pid in picked:
        if pid in game.players:
            game.players[pid].poison += 1
            say(game, "701.34a", "proliferate_poison", player=Ref(pid), total=game.players[pid].poison)
        else:
            card = game.cards[pid]
            for kind in sorted(k for k, n in card.counters.items() if n > 0):
                put_counters(game, card, kind, 1, "701.34a")


# --- library and hand --------------------------------------------------------------------------


def library(game: Game, player: str) -> list[Card]:
    """A player's library, top first: the order the scenario lists the cards in."""
    return [c for c in game.cards.values() if c.zone == "library" and c.owner == player]


def draw(game: Game, player: Player, n: int) -> None:
    """121.1: the top card of the library into the hand, n times."""
    drawn = library(game, player.id)[:n]
    if not drawn:
        say(game, "121.1", "draw_empty", player=Ref(player.id))
        return
    for card in drawn:
        card.zone = "hand"
        card.incarnation += 1
    say(game, "121.1", "draw", player=Ref(player.id), n=len(drawn), cards=refs([c.id for c in drawn]))


def matches(card: Card, find: str) -> bool:
    """Does a card fit a search description ("basic land", "island", "creature")?"""
    if find == "basic land":
        return "Land" in card.spec.types and "Basic" in card.spec.supertypes
    if find in ("land", "creature"):
        return find.capitalize() in card.spec.types
    return find.capitalize() in card.spec.subtypes


def search_library(game: Game, source: Card, player: str, find: str) -> None:
    """701.23a: find a matching card (the scenario's choice), reveal it, put it into the hand,
    then shuffle (702.29e typecycling). A hidden zone may be searched without finding (701.23b)."""
    what = _phrase("find", find)
    chosen = game.choices.get(source.id)
    candidates = [c for c in library(game, player) if matches(c, find)]
    if chosen is not None:
        card = game.cards[str(chosen)]
        if card not in candidates:
            raise illegal(
                game, "701.23a", "search_wrong_card", card=Ref(card.id), player=Ref(player), what=what
            )
    elif candidates:
        card = candidates[0]
    else:
        say(game, "701.23b", "search_nothing", player=Ref(player), what=what)
        return
    card.zone = "hand"
    card.incarnation += 1
    say(game, "701.23a", "search_found", player=Ref(player), card=Ref(card.id), what=what)


# --- targets and effects ---------------------------------------------------------------------


def check_target(game: Game, source: Card, target: str | None, kind: str, rule: str) -> None:
    """Is ``target`` a legal target for ``source``? Raises IllegalAction citing the rule."""
    if target is None:
        raise illegal(game, rule, "target_missing", source=Ref(source.id))
    if target in game.players:
        if kind == "target_permanent":
            raise illegal(game, rule, "target_not_permanent", source=Ref(source.id), target=Ref(target))
        if kind != "target":
            raise illegal(game, rule, "target_not_creature", source=Ref(source.id), target=Ref(target))
        return
    card = game.cards.get(target)
    if card is None or card.zone != "battlefield":
        raise illegal(game, rule, "target_missing", source=Ref(source.id))
    if card.phased_out:
        raise illegal(game, "702.26b", "target_phased_out", source=Ref(source.id), target=Ref(target))
    if kind in ("target_creature", "target_attacking", "target") and not is_creature(game, card):
        raise illegal(game, rule, "target_not_creature", source=Ref(source.id), target=Ref(target))
    if kind == "target_attacking" and (game.combat is None or target not in game.combat.attackers):
        raise illegal(game, rule, "target_not_attacking", source=Ref(source.id), target=Ref(target))
    quality = protection_from(game, card, source)
    if quality is not None:
        raise illegal(
            game,
            "702.16b",
            "target_protection",
            source=Ref(source.id),
            target=Ref(target),
            quality=kw_label(f"protection from {quality}"),
        )
