"""The card database: one SQLite file under ``REGELWERK_HOME/cards/``.

Tables: ``files`` (one row per ingested MTGJSON file: id, sha256, summary), ``sets``,
``cards`` (one row per Oracle card, i.e. per English face name), ``printings`` (set, number,
year and the German name, type line and text of that printing) and ``names`` (every English and
German name in ``compact`` form, the key of every name lookup), plus ``card_text``, an FTS5
index over both languages' card text for ``search --cards``.

Every file is written in one transaction: a reader sees all of a file's cards or none, and a
file that fails half-way (a truncated archive) leaves the database as it was. The same bytes
twice do nothing (``files.sha256``); a changed file with the same id replaces its printings.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.store.disk import seal, seal_path, write_atomic
from regelwerk.ingest.model.errors import IngestError, StoreError
from regelwerk.ingest.model.fold import compact, fold
from regelwerk.ingest.model.ids import file_sha256
from regelwerk.ingest.model.message import N_, Message, msg

if TYPE_CHECKING:
    from regelwerk.ingest.model.records import CardSet, OracleCard

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, summary TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sets (
    code TEXT PRIMARY KEY, name TEXT NOT NULL, release_date TEXT, file TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, full_name TEXT, type_line TEXT,
    mana_cost TEXT, power TEXT, toughness TEXT, loyalty TEXT, keywords TEXT NOT NULL,
    text TEXT, layout TEXT
);
CREATE TABLE IF NOT EXISTS printings (
    card INTEGER NOT NULL REFERENCES cards(id), file TEXT NOT NULL, set_code TEXT NOT NULL,
    number TEXT NOT NULL, year INTEGER, name_de TEXT, type_de TEXT, text_de TEXT,
    PRIMARY KEY (card, set_code, number)
);
CREATE INDEX IF NOT EXISTS printings_file ON printings(file);
CREATE TABLE IF NOT EXISTS names (
    key TEXT NOT NULL, card INTEGER NOT NULL, name TEXT NOT NULL, lang TEXT NOT NULL,
    PRIMARY KEY (key, card, name)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS card_text USING fts5(
    name, text_en, text_de, tokenize = 'unicode61 remove_diacritics 2'
);
"""


#: What a damaged card database says: only the card files can make it again.
DAMAGED = N_("{problem}; run `regelwerk doctor --repair`, which reads your MTGJSON card files again (ingest "
             "them again if they moved)")


def damaged(path: Path | str, why: str) -> StoreError:
    """The error of a card database found damaged while reading it."""
    return StoreError(msg(DAMAGED, problem=f"{path}: damaged ({why})"))


def schema_error(path: Path, version: int) -> Exception:
    """What a reader meets in a database of another schema: an older one is not built yet for
    this regelwerk (`NotBuilt`: the writer step upgrades it); a newer one is named with the fix."""
    from regelwerk.index.store.disk import NotBuilt

    if version < SCHEMA_VERSION:
        why = f"{path}: card schema {version}, this regelwerk reads {SCHEMA_VERSION}"
        return NotBuilt("card database", why)
    newer = msg(N_("{path}: written by a newer regelwerk (card schema {version}, this one reads {expected})"),
                path=str(path), version=str(version), expected=str(SCHEMA_VERSION))
    return StoreError(msg(DAMAGED, problem=newer))


def _sound(path: Path) -> bool:
    """Does SQLite find the database sound (its own checks, every row read)?"""
    from regelwerk.index.store.doctor import database_problem

    return database_problem(path) is None


def stored_json(conn: sqlite3.Connection, text: Any, expect: type) -> Any:
    """A JSON value the card database stored (a file's summary, a card's keywords); one that
    is not JSON of the shape written was damaged on disk."""
    try:
        value = json.loads(text)
        if isinstance(value, expect):
            return value
    except (TypeError, ValueError):
        pass
    raise damaged(db_file(conn), "a stored value is not the JSON written")


def db_file(conn: sqlite3.Connection) -> str:
    """The file of `conn`'s main database (for messages)."""
    return str(conn.execute("PRAGMA database_list").fetchone()[2])


def content_problem(path: Path) -> str | None:
    """What reading the card database's stored JSON finds wrong (SQLite's own check cannot
    see it); None if every value is as written."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            return _problem(schema_error(path, version))
        try:
            for (text,) in conn.execute("SELECT summary FROM files"):
                stored_json(conn, text, dict)
            for (text,) in conn.execute("SELECT keywords FROM cards"):
                stored_json(conn, text, list)
            orphan = "SELECT name FROM names WHERE card NOT IN (SELECT id FROM cards) LIMIT 1"
            for (name,) in conn.execute(orphan):
                return f"{path}: damaged (name {name!r} of a card that is missing)"
        except StoreError as exc:
            return _problem(exc)
    return None


def _problem(exc: Exception) -> str:
    """What is wrong, without the fix (doctor names its own): the `problem` of a DAMAGED
    message, else the whole sentence."""
    message = getattr(exc, "message", None)
    if isinstance(message, Message) and message.id == DAMAGED:
        return str(dict(message.args)["problem"])
    return str(exc)


@dataclass
class CardIngestReport:
    """What one ingest of card files did (the shape of corpus.IngestReport, as dicts)."""

    documents: list[dict[str, Any]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    errors: list[IngestError] = field(default_factory=list)


def card_db_path(home: Path) -> Path:
    return home / "cards" / "cards.sqlite"


class CardStore:
    """The card database under `home`. Opening is free; the file appears with the first card."""

    def __init__(self, home: Path) -> None:
        self.path = card_db_path(home)
        self._conn: sqlite3.Connection | None = None

    # -- connection ------------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.path.is_file()

    def connect(self) -> sqlite3.Connection:
        """A reader's connection to the existing database. Readers never change it: one whose
        schema is older than this regelwerk's raises `NotBuilt`, whose caller runs the writer
        step (`upgrade`); one a newer regelwerk wrote is named with the fix."""
        if self._conn is None:
            conn = self._open("rw")  # never creates the file (a reader that raced a removal)
            try:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            except BaseException:
                conn.close()
                raise
            if version != SCHEMA_VERSION:
                conn.close()
                raise schema_error(self.path, version)
            self._conn = conn
        return self._conn

    def _open(self, mode: str) -> sqlite3.Connection:
        uri = f"{self.path.absolute().as_uri()}?mode={mode}"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _writer(self) -> sqlite3.Connection:
        """A writer's connection (the caller holds the store's writer lock): the file is made
        with its schema on first use, and an older schema is brought up to this one's."""
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._open("rwc")
            conn.execute("PRAGMA journal_mode=WAL")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                conn.close()
                raise schema_error(self.path, version)
            if version < SCHEMA_VERSION:
                with _transaction(conn):
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._conn = conn
        return self._conn

    def upgrade(self) -> bool:
        """The writer step's part (``Corpus.publishing``, writer lock held): bring a database an
        older regelwerk wrote up to this one's schema, and seal it again. Only a database that is
        as its seal says (or unsealed but sound to SQLite) is changed: a writer never seals
        damage; a damaged one is left for the reader to name with its fix. Whether it did."""
        from regelwerk.index.store.disk import SQLITE_DAMAGE, UNSEALED, seal_problem

        if not self.exists():
            return False
        try:
            with contextlib.closing(self._open("ro")) as conn:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except SQLITE_DAMAGE:
            return False
        if version >= SCHEMA_VERSION:
            return False
        why = seal_problem(self.path)
        if why is not None and not (why.endswith(UNSEALED) and _sound(self.path)):
            return False
        sources = self.sources()
        self._unseal(sources)
        try:
            self._writer()
            self.seal(sources)
        except SQLITE_DAMAGE:
            return False
        finally:
            self.close()
        return True

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- reading ---------------------------------------------------------------------------------
    def summaries(self) -> list[dict[str, Any]]:
        """The ingested card files, as ``docs`` lists them."""
        if not self.exists():
            return []
        conn = self.connect()
        rows = conn.execute("SELECT summary FROM files ORDER BY id")
        return [stored_json(conn, r["summary"], dict) for r in rows]

    def count(self) -> int:
        if not self.exists():
            return 0
        return int(self.connect().execute("SELECT count(*) FROM cards").fetchone()[0])

    # -- writing ---------------------------------------------------------------------------------
    def ingest(
        self, paths: Iterable[Path], progress: Callable[[Path], None] | None = None
    ) -> CardIngestReport:
        """Store each MTGJSON file in its own transaction; a bad file is reported, the rest go on."""
        from regelwerk.ingest import card_reader

        report = CardIngestReport()
        changed = False
        sources = self.sources()
        self._unseal(sources)  # while it changes: a killed ingest is no false alarm
        conn = self._writer()
        for path in paths:
            if progress is not None:
                progress(path)
            try:
                sha = file_sha256(path)
                known = conn.execute("SELECT id, summary FROM files WHERE sha256 = ?", (sha,)).fetchone()
                if known is not None:
                    report.unchanged.append(known["id"])
                    report.documents.append(stored_json(conn, known["summary"], dict))
                    continue
                reader = card_reader(path)
                if reader is None:
                    raise IngestError(str(path), msg(N_("not an MTGJSON set or AllPrintings file")))
                with _transaction(conn):
                    _forget_file(conn, reader.document_id)
                    writer = _Writer(conn, reader.document_id)
                    for card_set in reader.sets():
                        writer.add(card_set)
                    summary = reader.summary(sha)
                    conn.execute(
                        "INSERT INTO files(id, sha256, summary) VALUES (?, ?, ?)",
                        (reader.document_id, sha, json.dumps(summary, ensure_ascii=False)),
                    )
            except IngestError as exc:
                report.errors.append(exc)
                continue
            except OSError as exc:
                report.errors.append(IngestError(str(path), msg(N_("cannot be read ({why})"),
                                                                why=str(exc.strerror or exc))))
                continue
            except Exception as exc:  # a parser bug must not cost the user the other files
                report.errors.append(
                    IngestError(str(path), msg(N_("could not be stored ({error})"),
                                               error=f"{type(exc).__name__}: {exc}"))
                )
                continue
            changed = True
            sources[reader.document_id] = str(Path(path).resolve())
            self._journal(reader.document_id, sha, sources[reader.document_id])
            report.documents.append(summary)
        if changed:
            with _transaction(conn):
                _rebuild_text_index(conn)
        self.seal(sources)
        return report

    def sources(self) -> dict[str, str]:
        """file id -> where each ingested card file was read from, so that ``doctor --repair``
        can read them again into a new database when this one is damaged or gone. Kept in the
        seal and in two more places outside the card folder (`accounts`; the store's journal
        is a fourth), so no damage to up to three of them loses the card files without a word."""
        found: dict[str, str] = {}
        for path in (*self.accounts(), seal_path(self.path)):
            try:
                data = json.loads(path.read_text(encoding="utf-8")).get("sources")
            except (OSError, ValueError, AttributeError):
                continue
            if isinstance(data, dict):
                found.update({str(k): str(v) for k, v in data.items()})
        return found

    def accounts(self) -> tuple[Path, Path]:
        """The two accounts of the card files outside the card folder."""
        home = self.path.parent.parent
        return home / "store" / "cards.json", home / "derived" / ".cards.json"

    def seal(self, sources: dict[str, str]) -> None:
        """Checkpoint the WAL into the file (which then alone holds every value) and record its
        size and sha256 with the card files' sources (``disk.seal``; ``doctor`` checks it)."""
        if self._conn is not None:
            busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:  # a reader holds the WAL: the file is not whole yet, so no seal (doctor says so)
                self._unseal(sources)
                return
        seal(self.path, sources=sources)
        self._write_accounts(sources)

    def _journal(self, file_id: str, sha: str, source: str) -> None:
        """Account for a card file in the store's journal too (``journal``): a card database
        lost with its seal is then named, and read again, by ``doctor --repair``."""
        from regelwerk.index.store import journal

        folder = self.path.parent.parent / "store"
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            details = {"sha256": sha, "source": source, "kind": "mtgjson"}
            journal.append(folder, [journal.line(journal.CARDS, f"{journal.CARDS}:{file_id}", details)])

    def _unseal(self, sources: dict[str, str]) -> None:
        """No size and sha256 in the seal, only the sources (``doctor`` says it is not sealed);
        the sources go to the other accounts too."""
        write_atomic(seal_path(self.path), json.dumps({"sources": sources}))
        self._write_accounts(sources)

    def _write_accounts(self, sources: dict[str, str]) -> None:
        for path in self.accounts():
            with contextlib.suppress(OSError, StoreError):
                if path.is_dir() and not path.is_symlink():  # damage: no rename replaces a folder
                    shutil.rmtree(path)
                write_atomic(path, json.dumps({"sources": sources}))


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (the connection is in autocommit)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _forget_file(conn: sqlite3.Connection, file_id: str) -> None:
    """Drop a file's printings (before it is stored again) and cards left with none."""
    conn.execute("DELETE FROM printings WHERE file = ?", (file_id,))
    conn.execute("DELETE FROM sets WHERE file = ?", (file_id,))
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    orphans = "SELECT id FROM cards WHERE id NOT IN (SELECT DISTINCT card FROM printings)"
    conn.execute(f"DELETE FROM names WHERE card IN ({orphans})")
    conn.execute(f"DELETE FROM cards WHERE id IN ({orphans})")


class _Writer:
    """Adds sets of one file: cards by name (one row per Oracle card), printings, name keys."""

    def __init__(self, conn: sqlite3.Connection, file_id: str) -> None:
        self.conn = conn
        self.file_id = file_id
        self.ids: dict[str, int] = {r[0]: r[1] for r in conn.execute("SELECT name, id FROM cards")}

    def _card_id(self, card: OracleCard) -> int:
        found = self.ids.get(card.name)
        if found is None:
            cur = self.conn.execute(
                "INSERT INTO cards(name, full_name, type_line, mana_cost, power, toughness, loyalty,"
                " keywords, text, layout) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    card.name,
                    card.full_name,
                    card.type_line,
                    card.mana_cost,
                    card.power,
                    card.toughness,
                    card.loyalty,
                    json.dumps(list(card.keywords)),
                    card.text,
                    card.layout,
                ),
            )
            found = int(cur.lastrowid or 0)
            self.ids[card.name] = found
        return found

    def add(self, card_set: CardSet) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO sets(code, name, release_date, file) VALUES (?, ?, ?, ?)",
            (card_set.code, card_set.name, card_set.release_date, self.file_id),
        )
        printings = []
        names = []
        for card in card_set.cards:
            card_id = self._card_id(card)
            names.append((compact(card.name), card_id, card.name, "en"))
            if card.full_name:
                names.append((compact(card.full_name), card_id, card.full_name, "en"))
            for p in card.printings:
                printings.append(
                    (card_id, self.file_id, p.set_code, p.number, p.year, p.name_de, p.type_de, p.text_de)
                )
                if p.name_de:
                    names.append((compact(p.name_de), card_id, p.name_de, "de"))
        self.conn.executemany(
            "INSERT OR REPLACE INTO printings(card, file, set_code, number, year, name_de, type_de, text_de)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            printings,
        )
        self.conn.executemany(
            "INSERT OR IGNORE INTO names(key, card, name, lang) VALUES (?, ?, ?, ?)",
            [n for n in names if n[0]],
        )


def _rebuild_text_index(conn: sqlite3.Connection) -> None:
    """Refill the FTS5 index: per card its names, Oracle text and German texts, all folded
    (ü = ue = u, ß = ss) so the query side only has to fold too."""
    conn.execute("DELETE FROM card_text")
    rows = conn.execute(
        "SELECT c.id, c.name, c.text, group_concat(DISTINCT p.name_de), group_concat(DISTINCT p.text_de)"
        " FROM cards c LEFT JOIN printings p ON p.card = c.id GROUP BY c.id"
    )
    conn.executemany(
        "INSERT INTO card_text(rowid, name, text_en, text_de) VALUES (?, ?, ?, ?)",
        ((r[0], fold(f"{r[1]} {r[3] or ''}"), fold(r[2] or ""), fold(r[4] or "")) for r in rows.fetchall()),
    )
