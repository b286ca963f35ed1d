"""Scenario files: load, list and find them.

A scenario is a TOML file (schema: data/scenarios/SCHEMA.md) with players, cards, ordered
actions and expected outcomes, decoded into the typed model of ``model.py`` by ``decode.py``.
Everything is validated when the file loads, so a typo fails with the file, the field and what
was expected, not halfway through a fight.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from regelwerk.engine.decode import References, convert, fill_cards, read_toml
from regelwerk.engine.errors import ScenarioError, UnknownScenario
from regelwerk.engine.model import Action, CardEntry, CardLookup, Expect, PlayerSetup


@dataclass(frozen=True)
class Scenario:
    """A decoded, checked scenario, ready for ``runner.run_scenario``."""

    id: str
    title_de: str
    title_en: str
    source: str
    file: str
    players: tuple[PlayerSetup, ...]
    cards: tuple[CardEntry, ...]
    actions: tuple[Action, ...]
    expect: Expect
    active: str
    note_de: str = ""
    note_en: str = ""
    note_rule: str = ""
    format: str = "two_player"
    attack: str = "multiple"

    def title(self, lang: str) -> str:
        return self.title_de if lang == "de" else self.title_en


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    title_de: str
    title_en: str
    source: str
    file: str

    def to_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "title_de": self.title_de,
            "title_en": self.title_en,
            "source": self.source,
            "file": self.file,
        }


# --- loading -------------------------------------------------------------------------------


def load_scenario(path: str | Path, cards: CardLookup | None = None) -> Scenario:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ScenarioError(str(p), "file", "a readable .toml file", exc.strerror or str(exc)) from None
    return parse_scenario(data, str(p), cards)


def parse_scenario(data: bytes, file: str, cards: CardLookup | None = None) -> Scenario:
    """Decode and check a scenario; ``cards`` fills ``card = "..."`` entries (the card database)."""
    return scenario_from_dict(read_toml(data, file), file, cards)


def scenario_from_dict(doc: dict[str, Any], file: str, cards: CardLookup | None = None) -> Scenario:
    """A scenario from an already parsed TOML document (what ``tomllib`` returns)."""
    raw = convert(fill_cards(doc, cards, file), file)
    References(file, raw).check()
    players = tuple(sorted(raw.players, key=lambda p: p.seat or 0)) if raw.players[0].seat else raw.players
    note = raw.note
    return Scenario(
        id=raw.id,
        title_de=raw.title.de,
        title_en=raw.title.en,
        source=raw.source,
        file=file,
        players=players,
        cards=raw.cards,
        actions=raw.actions,
        expect=raw.expect,
        active=raw.active or players[0].id,
        note_de=note.de if note else "",
        note_en=note.en if note else "",
        note_rule=note.rule if note else "",
        format=raw.format or ("two_player" if len(players) == 2 else "free_for_all"),
        attack=raw.attack,
    )


# --- finding scenarios ---------------------------------------------------------------------


def _packaged() -> list[Any]:
    folder = resources.files("regelwerk.data").joinpath("scenarios")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)


def list_scenarios(cards: CardLookup | None = None) -> list[ScenarioInfo]:
    """Every packaged scenario, sorted by id."""
    out = []
    for f in _packaged():
        s = parse_scenario(f.read_bytes(), f"data/scenarios/{f.name}", cards)
        out.append(ScenarioInfo(s.id, s.title_de, s.title_en, s.source, s.file))
    return sorted(out, key=lambda s: s.id)


def load_packaged(cards: CardLookup | None = None) -> list[Scenario]:
    """Every packaged scenario, decoded; ``cards`` (default: the shipped card table) fills the
    real cards they name."""
    return sorted(
        (parse_scenario(f.read_bytes(), f"data/scenarios/{f.name}", cards) for f in _packaged()),
        key=lambda s: s.id,
    )


def resolve_scenario(ref: str, cards: CardLookup | None = None) -> Scenario:
    """An id of a packaged scenario, or the path of a scenario file a user wrote."""
    path = Path(ref)
    if ref.endswith(".toml") or path.exists():
        return load_scenario(path, cards)
    scenarios = load_packaged(cards)
    for s in scenarios:
        if s.id == ref:
            return s
    raise UnknownScenario(ref, difflib.get_close_matches(ref, [s.id for s in scenarios], n=3))
