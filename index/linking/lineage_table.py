"""The lineage table: `lineage.link_pair` for every adjacent pair of English CR releases, kept
in one small SQLite file and computed incrementally.

A pair is keyed by the two documents' sha256, so its steps never go stale: adding a release
computes only the pair(s) it creates (one, or two when it lands between two releases), removing
one computes the pair that bridges the gap, and nothing else is redone. Pairs no longer adjacent
stay (they are small) until `prune`. Readers open the file read-only and see the last committed
state (SQLite transactions); the builder (``regelwerk.index.store.build``) is the only writer.

`Chain` walks the steps: where a rule of any release lives in the newest one ("today"), which
release removed it, and its whole history release by release.
"""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.ingest.model.releases import ReleaseKey, is_release, release_key

if TYPE_CHECKING:  # imported where steps are computed or made: ``history`` reads rows only
    from regelwerk.index.linking.lineage import Step
    from regelwerk.ingest.model.records import ParsedDocument

FILE = "lineage2.sqlite"
#: Bump when lineage's matching (``lineage.link_pair``) changes, so stored pairs are recomputed.
VERSION = 4
#: Pairs are named by their two documents' sha256 once, in `pairs`; each step row refers to its
#: pair by number (the sha256 strings on 300,000 rows were four fifths of the file). The view
#: ``steps`` gives readers the old shape.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS pairs (id INTEGER PRIMARY KEY, old_sha TEXT, new_sha TEXT, version INTEGER,
                                  UNIQUE (old_sha, new_sha));
CREATE TABLE IF NOT EXISTS links (pair INTEGER, change TEXT, old_pos INTEGER, old_number TEXT,
                                  new_pos INTEGER, new_number TEXT, similarity REAL);
CREATE INDEX IF NOT EXISTS links_old ON links (pair, old_pos);
CREATE INDEX IF NOT EXISTS links_new ON links (pair, new_pos);
CREATE VIEW IF NOT EXISTS steps AS
    SELECT p.old_sha AS old_sha, p.new_sha AS new_sha, l.change AS change, l.old_pos AS old_pos,
           l.old_number AS old_number, l.new_pos AS new_pos, l.new_number AS new_number,
           l.similarity AS similarity
    FROM links l JOIN pairs p ON p.id = l.pair;
"""


def _drop_pair(con: sqlite3.Connection, old_sha: str, new_sha: str) -> None:
    row = con.execute("SELECT id FROM pairs WHERE old_sha = ? AND new_sha = ?", (old_sha, new_sha)).fetchone()
    if row is not None:
        con.execute("DELETE FROM links WHERE pair = ?", (row[0],))
        con.execute("DELETE FROM pairs WHERE id = ?", (row[0],))


@dataclass(frozen=True)
class Release:
    """One link of the chain: a dated English CR release."""

    id: str
    sha256: str
    version: str


def chain_of(summaries: Iterable[dict[str, object]]) -> list[Release]:
    """The English CR releases in release order, one per date (the .txt when a .htm has the same)."""
    best: dict[str, tuple[ReleaseKey, Release]] = {}
    for d in summaries:
        kind, version = str(d.get("kind")), d.get("version")
        if d.get("language") != "en" or not isinstance(version, str) or not is_release(kind, version):
            continue
        key = release_key(kind, version)
        if version not in best or key > best[version][0]:
            best[version] = (key, Release(str(d["id"]), str(d["sha256"]), version))
    return [r for _, r in sorted(best.values(), key=lambda kr: kr[0])]


def pairs_of(chain: Sequence[Release]) -> list[tuple[Release, Release]]:
    return list(itertools.pairwise(chain))


def read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the table at `path`.

    A writer killed mid-transaction leaves a hot journal that the next reader must roll back,
    which a read-only connection cannot do ("attempt to write a readonly database"): one
    ordinary read rolls it back first (SQLite's own recovery, under its own locks).
    """
    if path.with_name(path.name + "-journal").exists():
        with contextlib.closing(sqlite3.connect(path)) as con:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def missing_pairs(path: Path, chain: Sequence[Release]) -> list[tuple[Release, Release]]:
    """Adjacent pairs of `chain` that the table at `path` lacks."""
    if not path.exists():
        return pairs_of(chain)
    con = read_only(path)
    try:
        have = {
            (a, b) for a, b in con.execute("SELECT old_sha, new_sha FROM pairs WHERE version = ?", (VERSION,))
        }
    finally:
        con.close()
    return [(a, b) for a, b in pairs_of(chain) if (a.sha256, b.sha256) not in have]


def update(
    path: Path,
    chain: Sequence[Release],
    load: Callable[[str], ParsedDocument],
    progress: Callable[[str], None] | None = None,
) -> int:
    """Compute and store every missing adjacent pair of `chain`; returns how many were computed.

    Each pair is committed on its own, so an interrupted build keeps what it finished.
    """
    todo = missing_pairs(path, chain)
    if not todo:
        return 0
    from regelwerk.index.linking.lineage import link_pair

    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    try:
        con.executescript(_SCHEMA)
        for older, newer in todo:
            if progress is not None:
                progress(f"lineage {older.version} -> {newer.version}")
            steps = link_pair(load(older.id), load(newer.id))
            with con:
                _drop_pair(con, older.sha256, newer.sha256)
                cur = con.execute(
                    "INSERT INTO pairs (old_sha, new_sha, version) VALUES (?, ?, ?)",
                    (older.sha256, newer.sha256, VERSION),
                )
                pair = cur.lastrowid
                con.executemany(
                    "INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            pair,
                            s.change,
                            s.old_position,
                            s.old_number,
                            s.new_position,
                            s.new_number,
                            s.similarity,
                        )
                        for s in steps
                    ],
                )
    finally:
        con.close()
    return len(todo)


def prune(path: Path, chain: Sequence[Release]) -> None:
    """Drop pairs that are no longer adjacent (after a release was forgotten)."""
    if not path.exists():
        return
    keep = {(a.sha256, b.sha256) for a, b in pairs_of(chain)}
    con = sqlite3.connect(path)
    try:
        stale = [p for p in con.execute("SELECT old_sha, new_sha FROM pairs").fetchall() if p not in keep]
        if not stale:
            return
        with con:
            for old_sha, new_sha in stale:
                _drop_pair(con, old_sha, new_sha)
        con.execute("VACUUM")
    finally:
        con.close()


@dataclass(frozen=True)
class Fate:
    """Where a rule of one release ends up in the newest: its number, or the release that
    removed it (the first release without a successor)."""

    today: str | None
    removed_in: str | None = None


#: A pair's step rows as `Chain` reads them.
_PAIR_ROWS = (
    "SELECT change, old_pos, old_number, new_pos, new_number, similarity FROM steps "
    "WHERE old_sha = ? AND new_sha = ?"
)


class _PairRows:
    """``(old id, new id) -> the steps' rows`` of a chain's pairs, each read from the table on
    first use: adding a release walks the newest pair only, and reading all 230,000 rows of
    the archive's pairs first cost the add a tenth of its time. A pair's rows never change
    (they are keyed by the two releases' sha256 and lineage's `VERSION`)."""

    def __init__(self, path: Path, chain: Sequence[Release]) -> None:
        self.path = path
        known = path.exists() and len(chain) > 1
        self.shas = {(a.id, b.id): (a.sha256, b.sha256) for a, b in pairs_of(chain)} if known else {}
        self.read: dict[tuple[str, str], list[tuple[Any, ...]]] = {}

    def get(self, key: tuple[str, str], default: Sequence[tuple[Any, ...]] = ()) -> Sequence[tuple[Any, ...]]:
        shas = self.shas.get(key)
        if shas is None:
            return default
        rows = self.read.get(key)
        if rows is None:
            con = read_only(self.path)
            try:
                rows = self.read[key] = con.execute(_PAIR_ROWS, shas).fetchall()
            finally:
                con.close()
        return rows


class Chain:
    """The steps of one chain of releases, loaded for lookups."""

    def __init__(self, chain: Sequence[Release], rows: _PairRows) -> None:
        self.releases = list(chain)
        #: (old id, new id) -> the steps' rows; made Steps on first use (the archive has 230,000)
        self.rows = rows
        self.steps: dict[tuple[str, str], list[Step]] = {}
        self._fates: dict[str, dict[int, Fate]] = {}  # per release, filled by `_fates_of`
        self._index = {r.id: i for i, r in enumerate(self.releases)}

    @classmethod
    def load(cls, path: Path, chain: Sequence[Release]) -> Chain:
        """The chain's steps in the table at `path` (each pair's read on first use)."""
        return cls(chain, _PairRows(path, chain))

    def pair(self, older: Release, newer: Release) -> list[Step]:
        key = (older.id, newer.id)
        if key not in self.steps:
            from regelwerk.index.linking.lineage import Step

            self.steps[key] = [Step(*row) for row in self.rows.get(key, ())]
        return self.steps[key]

    def fates(self) -> dict[str, dict[int, Fate]]:
        """``{document id: {position: Fate}}`` for every numbered rule of every release."""
        if self.releases:
            self._fates_of(0)
        return dict(self._fates)

    def _fates_of(self, index: int) -> dict[int, Fate]:
        """The fates of release `index`'s rules, walking back from the newest only as far as
        it: adding a release asks for the previous newest one, which needs one pair, not all."""
        out = self._fates
        known = out.get(self.releases[index].id)
        if known is not None:
            return known
        newest = self.releases[-1]
        out.setdefault(newest.id, {})  # the newest's rules are where they are (see `fate`)
        for i in range(len(self.releases) - 2, index - 1, -1):
            older, newer = self.releases[i], self.releases[i + 1]
            if older.id in out:
                continue
            ahead = out.get(newer.id, {})
            here: dict[int, Fate] = {}
            for change, old_pos, _, new_pos, new_number, _ in self.rows.get((older.id, newer.id), ()):
                if old_pos is None or change == "split":
                    continue
                if change == "removed" or new_pos is None:
                    here[old_pos] = Fate(None, newer.version)
                elif newer is newest:
                    here[old_pos] = Fate(new_number)
                else:
                    here[old_pos] = ahead.get(new_pos, Fate(None, None))
            out[older.id] = here
        return out[self.releases[index].id]

    def fate(self, doc_id: str, position: int, number: str) -> Fate | None:
        """Where rule `number` at `position` of `doc_id` lives today; None if `doc_id` is not in
        the chain (or no lineage is known for it)."""
        if self.releases and doc_id == self.releases[-1].id:
            return Fate(number)
        index = self._index.get(doc_id)
        if index is None:
            return None
        return self._fates_of(index).get(position)


__all__ = ["FILE", "Chain", "Fate", "Release", "chain_of", "missing_pairs", "prune", "read_only", "update"]
