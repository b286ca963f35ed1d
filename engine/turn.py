"""Ending a turn and starting the next: cleanup (514.2), then the untap step with phasing
(502.1, 702.26a) and untapping (502.3). Upkeep and draw steps have nothing to do in the
engine's scenarios and pass silently.
"""

from __future__ import annotations

from regelwerk.engine.actions import phase_in, phase_out
from regelwerk.engine.characteristics import has
from regelwerk.engine.combat import end_combat
from regelwerk.engine.effects import end_of_turn
from regelwerk.engine.events import Ref, refs, say
from regelwerk.engine.stack import settle
from regelwerk.engine.state import Game


def end_turn(game: Game) -> None:
    if game.combat is not None:
        end_combat(game)
    damaged = [c.id for c in game.cards.values() if c.zone == "battlefield" and c.damage]
    for cid in damaged:
        game.cards[cid].damage = 0
        game.cards[cid].deathtouched = False
    ended = end_of_turn(game)
    key = "cleanup" if damaged and ended else "cleanup_damage" if damaged else "cleanup_effects"
    say(game, "514.2", key if damaged or ended else "cleanup_nothing", cards=refs(damaged), n=ended)
    ids = list(game.players)  # turn order; a player who left the game is skipped (800.4)
    following = ids[ids.index(game.active) + 1 :] + ids[: ids.index(game.active) + 1]
    game.active = next(p for p in following if not game.players[p].lost)
    game.turn += 1
    game.step = "main1"
    game.attacked_this_turn = False
    game.combat_damage_log.clear()
    for p in game.players.values():
        p.damage_this_turn = 0
    say(game, "500.1", "new_turn", player=Ref(game.active), turn=game.turn)
    mine = [c for c in game.cards.values() if c.zone == "battlefield" and c.controller == game.active]
    going = [c for c in mine if not c.phased_out and has(game, c, "phasing")]
    coming = [c for c in mine if c.phased_out and c.attached_to is None]
    for c in going:
        phase_out(game, c)
    for c in coming:
        phase_in(game, c)
    tapped = [c for c in mine if c.tapped and not c.phased_out]
    for c in mine:
        c.tapped = False if not c.phased_out else c.tapped
        c.sick = False
    if tapped:
        say(game, "502.3", "untap", player=Ref(game.active), cards=refs([c.id for c in tapped]))
    settle(game)
