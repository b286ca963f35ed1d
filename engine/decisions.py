"""Who decides: ``by = "player"`` on an action is checked against the player the rules give
that decision to, and refused with that rule (issue 15).

Attackers are declared by the active player (508.1), blockers by a defending player (509.1a),
a spell is cast by the player whose hand it is in (601.2), an ability activated by its
source's controller (602.2), and the targets and choices of a triggered ability or keyword
action are made by its controller (603.3d). Combat damage divisions are checked in ``combat``
where the chooser is known (510.1c-d, 702.22j-k).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regelwerk.engine import model as m
from regelwerk.engine.events import Ref, refs
from regelwerk.engine.narration import illegal
from regelwerk.engine.state import Game


def _owner(game: Game, card: str) -> list[str]:
    found = game.cards.get(card)
    return [found.owner] if found is not None else []


def _controller(game: Game, card: str) -> list[str]:
    found = game.cards.get(card)
    return [found.controller] if found is not None else []


#: Each action kind: the players who may make its decision, and the rule that says so.
DECIDERS: dict[type, tuple[str, str, Callable[[Game, Any], list[str]]]] = {
    m.Attack: ("508.1", "attack_by", lambda g, a: [g.active]),
    m.Block: ("509.1a", "block_by", lambda g, a: g.defenders()),
    m.Cast: ("601.2", "cast_by", lambda g, a: _owner(g, a.card)),
    m.Activate: ("602.2", "activate_by", lambda g, a: _controller(g, a.source)),
}


def check_decider(game: Game, action: m.ActionBase) -> None:
    """Refuse the action if ``action.by`` is not a player the rules let decide it."""
    if action.by not in game.players or game.players[action.by].lost:
        raise illegal(game, "800.4a", "decider_left", player=Ref(action.by))
    entry = DECIDERS.get(type(action))
    if entry is not None:
        rule, key, who = entry
        allowed = who(game, action)
        if allowed and action.by not in allowed:
            raise illegal(game, rule, key, player=Ref(action.by), deciders=refs(allowed))
    for key in action.choices:
        source = key.split(":", 1)[0]
        owner = _controller(game, source)
        if owner and action.by not in owner:
            raise illegal(
                game,
                "603.3d",
                "choice_wrong_player",
                player=Ref(action.by),
                source=Ref(source),
                chooser=Ref(owner[0]),
            )
