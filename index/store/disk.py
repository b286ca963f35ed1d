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
from typing import Any

from regelwerk.ingest.model.records import ParsedDocument

MANIFEST_VERSION = 2


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

    # -- manifest ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.root / "store" / "manifest.json"

    def manifest(self) -> dict[str, Any]:
        if self._manifest is None:
            try:
                data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
            except (FileNotFoundError, json.JSONDecodeError):
                data = {}
            if data.get("version") != MANIFEST_VERSION:
                data = {"version": MANIFEST_VERSION, "documents": {}, "meta": {}}
            self._manifest = data
        return self._manifest

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

    def sha256_of(self, doc_id: str) -> str | None:
        entry = self.manifest()["documents"].get(doc_id)
        return None if entry is None else str(entry["sha256"])

    def has_sha256(self, sha: str) -> str | None:
        """The id of a stored document with these exact bytes, if any."""
        for doc_id, entry in self.manifest()["documents"].items():
            if entry["sha256"] == sha:
                return str(doc_id)
        return None

    def get(self, doc_id: str) -> ParsedDocument:
        cached = self._cache.get(doc_id)
        if cached is None:
            path = self.root / "store" / "docs" / f"{doc_id}.json"
            cached = ParsedDocument.from_dict(json.loads(path.read_text(encoding="utf-8")))
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
        (a new schema) force a rebuild.
        """
        key = self.fingerprint() + (f"-{salt}" if salt else "")
        final = self.root / "derived" / key / name
        if final.exists():
            return final
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{name}."))
        try:
            build(tmp)
            try:
                os.rename(tmp, final)
            except OSError:
                if not final.exists():  # a concurrent builder lost the race to us: fine
                    raise
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._prune_derived(keep=final.parent.name)
        return final

    def _prune_derived(self, keep: str) -> None:
        """Drop artefacts of older fingerprints (best effort; a reader may still hold one)."""
        base = self.root / "derived"
        for child in base.iterdir():
            if child.name != keep and not child.name.startswith(self.fingerprint()):
                shutil.rmtree(child, ignore_errors=True)

    # -- locking ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Serialise writers across processes (readers never block)."""
        self.root.mkdir(parents=True, exist_ok=True)
        import fcntl

        with open(self.root / "lock", "w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                self._manifest = None  # another process may have written meanwhile
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
