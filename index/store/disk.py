"""The document store: parsed records on disk, plus derived artefacts built atomically.

Layout under the home directory::

    store/manifest.json        one entry per document (summary + sha256), replaced atomically
    store/docs/<id>.json       the ParsedDocument of each document (gzip'd JSON, see `encode_record`)
    derived/<fingerprint>/     artefacts built from the whole store (keyword links, whoosh index)
    derived/.leases/<key>      readers' shared locks on the versions they use (``leases``)
    lock, build.lock           writers, and builders, hold an exclusive lock here

A derived artefact is keyed by the store's *fingerprint* (a hash over every document's id and
sha256), so it is rebuilt exactly when the documents change. It is built in a temporary
directory and renamed into place, so a reader never sees half an index and a crash mid-build
loses nothing: the previous fingerprint's artefacts stay until a new build succeeds.

Writers publish: inside `Store.publishing` a document change lives in memory only, the
builder builds the derived data of the new state from there, and only then are the records
and the manifest written. A reader reads the committed manifest, so it only ever meets a state
whose build is complete; a writer that fails or times out on the build lock leaves no trace.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import tempfile
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.store import leases
from regelwerk.ingest.model.errors import StoreBusy, StoreError
from regelwerk.ingest.model.message import N_, msg

if TYPE_CHECKING:  # the records' dataclasses load only when a record is read (not on `rule`)
    from regelwerk.ingest.model.records import ParsedDocument

MANIFEST_VERSION = 2
#: Temporary build directories start with this (inside ``derived/<key>/``).
TEMP_PREFIX = ".tmp-"
#: Seconds a builder waits for another one (``REGELWERK_LOCK_TIMEOUT`` overrides).
BUILD_TIMEOUT = 300.0
#: Seconds an ingest waits for another ingest (``REGELWERK_LOCK_TIMEOUT`` overrides).
WRITE_TIMEOUT = 900.0


#: Each artefact's files with their sizes and sha256, written into it before it is renamed
#: into place: `derived` checks sizes on every use, ``doctor`` the hashes.
CHECKSUMS = ".checksums.json"
#: Files up to this size are hashed on every use, not only by ``doctor``: whoosh's table of
#: contents (about 10 KB) holds a pickle, and unpickling damaged bytes can take minutes.
HASHED_ON_USE = 64 * 1024

#: What reading a damaged SQLite file raises: SQLite's own errors, and UnicodeDecodeError when
#: a value, or the schema text SQLite quotes in its error message, is not UTF-8 (a flipped byte).
SQLITE_DAMAGE = (sqlite3.DatabaseError, UnicodeDecodeError)


class NotBuilt(Exception):
    """A reader met a state whose derived data no writer has built (a new home, an index format
    an upgrade changed, damaged or removed derived data). Readers never build: the caller runs
    the writer step (``Corpus.prepare``) and asks again. Not a RegelwerkError, so no code that
    turns lookup failures into "not found" can swallow it."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}; a writer step builds it (`regelwerk doctor --repair`)")
        self.what = what
        #: What is not built, and why (for a message that names the fix itself).
        self.problem = f"{what}: {why}"


def damage_text(exc: BaseException) -> str:
    """A short, printable account of what reading a damaged file raised."""
    return f"{type(exc).__name__}: {str(exc)[:80]}".encode("utf-8", "replace").decode("utf-8")


def _manifest_shape_ok(data: dict[str, Any]) -> bool:
    docs = data.get("documents")
    if not isinstance(docs, dict) or not isinstance(data.get("meta", {}), dict):
        return False
    return all(isinstance(e, dict) and _entry_ok(k, e) for k, e in docs.items())


#: What every manifest summary holds as text (``version`` is text or null); readers use them all.
_SUMMARY_TEXT = ("id", "title", "language", "kind", "source", "sha256")


def _entry_ok(doc_id: str, entry: dict[str, Any]) -> bool:
    """A manifest entry has the shape written (a flipped byte in a key fails it)."""
    summary = entry.get("summary")
    if not isinstance(entry.get("sha256"), str) or not isinstance(summary, dict):
        return False
    return (all(isinstance(summary.get(k), str) for k in _SUMMARY_TEXT)
            and isinstance(summary.get("version"), (str, type(None))) and "version" in summary
            and summary["id"] == doc_id and summary["sha256"] == entry["sha256"])


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != CHECKSUMS)


def _sha256(data: bytes) -> str:
    """sha256 in hex (hashlib loads here, not on the reads that hash nothing: ``ready``)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def write_checksums(folder: Path) -> None:
    sums = {}
    for path in _files(folder):
        data = path.read_bytes()
        sums[path.relative_to(folder).as_posix()] = [len(data), _sha256(data)]
    (folder / CHECKSUMS).write_text(json.dumps(sums), encoding="utf-8")


def artefact_problem(folder: Path, full: bool = False) -> str | None:
    """What is wrong with a built artefact: no checksums, a file missing or of the wrong size,
    a small file of the wrong sha256 (cheap, every use), or with `full` any file of the wrong
    sha256; None if it is sound."""
    try:
        sums = json.loads((folder / CHECKSUMS).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"{folder}: no checksums (damaged, or built by an older regelwerk)"
    except (OSError, ValueError):
        return f"{folder}: its checksums are damaged"
    well_formed = isinstance(sums, dict) and all(
        isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str)
        for v in sums.values()
    )
    if not well_formed or not sums:  # every artefact has files: none listed is damage too
        return f"{folder}: its checksums are damaged"
    for rel, (size, digest) in sums.items():
        path = folder / rel
        try:
            if path.stat().st_size != size:
                return f"{path}: {path.stat().st_size} bytes, expected {size}"
            hashed = full or size <= HASHED_ON_USE
            if hashed and _sha256(path.read_bytes()) != digest:
                return f"{path}: its contents do not match its sha256"
        except OSError:
            return f"{path}: missing"
    return None


#: Beside each SQLite database that grows in place (lineage, linking's lookups, the cards):
#: its size and sha256 when its writer last finished, for ``doctor`` to check.
SEAL = ".seal.json"


def seal_path(path: Path) -> Path:
    return path.with_name(path.name + SEAL)


def seal(path: Path, **extra: Any) -> None:
    """Record `path`'s size and sha256 now (its writer has finished; a WAL is checkpointed
    first, so the file alone holds every value). `extra` is kept beside them."""
    if not path.is_file():
        discard(seal_path(path))
        return
    data = path.read_bytes()
    record = {"size": len(data), "sha256": _sha256(data),
              "mtime_ns": path.stat().st_mtime_ns, **extra}
    write_atomic(seal_path(path), json.dumps(record))


def seal_changed(path: Path) -> bool:
    """Has a sealed database changed since its seal (a writer about to change it must not seal
    that change)? Hashed only when its size or modification time moved (cheap otherwise)."""
    try:
        record = json.loads(seal_path(path).read_text(encoding="utf-8"))
        st = path.stat()
        if st.st_size == record["size"] and st.st_mtime_ns == record["mtime_ns"]:
            return False
    except (OSError, ValueError, KeyError, TypeError):
        return seal_path(path).exists() or seal_path(path).is_symlink()  # a damaged seal: trust nothing
    why = seal_problem(path)
    return why is not None and not why.endswith(UNSEALED)


#: What `seal_problem` says of a database without a seal (``doctor --repair`` makes it again from
#: its sources, or seals it as it is if they are gone and it is sound).
UNSEALED = "not sealed (its writer did not finish, or an older regelwerk wrote it)"


def seal_problem(path: Path) -> str | None:
    """What is wrong with a sealed database by its seal: a value changed since its writer
    finished (a flipped bit SQLite cannot see), a damaged seal, or none; None if it matches."""
    try:
        record = json.loads(seal_path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        record = {}
    except (OSError, ValueError):
        return f"{seal_path(path)}: damaged"
    if not isinstance(record, dict):
        return f"{seal_path(path)}: damaged"
    if "sha256" not in record and "size" not in record:
        return None if not path.exists() and not path.is_symlink() else f"{path}: {UNSEALED}"
    try:
        data = path.read_bytes()
    except OSError:
        return f"{path}: missing, but sealed"
    if len(data) != record.get("size") or _sha256(data) != record.get("sha256"):
        return f"{path}: its contents do not match the sha256 recorded when it was written"
    return None


def damaged_artefacts(home: Path) -> list[str]:
    """What the full checksum check finds wrong with the built artefacts under `home`."""
    base = home / "derived"
    found = []
    for folder in sorted(base.glob("*/*")) if base.is_dir() else ():
        if folder.is_dir() and not folder.name.startswith(TEMP_PREFIX):
            why = artefact_problem(folder, full=True)
            if why is not None:
                found.append(why)
    return found


def discard(path: Path) -> None:
    """Remove whatever is at `path`: a file, a symbolic link (even a loop) or a directory tree.
    For derived data and lock files, which can always be made again."""
    with contextlib.suppress(FileNotFoundError):
        if path.is_symlink() or not path.is_dir():
            path.unlink()
        else:
            shutil.rmtree(path)


def real_dir(path: Path) -> None:
    """Make sure `path` is a directory (derived data only: a file or a link there is removed)."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        discard(path)
    path.mkdir(parents=True, exist_ok=True)


#: Temp dirs this process is building into right now.
_ACTIVE: set[Path] = set()


def lock_timeout(default: float = BUILD_TIMEOUT) -> float:
    """How long to wait for a lock: ``REGELWERK_LOCK_TIMEOUT`` seconds, else `default`."""
    raw = os.environ.get("REGELWERK_LOCK_TIMEOUT")
    try:
        return max(0.0, float(raw)) if raw else default
    except ValueError:
        return default


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text` in one rename, synced first: a reader sees the old file or
    the new one, never half of one, also after a crash."""
    folder = path.parent
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise StoreError(msg(N_("{path} is damaged ({why}); run `regelwerk doctor --repair`"),
                             path=str(folder), why="not a directory"))
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _dumps(data: Any, indent: int | None = None) -> str:
    """JSON for the store: readable UTF-8, or ASCII escapes when the data hold a lone
    surrogate (a text no UTF-8 writer accepts), so nothing is lost either way."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, ensure_ascii=True, indent=indent)
    return text


#: gzip's level for records: the fastest, since a record is written once per ingest and the
#: text compresses well at any level (the archive's 129 MB of JSON take 25 MB).
RECORD_LEVEL = 1
_GZIP_MAGIC = b"\x1f\x8b"


def encode_record(parsed: ParsedDocument) -> bytes:
    """A record's bytes on disk: its JSON, gzip'd (a CR release is 1.2 MB of JSON, mostly text).
    msgspec writes the JSON straight from the frozen dataclasses: every field in order, tuples
    as lists, which is what ``to_dict`` makes (a test compares them), in a tenth of the time of
    ``to_dict`` and ``json.dumps``. A lone surrogate, which it refuses as UTF-8, takes
    `_dumps`'s ASCII escapes."""
    import gzip

    import msgspec

    try:
        body = msgspec.json.encode(parsed)
    except UnicodeEncodeError:
        body = _dumps(parsed.to_dict()).encode("utf-8")
    return gzip.compress(body, compresslevel=RECORD_LEVEL, mtime=0)


def read_record(path: Path) -> ParsedDocument:
    """The record at `path` (gzip'd JSON, or plain JSON as older versions wrote it). Damage is
    an OSError or a ValueError (a broken gzip stream is one too: its CRC catches a flipped bit)."""
    import gzip
    import zlib

    from regelwerk.ingest.model.records import ParsedDocument

    data = path.read_bytes()
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"{path}: not a readable gzip stream ({type(exc).__name__})") from None
    return ParsedDocument.from_dict(json.loads(data.decode("utf-8")))


class Store:
    """Parsed documents on disk. Cheap to open; documents load lazily and are cached."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._manifest: dict[str, Any] | None = None
        self._cache: dict[str, ParsedDocument] = {}
        #: Inside `publishing`: the changed documents (None: removed), not yet on disk.
        self._staged: dict[str, ParsedDocument | None] | None = None
        #: Inside `publishing`: whether the manifest changed (else the commit writes nothing).
        self._dirty = False
        #: Which file the manifest was read from (``ready.file_id``; None: not read, or changed since).
        self._manifest_id: list[int] | None = None
        #: Derived versions this store reads: key -> descriptor of its lease (see `leases`).
        self._leases: dict[str, int] = {}
        weakref.finalize(self, _release_all, self._leases)

    def ensure_root(self) -> None:
        """Create the home directory private (0700): derived/ holds whoosh indexes, whose
        schema whoosh reads with pickle, so whoever can write here can run code as the user."""
        if not self.root.exists():
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(self.root, 0o700)

    # -- manifest ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.root / "store" / "manifest.json"

    def manifest(self) -> dict[str, Any]:
        """The manifest; a missing one is an empty store, a damaged one a StoreError naming
        the fix (never silently an empty store, which the next ingest would make permanent)."""
        if self._manifest is None:
            data = self._read_manifest()  # None: there is none yet
            if data is None:
                data = {}
            elif not isinstance(data, dict) or "version" not in data or not _manifest_shape_ok(data):
                raise StoreError(msg(N_("{path} is not a regelwerk manifest; run `regelwerk doctor "
                                        "--repair`"),
                                     path=str(self.manifest_path)))
            if data.get("version") != MANIFEST_VERSION:
                data = {"version": MANIFEST_VERSION, "documents": {}, "meta": {}}
            self._manifest = data
        return self._manifest

    def _read_manifest(self) -> Any:
        """The manifest's JSON (None: there is none); notes which file it was (``ready``)."""
        from regelwerk.index.store.ready import file_id

        where = self.manifest_path
        try:
            with open(where, "rb") as fh:
                self._manifest_id = file_id(os.fstat(fh.fileno()))
                return json.loads(fh.read().decode("utf-8"))
        except FileNotFoundError:
            from regelwerk.index.store import journal

            if self._records_on_disk() or journal.replay(where.parent).held():
                raise StoreError(msg(N_("{path} is missing but documents are stored; run `regelwerk doctor "
                                        "--repair`"), path=str(where))) from None
            return None
        except (ValueError, OSError) as exc:  # not JSON, not UTF-8, a directory, a link loop
            if isinstance(exc, OSError) and exc.errno not in (errno.EISDIR, errno.ELOOP):
                raise  # an unreadable home stays an OSError (the CLI names REGELWERK_HOME)
            raise StoreError(msg(N_("{path} is damaged ({why}); run `regelwerk doctor --repair`"),
                                 path=str(where), why=type(exc).__name__)) from None

    def _records_on_disk(self) -> bool:
        """Are there stored records (whose manifest was lost, not never written)?"""
        folder = self.root / "store" / "docs"
        try:
            return any(p.suffix == ".json" and not p.name.startswith(".") for p in folder.iterdir())
        except OSError:
            return False

    def reset_manifest(self, documents: dict[str, Any], lost: dict[str, Any] | None = None) -> None:
        """Replace the manifest with one listing `documents` (doctor's repair); `lost`: the
        documents known lost (see `lost`)."""
        self._manifest = {"version": MANIFEST_VERSION, "documents": documents, "meta": {}}
        if lost:
            self._manifest["meta"]["lost"] = lost
        self._save_manifest()

    def _save_manifest(self) -> None:
        """Write the manifest, then journal what it holds (``journal``: the second account of
        the documents, for when the manifest and a record are both lost)."""
        if self._staged is not None:  # while publishing, the manifest is written at the commit
            self._dirty = True
        else:
            from regelwerk.index.store import journal

            write_atomic(self.manifest_path, _dumps(self.manifest(), indent=1))
            self._manifest_id = None
            with contextlib.suppress(OSError):  # doctor names a journal that could not be written
                journal.sync(self.manifest_path.parent, self.manifest()["documents"], self.lost())

    def _journal_removal(self, doc_ids: list[str]) -> None:
        """Journal removals before the manifest that drops them is written."""
        from regelwerk.index.store import journal

        with contextlib.suppress(OSError):
            journal.append(self.manifest_path.parent, [journal.line("remove", d, {}) for d in doc_ids])

    def lost(self) -> dict[str, Any]:
        """Documents the store lost (their record and manifest entry destroyed, and no source
        to re-read them from): id -> what was known of them (version, source, why). Recorded
        by ``doctor --repair``, named by ``docs`` and lookups, cleared by ingesting them again."""
        found = self.manifest().get("meta", {}).get("lost")
        return dict(found) if isinstance(found, dict) else {}

    def mark_lost(self, doc_id: str, info: dict[str, Any]) -> None:
        """Drop `doc_id` and remember it as lost (doctor's repair, when nothing can bring it back)."""
        self.manifest()["documents"].pop(doc_id, None)
        self.manifest().setdefault("meta", {}).setdefault("lost", {})[doc_id] = info
        self._cache.pop(doc_id, None)
        discard(self.record_path(doc_id))
        self._save_manifest()

    def reload(self) -> None:
        """Forget what was read, so the next look sees what other processes committed."""
        if self._staged is None:
            self._manifest, self._manifest_id = None, None
            self._cache.clear()

    def meta(self, key: str) -> Any:
        return self.manifest().setdefault("meta", {}).get(key)

    def set_meta(self, key: str, value: Any) -> None:
        self.manifest().setdefault("meta", {})[key] = value
        self._save_manifest()

    # -- documents --------------------------------------------------------------------------
    def ids(self) -> list[str]:
        return list(self.manifest()["documents"])

    def summaries(self) -> list[dict[str, Any]]:
        return [dict(v["summary"]) for v in self.manifest()["documents"].values()]

    def summary_of(self, doc_id: str) -> dict[str, Any] | None:
        """The stored summary of `doc_id` (with its id), or None if there is no such document."""
        entry = self.manifest()["documents"].get(doc_id)
        return None if entry is None else {**entry["summary"], "id": doc_id}

    def sha256_of(self, doc_id: str) -> str | None:
        entry = self.manifest()["documents"].get(doc_id)
        return None if entry is None else str(entry["sha256"])

    def has_sha256(self, sha: str) -> str | None:
        """The id of a stored document with these exact bytes, if any."""
        for doc_id, entry in self.manifest()["documents"].items():
            if entry["sha256"] == sha:
                return str(doc_id)
        return None

    def record_path(self, doc_id: str) -> Path:
        return self.root / "store" / "docs" / f"{doc_id}.json"

    def get(self, doc_id: str) -> ParsedDocument:
        staged = self._staged.get(doc_id) if self._staged is not None else None
        cached = staged or self._cache.get(doc_id)
        if cached is None:
            path = self.record_path(doc_id)
            try:
                cached = read_record(path)
                if (cached.document.id, cached.document.sha256) != (doc_id, self.sha256_of(doc_id)):
                    raise ValueError("another document's record")
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                what = (msg(N_("missing")) if isinstance(exc, FileNotFoundError)
                        else msg(N_("damaged ({error})"), error=type(exc).__name__))
                raise StoreError(msg(N_("{path}: the record of {doc_id!r} is {what}; run `regelwerk doctor "
                                        "--repair`, or ingest its file again"), path=str(path), doc_id=doc_id,
                                     what=what)) from None
            self._cache[doc_id] = cached
        return cached

    def all(self) -> list[ParsedDocument]:
        return [self.get(doc_id) for doc_id in self.ids()]

    def put(self, parsed: ParsedDocument, *, origin: str = "user") -> None:
        """Write one document and then the manifest; a crash in between leaves the old manifest.
        While publishing, both wait for the commit."""
        doc = parsed.document
        self.manifest()  # read before a record is written (a missing manifest means a new store)
        if self._staged is not None:
            self._staged[doc.id] = parsed
        else:
            self._write_record(doc.id, parsed)
        self.manifest()["documents"][doc.id] = {
            "sha256": doc.sha256,
            "origin": origin,
            "summary": parsed.summary(),
        }
        lost = self.manifest().get("meta", {}).get("lost")
        if isinstance(lost, dict):  # ingested again: no longer lost
            lost.pop(doc.id, None)
        self._cache[doc.id] = parsed
        self._save_manifest()

    def remove(self, doc_id: str) -> None:
        if self.manifest()["documents"].pop(doc_id, None) is not None:
            if self._staged is None:
                self._journal_removal([doc_id])
            self._save_manifest()
        self._cache.pop(doc_id, None)
        if self._staged is not None:
            self._staged[doc_id] = None
            return
        discard(self.record_path(doc_id))

    # -- publishing -------------------------------------------------------------------------
    @property
    def may_build(self) -> bool:
        """Is this store a writer now (inside `publishing`, holding the writer lock)? Only a
        writer builds derived data; a reader that finds it missing raises `NotBuilt`."""
        return self._staged is not None

    @property
    def changed(self) -> bool:
        """Inside `publishing`: has anything been changed that the commit will write?"""
        return bool(self._staged) or self._dirty

    @contextlib.contextmanager
    def publishing(self) -> Iterator[None]:
        """Change documents and build their derived data as one step other processes see whole.

        Holds the writer lock. Inside, `put`, `remove` and `set_meta` change this store object
        only; the builder builds from it (the fingerprint and every record come from memory).
        On a normal exit the records and then the manifest are written (the commit; nothing
        when nothing changed), the built state is marked committed (``witness``) and old
        derived versions no reader holds are pruned. On any error, or a kill, nothing was
        written: the store and its indexes stay as they were, and no reader ever needs to build.
        """
        if self._staged is not None:  # nested: the outer publish commits
            yield
            return
        with self.writing():
            self._staged, self._dirty = {}, False
            try:
                yield
                staged, self._staged = self._staged, None
            except BaseException as exc:
                self._staged = None
                self.reload()
                if isinstance(exc, StoreBusy):
                    error = exc.message or str(exc)
                    raise StoreBusy(msg(N_("{error} (nothing was stored)"), error=error)) from None
                raise
            if staged or self._dirty:
                self._commit(staged)
            self._mark_committed()
        with contextlib.suppress(StoreBusy), self.building(timeout=0):
            self._prune_derived()

    def _mark_committed(self) -> None:
        """Name the committed state's derived versions (``derived/.committed``), so that the
        documents they list witness what the store held (``witness``); a build a killed writer
        left, never committed, is no witness. Then the ready marker, so readers of this state
        hash nothing to find it (``ready``)."""
        from regelwerk.index.store import ready, witness

        with contextlib.suppress(OSError, StoreError):
            witness.mark_committed(self.root, self.fingerprint())
            ready.write(self.root, self.fingerprint(), self.manifest_path)

    def _write_record(self, doc_id: str, parsed: ParsedDocument) -> None:
        """Write a record; a directory where the record belongs (damage: no rename replaces
        one) is moved to ``store/damaged/`` first, so nothing in it is lost and the write works."""
        path = self.record_path(doc_id)
        if path.is_dir() and not path.is_symlink():
            self.set_aside(path)
        write_atomic(path, encode_record(parsed))

    def set_aside(self, path: Path) -> Path:
        """Move a damaged store file or folder to ``store/damaged/`` (nothing of the user's is
        deleted); returns where it went."""
        aside = self.root / "store" / "damaged" / path.name
        real_dir(aside.parent)
        discard(aside)
        if path.exists() or path.is_symlink():
            path.rename(aside)
        return aside

    def _commit(self, staged: dict[str, ParsedDocument | None]) -> None:
        """Records first (new ids are not listed yet, so nobody reads them), the manifest in
        one atomic rename, then the records of removed documents."""
        for doc_id, parsed in staged.items():
            if parsed is not None:
                self._write_record(doc_id, parsed)
        self._journal_removal([d for d, parsed in staged.items() if parsed is None])
        self._save_manifest()
        for doc_id, parsed in staged.items():
            if parsed is None and doc_id not in self.manifest()["documents"]:
                discard(self.record_path(doc_id))

    # -- derived artefacts ------------------------------------------------------------------
    def fingerprint(self) -> str:
        """A hash over every document's id and sha256: the key of their derived versions. A
        reader of the manifest the last writer committed takes it from ``ready``'s marker."""
        if self._staged is None:
            from regelwerk.index.store import ready

            self.manifest()
            known = ready.fingerprint(self.root, self._manifest_id)
            if known is not None:
                return known
        import hashlib

        h = hashlib.sha256()
        for doc_id in sorted(self.ids()):
            h.update(f"{doc_id}\0{self.sha256_of(doc_id)}\n".encode())
        return h.hexdigest()[:16]

    def derived(self, name: str, build: Callable[[Path], None], *, salt: str = "") -> Path:
        """Path of artefact `name` for the current documents; a writer builds it first if needed.

        `build` receives an empty temporary directory and fills it; the directory is renamed
        into place only if `build` returns normally. `salt` lets a format change of an artefact
        (a new schema) force a rebuild. The caller holds a lease on the version it gets (see
        `leases`), so no builder removes it while this store lives.

        Readers never build. Writers build every artefact inside `publishing` before their
        change becomes visible, so a reader finds it built. A reader that does not (the first
        use of a new home, an index format changed by an upgrade, an artefact found damaged:
        a missing or resized file) raises `NotBuilt`, and its caller runs the writer step
        (``Corpus.prepare``: the writer lock, then a build of the committed state). A reader
        whose state a writer replaced meanwhile follows the writer's state, which is built.
        """
        for attempt in range(4):
            key, final = self._derived_path(name, salt)
            self._lease(key)
            problem = artefact_problem(final) if final.exists() else f"{final}: not built"
            if problem is None:
                if not self.may_build:
                    self._sweep_if_idle()
                return final
            if not self.may_build:
                if attempt < 3 and self._follow_writer(key):
                    continue
                raise NotBuilt(name, problem)
            with self.building():
                if final.exists() and artefact_problem(final) is None:  # built while we waited
                    return final
                self._build_into(final, build)
            return final
        raise AssertionError("unreachable: the last attempt raises or returns")

    def _derived_path(self, name: str, salt: str) -> tuple[str, Path]:
        """The key of the current documents' derived version and artefact `name`'s path in it."""
        key = self.fingerprint() + (f"-{salt}" if salt else "")
        return key, self.root / "derived" / key / name

    def is_built(self, name: str, *, salt: str = "") -> bool:
        """Is artefact `name` built (and whole, by the cheap check) for the current documents?
        Only looked at: nothing is built or leased."""
        _, final = self._derived_path(name, salt)
        return final.exists() and artefact_problem(final) is None

    def _follow_writer(self, key: str) -> bool:
        """Has a writer committed a newer state than this reader's? Then let go of `key` and
        read the new state (its writer built it, and may have pruned ours)."""
        if not self._manifest_changed():
            return False
        leases.release(self._leases.pop(key, -1))
        self.reload()
        return True

    def _build_into(self, final: Path, build: Callable[[Path], None]) -> None:
        """Build into a temp dir beside `final` and rename it into place (lock held)."""
        real_dir(self.root / "derived")
        real_dir(final.parent)
        discard(final)  # damaged (truncated, missing files, not even a directory): rebuild it
        tmp = Path(tempfile.mkdtemp(dir=final.parent, prefix=f"{TEMP_PREFIX}{final.name}."))
        _ACTIVE.add(tmp)
        try:
            build(tmp)
            write_checksums(tmp)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        finally:
            _ACTIVE.discard(tmp)

    def _lease(self, key: str) -> None:
        """Hold version `key` for as long as this store lives. Where no lease can be written
        (a read-only home) nobody can prune either, so reading goes on without one."""
        if key not in self._leases:
            with contextlib.suppress(OSError):
                self._leases[key] = leases.take(self.root / "derived", key)

    def _manifest_changed(self) -> bool:
        """Has another process committed since this store read its manifest?"""
        if self._manifest is None:
            return False
        try:
            on_disk = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return not isinstance(on_disk, dict) or on_disk.get("documents") != self._manifest.get("documents")

    def _temp_dirs(self) -> list[Path]:
        """Temp build dirs no build of this process is filling (the lock is re-entrant, so a
        nested build must not take its outer build's dir for abandoned)."""
        return [p for p in (self.root / "derived").glob(f"*/{TEMP_PREFIX}*") if p not in _ACTIVE]

    def _sweep_if_idle(self) -> None:
        """Remove temp dirs a killed builder left, if no builder runs now (cheap when none)."""
        if not self._temp_dirs():
            return
        try:
            with self.building(timeout=0):
                for tmp in self._temp_dirs():
                    shutil.rmtree(tmp, ignore_errors=True)
        except StoreBusy:
            pass  # a builder is at work: its temp dir is not abandoned

    def _prune_derived(self) -> None:
        """Drop what is provably abandoned; call with the build lock held.

        Temp dirs are abandoned (only a lock holder builds, and that is us). A derived version
        goes when it is not of the committed fingerprint and no reader holds a lease on it
        (`leases.remove_if_unleased`); this store first lets go of its own leases on versions
        it no longer uses. Versions of the committed fingerprint with another salt belong to
        another regelwerk version sharing this home and stay.
        """
        base = self.root / "derived"
        if not base.is_dir():
            return
        for tmp in self._temp_dirs():
            shutil.rmtree(tmp, ignore_errors=True)
        try:
            current = Store(self.root).fingerprint()
        except StoreError:
            return  # a damaged manifest: which version is current is for doctor to say
        for key in [k for k in self._leases if not k.startswith(current)]:
            leases.release(self._leases.pop(key))
        outdated = [c.name for c in base.iterdir() if c.is_dir() and not c.name.startswith((current, "."))]
        for key in outdated + leases.orphaned(base):
            with contextlib.suppress(OSError):
                leases.remove_if_unleased(base, key)

    # -- locking ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def building(self, timeout: float | None = None) -> Iterator[None]:
        """Hold the store's build lock: one process builds derived data at a time.

        Re-entrant within a process (a search index build asks for the keyword links, which
        may need building too). Waits at most `timeout` seconds (default BUILD_TIMEOUT) and
        then raises StoreBusy naming the store.
        """
        wait = lock_timeout() if timeout is None else timeout
        with self._locked("build.lock", wait, N_("process is building the indexes")):
            yield

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Serialise writers across processes (readers never block); wait at most
        WRITE_TIMEOUT seconds for another ingest, then raise StoreBusy."""
        with self._locked("lock", lock_timeout(WRITE_TIMEOUT), N_("ingest is writing to this store")):
            self.reload()  # another process may have written meanwhile (not while publishing)
            yield

    @contextlib.contextmanager
    def _locked(self, name: str, wait: float, holder: str) -> Iterator[None]:
        from filelock import FileLock, Timeout

        self.ensure_root()
        path = self.root / name
        if path.is_symlink() or path.is_dir():  # no lock file of ours: damage, replace it
            discard(path)
        lock = FileLock(str(path), is_singleton=True)
        try:
            lock.acquire(timeout=wait)
        except Timeout:
            raise StoreBusy(msg(N_("{root}: another regelwerk {holder} (waited {wait} s); try again when it "
                                   "has finished"),
                                root=str(self.root), holder=msg(holder), wait=f"{wait:g}")) from None
        try:
            yield
        finally:
            lock.release()


def _release_all(held: dict[str, int]) -> None:
    """End every lease of a store that is gone (its versions may now be pruned)."""
    for fd in held.values():
        leases.release(fd)
    held.clear()
