"""Continuous effects from resolved spells and abilities, and when they end.

An effect remembers exactly which objects it affects when it starts (611.2c), by id *and*
incarnation: a creature that dies and comes back (persist) is a new object (400.7) and the
old pump no longer applies to it. "Until end of turn" effects end in the cleanup step (514.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from regelwerk.engine.keywords import Keyword
from regelwerk.engine.state import Card, Game


@dataclass(frozen=True)
class ContinuousEffect:
    source: str
    affected: tuple[tuple[str, int], ...]
    power: int = 0
    toughness: int = 0
    keywords: tuple[Keyword, ...] = ()
    cant_block_max_power: int | None = None  # "creatures with power N or less can't block"
    timestamp: int = 0
    duration: str = "end_of_turn"

    def applies_to(self, card: Card) -> bool:
        return card.on_battlefield and (card.id, card.incarnation) in self.affected


def add_effect(
    game: Game,
    source: str,
    cards: list[Card],
    power: int = 0,
    toughness: int = 0,
    keywords: tuple[Keyword, ...] = (),
    cant_block_max_power: int | None = None,
) -> ContinuousEffect:
    """Start an until-end-of-turn effect on the cards that are there now (611.2c, 702.26e)."""
    eff = ContinuousEffect(
        source=source,
        affected=tuple((c.id, c.incarnation) for c in cards if c.on_battlefield),
        power=power,
        toughness=toughness,
        keywords=keywords,
        cant_block_max_power=cant_block_max_power,
        timestamp=game.next_timestamp(),
    )
    game.effects.append(eff)
    return eff


def cant_block_limits(game: Game) -> list[ContinuousEffect]:
    return [e for e in game.effects if e.cant_block_max_power is not None]


def end_of_turn(game: Game) -> int:
    """Remove until-end-of-turn effects (514.2); returns how many ended."""
    ended = [e for e in game.effects if e.duration == "end_of_turn"]
    game.effects = [e for e in game.effects if e.duration != "end_of_turn"]
    return len(ended)
