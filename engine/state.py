"""The game state: players, cards (permanents and cards in other zones), and what they print.

Printed characteristics live in frozen ``CardSpec``s (a token copy from populate copies the
spec); everything the game changes (counters, damage, tapped, phased out, attachment, zone)
lives on the mutable ``Card``. Computed characteristics (P/T after layers, keywords granted by
other permanents) are in ``characteristics.py``, not here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from regelwerk.engine.keywords import Keyword

if TYPE_CHECKING:
    from regelwerk.engine.combat import Combat
    from regelwerk.engine.effects import ContinuousEffect
    from regelwerk.engine.events import Event
    from regelwerk.engine.triggers import PendingTrigger

ZONES = ("battlefield", "hand", "graveyard", "exile", "library")
CARD_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Instant", "Sorcery", "Planeswalker")
COLORS = ("white", "blue", "black", "red", "green")
#: German grammatical gender of a name, for articles in the narration; "name" takes none.
GENERA = ("m", "f", "n", "pl", "name")

#: What an effect can do. Each kind is implemented in ``actions.py``.
EFFECT_KINDS = (
    "gain_life",
    "lose_life",
    "pump",
    "damage",
    "destroy",
    "create_tokens",
    "bolster",
    "populate",
    "proliferate",
    "put_counters",
    "phase_out",
    "cant_block",
    "draw",
    "return_to_hand",
    "search_library",
)
#: Who an effect applies to.
EFFECT_TARGETS = (
    "none",
    "self",
    "controller",
    "target",
    "target_creature",
    "target_attacking",
    "each_creature",
    "enchanted",
    "target_permanent",
)
#: Trigger events a card-specific triggered ability can wait for.
TRIGGER_EVENTS = (
    "enters",
    "attacks",
    "battalion",
    "ally_attacks",
    "cast_noncreature",
    "cast_spell",
    "another_creature_enters",
    "combat_damage_to_player",
    "creatures_combat_damage_to_player",
)
#: Zones a card-specific triggered ability can trigger from (113.6k-m).
TRIGGER_ZONES = ("battlefield", "graveyard")
#: Optional or alternative costs whose payment a spell remembers ("if its prowl cost was paid").
PAID_COSTS = ("bestow", "buyback", "prowl")
#: What a library search can find (702.29e typecycling, 701.23a): German and English phrases.
FINDABLE: dict[str, tuple[str, str]] = {
    "basic land": ("einem Standardland", "a basic land card"),
    "land": ("einer Landkarte", "a land card"),
    "creature": ("einer Kreaturenkarte", "a creature card"),
    "plains": ("einer Ebene", "a Plains card"),
    "island": ("einer Insel", "an Island card"),
    "swamp": ("einem Sumpf", "a Swamp card"),
    "mountain": ("einem Gebirge", "a Mountain card"),
    "forest": ("einem Wald", "a Forest card"),
}


@dataclass(frozen=True)
class Effect:
    """One instruction of a spell or ability ("gets +3/+3 until end of turn")."""

    kind: str
    amount: int = 0
    power: int = 0
    toughness: int = 0
    keywords: tuple[Keyword, ...] = ()
    target: str = "none"
    counter: str = ""
    token: CardSpec | None = None
    count: int = 1
    tapped_attacking: bool = False
    life_from: str = ""  # "toughness": life equal to the entering creature's toughness
    find: str = ""  # search_library: a key of FINDABLE ("basic land")


@dataclass(frozen=True)
class TriggerSpec:
    """A card-specific triggered ability ("Whenever Hero of Bladehold attacks, ...")."""

    id: str
    on: str
    effect: Effect
    subtype: str = ""  # for "ally_attacks": "Whenever a Dragon you control attacks"
    label_de: str = ""  # how the trace names the ability; defaults to the id
    label_en: str = ""
    zone: str = "battlefield"  # "graveyard": Pyrewild Shaman's return ability (113.6m)
    if_paid: str = ""  # "prowl": "if its prowl cost was paid" (an intervening if, 603.4)


@dataclass(frozen=True)
class ActivatedSpec:
    """An activated ability; ``from_hand`` abilities (bloodrush) discard the card as cost."""

    id: str
    effect: Effect
    tap: bool = False
    from_hand: bool = False


@dataclass(frozen=True)
class StaticSpec:
    """A static ability: "All Sliver creatures have poisonous 1" or "can't be blocked by more
    than one creature" (``kind`` "grant" or "max_blockers")."""

    kind: str
    keywords: tuple[Keyword, ...] = ()
    subtype: str = ""
    amount: int = 0


@dataclass(frozen=True)
class CardSpec:
    """What is printed on a card (or defined for a token)."""

    name_de: str
    name_en: str
    types: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    pt_cda: str = ""  # "creatures_you_control": Wayfaring Temple's */* (613.4a)
    keywords: tuple[Keyword, ...] = ()
    triggers: tuple[TriggerSpec, ...] = ()
    activated: tuple[ActivatedSpec, ...] = ()
    statics: tuple[StaticSpec, ...] = ()
    spell: tuple[Effect, ...] = ()  # what an instant or sorcery does
    enchanted: Effect | None = None  # what an Aura gives the enchanted creature
    bestow: bool = False
    genus: str = "m"
    forms_de: tuple[tuple[str, str], ...] = ()  # ("gen", "Helden der Klingenfeste"), ...


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
