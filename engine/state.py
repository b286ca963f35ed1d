"""The game state: players, cards (permanents and cards in other zones), and what they print.

Printed characteristics live in the frozen ``model.CardSpec`` (a token copy from populate
copies the spec); everything the game changes (counters, damage, tapped, phased out, attachment, zone)
lives on the mutable ``Card``. Computed characteristics (P/T after layers, keywords granted by
other permanents) are in ``characteristics.py``, not here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from regelwerk.engine.model import CardSpec

if TYPE_CHECKING:
    from regelwerk.engine.combat import Combat
    from regelwerk.engine.effects import ContinuousEffect
    from regelwerk.engine.events import Event
    from regelwerk.engine.triggers import PendingTrigger


@dataclass
class Player:
    id: str
    name: str
    life: int = 20
    poison: int = 0
    lost: bool = False
    damage_this_turn: int = 0
    pronoun_de: str = ""  # "sie" / "er": the narration's "daher verteilt sie – nicht Robert –"
    pronoun_en: str = ""


@dataclass
class Card:
    """A card or token in a zone, with the game's changes to it."""

    id: str
    spec: CardSpec
    owner: str
    controller: str
    zone: str = "battlefield"
    token: bool = False
    counters: Counter[str] = field(default_factory=Counter)
    damage: int = 0
    deathtouched: bool = False
    tapped: bool = False
    phased_out: bool = False
    attached_to: str | None = None
    bestowed: bool = False
    sick: bool = False
    incarnation: int = 0  # bumped on every zone change: a new object (400.7)
    paid: tuple[str, ...] = ()  # optional/alternative costs paid when it was cast (PAID_COSTS)

    @property
    def on_battlefield(self) -> bool:
        """On the battlefield and phased in: phased-out permanents don't exist (702.26b)."""
        return self.zone == "battlefield" and not self.phased_out


@dataclass
class History:
    """What happened, for expectations that look back after the fact."""

    deaths: Counter[str] = field(default_factory=Counter)
    damage_taken: Counter[str] = field(default_factory=Counter)
    assigned_by: dict[str, str] = field(default_factory=dict)
    blocked_by: dict[str, list[str]] = field(default_factory=dict)
    notes: set[tuple[object, ...]] = field(default_factory=set)  # things said once only


@dataclass
class Game:
    """Everything the engine knows; the narration is the ``events`` list."""

    players: dict[str, Player]
    cards: dict[str, Card]
    active: str
    turn: int = 1
    step: str = "main1"
    combat: Combat | None = None
    attacked_this_turn: bool = False
    effects: list[ContinuousEffect] = field(default_factory=list)
    pending: list[PendingTrigger] = field(default_factory=list)
    stack: list[Any] = field(default_factory=list)  # PendingTrigger or StackSpell, top last
    events: list[Event] = field(default_factory=list)
    history: History = field(default_factory=History)
    choices: dict[str, Any] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    timestamp: int = 0
    over: bool = False
    token_serial: int = 0
    # Combat damage dealt to players this turn: (source's controller, source id, its subtypes),
    # what prowl asks about (702.76a).
    combat_damage_log: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)

    @property
    def defending(self) -> str:
        """The nonactive player; the engine plays two-player games (506.2)."""
        return next(p for p in self.players if p != self.active)

    def apnap(self) -> list[str]:
        """Players in APNAP order (101.4): the active player, then the others in turn order."""
        ids = list(self.players)
        i = ids.index(self.active)
        return ids[i:] + ids[:i]

    def battlefield(self) -> list[Card]:
        return [c for c in self.cards.values() if c.on_battlefield]

    def next_timestamp(self) -> int:
        self.timestamp += 1
        return self.timestamp
