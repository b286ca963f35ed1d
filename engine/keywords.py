"""Keyword abilities as scenarios write them: "flying", "bushido 1", "protection from black".

The engine implements a fixed set of keywords; parsing them here, with their values, means
an unknown or mistyped keyword is refused when a scenario loads instead of silently doing
nothing in the middle of a fight.
"""

from __future__ import annotations

import re

from regelwerk.ingest.model.errors import InputError

#: Keywords without a value, mapped to the CR rule that defines them.
FLAGS: dict[str, str] = {
    "deathtouch": "702.2",
    "defender": "702.3",
    "double strike": "702.4",
    "first strike": "702.7",
    "flying": "702.9",
    "haste": "702.10",
    "indestructible": "702.12",
    "reach": "702.17",
    "trample": "702.19",
    "vigilance": "702.20",
    "banding": "702.22",
    "phasing": "702.26",
    "provoke": "702.39",
    "persist": "702.79",
    "battle cry": "702.91",
    "buyback": "702.27",
    "prowl": "702.76",
    "prowess": "702.108",
}
#: Keywords with a number ("bushido 1").
NUMBERED: dict[str, str] = {
    "bushido": "702.45",
    "bloodthirst": "702.54",
    "poisonous": "702.70",
}
#: Keywords with a quality ("protection from red", "bands with other Wolves").
QUALIFIED: dict[str, str] = {
    "protection from": "702.16",
    "bands with other": "702.22",
}
LANDWALK_RULE = "702.14"
_LANDWALK = re.compile(r"^(?P<land>[a-z]+)walk$")
LAND_TYPES = ("plains", "island", "swamp", "mountain", "forest")


class UnknownKeywordAbility(InputError):
    """A keyword string the engine does not implement."""

    def __init__(self, given: str) -> None:
        known = sorted([*FLAGS, *(f"{k} N" for k in NUMBERED), *(f"{k} X" for k in QUALIFIED)])
        super().__init__(
            f"unknown keyword {given!r}; expected one of {', '.join(known)} or a landwalk such as 'swampwalk'"
        )
        self.given = given


class Keyword:
    """One keyword ability: ``name`` is canonical English, ``value`` its N or quality.

    A plain immutable class, not a dataclass: the scenario decoder (msgspec) hands keyword
    *strings* to ``parse_keyword`` through its decode hook, which it does only for types it
    doesn't decode itself.
    """

    __slots__ = ("name", "value")
    name: str
    value: int | str | None

    def __init__(self, name: str, value: int | str | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Keyword is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keyword) and (self.name, self.value) == (other.name, other.value)

    def __hash__(self) -> int:
        return hash((self.name, self.value))

    def __repr__(self) -> str:
        return f"Keyword({self.name!r}, {self.value!r})"

    def __deepcopy__(self, memo: dict[int, object]) -> Keyword:
        return self

    @property
    def rule(self) -> str:
        if self.name == "landwalk":
            return LANDWALK_RULE
        return FLAGS.get(self.name) or NUMBERED.get(self.name) or QUALIFIED[self.name]

    def __str__(self) -> str:
        if self.name == "landwalk":
            return f"{self.value}walk"
        return self.name if self.value is None else f"{self.name} {self.value}"


def parse_keyword(text: str) -> Keyword:
    """Parse one keyword string; raises UnknownKeywordAbility."""
    s = " ".join(text.strip().split())
    low = s.lower()
    if low in FLAGS:
        return Keyword(low)
    for name in NUMBERED:
        if low.startswith(name + " "):
            rest = low[len(name) + 1 :]
            if rest.isdigit() and int(rest) > 0:
                return Keyword(name, int(rest))
            raise UnknownKeywordAbility(text)
    for name in QUALIFIED:
        if low.startswith(name + " "):
            quality = s[len(name) + 1 :].strip()
            if quality:
                return Keyword(name, quality.lower() if name == "protection from" else quality)
    m = _LANDWALK.match(low)
    if m and m.group("land") in LAND_TYPES:
        return Keyword("landwalk", m.group("land"))
    raise UnknownKeywordAbility(text)
