"""State-based actions (704): checked whenever a player would receive priority.

All applicable actions are performed at once as a single event, then the check repeats until
none apply (704.3). Implemented: 704.5a (life), 704.5c (poison), 704.5d (tokens off the
battlefield), 704.5f (toughness 0 or less), 704.5g (lethal damage), 704.5h (deathtouch),
704.5i (planeswalkers without loyalty), 704.5m (Auras attached to nothing) and 704.5q (+1/+1
and -1/-1 counters cancel), with indestructible (702.12b) ignoring 704.5g and 704.5h.
"""

from __future__ import annotations

from regelwerk.engine.actions import move_to_graveyard
from regelwerk.engine.characteristics import has, is_creature, toughness
from regelwerk.engine.events import Ref, refs, say
from regelwerk.engine.state import Card, Game


def check(game: Game) -> int:
    """Perform state-based actions until none apply; returns how many rounds did something."""
    rounds = 0
    while not game.over and _one_round(game):
        rounds += 1
    return rounds


def _one_round(game: Game) -> bool:
    losers: list[tuple[str, str, str]] = []
    for p in game.players.values():
        if p.lost:
            continue
        if p.life <= 0:
            losers.append((p.id, "704.5a", "loses_life"))
        elif p.poison >= 10:
            losers.append((p.id, "704.5c", "loses_poison"))
    to_graveyard: list[tuple[Card, str, str]] = []
    annihilate: list[tuple[Card, int]] = []
    vanish: list[Card] = []
    for c in game.cards.values():
        if c.token and c.zone not in ("battlefield", "limbo", "gone"):
            vanish.append(c)
            continue
        if not c.on_battlefield:
            continue
        if is_creature(game, c):
            t = toughness(game, c)
            if t <= 0:
                to_graveyard.append((c, "704.5f", "dies_toughness"))
            elif c.damage >= t or c.deathtouched:
                rule = "704.5g" if c.damage >= t else "704.5h"
                if has(game, c, "indestructible"):
                    _note_indestructible(game, c, rule)
                else:
                    to_graveyard.append((c, rule, "dies_damage" if rule == "704.5g" else "dies_deathtouch"))
        elif "Planeswalker" in c.spec.types and c.counters["loyalty"] <= 0:
            to_graveyard.append((c, "704.5i", "dies_loyalty"))
        elif "Aura" in _aura_subtypes(c) and c.attached_to is None:
            to_graveyard.append((c, "704.5m", "aura_unattached"))
        plus, minus = c.counters["+1/+1"], c.counters["-1/-1"]
        if plus and minus:
            annihilate.append((c, min(plus, minus)))
    if not (losers or to_graveyard or annihilate or vanish):
        return False
    for pid, rule, key in losers:
        game.players[pid].lost = True
        p = game.players[pid]
        say(game, rule, key, player=Ref(pid), life=p.life, poison=p.poison)
    for c, n in annihilate:
        c.counters["+1/+1"] -= n
        c.counters["-1/-1"] -= n
        say(game, "704.5q", "counters_cancel", card=Ref(c.id), n=n)
    for c, rule, key in to_graveyard:
        move_to_graveyard(game, c, rule, key, damage=c.damage, toughness=toughness(game, c))
    for c in vanish:
        c.zone = "gone"
        say(game, "704.5d", "token_vanishes", card=Ref(c.id))
    remaining = game.in_game()
    if losers and remaining and not game.opponents(remaining[0]):
        game.over = True
        say(game, "104.2a", "wins", player=refs(remaining))
    elif losers:
        for pid, _rule, _key in losers:
            leave_game(game, pid)
    return True


def leave_game(game: Game, pid: str) -> None:
    """800.4a: a player who leaves a multiplayer game takes every object they own along;
    objects of others they still control are exiled; their abilities on the stack cease to exist."""
    owned = [c for c in game.cards.values() if c.owner == pid and c.zone != "gone"]
    controlled = [
        c for c in game.cards.values() if c.controller == pid and c.owner != pid and c.zone == "battlefield"
    ]
    for c in owned + controlled:
        if game.combat is not None:
            game.combat.remove(c.id)
        c.zone = "gone" if c.owner == pid else "exile"
    game.pending = [t for t in game.pending if t.controller != pid]
    game.stack = [o for o in game.stack if o.controller != pid]
    gone = [c.id for c in owned]
    say(game, "800.4a", "player_leaves" if gone else "player_leaves_empty", player=Ref(pid), cards=refs(gone))
    if controlled:
        say(game, "800.4a", "left_exiled", player=Ref(pid), cards=refs([c.id for c in controlled]))


def _aura_subtypes(c: Card) -> tuple[str, ...]:
    return ("Aura",) if c.bestowed else c.spec.subtypes


def _note_indestructible(game: Game, c: Card, rule: str) -> None:
    """Say once per damage total that indestructible ignores the check, not every round."""
    marker = ("indestructible", c.id, c.incarnation, c.damage)
    if marker in game.history.notes:
        return
    game.history.notes.add(marker)
    say(
        game,
        "702.12b",
        "indestructible_ignores",
        card=Ref(c.id),
        damage=c.damage,
        toughness=toughness(game, c),
        check=rule,
    )
