"""Card name lookup: exact, then by prefix and fuzzily, in either language, umlaut-folded.

Every name (English face name, "Front // Back" name, each German printed name) is stored in
``compact`` form, so case, ü/ue/u, ß/ss, spaces and hyphens never matter: "Mesa-Pegasus" and
"Mesapegasus" (4ED and 5ED spell it differently) are one key, and both lead to the one card.
Matching stops at the first level that finds something: an exact name is never drowned in
fuzzy noise. Results are one per card, best first, and render as the ``card --json`` payload.
"""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import dataclass
from typing import Any

from regelwerk.index.terms.check import check_query
from regelwerk.ingest.model.fold import compact

#: Scores: an exact name is 100; a prefix scores by how much of the name it covers.
PREFIX_BASE, PREFIX_SPAN = 85.0, 14.0
FUZZY_CUTOFF = 80.0
MIN_PREFIX = 3


@dataclass(frozen=True)
class CardMatch:
    card: int  # cards.id
    score: float
    how: str  # "exact", "prefix" or "fuzzy"
    matched: str  # the name that matched, as printed


def find_cards(
    conn: sqlite3.Connection, query: str, limit: int = 10, *, exact_only: bool = False
) -> list[CardMatch]:
    """Cards whose English or German name matches `query`, best first (empty if none)."""
    key = compact(check_query(query))
    hits = [
        CardMatch(r[0], 100.0, "exact", r[1])
        for r in conn.execute("SELECT card, name FROM names WHERE key = ?", (key,))
    ]
    if not hits and not exact_only:
        if len(key) >= MIN_PREFIX:
            rows = conn.execute(
                "SELECT key, card, name FROM names WHERE key > ? AND key < ? ORDER BY length(key) LIMIT 200",
                (key, key + "\U0010ffff"),
            )
            hits = [
                CardMatch(r[1], round(PREFIX_BASE + PREFIX_SPAN * len(key) / len(r[0]), 1), "prefix", r[2])
                for r in rows
            ]
        hits += _fuzzy(conn, key, limit * 3, FUZZY_CUTOFF)
    best: dict[int, CardMatch] = {}
    for m in hits:
        if m.card not in best or m.score > best[m.card].score:
            best[m.card] = m
    return sorted(best.values(), key=lambda m: (-m.score, m.matched.casefold()))[:limit]


def nearest(conn: sqlite3.Connection, query: str, count: int = 3) -> list[str]:
    """The closest card names at any score, for a "did you mean" hint."""
    names = [m.matched for m in _fuzzy(conn, compact(query), count * 3, 0.0)]
    return list(dict.fromkeys(names))[:count]


def _fuzzy(conn: sqlite3.Connection, key: str, limit: int, cutoff: float) -> list[CardMatch]:
    from rapidfuzz import fuzz, process

    rows = conn.execute("SELECT key, card, name FROM names").fetchall()
    found = process.extract(key, [r[0] for r in rows], scorer=fuzz.QRatio, score_cutoff=cutoff, limit=limit)
    return [CardMatch(rows[i][1], round(float(score), 1), "fuzzy", rows[i][2]) for _, score, i in found]


@functools.cache
def keyword_rules() -> dict[str, tuple[str, str]]:
    """English keyword name (folded) -> (rule number, German name) from the shipped term tables."""
    from regelwerk.index.terms.shipped import load_terms

    out: dict[str, tuple[str, str]] = {}
    for row in load_terms():
        if row.kind in ("keyword_ability", "keyword_action", "ability_word") and row.number:
            out.setdefault(compact(row.en), (row.number, row.de))
    return out


def card_payload(conn: sqlite3.Connection, match: CardMatch) -> dict[str, Any]:
    """One card as the ``card --json`` contract has it, with how it matched. A column the card
    tables were written with but no longer name (a flipped bit in the schema text SQLite still
    accepts: damage campaign seed 60) is damage with its fix, not an IndexError."""
    from regelwerk.index.cards.store import damaged, db_file

    try:
        return _payload(conn, match)
    except IndexError as exc:  # sqlite3.Row: "No item with that key"
        raise damaged(db_file(conn), f"a column of the card tables is missing: {exc}") from None


def _payload(conn: sqlite3.Connection, match: CardMatch) -> dict[str, Any]:
    from regelwerk.index.cards.store import damaged, db_file, stored_json

    card = conn.execute("SELECT * FROM cards WHERE id = ?", (match.card,)).fetchone()
    if card is None:  # a name whose card is not there: the names table was damaged
        raise damaged(db_file(conn), f"name {match.matched!r} of card {match.card}, which is missing")
    printings = conn.execute(
        "SELECT p.*, s.name AS set_name FROM printings p LEFT JOIN sets s ON s.code = p.set_code"
        " WHERE p.card = ? ORDER BY p.year, p.set_code, p.number",
        (match.card,),
    ).fetchall()
    german = [p for p in printings if p["name_de"]]
    newest_first = sorted(german, key=lambda p: p["year"] or 0, reverse=True)
    names_de = list(dict.fromkeys(p["name_de"] for p in newest_first))
    type_de = next((p["type_de"] for p in newest_first if p["type_de"]), None)
    rules = keyword_rules()
    keywords = []
    for name in stored_json(conn, card["keywords"], list):
        number, de = rules.get(compact(name), ("", ""))
        keywords.append({"name": name, "rule": number or None, "de": de or None})
    power, toughness = card["power"], card["toughness"]
    return {
        "name_en": card["name"],
        "full_name": card["full_name"],
        "names_de": names_de,
        "type_en": card["type_line"],
        "type_de": type_de,
        "mana_cost": card["mana_cost"],
        "pt": f"{power}/{toughness}" if power is not None and toughness is not None else None,
        "loyalty": card["loyalty"],
        "keywords": keywords,
        "oracle_text": card["text"],
        "printings": [
            {
                "set": p["set_code"],
                "set_name": p["set_name"],
                "number": p["number"],
                "year": p["year"],
                "name_de": p["name_de"],
                "type_de": p["type_de"],
                "text_de": p["text_de"],
            }
            for p in printings
        ],
        "score": match.score,
        "match": match.how,
        "matched": match.matched,
    }


class NamedCards:
    """One card's payload by its exact (umlaut-folded) English or German name, and the nearest
    names for a hint: what a scenario's ``card = "Craw Wurm"`` asks of the card database."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def payload(self, name: str) -> dict[str, Any] | None:
        try:
            found = find_cards(self.conn, name, 1, exact_only=True)
        except ValueError:  # not a usable name at all (empty, control characters)
            return None
        return card_payload(self.conn, found[0]) if found else None

    def nearest(self, name: str) -> list[str]:
        return nearest(self.conn, name)
