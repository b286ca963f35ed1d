"""Errors the rules engine raises.

Two different failures look alike from outside and must not be confused: a *game* action the
rules forbid (``IllegalAction``, carrying the rule it breaks, so a scenario can assert "this block
is rejected by 702.9b"), and a *file* that cannot be played at all (``ScenarioError``, naming the
file, the field or line, and what was expected). Both are bad input, so both are ``InputError``.
"""

from __future__ import annotations

from typing import Any

from regelwerk.ingest.model.errors import InputError, NotFound
from regelwerk.ingest.model.message import N_, msg


class IllegalAction(InputError):
    """The rules forbid an action; ``rule`` is the CR number that forbids it.

    ``key`` and ``params`` let the narration render the refusal in either language; the
    exception message itself is the English sentence, so a library caller sees something useful.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        key: str = "",
        params: dict[str, Any] | None = None,
        also: tuple[str, ...] = (),
    ):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        #: more general rules that forbid it too (302.6 cites 508.1a's requirement); a scenario's
        #: ``reject`` may name any of them, the narration cites ``rule``, the most specific
        self.also = also
        self.key = key
        self.params: dict[str, Any] = dict(params or {})
        self.text = message


class WrongStep(InputError):
    """An action was asked for at a point of the turn where it cannot happen at all.

    This is a mistake in the scenario (blockers before attackers, a second combat), not a
    rules question the game could answer, so the runner turns it into a ``ScenarioError``.
    """

    def __init__(self, action: str, expected: str) -> None:
        super().__init__(f"{action!r} cannot happen now; expected {expected}")
        self.action = action
        self.expected = expected


class ScenarioError(InputError):
    """A scenario file that cannot be played: bad TOML, unknown names, impossible values."""

    def __init__(self, file: str, where: str, expected: str, got: object = None) -> None:
        got_part = f"got {_short(got)}; " if got is not None else ""
        super().__init__(f"{file}: {where}: {got_part}expected {expected}")
        self.file = file
        self.where = where
        self.expected = expected


class UnknownScenario(NotFound):
    """An id that names no packaged scenario and no file."""

    def __init__(self, given: str, suggestions: list[str]) -> None:
        if suggestions:
            template = N_("no scenario {given!r} (did you mean {near}?); expected an id from `regelwerk "
                          "example list` or the path of a .toml scenario file")
        else:
            template = N_("no scenario {given!r}; expected an id from `regelwerk example list` or the "
                          "path of a .toml scenario file")
        super().__init__(msg(template, given=given, near=", ".join(repr(s) for s in suggestions)))
        self.given = given
        self.suggestions = suggestions


def _short(value: object, limit: int = 80) -> str:
    """A value as the error quotes it, cut so the message stays one readable line."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deep>"
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"
