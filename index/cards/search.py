"""Card text search: the FTS5 index of the card database, in German and English at once.

The index holds each card's names, Oracle text and German printed texts, all folded
(ü = ue = u, ß = ss). A query word matches by its Snowball stem as a prefix, German and English
stem alike ("verhindern" -> ``verhind*``, "prevent" -> ``prevent*``), so "Schaden verhindern"
finds "Verhindere den nächsten Schaden"; every word must match, bm25 ranks. SQLite only: no whoosh.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from regelwerk.index.cards.lookup import CardMatch, card_payload, find_cards
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.stemming import stem

_WORD = re.compile(r"\w+")
#: Words a card name needs, at least, to count as named inside a longer rules question.
MIN_NAME_WORDS = 2


def fts_query(text: str) -> str | None:
    """The FTS5 MATCH expression for a user's words (None when no word is left)."""
    parts = []
    for word in _WORD.findall(fold(text)):
        stems = dict.fromkeys(s for s in (stem(word, "de"), stem(word, "en"), word) if len(s) >= 2)
        if stems:
            parts.append("(" + " OR ".join(f'"{s}"*' for s in stems) + ")")
    return " AND ".join(parts) or None


def search_cards(conn: sqlite3.Connection, query: str, limit: int = 10) -> list[dict[str, Any]]:
    """Cards whose text (either language) has every word of `query`, best first."""
    expr = fts_query(query)
    if expr is None:
        return []
    rows = conn.execute(
        "SELECT rowid, bm25(card_text, 2.0, 1.0, 1.0) AS rank FROM card_text WHERE card_text MATCH ?"
        " ORDER BY rank LIMIT ?",
        (expr, limit),
    ).fetchall()
    out = []
    for rowid, rank in rows:
        card = card_payload(conn, CardMatch(int(rowid), round(-float(rank), 2), "text", ""))
        out.append(_hit(card, query))
    return out


def _hit(card: dict[str, Any], query: str) -> dict[str, Any]:
    """A search hit: the card's names and type, the German and English text that matched."""
    words = [stem(w, "de")[:5] for w in _WORD.findall(fold(query))]
    german = [p for p in card["printings"] if p["text_de"]]
    best = max(
        german, key=lambda p: (sum(w in fold(p["text_de"]) for w in words), p["year"] or 0), default=None
    )
    return {
        "name_en": card["name_en"],
        "names_de": card["names_de"],
        "type_en": card["type_en"],
        "oracle_text": card["oracle_text"],
        "text_de": None if best is None else best["text_de"],
        "printing": None if best is None else {"set": best["set"], "year": best["year"]},
        "score": card["score"],
    }


def named_cards(conn: sqlite3.Connection, query: str, limit: int = 3) -> list[dict[str, Any]]:
    """Cards a rules query names: the whole query, or 2-4 consecutive words of it, is exactly
    a card's German or English name ("wie funktioniert Mesa Pegasus mit Bündnis")."""
    words = query.split()
    spans = [" ".join(words)] + [
        " ".join(words[i : i + n])
        for n in range(min(4, len(words) - 1), MIN_NAME_WORDS - 1, -1)
        for i in range(len(words) - n + 1)
    ]
    found: dict[int, CardMatch] = {}
    for span in spans:
        if not span.strip():
            continue
        try:
            matches = find_cards(conn, span, limit, exact_only=True)
        except InputError:
            continue  # a span of punctuation names nothing
        for m in matches:
            found.setdefault(m.card, m)
    return [card_payload(conn, m) for m in list(found.values())[:limit]]
