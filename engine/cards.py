"""Real cards in scenarios: ``card = "Craw Wurm"`` (or ``card = "Tatzelwurm"``).

A scenario that names a real card takes its printed facts (both names, card types, subtypes,
supertypes, colours, P/T and the keywords the engine plays) from a ``CardLookup``; what the file
states itself wins. Two lookups exist, tried in order by ``CardChain``:

- the user's card database (MTGJSON files ingested with ``regelwerk ingest``), which the library
  facade injects as ``DatabaseCards`` over its card payloads (the ``card --json`` shape);
- the shipped table ``data/cards/scenario-cards.json`` (``ShippedCards``): the facts of exactly
  the cards the shipped scenarios name, generated from MTGJSON by ``tools/scenario_cards.py``
  with its provenance, so the shipped scenarios run right after install, before any cards are
  ingested.

Both turn a card payload into scenario fields with ``facts_from_payload``, so the table and the
database can only disagree when their data differ (a test compares them on the real files).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any, Protocol

from regelwerk.engine.keywords import UnknownKeywordAbility, parse_keyword
from regelwerk.engine.model import CardLookup
from regelwerk.ingest.model.fold import compact

#: The scenario fields a card lookup fills (the printed part of ``CardSpec``).
PRINTED = ("name_en", "name_de", "types", "subtypes", "supertypes", "colors", "pt", "keywords")
SUPERTYPES = ("Basic", "Legendary", "Snow", "World", "Ongoing")
#: Mana symbols to colours, in the WUBRG order cards list them; hybrid symbols ({G/W}) count both.
COLOURS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
TABLE = "scenario-cards.json"
_REMINDER = re.compile(r"\s*\([^)]*\)")


# --- a card payload to scenario fields ----------------------------------------------------------


def split_type_line(line: str) -> tuple[list[str], list[str], list[str]]:
    """ "Legendary Creature — Angel" -> (["Creature"], ["Angel"], ["Legendary"])."""
    head, _, tail = line.partition("—")
    words = head.split()
    return [w for w in words if w not in SUPERTYPES], tail.split(), [w for w in words if w in SUPERTYPES]


def colours(mana_cost: str | None) -> list[str]:
    """A card's colours from its mana cost ({1}{G/W}{G/W} is green and white)."""
    symbols = set(re.findall(r"[WUBRG]", "".join(re.findall(r"\{([^}]*)\}", mana_cost or ""))))
    return [name for letter, name in COLOURS.items() if letter in symbols]


def oracle_keywords(text: str | None, printed: Iterable[str]) -> list[str]:
    """The keyword abilities the engine plays, as scenarios write them, read from the Oracle
    text's keyword lines ("Flying, first strike, ... protection from black and from red",
    "Bushido 1 (reminder)", "Buyback {3}"). MTGJSON's keyword list says which words are keywords
    but not their values; the text has both. Keywords the engine models otherwise (bestow,
    bloodrush, landcycling) or not at all are left out."""
    names = tuple(k.lower() for k in printed)
    found: list[str] = []
    if not names:
        return found
    for line in (text or "").splitlines():
        items = [i.strip() for i in re.split(r"[,;]", _REMINDER.sub("", line)) if i.strip()]
        if not items or not all(i.lower().startswith(names) for i in items):
            continue
        for item in items:
            for part in re.split(r"\s+and\s+(?=from\b)", item):
                keyword = _engine_keyword(part if not part.startswith("from") else f"protection {part}")
                if keyword and keyword not in found:
                    found.append(keyword)
    return found


def _engine_keyword(item: str) -> str | None:
    """ "Bushido 1" -> "bushido 1"; "Buyback {3}" -> "buyback"; "Bestow {5}{W}" -> None."""
    for candidate in (item, re.sub(r"\s*(\{.*|—.*)$", "", item)):
        try:
            return str(parse_keyword(candidate))
        except UnknownKeywordAbility:
            continue
    return None


def facts_from_payload(card: Mapping[str, Any], german: str | None = None) -> dict[str, object]:
    """Scenario fields from one card payload (the ``card --json`` shape); `german` is the German
    spelling asked for, when the card was named by one of its German names."""
    types, subtypes, supertypes = split_type_line(card.get("type_en") or "")
    names_de = list(card.get("names_de") or [])
    facts: dict[str, object] = {"name_en": card["name_en"], "types": types}
    if names_de:
        facts["name_de"] = german if german in names_de else names_de[0]
    for field, value in (("subtypes", subtypes), ("supertypes", supertypes)):
        if value:
            facts[field] = value
    if colour := colours(card.get("mana_cost")):
        facts["colors"] = colour
    if card.get("pt"):
        facts["pt"] = card["pt"]
    printed = [k["name"] if isinstance(k, Mapping) else str(k) for k in card.get("keywords") or ()]
    if keywords := oracle_keywords(card.get("oracle_text"), printed):
        facts["keywords"] = keywords
    return facts


def german_spelling(asked: str, name_en: str, names_de: Iterable[str]) -> str | None:
    """Which German spelling a name asks for: "Mesa-Pegasus" is the 4ED printing's, though it
    folds to the same key as the 5ED "Mesapegasus" (the exact spelling first, then folded). The
    English name asks for none, even where a German printing kept it ("Mesa Pegasus", ITP)."""
    names = list(names_de)
    if asked.strip().casefold() == name_en.casefold():
        return None
    for same in (str.casefold, compact):
        if found := next((n for n in names if same(n) == same(asked)), None):
            return found
    return None


# --- lookups -------------------------------------------------------------------------------------


class CardPayloads(Protocol):
    """What the library gives the engine of its card database: one card's payload by exact
    (umlaut-folded) English or German name, and the nearest names for a hint."""

    def payload(self, name: str) -> Mapping[str, Any] | None: ...

    def nearest(self, name: str) -> list[str]: ...


class DatabaseCards:
    """The user's card database as a ``CardLookup``."""

    def __init__(self, payloads: CardPayloads) -> None:
        self.payloads = payloads

    def card_fields(self, name: str) -> dict[str, object] | None:
        card = self.payloads.payload(name)
        if card is None:
            return None
        return facts_from_payload(card, german_spelling(name, card["name_en"], card.get("names_de") or ()))

    def nearest(self, name: str) -> list[str]:
        return self.payloads.nearest(name)

    def describe(self) -> str:
        return "the card database"


class ShippedCards:
    """The shipped table of the cards the shipped scenarios name (``data/cards/``)."""

    def __init__(self, table: Mapping[str, Any]) -> None:
        self.cards: dict[str, Mapping[str, Any]] = dict(table["cards"])
        self.keys: dict[str, tuple[str, str | None]] = {}
        for en, entry in self.cards.items():
            self.keys[compact(en)] = (en, None)
            for de in entry.get("names_de", ()):
                self.keys.setdefault(compact(de), (en, de))

    def card_fields(self, name: str) -> dict[str, object] | None:
        en = self.keys.get(compact(name), ("", None))[0]
        if not en:
            return None
        facts = dict(self.cards[en]["fields"])
        if german := german_spelling(name, en, self.cards[en].get("names_de", ())):
            facts["name_de"] = german
        return facts

    def nearest(self, name: str) -> list[str]:
        """The three closest cards, each once, by the name (German or English) that is closest."""
        from rapidfuzz import fuzz, process

        keys = list(self.keys)
        found = process.extract(compact(name), keys, scorer=fuzz.QRatio, limit=12)
        best: dict[str, str] = {}
        for key, _, _ in found:
            en, de = self.keys[key]
            best.setdefault(en, de or en)
        return list(best.values())[:3]

    def describe(self) -> str:
        return f"the shipped card table ({len(self.cards)} cards; ingest MTGJSON card files for others)"


class CardChain:
    """Lookups tried in order: the first that knows a name answers."""

    def __init__(self, *lookups: CardLookup) -> None:
        self.lookups = lookups

    def card_fields(self, name: str) -> dict[str, object] | None:
        for lookup in self.lookups:
            if (facts := lookup.card_fields(name)) is not None:
                return facts
        return None

    def nearest(self, name: str) -> list[str]:
        names = [n for lookup in self.lookups for n in lookup.nearest(name)]
        return list(dict.fromkeys(names))[:3]

    def describe(self) -> str:
        return " or ".join(lookup.describe() for lookup in self.lookups)


@functools.cache
def shipped_table() -> dict[str, Any]:
    """The generated table as shipped (with its provenance)."""
    text = resources.files("regelwerk.data").joinpath("cards", TABLE).read_text(encoding="utf-8")
    table: dict[str, Any] = json.loads(text)
    return table


@functools.cache
def shipped_cards() -> ShippedCards:
    return ShippedCards(shipped_table())
