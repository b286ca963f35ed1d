"""The search index grows per release: a build starts from the previous artefact and writes
only what changed.

``grow`` fills the builder's empty temporary directory (``Store.derived`` renames it into
place, so readers keep the previous complete index until then):

1. the previous artefact of the same schema (the newest one on disk that passes its full
   checksum check) is linked in: whoosh never rewrites a segment file (deletions live in its
   table of contents), so linking shares them safely; the membership table is copied;
2. documents that are gone or changed lose their membership rows; new ones are parsed into
   units (``whoosh_index.unit_records``) and only units the index lacks are written, as two
   new segments: the newest release's units apart from the rest (``segments``);
3. when the chain of English releases changed, every older occurrence's number today is
   looked up again in the rule lineage (no document is read) and changed in the membership
   table: it is no field of the unit, so no whoosh document is written again for it;
4. units nobody refers to any more are deleted; the default scope, the vocabulary and the
   unit -> whoosh document number map are brought up to date (for the segments after those
   kept in place only), and the default scope's English units written again as plain text
   for FTS5 (``members.PLAIN``, an English question's second opinion: ``fusion``).

Documents outside the release chain (seeds, excerpts, glossary pages) take their numbers from
keyword linking, which any new document may change, so they are redone on every build; they
are small. With no usable previous artefact the same steps build the index from nothing.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.search.members import (
    FILE,
    MEMBER_INDEXES,
    SCHEMA,
    SCOPE_INDEX,
    pack,
    unpack,
    write_asked,
    write_plain,
)
from regelwerk.ingest.model.releases import release_key

if TYPE_CHECKING:
    from regelwerk.index.store.corpus import Corpus

#: whoosh's writer memory (MB) before it spills sorted runs to disk.
WRITER_MB = 256
_NOT_LINKED = (FILE, "vocabulary.json", ".checksums.json")


def grow(library: Corpus, folder: Path, salt: str) -> None:
    """Fill `folder` with the index of `library`'s documents (see the module docstring)."""
    from whoosh import index as whoosh_index

    from regelwerk.index.search.whoosh_index import schema

    base = previous(library, salt)
    if base is not None:
        _link(base, folder)
        ix = whoosh_index.open_dir(str(folder))
        con = sqlite3.connect(folder / FILE)
    else:
        ix = whoosh_index.create_in(str(folder), schema())
        con = sqlite3.connect(folder / FILE)
        con.executescript(SCHEMA)
    try:
        growth = _Growth(library, ix, con)
        growth.run()
        if base is None:
            con.executescript(MEMBER_INDEXES)
        con.execute(SCOPE_INDEX)
        if growth.changed or base is None:
            write_plain(con, growth.pending)
            write_asked(con, growth.pending)
        con.commit()
        _write_vocabulary(con, folder)
    finally:
        con.close()


def previous(library: Corpus, salt: str) -> Path | None:
    """The newest sound search artefact of this schema on disk, to grow from."""
    from regelwerk.index.rules.lookup import previous_artefact

    found = previous_artefact(library, "search", salt)
    return found if found is not None and (found / FILE).exists() else None


def _link(base: Path, folder: Path) -> None:
    """Share the base's whoosh files (hard links; copies where links fail) and copy its table."""
    for path in base.iterdir():
        if not path.is_file() or path.name in _NOT_LINKED or path.name.endswith("LOCK"):
            continue
        try:
            os.link(path, folder / path.name)
        except OSError:
            shutil.copy2(path, folder / path.name)
    shutil.copyfile(base / FILE, folder / FILE)


class _Growth:
    """One build: the whoosh writer and the membership table, changed together."""

    def __init__(self, library: Corpus, ix: Any, con: sqlite3.Connection) -> None:
        from whoosh.codec.whoosh3 import W3Codec

        self.library = library
        self.ix = ix
        self.con = con
        # Posting blocks uncompressed (whoosh's default is zlib level 3): every level reads
        # back the same, and a CR's postings are mostly a few per term, 29,000 blocks of a
        # few dozen bytes: zlib at its fastest level was a twentieth of a build; without it
        # a CR's index is 2 MB larger (11.3 MB) and a cold search reads it as fast.
        self.codec = codec = W3Codec(compression=0)
        # Per-term length statistics only serve whoosh's block skipping, which our searches
        # turn off; gathering them re-checks the file system for every posting of a field
        # without lengths (a fifth of a build).
        codec.length_stats = False
        # Each segment as its files (terms, postings, columns), not assembled into one compound
        # file: whoosh reads a compound file's parts through a copy of each into memory, so
        # opening the index copied all its segments (a CR's 9 MB: 4-12 ms of every cold search,
        # 0.7 ms now); a plain file is read where a search looks. The price is paid warm: a
        # query's reads go through the file system, CPU p50 over the 449 mixed queries of
        # ``bench.py`` 0.30 -> 0.35 ms (mean 0.49 -> 0.53; p95 the same); mapping each file
        # into memory (mmap, no copy) was tried: 0.33 ms, left out. A second price is open
        # files: an engine keeps each segment's terms, postings and every column it has read
        # open. With the whole archive ingested one release at a time (108 CRs, 10 segments,
        # the most ``segments.MAX_SEGMENTS`` allows, 119 files), searches in every scope leave
        # one engine holding 73 descriptors (12 with compound files) and the facade's pool of
        # 4 engines 289 (45); ``bench/load.py``'s server peaked at 308 (104) over that home,
        # 139 over its own: far from the usual limit of 1024 (session 18).
        self.writer = ix.writer(codec=codec, limitmb=WRITER_MB, compound=False)
        self.names = set(ix.schema.names())
        # fields whose empty value writes nothing (no stored value, no column): left out
        self.blank = frozenset(n for n, f in ix.schema.items() if not f.stored and f.column_type is None)
        self.new_units: list[tuple[Any, ...]] = []  # rows of `units`, inserted together
        self.keys: dict[str, int] = dict(con.execute("SELECT key, uid FROM units").fetchall())
        self.next_uid = 1 + (con.execute("SELECT max(uid) FROM units").fetchone()[0] or 0)
        self.pending: dict[int, dict[str, Any]] = {}
        self.spell: Counter[str] = Counter()
        self.changed = False
        self.added: set[int] = set()
        self.default: set[int] = set()  # pending units of the default scope
        self.pending_keys: dict[int, str] = {}  # their keys, where `_unit` computed them

    def run(self) -> None:
        try:
            summaries = {str(s["id"]): s for s in self.library.store.summaries()}
            chain_ids, chain_moved = self._docs(summaries)
            if chain_moved:
                self._renumber(chain_ids)
            self._drop_orphans()
            self._save_spell()
            self._write_scope(summaries)
            self._write_units()
        except BaseException:
            self.writer.cancel()
            raise
        if self.changed:
            self._commit()
        else:
            self.writer.cancel()

    # -- documents ------------------------------------------------------------------------------
    def _docs(self, summaries: dict[str, dict[str, Any]]) -> tuple[set[str], bool]:
        """Drop gone and changed documents, add new ones; whether the release chain changed."""
        from regelwerk.index.linking.lineage_table import chain_of

        chain_ids = {r.id for r in chain_of(summaries.values())}
        rows = self.con.execute("SELECT ord, id, sha256, volatile FROM docs")
        have = {i: (o, sha, bool(v)) for o, i, sha, v in rows}
        gone = [
            (o, i) for i, (o, sha, volatile) in have.items()
            if i not in summaries or summaries[i]["sha256"] != sha or volatile or i not in chain_ids
        ]
        for o, _ in gone:
            self.con.execute("DELETE FROM members WHERE doc = ?", (o,))
            self.con.execute("DELETE FROM docs WHERE ord = ?", (o,))
        kept = set(have) - {i for _, i in gone}
        new = [i for i in summaries if i not in kept]
        moved = any(i in chain_ids for _, i in gone) or any(i in chain_ids for i in new)
        self._rank(summaries, chain_ids)
        self._add([self.library.store.get(i) for i in new], chain_ids)
        return chain_ids, moved

    def _rank(self, summaries: dict[str, dict[str, Any]], chain_ids: set[str]) -> None:
        """Every document's rank in release order (0 for documents that are no release)."""
        order = sorted(summaries.values(), key=lambda s: release_key(str(s["kind"]), s.get("version")))
        self._ranks = {
            str(s["id"]): (rank if release_key(str(s["kind"]), s.get("version"))[0] else 0)
            for rank, s in enumerate(order, 1)
        }
        self.con.executemany(
            "UPDATE docs SET rank = ? WHERE id = ?", [(r, i) for i, r in self._ranks.items()]
        )

    def _add(self, docs: list[Any], chain_ids: set[str]) -> None:
        from regelwerk.index.search.whoosh_index import languages, unit_records

        ords: dict[str, int] = {}
        for parsed in docs:
            d = parsed.document
            cur = self.con.execute(
                "INSERT INTO docs (id, sha256, version, rank, volatile, languages) VALUES (?, ?, ?, ?, ?, ?)",
                (d.id, d.sha256, d.version, self._ranks.get(d.id, 0), int(d.id not in chain_ids),
                 " ".join(sorted(languages(parsed)))),
            )
            ords[d.id] = int(cur.lastrowid or 0)
        self.added = set(ords.values())
        occurrences = unit_records(self.library, docs)
        rows = [(ords[doc], pos, self._unit(rec), today) for doc, pos, today, rec in occurrences]
        self.con.executemany(
            "INSERT INTO units (uid, docnum, key, language, number, record, template) "
            "VALUES (?, -1, ?, ?, ?, ?, ?)",
            self.new_units,
        )
        self.new_units.clear()
        self.con.executemany("INSERT OR REPLACE INTO members VALUES (?, ?, ?, ?)", rows)

    def _unit(self, record: dict[str, Any]) -> int:
        """The uid of the unit with exactly these fields, written to whoosh if it is new."""
        from regelwerk.index.search.whoosh_index import template_of, unit_key, words_of

        key = unit_key(record)
        uid = self.keys.get(key)
        if uid is None:
            uid = self.keys[key] = self.next_uid
            self.next_uid += 1
            self.pending[uid] = record  # written by `_write_units`, once its scope is known
            self.pending_keys[uid] = key
            self.new_units.append(
                (uid, key, record.get("language"), record.get("number"), pack(record), template_of(record))
            )
            self.spell.update(words_of(record))
            self.changed = True
        return uid

    # -- numbers today ------------------------------------------------------------------------------
    def _renumber(self, chain_ids: set[str]) -> None:
        """Give every occurrence in a release its number today again (the chain changed):
        through the newest pair only when one release was added after the others. Only the
        membership table changes (see ``members``)."""
        from regelwerk.index.rules.lookup import appended_moves, lineage_chain

        chain = lineage_chain(self.library)
        rows = self.con.execute("SELECT ord, id FROM docs WHERE volatile = 0").fetchall()
        kept = {o: i for o, i in rows if o not in self.added}
        moves = appended_moves(self.library, chain, set(kept.values()))
        if moves is None:
            self._renumber_each(chain, kept)
            return
        moved = [(old, today) for old, (today, _) in moves.items() if today != old]
        self.con.execute("CREATE TEMP TABLE moved (old TEXT PRIMARY KEY, today TEXT)")
        self.con.executemany("INSERT INTO moved VALUES (?, ?)", moved)
        marks = ",".join("?" * len(kept))
        # one statement: a number may be both moved away from and moved to
        self.con.execute(
            "UPDATE members SET current = (SELECT today FROM moved WHERE old = members.current) "
            f"WHERE current IN (SELECT old FROM moved) AND doc IN ({marks})",
            list(kept),
        )
        self.con.execute("DROP TABLE moved")

    def _renumber_each(self, chain: Any, kept: dict[int, str]) -> None:
        """`_renumber` occurrence by occurrence (a release removed or added between others)."""
        from regelwerk.index.rules.lookup import today_of

        marks = ",".join("?" * len(kept))
        rows = self.con.execute(
            "SELECT m.doc, m.position, m.current, u.number FROM members m "
            f"JOIN units u ON u.uid = m.uid WHERE m.doc IN ({marks}) AND m.position < 100000 "
            "ORDER BY m.doc, m.position",
            list(kept),
        ).fetchall()
        first: dict[tuple[int, str], str | None] = {}
        moves = []
        for doc, pos, current, number in rows:
            if not number:
                continue
            if (doc, number) not in first:  # a doubled number takes its first rule's fate,
                first[(doc, number)] = today_of(self.library, chain, kept[doc], pos, number)[0]
            today = first[(doc, number)]  # as ``lookup.current_numbers`` gives it
            if today != current:
                moves.append((today, doc, pos))
        self.con.executemany("UPDATE members SET current = ? WHERE doc = ? AND position = ?", moves)

    # -- tidying up ---------------------------------------------------------------------------------
    def _drop_orphans(self) -> None:
        """Delete the units no occurrence refers to any more, from whoosh and the table."""
        from regelwerk.index.search.whoosh_index import words_of

        orphans = self.con.execute(
            "SELECT uid, docnum, key, record FROM units WHERE uid NOT IN (SELECT uid FROM members)"
        ).fetchall()
        for uid, docnum, key, blob in orphans:
            self.pending.pop(uid, None)
            if docnum >= 0:
                self.writer.delete_document(docnum)
            self.spell.subtract(words_of(unpack(blob)))
            self.keys.pop(key, None)
            self.changed = True
        self.con.executemany("DELETE FROM units WHERE uid = ?", [(o[0],) for o in orphans])

    def _save_spell(self) -> None:
        self.con.executemany(
            "INSERT INTO spell VALUES (?, ?) ON CONFLICT (word) DO UPDATE SET n = n + excluded.n",
            [(w, n) for w, n in self.spell.items() if n],
        )
        self.con.execute("DELETE FROM spell WHERE n <= 0")

    def _write_units(self) -> None:
        """Write the new units, and again the units whose default-scope mark changed: a plain
        search asks whoosh for ``scope:default`` instead of filtering every match. The default
        ones wait for `_commit`, which gives them a segment of their own."""
        from regelwerk.index.search.whoosh_index import document_fields

        want = {uid for (uid,) in self.con.execute(
            "SELECT DISTINCT m.uid FROM scope s JOIN members m ON m.doc = s.doc "
            "JOIN units u ON u.uid = m.uid AND u.language = s.language"
        )}
        have = {uid for (uid,) in self.con.execute("SELECT uid FROM units WHERE dflt = 1")}
        for uid in (want ^ have) - set(self.pending):
            row = self.con.execute("SELECT docnum, record FROM units WHERE uid = ?", (uid,)).fetchone()
            docnum, blob = row
            self.writer.delete_document(docnum)
            self.pending[uid] = unpack(blob)
        self.con.executemany(
            "UPDATE units SET dflt = ? WHERE uid = ?", [(int(uid in want), uid) for uid in self.pending]
        )
        self.default = {uid for uid in self.pending if uid in want}
        for uid, record in sorted(self.pending.items()):
            if uid not in self.default:
                fields = document_fields(record, self.names, self.pending_keys.get(uid), self.blank)
                self.writer.add_document(uid=uid, scope="other", **fields)
        self.changed = self.changed or bool(self.pending)

    def _commit(self) -> None:
        """Commit the deletions and the other units, then the default units as a segment of
        their own (see ``segments``), and record the whoosh document numbers that moved."""
        from regelwerk.index.search.segments import merge_policy
        from regelwerk.index.search.whoosh_index import document_fields

        before = self._segment_ids()
        self.writer.commit(mergetype=merge_policy(default=False))
        if self.default:
            writer = self.ix.writer(codec=self.codec, limitmb=WRITER_MB, compound=False)
            try:
                for uid in sorted(self.default):
                    fields = document_fields(
                        self.pending[uid], self.names, self.pending_keys.get(uid), self.blank
                    )
                    writer.add_document(uid=uid, scope="default", **fields)
            except BaseException:
                writer.cancel()
                raise
            writer.commit(mergetype=merge_policy(default=True))
        self._map_docnums(before)

    def _segment_ids(self) -> list[str]:
        return [seg.segment_id() for seg in self.ix._segments()]

    def _map_docnums(self, before: list[str]) -> None:
        """Record the whoosh document number of each unit whose number changed: those in the
        segments after the ones this build kept in place (a segment's numbers are its offset
        plus its own numbers, so only a merge or a new segment moves them)."""
        kept = 0
        for old, new in zip(before, self._segment_ids(), strict=False):
            if old != new:
                break
            kept += 1
        with self.ix.reader() as reader:
            leaves = list(reader.leaf_readers())
            pairs = []
            for leaf, offset in leaves[kept:]:
                uids = leaf.column_reader("uid")
                live = (n for n in range(leaf.doc_count_all()) if not leaf.is_deleted(n))
                pairs += [(offset + n, int(uids[n])) for n in live]
        self.con.executemany("UPDATE units SET docnum = ? WHERE uid = ?", pairs)

    def _write_scope(self, summaries: dict[str, dict[str, Any]]) -> None:
        from regelwerk.index.search.whoosh_index import default_scope

        langs = {i: frozenset(ls.split()) for i, ls in self.con.execute("SELECT id, languages FROM docs")}
        rows = (
            (i, str(s["kind"]), s.get("version"), str(s["language"]), langs.get(i, frozenset()))
            for i, s in summaries.items()
        )
        ords = dict(self.con.execute("SELECT id, ord FROM docs").fetchall())
        self.con.execute("DELETE FROM scope")
        scope = [(ords[i], lang) for i, lang in default_scope(rows) if i in ords]
        self.con.executemany("INSERT INTO scope VALUES (?, ?)", scope)


def _write_vocabulary(con: sqlite3.Connection, folder: Path) -> None:
    import json

    from regelwerk.index.search.whoosh_index import VOCAB_FILE, vocabulary

    words = vocabulary(con.execute("SELECT word, n FROM spell"))
    (folder / VOCAB_FILE).write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")


__all__ = ["grow", "previous"]
