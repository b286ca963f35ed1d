"""Triggered abilities waiting for the stack, put there in APNAP order.

When an event matches a trigger (603.2) the ability waits in ``game.pending``; the next time a
player would receive priority, each player in APNAP order puts their waiting abilities on the
stack in the order they choose (603.3b), so the nonactive player's abilities resolve first.
A scenario states a player's choice with ``order``: trigger labels in the order they should
resolve. Labels are "<card id>:<ability>", e.g. "hero:battle cry" or "hero:tokens".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from regelwerk.engine.events import Label, Ref, say
from regelwerk.engine.keyword_names import kw_label
from regelwerk.engine.model import TriggerSpec
from regelwerk.engine.state import Game


@dataclass
class PendingTrigger:
    controller: str
    source: str
    label: str
    rule: str
    keyword: str = ""  # a keyword trigger the engine knows ("persist", "bushido", ...)
    spec: TriggerSpec | None = None
    text: Label = field(default_factory=lambda: Label("", ""))
    data: dict[str, Any] = field(default_factory=dict)


def add(
    game: Game,
    controller: str,
    source: str,
    label: str,
    rule: str,
    *,
    text: Label | None = None,
    keyword: str = "",
    spec: TriggerSpec | None = None,
    announce: bool = True,
    **data: Any,
) -> None:
    """An ability triggers (603.2); it waits until a player would receive priority."""
    text = text or Label(label, label)
    game.pending.append(
        PendingTrigger(controller, source, f"{source}:{label}", rule, keyword, spec, text, data)
    )
    if announce:
        say(game, rule, "trigger", source=Ref(source), ability=text)


def spec_label(spec: TriggerSpec) -> Label:
    """How the trace names a card's own ability; a scenario may leave the labels out."""
    return Label(spec.label_de or spec.id, spec.label_en or spec.id)


def add_spec(game: Game, controller: str, source: str, spec: TriggerSpec, rule: str, **data: Any) -> None:
    """A card's own triggered ability triggers (603.2): labelled and resolved by its spec."""
    add(game, controller, source, spec.id, rule, spec=spec, text=spec_label(spec), **data)


def add_keyword(
    game: Game, controller: str, source: str, name: str, rule: str, *, text: Label | None = None, **data: Any
) -> None:
    """A keyword ability the engine itself resolves triggers ("persist", "prowess", ...); the
    trace names it as the keyword unless ``text`` says more (bushido's number)."""
    add(game, controller, source, name, rule, keyword=name, text=text or kw_label(name), **data)


def put_on_stack(game: Game) -> None:
    """Move waiting triggers onto the stack: APNAP, each player in the chosen order (603.3b)."""
    if not game.pending:
        return
    waiting, game.pending = game.pending, []
    wanted = {label: i for i, label in enumerate(game.order)}
    for player in game.apnap():
        mine = [t for t in waiting if t.controller == player]
        if not mine:
            continue
        # Resolution order: as chosen, otherwise in the order they triggered.
        mine.sort(key=lambda t: (wanted.get(t.label, len(wanted)), waiting.index(t)))
        if len(mine) > 1:
            say(
                game,
                "603.3b",
                "stack_order",
                player=Ref(player),
                abilities=[t.text for t in mine],
            )
        game.stack.extend(reversed(mine))
