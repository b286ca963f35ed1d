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
    team: str = ""  # players on one team are teammates, not opponents (102.3)


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
    attack_option: str = "multiple"  # Free-for-All: "multiple", "left" or "right" (806.2b)
    # Combat damage dealt to players this turn: (source's controller, source id, its subtypes),
    # what prowl asks about (702.76a).
    combat_damage_log: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)

    def in_game(self) -> list[str]:
        """Players still in the game, in turn order (the order of the scenario's seats)."""
        return [p.id for p in self.players.values() if not p.lost]

    def opponents(self, player: str) -> list[str]:
        """Every other player still in the game who isn't a teammate (102.2, 102.3)."""
        me = self.players[player]
        return [p for p in self.in_game() if p != player and (not me.team or self.players[p].team != me.team)]

    def defenders(self) -> list[str]:
        """The defending players of this turn's combat (506.2, 506.2a, 802.2, 803.1): the one
        opponent in a two-player game; with "attack multiple players" every opponent; with
        "attack left" or "right" the nearest opponent on that side."""
        opponents = self.opponents(self.active)
        if self.attack_option == "multiple" or len(opponents) <= 1:
            return opponents
        ids = self.in_game()
        i = ids.index(self.active)
        ring = ids[i + 1 :] + ids[:i]
        if self.attack_option == "right":
            ring.reverse()
        return [next(p for p in ring if p in opponents)]

    @property
    def defending(self) -> str:
        """The (first) defending player; in a two-player game the nonactive player (506.2)."""
        found = self.defenders()
        return found[0] if found else next(p for p in self.players if p != self.active)

    def apnap(self) -> list[str]:
        """Players in APNAP order (101.4): the active player, then the others in turn order."""
        ids = self.in_game()
        if self.active not in ids:
            return ids
        i = ids.index(self.active)
        return ids[i:] + ids[:i]

    def battlefield(self) -> list[Card]:
        return [c for c in self.cards.values() if c.on_battlefield]

    def next_timestamp(self) -> int:
        self.timestamp += 1
        return self.timestamp
