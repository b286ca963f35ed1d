"""Computed characteristics: the layer system, cut down to what the engine's cards need.

Power and toughness follow 613.4: a characteristic-defining ability (7a), then counters and
modifying effects (7c), including Aura bonuses and until-end-of-turn pumps. Keywords come from
the card, from other permanents' static abilities ("All Sliver creatures have poisonous 1"),
from Auras, from effects and from keyword counters (122.1b). Phased-out permanents give
nothing, because they are treated as though they don't exist (702.26b).
"""

from __future__ import annotations

from regelwerk.engine.keywords import FLAGS, Keyword
from regelwerk.engine.state import Card, Game

_PT_COUNTER = {"+1/+1": (1, 1), "-1/-1": (-1, -1)}


def types(card: Card) -> tuple[str, ...]:
    """A bestowed permanent is an Aura enchantment, not a creature (702.103b)."""
    if card.bestowed:
        return ("Enchantment",)
    return card.spec.types


def subtypes(card: Card) -> tuple[str, ...]:
    if card.bestowed:
        return ("Aura",)
    return card.spec.subtypes


def is_creature(game: Game, card: Card) -> bool:
    return card.on_battlefield and "Creature" in types(card)


def _auras_on(game: Game, card: Card) -> list[Card]:
    return [
        a
        for a in game.cards.values()
        if a.on_battlefield and a.attached_to == card.id and a.spec.enchanted is not None
    ]


def keywords(game: Game, card: Card) -> list[Keyword]:
    found = list(card.spec.keywords)
    if card.on_battlefield and "Creature" in types(card):
        for other in game.battlefield():
            for st in other.spec.statics:
                if st.kind == "grant" and (not st.subtype or st.subtype in subtypes(card)):
                    found.extend(st.keywords)
        for aura in _auras_on(game, card):
            assert aura.spec.enchanted is not None
            found.extend(aura.spec.enchanted.keywords)
    for eff in game.effects:
        if eff.applies_to(card):
            found.extend(eff.keywords)
    for kind, n in card.counters.items():
        if kind in FLAGS and n > 0:
            found.append(Keyword(kind))
    return found


def has(game: Game, card: Card, name: str) -> bool:
    return any(k.name == name for k in keywords(game, card))


def values(game: Game, card: Card, name: str) -> list[int | str]:
    """Every instance's value: two instances of bushido 1 trigger twice (702.45b)."""
    return [k.value for k in keywords(game, card) if k.name == name and k.value is not None]


def max_blockers(game: Game, card: Card) -> int | None:
    limits = [s.amount for s in card.spec.statics if s.kind == "max_blockers"]
    return min(limits) if limits else None


def _base(game: Game, card: Card) -> tuple[int, int]:
    if card.spec.pt_cda == "creatures_you_control":
        n = sum(1 for c in game.battlefield() if c.controller == card.controller and is_creature(game, c))
        return n, n
    return card.spec.power or 0, card.spec.toughness or 0


def power_toughness(game: Game, card: Card) -> tuple[int, int]:
    p, t = _base(game, card)
    for kind, n in card.counters.items():
        dp, dt = _PT_COUNTER.get(kind, (0, 0))
        p, t = p + dp * n, t + dt * n
    for aura in _auras_on(game, card):
        assert aura.spec.enchanted is not None
        p, t = p + aura.spec.enchanted.power, t + aura.spec.enchanted.toughness
    for eff in game.effects:
        if eff.applies_to(card):
            p, t = p + eff.power, t + eff.toughness
    return p, t


def power(game: Game, card: Card) -> int:
    return power_toughness(game, card)[0]


def toughness(game: Game, card: Card) -> int:
    return power_toughness(game, card)[1]


def colors(card: Card) -> tuple[str, ...]:
    return card.spec.colors


def protection_from(game: Game, card: Card, source: Card) -> str | None:
    """The quality that protects ``card`` from ``source`` (702.16a), or None."""
    for quality in values(game, card, "protection from"):
        q = str(quality)
        if q == "everything" or q in source.spec.colors:
            return q
        singular = q[:-1] if q.endswith("s") else q
        if singular.capitalize() in source.spec.types:
            return q
    return None


def lethal_damage(game: Game, card: Card) -> int:
    """Damage still needed to destroy it: toughness minus damage already marked (120.6)."""
    return max(0, toughness(game, card) - card.damage)
