"""The combat phase (506-511): attackers with bands, blockers with their restrictions, and
one or two combat damage steps with free damage division.

Since Foundations (November 2024) there is no damage assignment order: a blocked creature divides its
damage among its blockers as its controller chooses (510.1c-d), trample still requires lethal
damage to every blocker before the rest may go to the player (702.19b, with deathtouch making
any nonzero amount lethal, 702.2c), and banding hands the choice to the other player
(702.22j-k).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from regelwerk.engine import triggers
from regelwerk.engine.actions import deal_damage
from regelwerk.engine.catalog import phrase
from regelwerk.engine.characteristics import (
    has,
    is_creature,
    keywords,
    max_blockers,
    power,
    protection_from,
    subtypes,
    toughness,
    types,
    values,
)
from regelwerk.engine.effects import cant_block_limits
from regelwerk.engine.errors import WrongStep
from regelwerk.engine.events import Label, Ref, Share, refs, say
from regelwerk.engine.keyword_names import kw_label
from regelwerk.engine.narration import illegal
from regelwerk.engine.stack import settle
from regelwerk.engine.state import Card, Game


@dataclass
class Combat:
    attackers: list[str] = field(default_factory=list)
    bands: list[list[str]] = field(default_factory=list)
    blocks: dict[str, list[str]] = field(default_factory=dict)  # blocker -> attackers
    blocked: set[str] = field(default_factory=set)
    blockers_declared: bool = False
    provoked: dict[str, str] = field(default_factory=dict)  # provoking attacker -> creature
    first_strike: bool | None = None
    fs_at_start: set[str] = field(default_factory=set)
    steps_done: int = 0
    targets: dict[str, str] = field(default_factory=dict)  # attacker -> player or planeswalker

    def defender_of(self, attacker: str, game: Game) -> str:
        """The player an attacker attacks: its target, or a planeswalker's controller (506.2)."""
        target = self.targets.get(attacker, game.defending)
        return game.cards[target].controller if target in game.cards else target

    def band_of(self, cid: str) -> list[str]:
        return next((b for b in self.bands if cid in b), [cid])

    def blockers_of(self, attacker: str) -> list[str]:
        return [b for b, attacked in self.blocks.items() if attacker in attacked]

    def remove(self, cid: str) -> None:
        """Removed from combat (506.4), and from its band (702.22f)."""
        if cid in self.attackers:
            self.attackers.remove(cid)
        for band in self.bands:
            if cid in band:
                band.remove(cid)
        self.blocks.pop(cid, None)
        for attacked in self.blocks.values():
            if cid in attacked:
                attacked.remove(cid)

    @property
    def damage_pending(self) -> bool:
        if not self.attackers and self.first_strike is None:
            return False
        total = 2 if self.first_strike else 1
        return self.first_strike is None or self.steps_done < total


def _card(game: Game, cid: str, rule: str) -> Card:
    card = game.cards.get(cid)
    if card is None or card.zone != "battlefield":
        raise illegal(game, rule, "not_on_battlefield", card=Ref(cid))
    if card.phased_out:
        raise illegal(game, "702.26b", "phased_out_cant", card=Ref(cid))
    return card


def _combatant(game: Game, cid: str, player: str, rule: str, not_yours: str, tapped: str) -> Card:
    """An untapped creature ``player`` controls, as attacking (508.1a) and blocking (509.1a)
    both require; only creatures can attack or block (506.3)."""
    card = _card(game, cid, rule)
    if card.controller != player:
        raise illegal(game, rule, not_yours, card=Ref(cid), player=Ref(player))
    if not is_creature(game, card):
        raise illegal(game, "506.3", "not_a_creature", card=Ref(cid))
    if card.tapped:
        raise illegal(game, rule, tapped, card=Ref(cid))
    return card


# --- 508 declare attackers ---------------------------------------------------------------


def declare_attackers(
    game: Game, attackers: list[str], bands: list[list[str]], targets: dict[str, str] | None = None
) -> None:
    if game.step != "main1" or game.attacked_this_turn:
        raise WrongStep("attack", "one 'attack' action per turn, in the first main phase")
    for cid in attackers:
        card = _combatant(game, cid, game.active, "508.1a", "attack_not_yours", "attack_tapped")
        if card.sick and not has(game, card, "haste"):
            raise illegal(game, "302.6", "attack_sick", ("508.1a",), card=Ref(cid))
        if has(game, card, "defender"):
            raise illegal(game, "702.3b", "attack_defender", ("508.1c",), card=Ref(cid))
    _check_bands(game, attackers, bands)
    chosen = _attack_targets(game, attackers, bands, targets or {})

    combat = Combat(attackers=list(attackers), bands=[list(b) for b in bands], targets=chosen)
    game.combat = combat
    game.attacked_this_turn = True
    game.step = "declare_attackers"
    for target in dict.fromkeys(chosen.values()):
        group = [c for c in attackers if chosen[c] == target]
        say(
            game,
            "508.1a",
            "declare_attackers",
            player=Ref(game.active),
            cards=refs(group),
            defender=Ref(target),
        )
    for band in bands:
        say(game, "508.1e", "band_announced", player=Ref(game.active), cards=refs(band))
    tapping = [c for c in attackers if not has(game, game.cards[c], "vigilance")]
    for cid in attackers:
        if cid in tapping:
            game.cards[cid].tapped = True
        else:
            say(game, "702.20b", "vigilance", card=Ref(cid))
    if tapping:
        say(game, "508.1f", "attackers_tap", player=Ref(game.active), cards=refs(tapping))
    _attack_triggers(game, attackers)
    settle(game)


def _attackable(game: Game) -> list[str]:
    """What may be attacked: each defending player and the planeswalkers they control (508.1b)."""
    defenders = game.defenders()
    walkers = [c.id for c in game.battlefield() if "Planeswalker" in types(c) and c.controller in defenders]
    return defenders + walkers


def _check_target(game: Game, cid: str, target: str, allowed: list[str]) -> None:
    if target in allowed:
        return
    card = game.cards.get(target)
    if target not in game.players and (card is None or "Planeswalker" not in types(card)):
        raise illegal(game, "506.3", "attack_not_attackable", ("508.1b",), card=Ref(cid), target=Ref(target))
    option = {"left": "803.1a", "right": "803.1b"}.get(game.attack_option, "506.2")
    rule = option if target in game.opponents(game.active) or card is not None else "506.2"
    raise illegal(game, rule, "attack_not_defending", ("508.1b",), card=Ref(cid), target=Ref(target))


def _attack_targets(
    game: Game, attackers: list[str], bands: list[list[str]], given: dict[str, str]
) -> dict[str, str]:
    """Whom each attacker attacks (508.1b), one target per band (702.22d)."""
    allowed = _attackable(game)
    for cid, target in given.items():
        if cid not in attackers:
            raise illegal(game, "508.1b", "target_of_non_attacker", card=Ref(cid))
        _check_target(game, cid, target, allowed)
    out: dict[str, str] = {}
    for cid in attackers:
        band = next((b for b in bands if cid in b), [cid])
        named = list(dict.fromkeys(given[m] for m in band if m in given))
        if len(named) > 1:
            raise illegal(game, "702.22d", "band_split", cards=refs(band), targets=refs(named))
        if not named and len(allowed) != 1:
            raise illegal(game, "508.1b", "attack_target_missing", card=Ref(cid), choices=refs(allowed))
        out[cid] = named[0] if named else allowed[0]
    return out


def _banding_kinds(game: Game, card: Card) -> tuple[bool, list[str]]:
    kws = keywords(game, card)
    banding = any(k.name == "banding" for k in kws)
    others = [str(k.value) for k in kws if k.name == "bands with other"]
    return banding, others


def _check_bands(game: Game, attackers: list[str], bands: list[list[str]]) -> None:
    """702.22c: banding creatures plus at most one without, or a "bands with other" band."""
    seen: set[str] = set()
    for band in bands:
        for cid in band:
            if cid not in attackers:
                raise illegal(game, "702.22c", "band_not_attacking", card=Ref(cid))
            if cid in seen:
                raise illegal(game, "702.22c", "band_twice", card=Ref(cid))
            seen.add(cid)
        members = [game.cards[c] for c in band]
        kinds = [_banding_kinds(game, c) for c in members]
        with_banding = [c.id for c, (b, _) in zip(members, kinds, strict=True) if b]
        without = [c.id for c, (b, _) in zip(members, kinds, strict=True) if not b]
        if with_banding and len(without) <= 1:
            continue
        qualities = {q for _, others in kinds for q in others}
        if any(all(q in subtypes(c) for c in members) for q in qualities):
            continue
        if not with_banding and not qualities:
            raise illegal(game, "702.22c", "band_no_banding", cards=refs(band))
        raise illegal(game, "702.22c", "band_too_many_without", cards=refs(without))


def _attack_triggers(game: Game, attackers: list[str]) -> None:
    for cid in attackers:
        card = game.cards[cid]
        for kw in keywords(game, card):
            if kw.name == "battle cry":
                triggers.add_keyword(game, card.controller, cid, "battle cry", "702.91a")
            elif kw.name == "provoke":
                target = game.choices.get(cid)
                triggers.add_keyword(
                    game,
                    card.controller,
                    cid,
                    "provoke",
                    "702.39a",
                    target=None if target is None else str(target),
                )
        battalion_said = False
        for spec in card.spec.triggers:
            if spec.on == "attacks":
                triggers.add_spec(game, card.controller, cid, spec, "508.3a")
            elif spec.on == "battalion":
                others = len(attackers) - 1
                if not battalion_said:  # one explanation per card, however many abilities
                    key = "battalion" if others >= 2 else "battalion_not" if others else "battalion_alone"
                    say(game, "207.2c", key, card=Ref(cid), n=others)
                    battalion_said = True
                if others >= 2:
                    triggers.add_spec(game, card.controller, cid, spec, "603.2")
    for watcher in game.battlefield():
        for spec in watcher.spec.triggers:
            if spec.on != "ally_attacks" or watcher.controller != game.active:
                continue
            for cid in attackers:
                if not spec.subtype or spec.subtype in subtypes(game.cards[cid]):
                    triggers.add_spec(game, watcher.controller, watcher.id, spec, "508.3a", attacker=cid)


# --- 509 declare blockers ----------------------------------------------------------------


def declare_blockers(game: Game, blocks: dict[str, str], by: str = "") -> None:
    combat = game.combat
    if combat is None or game.step != "declare_attackers":
        raise WrongStep("block", "an 'attack' action first, and one 'block' action per combat")
    for blocker_id, attacker_id in blocks.items():
        _check_block(game, combat, blocker_id, attacker_id, by)
    assigned = {b: list(combat.band_of(a)) for b, a in blocks.items()}
    for attacker_id in combat.attackers:
        limit = max_blockers(game, game.cards[attacker_id])
        count = sum(1 for attacked in assigned.values() if attacker_id in attacked)
        if limit is not None and count > limit:
            raise illegal(game, "509.1b", "too_many_blockers", card=Ref(attacker_id), n=limit)
    _check_provoke(game, blocks)

    combat.blocks = assigned
    combat.blockers_declared = True
    game.step = "declare_blockers"
    _narrate_blocks(game, blocks, assigned)
    for attacker_id in combat.attackers:
        if combat.blockers_of(attacker_id):
            combat.blocked.add(attacker_id)
    unblocked = [a for a in combat.attackers if a not in combat.blocked]
    if blocks and unblocked:
        say(game, "509.1h", "unblocked", cards=refs(unblocked))
    game.history.blocked_by = {a: combat.blockers_of(a) for a in combat.attackers}
    for blocker_id in blocks:
        _bushido(game, blocker_id)
    for attacker_id in combat.attackers:
        if attacker_id in combat.blocked:
            _bushido(game, attacker_id)
    settle(game)


def _check_block(game: Game, combat: Combat, blocker_id: str, attacker_id: str, by: str) -> None:
    """509.1a: an untapped creature a defending player controls blocks a creature attacking
    that player or a planeswalker they control; then the restrictions (509.1b)."""
    found = game.cards.get(blocker_id)
    controller = found.controller if found is not None else ""
    player = controller if controller in game.defenders() else game.defending
    blocker = _combatant(game, blocker_id, player, "509.1a", "block_not_yours", "block_tapped")
    if by and blocker.controller != by:
        raise illegal(game, "509.1a", "block_not_by", card=Ref(blocker_id), player=Ref(by))
    if attacker_id not in combat.attackers:
        raise illegal(game, "509.1a", "block_not_attacking", card=Ref(blocker_id), attacker=Ref(attacker_id))
    attacked = combat.defender_of(attacker_id, game)
    if attacked != blocker.controller:
        raise illegal(
            game,
            "509.1a",
            "block_other_player",
            card=Ref(blocker_id),
            attacker=Ref(attacker_id),
            player=Ref(attacked),
            blocker_controller=Ref(blocker.controller),
        )
    _check_restrictions(game, blocker, game.cards[attacker_id])


def _narrate_blocks(game: Game, blocks: dict[str, str], assigned: dict[str, list[str]]) -> None:
    """Each defending player declares their blocks in APNAP order (802.4)."""
    assert game.combat is not None
    attacked = {game.combat.defender_of(a, game) for a in game.combat.attackers}
    for player in [p for p in game.apnap() if p in attacked] or [game.defending]:
        mine = {b: a for b, a in blocks.items() if game.cards[b].controller == player}
        if not mine:
            say(game, "509.1a", "no_blockers", player=Ref(player))
        for blocker_id, attacker_id in mine.items():
            say(game, "509.1a", "blocks", blocker=Ref(blocker_id), attacker=Ref(attacker_id))
            others = [a for a in assigned[blocker_id] if a != attacker_id]
            if others:
                say(
                    game,
                    "702.22h",
                    "band_blocked",
                    blocker=Ref(blocker_id),
                    attacker=Ref(attacker_id),
                    cards=refs(others),
                )


def _bushido(game: Game, cid: str) -> None:
    card = game.cards[cid]
    for n in values(game, card, "bushido"):
        triggers.add_keyword(
            game,
            card.controller,
            cid,
            "bushido",
            "702.45a",
            text=Label(f"Bushido {n}", f"bushido {n}", keyword=True),
            n=int(n),
            incarnation=card.incarnation,
        )


def _restriction(game: Game, blocker: Card, attacker: Card) -> tuple[str, str, dict[str, Any]] | None:
    """The first evasion or blocking restriction this block breaks (509.1b), if any."""
    if has(game, attacker, "flying") and not (has(game, blocker, "flying") or has(game, blocker, "reach")):
        return "702.9b", "block_flying", {}
    for land in values(game, attacker, "landwalk"):
        swamp = next(
            (
                c
                for c in game.battlefield()
                if c.controller == blocker.controller
                and "Land" in c.spec.types
                and str(land).capitalize() in c.spec.subtypes
            ),
            None,
        )
        if swamp is not None:
            where = Label(phrase("land_phrases", str(land), "de"), phrase("land_phrases", str(land), "en"))
            return (
                "702.14c",
                "block_landwalk",
                {"land": where, "permanent": Ref(swamp.id), "walk": kw_label(f"{land}walk")},
            )
    quality = protection_from(game, attacker, blocker)
    if quality is not None:
        return "702.16f", "block_protection", {"quality": kw_label(f"protection from {quality}")}
    for eff in cant_block_limits(game):
        limit = eff.cant_block_max_power
        if limit is not None and power(game, blocker) <= limit:
            return "509.1b", "block_power_limit", {"n": limit, "source": Ref(eff.source)}
    return None


def _check_restrictions(game: Game, blocker: Card, attacker: Card) -> None:
    found = _restriction(game, blocker, attacker)
    if found is not None:
        rule, key, params = found
        also = () if rule == "509.1b" else ("509.1b",)  # every evasion rule is a restriction
        raise illegal(game, rule, key, also, blocker=Ref(blocker.id), attacker=Ref(attacker.id), **params)


def _check_provoke(game: Game, blocks: dict[str, str]) -> None:
    """Provoke is a blocking requirement (509.1c): obey it if no restriction forbids it."""
    assert game.combat is not None
    for provoker, target in game.combat.provoked.items():
        if provoker not in game.combat.attackers or blocks.get(target) == provoker:
            continue
        victim = game.cards[target]
        able = (
            victim.on_battlefield
            and not victim.tapped
            and _restriction(game, victim, game.cards[provoker]) is None
        )
        if able:
            raise illegal(game, "509.1c", "provoke_ignored", blocker=Ref(target), attacker=Ref(provoker))


# --- 510 combat damage ---------------------------------------------------------------------


Assignment = dict[str, dict[str, int]]


def combat_damage(game: Game, assign: Assignment, by: str = "") -> None:
    combat = game.combat
    if combat is None or game.step not in ("declare_attackers", "declare_blockers", "combat_damage"):
        raise WrongStep("damage", "an 'attack' action before combat damage")
    if not combat.damage_pending:
        raise WrongStep("damage", "no further combat damage step; 'end_combat' or 'end_turn' next")
    if not combat.attackers and combat.first_strike is None:
        raise WrongStep("damage", "attacking creatures; without them the step is skipped (508.8)")
    if game.step == "declare_attackers":
        declare_blockers(game, {})
    in_combat = _in_combat(game)
    if combat.first_strike is None:
        combat.fs_at_start = {
            c
            for c in in_combat
            if has(game, game.cards[c], "first strike") or has(game, game.cards[c], "double strike")
        }
        combat.first_strike = bool(combat.fs_at_start)
        if combat.first_strike:
            strikers = sorted(combat.fs_at_start, key=in_combat.index)
            say(game, "510.4", "first_strike_step", cards=refs(strikers), ability=_strikes(game, strikers))
    if combat.first_strike and combat.steps_done == 0:
        dealing = [c for c in in_combat if c in combat.fs_at_start]
    elif combat.first_strike:
        dealing = [
            c for c in in_combat if c not in combat.fs_at_start or has(game, game.cards[c], "double strike")
        ]
        if dealing:
            say(game, "702.4b", "second_damage_step", cards=refs(dealing))
        else:
            say(game, "702.4b", "second_damage_step_none")
    else:
        dealing = in_combat
    game.step = "combat_damage"
    plan = _plan(game, combat, dealing, assign, by)
    _check_trample(game, combat, plan)
    hit_players: set[str] = set()  # controllers whose creatures dealt combat damage to a player
    for source, division in plan:
        for target, amount in division.items():
            dealt = deal_damage(game, game.cards[source], target, amount, combat=True)
            if dealt and target in game.players:
                hit_players.add(game.cards[source].controller)
    _one_or_more_triggers(game, hit_players)
    combat.steps_done += 1
    settle(game)


def _one_or_more_triggers(game: Game, controllers: set[str]) -> None:
    """ "Whenever one or more creatures you control deal combat damage to a player" triggers
    once per combat damage step (603.2c), also from a graveyard if it says so (113.6m)."""
    for player in game.apnap():
        if player not in controllers:
            continue
        for card in list(game.cards.values()):
            for spec in card.spec.triggers:
                if spec.on != "creatures_combat_damage_to_player":
                    continue
                if spec.zone == "graveyard":
                    present = card.zone == "graveyard" and card.owner == player
                else:
                    present = card.on_battlefield and card.controller == player
                if present:
                    triggers.add_spec(game, player, card.id, spec, "603.2c")


def _in_combat(game: Game) -> list[str]:
    assert game.combat is not None
    blockers = [b for b in game.combat.blocks if game.cards[b].on_battlefield]
    return [a for a in game.combat.attackers if game.cards[a].on_battlefield] + blockers


def _band_blocker(game: Game, cards: list[str]) -> bool:
    """Does a banding creature (or a matching "bands with other" pair) stand among ``cards``?"""
    objs = [game.cards[c] for c in cards]
    if any(_banding_kinds(game, c)[0] for c in objs):
        return True
    for c in objs:
        for quality in _banding_kinds(game, c)[1]:
            if sum(1 for o in objs if quality in subtypes(o)) >= 2:
                return True
    return False


@dataclass(frozen=True)
class _Division:
    """Who divides a creature's combat damage among whom, and under which rule."""

    chooser: str
    rule: str
    key: str
    recipients: list[str]
    trample: bool


def _attacker_division(game: Game, combat: Combat, cid: str, amount: int) -> _Division | None:
    """An attacker: unblocked to the player; blocked to its blockers (510.1c), the rest to the
    player with trample (702.19b); a banding blocker gives the division away (702.22j)."""
    card = game.cards[cid]
    defender = combat.defender_of(cid, game)
    if cid not in combat.blocked:  # to the player or planeswalker it attacks (510.1b)
        return _Division(card.controller, "510.1b", "", [combat.targets.get(cid, defender)], False)
    blockers = [b for b in combat.blockers_of(cid) if game.cards[b].on_battlefield]
    trample = has(game, card, "trample")
    if not blockers:
        if trample:
            say(game, "702.19d", "trample_no_blockers", card=Ref(cid), player=Ref(defender))
            return _Division(card.controller, "702.19d", "", [defender], False)
        say(game, "510.1c", "blocked_no_blockers", card=Ref(cid))
        return None
    if _band_blocker(game, blockers):
        return _Division(defender, "702.22j", "assign_banding_defender", blockers, False)
    return _Division(
        card.controller, "510.1c", "assign_attacker", blockers + ([defender] if trample else []), trample
    )


def _blocker_division(game: Game, combat: Combat, cid: str) -> _Division | None:
    """A blocker divides among the creatures it blocks (510.1d); blocking a banding attacker
    gives the division to the active player (702.22k)."""
    attacked = [a for a in combat.blocks.get(cid, []) if game.cards[a].on_battlefield]
    if not attacked:
        say(game, "510.1d", "blocking_nothing", card=Ref(cid))
        return None
    if _band_blocker(game, attacked):
        return _Division(game.active, "702.22k", "assign_banding_attacker", attacked, False)
    return _Division(game.cards[cid].controller, "510.1d", "assign_blocker", attacked, False)


def _plan(
    game: Game, combat: Combat, dealing: list[str], assign: Assignment, by: str
) -> list[tuple[str, dict[str, int]]]:
    plan: list[tuple[str, dict[str, int]]] = []
    for cid in dealing:
        card = game.cards[cid]
        amount = power(game, card)
        if amount <= 0:
            say(game, "510.1a", "no_damage_power", card=Ref(cid), n=amount)
            continue
        attacking = cid in combat.attackers
        d = (
            _attacker_division(game, combat, cid, amount)
            if attacking
            else _blocker_division(game, combat, cid)
        )
        if d is None:
            continue
        given = assign.get(cid) if d.key else None
        if by and cid in assign and d.chooser != by:
            raise illegal(
                game, d.rule, "division_wrong_player", card=Ref(cid), chooser=Ref(d.chooser), player=Ref(by)
            )
        division = _division(game, card, amount, d.recipients, given, d.trample, d.rule)
        game.history.assigned_by[cid] = d.chooser
        rule, key = d.rule, d.key
        defender = combat.defender_of(cid, game) if attacking else ""
        if d.trample and division.get(defender, 0) > 0:
            rule, key = "702.19b", "assign_trample"
        if key and (len(d.recipients) > 1 or rule in ("702.22j", "702.22k")):
            say(
                game,
                rule,
                key,
                chooser=Ref(d.chooser),
                card=Ref(cid),
                controller=Ref(card.controller),
                player=Ref(defender or game.defending),
                split=_split_text(division),
                blockers=refs([r for r in d.recipients if r in game.cards]),
            )
        plan.append((cid, division))
    return plan


def _division(
    game: Game,
    card: Card,
    amount: int,
    recipients: list[str],
    given: dict[str, int] | None,
    trample: bool,
    rule: str,
) -> dict[str, int]:
    if given is None:
        if len(recipients) == 1:
            return {recipients[0]: amount}
        return _default_division(game, card, amount, recipients, trample)
    for target, n in given.items():
        if target not in recipients:
            key = "assign_to_player" if target in game.players else "assign_wrong_target"
            raise illegal(
                game,
                "702.19b" if target in game.players else rule,
                key,
                card=Ref(card.id),
                target=Ref(target),
            )
        if n < 0:
            raise illegal(game, rule, "assign_negative", card=Ref(card.id), target=Ref(target))
    total = sum(given.values())
    if total != amount:
        raise illegal(game, "510.1a", "assign_total", card=Ref(card.id), n=amount, total=total)
    return {t: n for t, n in given.items() if n > 0}


def _default_division(
    game: Game, card: Card, amount: int, recipients: list[str], trample: bool
) -> dict[str, int]:
    """Lethal damage to each blocker in turn; any rest to the player (trample) or the last one."""
    out: dict[str, int] = {}
    left = amount
    creatures = [r for r in recipients if r in game.cards]
    for r in creatures:
        need = (
            1
            if has(game, card, "deathtouch")
            else max(0, toughness(game, game.cards[r]) - game.cards[r].damage)
        )
        give = min(left, need)
        if give:
            out[r] = give
        left -= give
    if left:
        last = next(r for r in recipients if r in game.players) if trample else creatures[-1]
        out[last] = out.get(last, 0) + left
    return out


def _check_trample(game: Game, combat: Combat, plan: list[tuple[str, dict[str, int]]]) -> None:
    """702.19b: excess may reach the player only once every blocker is assigned lethal damage,
    counting damage already marked and other creatures' assignments this step; any nonzero
    damage from a deathtouch source is lethal (702.2c)."""
    incoming: dict[str, int] = {}
    for _source, division in plan:
        for target, n in division.items():
            incoming[target] = incoming.get(target, 0) + n
    for source, division in plan:
        card = game.cards[source]
        if source not in combat.attackers or source not in combat.blocked:
            continue
        defender = combat.defender_of(source, game)
        if division.get(defender, 0) <= 0:
            continue
        deathtouch = has(game, card, "deathtouch")
        for blocker in combat.blockers_of(source):
            b = game.cards[blocker]
            if not b.on_battlefield:
                continue
            mine = division.get(blocker, 0)
            others = incoming.get(blocker, 0) - mine
            if (deathtouch and mine > 0) or b.damage + others + mine >= toughness(game, b):
                continue
            raise illegal(
                game,
                "702.2c" if deathtouch else "702.19b",
                "trample_not_lethal",
                card=Ref(source),
                blocker=Ref(blocker),
                player=Ref(defender),
                n=mine,
                need=1 if deathtouch else toughness(game, b) - b.damage - others,
            )


def _split_text(division: dict[str, int]) -> list[Share]:
    return [Share(t, n) for t, n in division.items()]


# --- 511 end of combat ------------------------------------------------------------------------


def end_combat(game: Game) -> None:
    combat = game.combat
    if combat is None:
        raise WrongStep("end_combat", "an 'attack' action first")
    if combat.blockers_declared and combat.damage_pending and _in_combat(game):
        raise WrongStep("end_combat", "a 'damage' action: a combat damage step is still to come")
    game.history.blocked_by = {a: list(v) for a, v in game.history.blocked_by.items()}
    game.combat = None
    game.step = "main2"
    say(game, "511.3", "combat_ends")
    settle(game)


def _strikes(game: Game, cards: list[str]) -> Label:
    """Which of first strike and double strike the creatures have, in their order: "Doppelschlag
    bzw. Erstschlag" ("respectively") when they differ."""
    kinds = list(
        dict.fromkeys(
            "double strike" if has(game, game.cards[c], "double strike") else "first strike" for c in cards
        )
    )
    de = [kw_label(k).de for k in kinds]
    return Label(
        str(phrase("words", "respectively", "de")).join(de), str(phrase("words", "or", "en")).join(kinds)
    )
