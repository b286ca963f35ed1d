"""Narration events: what the engine did, which rule it applied, in no language yet.

Every step the engine takes appends one ``Event``; ``narration.py`` turns it into a German or
English sentence later. Parameters that name a card or player are ``Ref``s, resolved to
names (with German articles) only when rendering.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Ref:
    """A card or player mentioned in an event, by id."""

    id: str


@dataclass(frozen=True)
class Label:
    """A short text that exists in both languages, such as an ability's name.

    ``keyword`` marks a keyword's name ("persist"); English quotes other labels, which are
    phrases a scenario chose ("ability “gain 2 life”").
    """

    de: str
    en: str
    keyword: bool = False


@dataclass(frozen=True)
class Share:
    """Part of a damage division: ``n`` damage to ``target``."""

    target: str
    n: int


@dataclass(frozen=True)
class Event:
    rule: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        def plain(v: Any) -> Any:
            if isinstance(v, Ref):
                return v.id
            if isinstance(v, Label):
                return v.en
            if isinstance(v, Event):
                return v.to_dict()
            if isinstance(v, Share):
                return {"target": v.target, "n": v.n}
            if isinstance(v, list | tuple):
                return [plain(x) for x in v]
            return v

        return {"rule": self.rule, "key": self.key, "params": {k: plain(v) for k, v in self.params.items()}}


def refs(ids: list[str] | tuple[str, ...]) -> list[Ref]:
    return [Ref(i) for i in ids]


def say(game: Any, rule: str, key: str, **params: Any) -> None:
    """Record one narrated step of the engine."""
    game.events.append(Event(rule, key, params))
