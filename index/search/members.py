"""Which releases hold which indexed text: the small SQLite table beside the whoosh index.

Most rules read the same in release after release (lineage finds 198,605 unchanged steps
against ~22,000 changed or new over the 104 archive releases), so the whoosh index holds each
distinct *unit* (one section's or glossary entry's indexed fields) once, and this table says
where each unit occurs and what its number is today there::

    docs     (ord, id, sha256, version, rank, volatile, languages)  one row per document
    units    (uid, docnum, key, language, number, dflt, record, template)  one per live whoosh document
    members  (doc, position, uid, current)           one row per section / glossary entry
    scope    (doc, language)                               what a plain search covers
    spell    (word, n)                                     word counts of every unit's words
    plain    (title, body) FTS5, rowid = uid               the default scope's English units
    plain_common (term)                                    its terms in over half its rows
    asked_de, asked_en (terms) FTS5, rowid = uid            how players ask for each rule

A search is filtered by a set of whoosh document numbers read from here (the newest release
by default, one version, or everything) and each hit is *placed*: given the document,
version, position and number today of the occurrence the scope asks for. The number today
(``current``) belongs to the occurrence, not the unit: when a new release moves it (722 ->
723), only these rows change and no whoosh document is written again; a search for a number
asks `Members.today` which units are that rule today. ``record`` keeps a unit's fields
(zlib'd JSON); ``template`` a 701/702 rule's text with its keyword's name and numbers masked
(``rerank.template``), made once at build time: a question counts the scope's templates
(`Members.templates`) instead of reading every keyword rule's stored fields. Readers open the
file read-only; only the builder (``incremental``) writes it.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FILE = "members.sqlite"

SCHEMA = """
CREATE TABLE docs (ord INTEGER PRIMARY KEY, id TEXT UNIQUE, sha256 TEXT, version TEXT,
                   rank INTEGER, volatile INTEGER, languages TEXT);
CREATE TABLE units (uid INTEGER PRIMARY KEY, docnum INTEGER, key TEXT UNIQUE, language TEXT,
                    number TEXT, dflt INTEGER DEFAULT 0, record BLOB, template TEXT);
CREATE INDEX units_docnum ON units (docnum);
CREATE INDEX units_template ON units (template, docnum, language) WHERE template IS NOT NULL;
CREATE TABLE members (doc INTEGER, position INTEGER, uid INTEGER, current TEXT,
                      PRIMARY KEY (doc, position)) WITHOUT ROWID;
CREATE TABLE scope (doc INTEGER, language TEXT);
CREATE TABLE spell (word TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
"""

#: The members table's own indexes, made by a new table's builder after its rows are in
#: (sorting the archive's 277,000 rows once costs about 60% of keeping them in order row by row).
MEMBER_INDEXES = """
CREATE INDEX members_uid ON members (uid);
CREATE INDEX members_current ON members (current);
"""

#: The default scope's units by language, for `Members.allowed`: every build makes it (a table
#: grown from an older one gets it then). A plain search's first filter read the whole units
#: table, records and all (~6 ms of a cold question); this index covers it (< 1 ms).
SCOPE_INDEX = "CREATE INDEX IF NOT EXISTS units_scope ON units (dflt, language, docnum)"

#: The default scope's English units as plain text (title, rule text) for SQLite's FTS5: bm25,
#: no stemming, no boosts, an English question's second opinion (``fusion``). Its rowid is the
#: unit's uid; every build that writes units makes it again (`write_plain`).
PLAIN = """
DROP TABLE IF EXISTS plain;
DROP TABLE IF EXISTS plain_common;
CREATE VIRTUAL TABLE plain USING fts5(title, body, tokenize='unicode61 remove_diacritics 2');
"""
#: The terms in more than half of `PLAIN`'s rows ("a", "the"): FTS5's bm25 gives them an idf of
#: 1e-6 (its log is below 0), so they add nothing to a score, but scoring every row they match
#: was a third of an English question's FTS5 time (4.1 -> 2.8 ms): a search leaves them out.
PLAIN_COMMON = """
CREATE VIRTUAL TABLE temp.plain_terms USING fts5vocab(main, plain, 'row');
CREATE TABLE plain_common AS SELECT term FROM temp.plain_terms
    WHERE doc * 2 > (SELECT count(*) FROM plain);
DROP TABLE temp.plain_terms;
"""
_QUOTE = '"'

#: One placed occurrence: (document id, version, position, number today).
Place = tuple[str, str | None, int, str | None]


def pack(record: dict[str, Any]) -> bytes:
    """A unit's fields as zlib'd JSON (the fastest level: every level reads back the same)."""
    return zlib.compress(json.dumps(record, ensure_ascii=False).encode("utf-8"), 1)


def unpack(blob: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(zlib.decompress(blob).decode("utf-8"))
    return data


class Members:
    """Read side: filters and placements for one opened index (cheap; queries are cached)."""

    def __init__(self, folder: Path) -> None:
        self.con = sqlite3.connect(f"file:{folder / FILE}?mode=ro", uri=True, check_same_thread=False)
        rows = self.con.execute("SELECT ord, id, version, rank FROM docs").fetchall()
        self.docs: dict[int, tuple[str, str | None, int]] = {o: (i, v, r) for o, i, v, r in rows}
        self._scope: dict[int, set[str]] = {}
        for doc, lang in self.con.execute("SELECT doc, language FROM scope"):
            self._scope.setdefault(doc, set()).add(lang)
        self._templates: list[tuple[int, str, str]] | None = None
        self._common: set[str] | None = None  # `PLAIN_COMMON`, read on the first `plain`
        self._asked_common: set[tuple[str, str]] | None = None  # `ASKED_COMMON`, on the first `asked`

    def close(self) -> None:
        self.con.close()

    def templates(self) -> list[tuple[int, str, str]]:
        """``(whoosh document number, language, template)`` of every 701/702 unit (read once,
        from the covering index: ~5 ms for the archive's 4,000, not the 20 ms of a table scan)."""
        if self._templates is None:
            sql = "SELECT docnum, language, template FROM units WHERE template IS NOT NULL"
            self._templates = self.con.execute(sql).fetchall()
        return self._templates

    def versions(self) -> list[str]:
        """Every version of an indexed document, newest first."""
        return sorted({v for _, v, _ in self.docs.values() if v}, reverse=True)

    def allowed(self, version: str | None, all_versions: bool, lang: str | None) -> set[int] | None:
        """whoosh document numbers a search may return; None means every live one.

        The default scope's are the units the builder marks ``dflt`` (those occurring in a
        document of the scope in their own language, ``incremental._write_units``): read from
        the units alone (`SCOPE_INDEX`), a plain search's first filter costs a tenth of the join's."""
        where, args = ["1"], []
        if lang is not None:
            where.append("u.language = ?")
            args.append(lang)
        if version is None and not all_versions:
            sql = f"SELECT docnum FROM units u WHERE dflt = 1 AND {' AND '.join(where)}"
            return {n for (n,) in self.con.execute(sql, args)}
        if version is not None:
            docs = [o for o, (_, v, _) in self.docs.items() if v == version]
        elif lang is None:
            return None
        else:
            sql = f"SELECT docnum FROM units u WHERE {' AND '.join(where)}"
            return {n for (n,) in self.con.execute(sql, args)}
        marks = ",".join("?" * len(docs))
        sql = (
            f"SELECT DISTINCT u.docnum FROM members m JOIN units u ON u.uid = m.uid "
            f"WHERE m.doc IN ({marks}) AND {' AND '.join(where)}"
        )
        return {n for (n,) in self.con.execute(sql, [*docs, *args])}

    def _covered(self, version: str | None, all_versions: bool) -> list[int] | None:
        """The documents a search of `version`, of the default scope or of `all_versions`
        covers (None: every one)."""
        if version is not None:
            return [o for o, (_, v, _) in self.docs.items() if v == version]
        return None if all_versions else list(self._scope)

    def today(self, number: str, version: str | None, all_versions: bool) -> list[tuple[int, str]]:
        """``(whoosh document number, unit key)`` of each unit that is rule `number` today in
        an occurrence the search covers (the German seed's 702.19 for "702.22")."""
        sql = (
            "SELECT DISTINCT u.docnum, u.key FROM members m JOIN units u ON u.uid = m.uid "
            "WHERE m.current = ?"
        )
        args: list[Any] = [number]
        docs = self._covered(version, all_versions)
        if docs is not None:
            sql += f" AND m.doc IN ({','.join('?' * len(docs))})"
            args += docs
        return sorted(self.con.execute(sql, args))

    def plain(self, words: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """``(whoosh document number, score)`` of the default scope's `limit` English units
        best matching any of `words` by FTS5's bm25 (its negation: higher is better), or []
        where the index has no `PLAIN` table (SQLite without FTS5)."""
        if self._common is None:
            try:
                self._common = {t for (t,) in self.con.execute("SELECT term FROM plain_common")}
            except sqlite3.OperationalError:
                self._common = set()
        words = [w for w in words if w.lower() not in self._common] or list(words)
        if not words:
            return []
        match = " OR ".join(_QUOTE + w.replace(_QUOTE, _QUOTE * 2) + _QUOTE for w in words)
        sql = (
            "SELECT u.docnum, -p.s FROM (SELECT rowid AS uid, bm25(plain) AS s FROM plain "
            "WHERE plain MATCH ? ORDER BY s LIMIT ?) p JOIN units u ON u.uid = p.uid ORDER BY p.s"
        )
        try:
            return [(int(d), float(s)) for d, s in self.con.execute(sql, (match, limit))]
        except sqlite3.OperationalError:
            return []

    def asked(self, lang: str, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """``(whoosh document number, score)`` of the default scope's `limit` units whose
        phrasings in `lang` (``asked``) best match any of the index `terms` by FTS5's bm25
        (negated: higher is better), or [] where the index has no such table. The terms
        ``asked_common`` lists are left out unless the question has no others."""
        if not terms or lang not in ("de", "en"):
            return []
        if self._asked_common is None:
            try:
                self._asked_common = set(self.con.execute("SELECT lang, term FROM asked_common"))
            except sqlite3.OperationalError:
                self._asked_common = set()
        terms = [t for t in terms if (lang, t) not in self._asked_common] or list(terms)
        match = " OR ".join(_QUOTE + t.replace(_QUOTE, _QUOTE * 2) + _QUOTE for t in terms)
        sql = (
            f"SELECT u.docnum, -a.s FROM (SELECT rowid AS uid, bm25(asked_{lang}) AS s FROM asked_{lang} "
            f"WHERE asked_{lang} MATCH ? ORDER BY s LIMIT ?) a JOIN units u ON u.uid = a.uid ORDER BY a.s"
        )
        try:
            return [(int(d), float(s)) for d, s in self.con.execute(sql, (match, limit))]
        except sqlite3.OperationalError:
            return []

    def place(
        self, uids: list[int], languages: dict[int, str], version: str | None, all_versions: bool = False
    ) -> dict[int, Place]:
        """Where each unit occurs for a search of `version`, of the default scope, or of
        `all_versions` (the default scope first, then the newest release):
        ``uid -> (document, version, position, number today)``."""
        if not uids:
            return {}
        docs = self._covered(version, all_versions)
        sql = f"SELECT uid, doc, position, current FROM members WHERE uid IN ({','.join('?' * len(uids))})"
        args: list[int] = list(uids)
        if docs is not None:
            sql += f" AND doc IN ({','.join('?' * len(docs))})"
            args += docs
        best: dict[int, tuple[tuple[int, int], Place]] = {}
        for uid, doc, pos, current in self.con.execute(sql, args):
            doc_id, ver, rank = self.docs[doc]
            preferred = int(languages.get(uid, "") in self._scope.get(doc, ()))
            key = (preferred, rank)
            if uid not in best or key > best[uid][0]:
                best[uid] = (key, (doc_id, ver, pos, current))
        return {uid: place for uid, (_, place) in best.items()}


#: How players ask for each rule of the default scope (``asked``: a unit's ``ask_de`` and
#: ``ask_en``), as the index analyzers' terms of each language (folded, stemmed, German compounds
#: split), for FTS5's bm25 (k1 1.2, b 0.75): every question's third opinion (``fusion.ASKED``).
#: Its rowid is the unit's uid; every build that writes units makes it again (`write_asked`).
#: SQLite's C writes its postings: as whoosh fields session 28's 15,684 phrasings took a third more
#: instructions to ingest (20.2 G -> 27.2 G, ``bench/bench.py --instructions``), here a fifth
#: (24.2 G: most of it analyzing the phrasings' words, which the CR's text does not hold).
ASKED = """
DROP TABLE IF EXISTS asked_de;
DROP TABLE IF EXISTS asked_en;
CREATE VIRTUAL TABLE asked_de USING fts5(terms, tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
CREATE VIRTUAL TABLE asked_en USING fts5(terms, tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
"""

#: The terms in more than `COMMON_SHARE` of a language's phrasing rows (German "kart" and
#: "kreatur", English "card" and "creatur"), which a question's asked search leaves out as
#: `Members.plain` leaves out ``plain_common``'s: scoring every row such a word matches was the
#: warm queries' slowest part (session 29; the dev figures did not move, see ``fusion.ASKED``).
COMMON_SHARE = 0.3
ASKED_COMMON = f"""
DROP TABLE IF EXISTS asked_common;
CREATE TABLE asked_common (lang TEXT, term TEXT);
CREATE VIRTUAL TABLE temp.asked_de_terms USING fts5vocab(main, asked_de, 'row');
CREATE VIRTUAL TABLE temp.asked_en_terms USING fts5vocab(main, asked_en, 'row');
INSERT INTO asked_common SELECT 'de', term FROM temp.asked_de_terms
    WHERE doc > {COMMON_SHARE} * (SELECT count(*) FROM asked_de);
INSERT INTO asked_common SELECT 'en', term FROM temp.asked_en_terms
    WHERE doc > {COMMON_SHARE} * (SELECT count(*) FROM asked_en);
DROP TABLE temp.asked_de_terms;
DROP TABLE temp.asked_en_terms;
"""


def write_asked(con: sqlite3.Connection, known: Mapping[int, dict[str, Any]]) -> None:
    """(Re)make the `ASKED` tables from the default scope's units that carry phrasings (none
    where SQLite has no FTS5); `known` as for `write_plain`."""
    from regelwerk.index.search.analysis import analyzer, word_positions

    records = _remade(con, ASKED, None, known)
    if records is None:
        return
    for lang in ("de", "en"):
        ana, rows = analyzer(lang), []
        for uid, record in records.items():
            text = record.get(f"ask_{lang}")
            poses = word_positions(ana, text) if text else None
            if poses:
                rows.append((uid, " ".join(t for t, p in poses.items() for _ in p)))
        con.executemany(f"INSERT INTO asked_{lang} (rowid, terms) VALUES (?, ?)", rows)
    con.executescript(ASKED_COMMON)


def write_plain(con: sqlite3.Connection, known: Mapping[int, dict[str, Any]]) -> None:
    """(Re)make the `PLAIN` table from the default scope's English units (none where SQLite
    has no FTS5: the engine then fuses nothing); `known`: records by uid the builder holds
    already (a new CR's: unpacking all 4,000 would be half of the table's 0.1 s)."""
    records = _remade(con, PLAIN, "en", known)
    if records is None:
        return
    rows = ((uid, str(r.get("title_en") or ""), str(r.get("text_en") or "")) for uid, r in records.items())
    con.executemany("INSERT INTO plain (rowid, title, body) VALUES (?, ?, ?)", rows)
    con.executescript(PLAIN_COMMON)


def _remade(
    con: sqlite3.Connection, script: str, language: str | None, known: Mapping[int, dict[str, Any]]
) -> dict[int, dict[str, Any]] | None:
    """Run `script` (the FTS5 tables dropped and made anew) and return the records of the
    default scope's units (of `language` only, if given) by uid, in uid order: `known`'s, the
    others unpacked from the units table; None where SQLite has no FTS5."""
    try:
        con.executescript(script)
    except sqlite3.OperationalError:
        return None
    sql = "SELECT uid FROM units WHERE dflt = 1" + (" AND language = ?" if language else "") + " ORDER BY uid"
    uids = [uid for (uid,) in con.execute(sql, (language,) if language else ())]
    stored = [uid for uid in uids if uid not in known]
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(stored), 500):
        part = stored[start : start + 500]
        sql = f"SELECT uid, record FROM units WHERE uid IN ({','.join('?' * len(part))})"
        found.update((uid, unpack(blob)) for uid, blob in con.execute(sql, part))
    return {uid: known[uid] if uid in known else found[uid] for uid in uids}


__all__ = [
    "ASKED", "ASKED_COMMON", "COMMON_SHARE",
    "FILE", "MEMBER_INDEXES", "PLAIN", "PLAIN_COMMON", "SCHEMA", "SCOPE_INDEX", "Members", "Place",
    "pack",
    "unpack", "write_asked", "write_plain",
]
