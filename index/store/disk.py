"""The document store: parsed records on disk, plus derived artefacts built atomically.

Layout under the home directory::

    store/manifest.json        one entry per document (summary + sha256), replaced atomically
    store/docs/<id>.json       the ParsedDocument of each document
    derived/<fingerprint>/     artefacts built from the whole store (keyword links, whoosh index)
    lock                       writers hold an exclusive lock here

A derived artefact is keyed by the store's *fingerprint* (a hash over every document's id and
sha256), so it is rebuilt exactly when the documents change. It is built in a temporary
directory and renamed into place, so a reader never sees half an index and a crash mid-build
loses nothing: the previous fingerprint's artefacts stay until a new build succeeds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
#: Artefacts of an outdated fingerprint are kept this many seconds for readers that chose them.
PRUNE_GRACE = 600.0


#: Each artefact's files with their sizes and sha256, written into it before it is renamed
#: into place: `derived` checks sizes on every use, ``doctor`` the hashes.
CHECKSUMS = ".checksums.json"
DOCTOR_FIX = "run `regelwerk doctor --repair`"


def _manifest_shape_ok(data: dict[str, Any]) -> bool:
    docs = data.get("documents")
    if not isinstance(docs, dict) or not isinstance(data.get("meta", {}), dict):
        return False
    return all(
        isinstance(e, dict) and isinstance(e.get("sha256"), str) and isinstance(e.get("summary"), dict)
        for e in docs.values()
    )


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != CHECKSUMS)


def write_checksums(folder: Path) -> None:
    sums = {}
    for path in _files(folder):
        data = path.read_bytes()
        sums[path.relative_to(folder).as_posix()] = [len(data), hashlib.sha256(data).hexdigest()]
    (folder / CHECKSUMS).write_text(json.dumps(sums), encoding="utf-8")


def artefact_problem(folder: Path, full: bool = False) -> str | None:
    """What is wrong with a built artefact: a file missing or of the wrong size (cheap, every
    use), or with `full` of the wrong sha256; None if it is sound. An artefact from before
    checksums were written counts as sound unless `full`."""
    try:
        sums = json.loads((folder / CHECKSUMS).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"{folder}: no checksums (built by an older regelwerk)" if full else None
    except (OSError, ValueError):
        return f"{folder}: its checksums are damaged"
    well_formed = isinstance(sums, dict) and all(
        isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str)
        for v in sums.values()
    )
    if not well_formed:
        return f"{folder}: its checksums are damaged"
    for rel, (size, digest) in sums.items():
        path = folder / rel
        try:
            if path.stat().st_size != size:
                return f"{path}: {path.stat().st_size} bytes, expected {size}"
            if full and hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                return f"{path}: its contents do not match its sha256"
        except OSError:
            return f"{path}: missing"
    return None


def damaged_artefacts(home: Path) -> list[str]:
    """What the full checksum check finds wrong with the built artefacts under `home`."""
    base = home / "derived"
    found = []
    for folder in sorted(base.glob("*/*")) if base.is_dir() else ():
        if folder.is_dir() and not folder.name.startswith(TEMP_PREFIX):
            why = artefact_problem(folder, full=True)
            if why is not None and "no checksums" not in why:
                found.append(why)
    return found


#: Temp dirs this process is building into right now.
_ACTIVE: set[Path] = set()


def lock_timeout(default: float = BUILD_TIMEOUT) -> float:
    """How long to wait for a lock: ``REGELWERK_LOCK_TIMEOUT`` seconds, else `default`."""
    raw = os.environ.get("REGELWERK_LOCK_TIMEOUT")
    try:
        return max(0.0, float(raw)) if raw else default
    except ValueError:
        return default


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
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


class Store:
    """Parsed documents on disk. Cheap to open; documents load lazily and are cached."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._manifest: dict[str, Any] | None = None
        self._cache: dict[str, ParsedDocument] = {}

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
            try:
                data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                data = {}
            except ValueError as exc:  # not JSON, not UTF-8; an unreadable home stays an OSError
                why = type(exc).__name__
                raise StoreError(msg(N_("{path} is damaged ({why}); run `regelwerk doctor --repair`"),
                                     path=str(self.manifest_path), why=why)) from None
            if not isinstance(data, dict) or (data and not _manifest_shape_ok(data)):
                raise StoreError(msg(N_("{path} is not a regelwerk manifest; run `regelwerk doctor "
                                        "--repair`"),
                                     path=str(self.manifest_path)))
            if data.get("version") != MANIFEST_VERSION:
                data = {"version": MANIFEST_VERSION, "documents": {}, "meta": {}}
            self._manifest = data
        return self._manifest

    def reset_manifest(self, documents: dict[str, Any]) -> None:
        """Replace the manifest with one listing `documents` (doctor's repair)."""
        self._manifest = {"version": MANIFEST_VERSION, "documents": documents, "meta": {}}
        self._save_manifest()

    def _save_manifest(self) -> None:
        _write_atomic(self.manifest_path, _dumps(self.manifest(), indent=1))

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
        cached = self._cache.get(doc_id)
        if cached is None:
            from regelwerk.ingest.model.records import ParsedDocument

            path = self.record_path(doc_id)
            try:
                cached = ParsedDocument.from_dict(json.loads(path.read_text(encoding="utf-8")))
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
        """Write one document and then the manifest; a crash in between leaves the old manifest."""
        doc = parsed.document
        path = self.root / "store" / "docs" / f"{doc.id}.json"
        _write_atomic(path, _dumps(parsed.to_dict()))
        self.manifest()["documents"][doc.id] = {
            "sha256": doc.sha256,
            "origin": origin,
            "summary": parsed.summary(),
        }
        self._cache[doc.id] = parsed
        self._save_manifest()

    def remove(self, doc_id: str) -> None:
        if self.manifest()["documents"].pop(doc_id, None) is not None:
            self._save_manifest()
        self._cache.pop(doc_id, None)
        with contextlib.suppress(FileNotFoundError):
            (self.root / "store" / "docs" / f"{doc_id}.json").unlink()

    # -- derived artefacts ------------------------------------------------------------------
    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for doc_id in sorted(self.ids()):
            h.update(f"{doc_id}\0{self.sha256_of(doc_id)}\n".encode())
        return h.hexdigest()[:16]

    def derived(self, name: str, build: Callable[[Path], None], *, salt: str = "") -> Path:
        """Path of artefact `name` for the current documents, building it first if needed.

        `build` receives an empty temporary directory and fills it; the directory is renamed
        into place only if `build` returns normally. `salt` lets a format change of an artefact
        (a new schema) force a rebuild. One process builds at a time (`building`): a second
        one waits, then finds the artefact built and uses it instead of building it again.
        """
        key = self.fingerprint() + (f"-{salt}" if salt else "")
        final = self.root / "derived" / key / name
        if final.exists() and artefact_problem(final) is None:
            self._sweep_if_idle()
            return final
        with self.building():
            if final.exists() and artefact_problem(final) is None:  # built while we waited
                return final
            if final.exists():  # damaged (truncated, missing files): rebuild it
                shutil.rmtree(final, ignore_errors=True)
            final.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=final.parent, prefix=f"{TEMP_PREFIX}{name}."))
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
            self._prune_derived(keep=final.parent.name)
        return final

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

    def _prune_derived(self, keep: str) -> None:
        """Drop what is provably unused; call with the build lock held.

        Temp dirs are abandoned (only a lock holder builds, and that is us). Artefacts of
        other fingerprints go once they are PRUNE_GRACE old: a reader that chose one a moment
        ago may not have opened its files yet (once open, a removed file stays readable). The
        newest fingerprint on disk is never removed.
        """
        import time

        base = self.root / "derived"
        for tmp in self._temp_dirs():
            shutil.rmtree(tmp, ignore_errors=True)
        current = Store(self.root).fingerprint()
        now = time.time()
        for child in base.iterdir():
            if child.name == keep or child.name.startswith((self.fingerprint(), current)):
                continue
            with contextlib.suppress(OSError):
                if now - child.stat().st_mtime > PRUNE_GRACE:
                    shutil.rmtree(child, ignore_errors=True)

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
            self._manifest = None  # another process may have written meanwhile
            yield

    @contextlib.contextmanager
    def _locked(self, name: str, wait: float, holder: str) -> Iterator[None]:
        from filelock import FileLock, Timeout

        self.ensure_root()
        lock = FileLock(str(self.root / name), is_singleton=True)
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
