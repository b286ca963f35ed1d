"""The scenario model as typed data: one msgspec ``Struct`` per effect, action and card part.

A scenario file (schema: data/scenarios/SCHEMA.md) is TOML; ``tomllib`` gives plain dicts and
``msgspec.convert`` turns them into these structs in one strict pass. Why msgspec: it decodes
plain dicts into typed, frozen structs fast and strictly (no silent coercion of ``"5"`` to 5
or of ``5`` to ``[5]``), it understands tagged unions (an effect's ``kind`` and an action's
``do`` pick the struct), it reports the exact path of the first bad value (``$.cards[0].pt``),
and it is one small, well-kept C extension without dependencies. The errors it reports are
turned into our one-line ``FILE: FIELD: got ...; expected ...`` in ``decode.py``.

Field types carry their own explanation: ``Meta(extra={"expected": ...})`` is what the error
says was expected. What a single field cannot check (a reference to a card defined elsewhere in
the file, a creature without P/T) is checked after decoding, in ``decode.py``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, ClassVar, Literal, Protocol

import msgspec

from regelwerk.engine.keywords import Keyword

# --- small value types ----------------------------------------------------------------------

Id = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[a-z0-9][a-z0-9_-]*$", extra={"expected": "a lowercase id (letters, digits, '-')"}
    ),
]
Text = Annotated[str, msgspec.Meta(min_length=1, extra={"expected": "a non-empty string"})]
Count = Annotated[int, msgspec.Meta(ge=0, le=10_000, extra={"expected": "a whole number from 0 to 10000"})]
Amount = Annotated[int, msgspec.Meta(ge=-10_000, le=10_000, extra={"expected": "a whole number"})]
PT = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^(\d{1,3}/\d{1,3}|\*/\*)$",
        extra={"expected": "'P/T' with whole numbers 0 or more, such as '6/4' (or '*/*' with pt_cda)"},
    ),
]
PTNow = Annotated[
    str, msgspec.Meta(pattern=r"^-?\d{1,4}/-?\d{1,4}$", extra={"expected": "'P/T' such as '7/7'"})
]

Zone = Literal["battlefield", "hand", "graveyard", "exile", "library"]
CardType = Literal["Artifact", "Creature", "Enchantment", "Land", "Instant", "Sorcery", "Planeswalker"]
Color = Literal["white", "blue", "black", "red", "green"]
#: German grammatical gender of a name, for articles in the narration; "name" takes none.
Genus = Literal["m", "f", "n", "pl", "name"]
Target = Literal[
    "none",
    "self",
    "controller",
    "target",
    "target_creature",
    "target_attacking",
    "each_creature",
    "enchanted",
    "target_permanent",
]
#: Targets that a player chooses when the spell or ability is put on the stack (601.2c).
TARGETED = ("target", "target_creature", "target_attacking", "target_permanent")
TriggerEvent = Literal[
    "enters",
    "attacks",
    "battalion",
    "ally_attacks",
    "cast_noncreature",
    "cast_spell",
    "another_creature_enters",
    "combat_damage_to_player",
    "creatures_combat_damage_to_player",
]
PaidCost = Literal["bestow", "buyback", "prowl"]
#: What a library search can find (702.29e typecycling, 701.23a).
Findable = Literal["basic land", "land", "creature", "plains", "island", "swamp", "mountain", "forest"]


class _Frozen(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Every part of a scenario: immutable, and an unknown field is an error, not ignored."""


# --- effects: one struct per kind -------------------------------------------------------------


class EffectBase(_Frozen, tag_field="kind", frozen=True):
    """One instruction of a spell or ability; ``kind`` (the tag) picks the struct."""

    target: Target = "none"

    @property
    def kind(self) -> str:
        return str(type(self).__struct_config__.tag)


class GainLife(EffectBase, tag="gain_life", frozen=True):
    amount: Amount = 0
    life_from: Literal["", "toughness"] = ""  # life equal to the entering creature's toughness


class LoseLife(EffectBase, tag="lose_life", frozen=True):
    amount: Amount = 0


class Pump(EffectBase, tag="pump", frozen=True):
    """+N/+N and keywords until end of turn."""

    power: Amount = 0
    toughness: Amount = 0
    keywords: tuple[Keyword, ...] = ()


class Damage(EffectBase, tag="damage", frozen=True):
    amount: Amount = 0


class Destroy(EffectBase, tag="destroy", frozen=True):
    pass


class CreateTokens(EffectBase, tag="create_tokens", kw_only=True, frozen=True):
    token: CardSpec
    count: Annotated[int, msgspec.Meta(ge=1, le=100, extra={"expected": "a whole number from 1 to 100"})] = 1
    tapped_attacking: bool = False


class Bolster(EffectBase, tag="bolster", frozen=True):
    amount: Count = 0


class Populate(EffectBase, tag="populate", frozen=True):
    pass


class Proliferate(EffectBase, tag="proliferate", frozen=True):
    pass


class PutCounters(EffectBase, tag="put_counters", kw_only=True, frozen=True):
    counter: Text
    amount: Count = 1


class PhaseOut(EffectBase, tag="phase_out", frozen=True):
    pass


class CantBlock(EffectBase, tag="cant_block", frozen=True):
    """Creatures with power ``amount`` or less can't block this turn."""

    amount: Amount = 0


class Draw(EffectBase, tag="draw", frozen=True):
    amount: Count = 1


class ReturnToHand(EffectBase, tag="return_to_hand", frozen=True):
    pass


class SearchLibrary(EffectBase, tag="search_library", kw_only=True, frozen=True):
    find: Findable


Effect = (
    GainLife
    | LoseLife
    | Pump
    | Damage
    | Destroy
    | CreateTokens
    | Bolster
    | Populate
    | Proliferate
    | PutCounters
    | PhaseOut
    | CantBlock
    | Draw
    | ReturnToHand
    | SearchLibrary
)


# --- abilities and what is printed on a card --------------------------------------------------


class TriggerSpec(_Frozen, frozen=True):
    """A card-specific triggered ability ("Whenever Hero of Bladehold attacks, ...")."""

    id: Text
    on: TriggerEvent
    effect: Effect
    subtype: str = ""  # for "ally_attacks": "Whenever a Dragon you control attacks"
    label_de: str = ""  # how the trace names the ability; defaults to the id
    label_en: str = ""
    zone: Literal["battlefield", "graveyard"] = "battlefield"  # Pyrewild Shaman (113.6m)
    if_paid: Literal["", "bestow", "buyback", "prowl"] = ""  # an intervening "if" (603.4)


class ActivatedSpec(_Frozen, frozen=True):
    """An activated ability; ``from_hand`` abilities (bloodrush) discard the card as cost."""

    id: Text
    effect: Effect
    tap: bool = False
    from_hand: bool = False


class StaticSpec(_Frozen, frozen=True):
    """ "All Sliver creatures have poisonous 1" (grant) or "can't be blocked by more than one
    creature" (max_blockers)."""

    kind: Literal["grant", "max_blockers"]
    keywords: tuple[Keyword, ...] = ()
    subtype: str = ""
    amount: Count = 0


class Enchanted(_Frozen, frozen=True):
    """What an Aura (or a bestowed creature) gives the creature it enchants."""

    power: Amount = 0
    toughness: Amount = 0
    keywords: tuple[Keyword, ...] = ()


class FormsDe(_Frozen, frozen=True):
    """Irregular German forms after the article ("Helden der Klingenfeste")."""

    nom: str = ""
    acc: str = ""
    dat: str = ""
    gen: str = ""


@lru_cache(maxsize=512)
def _pt(text: str | None) -> tuple[int | None, int | None]:
    m = re.match(r"^(\d+)/(\d+)$", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


class CardSpec(_Frozen, frozen=True):
    """What is printed on a card (or defined for a token)."""

    name_de: Text
    name_en: Text
    types: Annotated[
        tuple[CardType, ...], msgspec.Meta(min_length=1, extra={"expected": "a non-empty list of card types"})
    ]
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    colors: tuple[Color, ...] = ()
    pt: PT | None = None
    pt_cda: Literal["", "creatures_you_control"] = ""  # Wayfaring Temple's */* (613.4a)
    keywords: tuple[Keyword, ...] = ()
    triggers: tuple[TriggerSpec, ...] = ()
    activated: tuple[ActivatedSpec, ...] = ()
    statics: tuple[StaticSpec, ...] = ()
    spell: tuple[Effect, ...] = ()  # what an instant or sorcery does
    enchanted: Enchanted | None = None  # what an Aura gives the enchanted creature
    bestow: bool = False
    genus: Genus = "m"
    forms_de: FormsDe = FormsDe()

    @property
    def power(self) -> int | None:
        return _pt(self.pt)[0]

    @property
    def toughness(self) -> int | None:
        return _pt(self.pt)[1]

    def form_de(self, case: str) -> str:
        return str(getattr(self.forms_de, case, ""))


class CardEntry(CardSpec, kw_only=True, frozen=True):
    """A ``[[cards]]`` table: the printed card plus where it is and what has happened to it.

    ``card`` names a card of the card database; a ``CardLookup`` given to the loader fills the
    printed fields from it (the scenario's own fields win).
    """

    SPEC_FIELDS: ClassVar[tuple[str, ...]] = CardSpec.__struct_fields__

    id: Id
    owner: Text
    controller: str = ""
    card: str = ""
    zone: Zone = "battlefield"
    tapped: bool = False
    sick: bool = False  # came under its controller's control this turn
    token: bool = False
    damage: Count = 0
    counters: dict[str, Count] = {}

    def spec(self) -> CardSpec:
        return CardSpec(**{f: getattr(self, f) for f in self.SPEC_FIELDS})


class CardLookup(Protocol):
    """Printed facts of a card by name (``engine/cards.py``: the shipped card table, or the card
    database the facade injects): a dict of ``CardSpec`` fields (``name_de``, ``name_en``,
    ``types``, ``pt``, ...) or None if unknown; the nearest names for an error's hint; and what
    it is, for that error ("the shipped card table (57 cards)")."""

    def card_fields(self, name: str) -> dict[str, object] | None: ...

    def nearest(self, name: str) -> list[str]: ...

    def describe(self) -> str: ...


# --- players --------------------------------------------------------------------------------


class PlayerSetup(_Frozen, frozen=True):
    id: Id
    name: Text
    life: Amount = 20
    poison: Count = 0
    pronoun_de: str = ""  # "sie" / "er": "daher verteilt sie – nicht Robert –"
    pronoun_en: str = ""
    seat: Annotated[int, msgspec.Meta(ge=1, le=6, extra={"expected": "a seat number from 1 to 6"})] | None = (
        None
    )
    team: str = ""


# --- expectations: one field per kind, each with its own type ---------------------------------


class Expect(_Frozen, frozen=True):
    """Outcomes to check; each field is one kind of expectation (SCHEMA.md)."""

    life: dict[str, Amount] = {}
    poison: dict[str, Count] = {}
    lost: tuple[str, ...] | None = None
    died: tuple[str, ...] | None = None
    deaths: dict[str, Count] = {}
    damage: dict[str, Count] = {}
    assigned_by: dict[str, str] = {}
    blocked_by: dict[str, tuple[str, ...]] = {}
    tokens: dict[str, Count] = {}
    zone: dict[str, Literal["battlefield", "hand", "graveyard", "exile", "library", "gone"]] = {}
    marked: dict[str, Count] = {}
    counters: dict[str, dict[str, Count]] = {}
    pt: dict[str, PTNow] = {}
    has: dict[str, tuple[str, ...]] = {}
    lacks: dict[str, tuple[str, ...]] = {}
    tapped: dict[str, bool] = {}
    phased_out: dict[str, bool] = {}
    attached: dict[str, str] = {}
    types: dict[str, tuple[CardType, ...]] = {}

    def given(self) -> list[str]:
        """The kinds this table sets, in field order."""
        return [f for f in self.__struct_fields__ if getattr(self, f) not in ({}, None)]


# --- actions: one struct per ``do`` -------------------------------------------------------------

Rules = str | tuple[str, ...]


class ActionBase(_Frozen, tag_field="do", frozen=True):
    """What every action may carry besides its own fields."""

    comment: str = ""
    choices: dict[str, str | tuple[str, ...]] = {}
    order: tuple[str, ...] = ()
    reject: Rules | None = None
    expect: Expect = Expect()
    by: str = ""  # the player who makes this action's decision (checked against the rules)

    @property
    def do(self) -> str:
        return str(type(self).__struct_config__.tag)

    @property
    def rejects(self) -> tuple[str, ...]:
        """The acceptable rules of a refusal, as a tuple."""
        if self.reject is None:
            return ()
        return (self.reject,) if isinstance(self.reject, str) else self.reject


class Attack(ActionBase, tag="attack", kw_only=True, frozen=True):
    attackers: Annotated[
        tuple[str, ...], msgspec.Meta(min_length=1, extra={"expected": "a non-empty list of card ids"})
    ]
    bands: tuple[tuple[str, ...], ...] = ()
    #: whom each attacker (or band, by any member) attacks: a player or planeswalker id (508.1b)
    targets: dict[str, str] = {}


class Block(ActionBase, tag="block", frozen=True):
    blocks: dict[str, str] = {}


class DamageStep(ActionBase, tag="damage", frozen=True):
    assign: dict[str, dict[str, Amount]] = {}


class EndCombat(ActionBase, tag="end_combat", frozen=True):
    pass


class EndTurn(ActionBase, tag="end_turn", frozen=True):
    pass


class Cast(ActionBase, tag="cast", kw_only=True, frozen=True):
    card: str
    target: str | None = None
    bestow: bool = False
    buyback: bool = False
    prowl: bool = False


class Activate(ActionBase, tag="activate", kw_only=True, frozen=True):
    source: str
    ability: str | None = None
    target: str | None = None


class Check(ActionBase, tag="expect", frozen=True):
    """Only checks its ``expect`` table."""


Action = Attack | Block | DamageStep | EndCombat | EndTurn | Cast | Activate | Check


# --- the file ---------------------------------------------------------------------------------


class Title(_Frozen, frozen=True):
    de: Text
    en: Text


class Note(_Frozen, frozen=True):
    de: str = ""
    en: str = ""
    rule: str = ""


class ScenarioFile(_Frozen, frozen=True):
    """A whole scenario file as written."""

    id: Id
    title: Title
    source: Text
    players: Annotated[
        tuple[PlayerSetup, ...],
        msgspec.Meta(min_length=2, max_length=6, extra={"expected": "two to six [[players]] tables"}),
    ]
    cards: tuple[CardEntry, ...] = ()
    actions: tuple[Action, ...] = ()
    expect: Expect = Expect()
    active: str = ""
    note: Note | None = None
    #: "two_player" (default for two players) or "free_for_all" (default for more, 806)
    format: Literal["", "two_player", "free_for_all"] = ""
    #: Free-for-All's attack option (806.2b): attack multiple players (802), left or right (803)
    attack: Literal["multiple", "left", "right"] = "multiple"
