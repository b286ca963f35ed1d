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


__all__ = ["FILE", "MEMBER_INDEXES", "SCHEMA", "SCOPE_INDEX", "Members", "Place", "pack", "unpack"]
