"""The ready marker (``derived/.ready``): what a reader checks instead of hashing.

Every read first asks whether it needs the writer step, and where the committed state's
derived data are: are the package's seeds the stored ones (their sha256 against the
manifest's), which derived version is the committed one (the fingerprint, a sha256 over the
manifest's documents), and which term tables the derived versions' salts name (their sha256).
Each writer step that commits writes the answers here with what they were computed from: the
manifest's device, inode, size and modification time, and each package file's path, size and
modification time. A reader whose files are exactly those takes the answers from here (a stat
of each and one small read: `rule` imports no hashlib for them); anything else (another
manifest, a package file changed by an upgrade or an edit, the marker missing, not the shape
written or failing its CRC) and the reader computes them as before. The marker is a shortcut,
never a source of truth: damaged or stale, it costs a hash, not a wrong answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: The marker, beside the derived versions (its name starts with a dot: no version is pruned
#: or read as one by it).
MARKER = ".ready"

#: name -> (the files' identity, the value) of each stamp this process knows: computed here,
#: or read from a marker whose files were these (package files are the same for every home).
_KNOWN: dict[str, tuple[list[Any], str]] = {}
#: root -> (the marker's identity, its contents) as last read.
_READ: dict[Path, tuple[tuple[int, ...], dict[str, Any]]] = {}


def identity(paths: Iterable[Any]) -> list[Any] | None:
    """``[[path, size, mtime_ns], ...]`` of files on the file system; None if one is not a
    plain path (a package read from a zip) or cannot be looked at."""
    out: list[Any] = []
    for path in paths:
        if not isinstance(path, Path):
            return None
        try:
            st = path.stat()
        except OSError:
            return None
        out.append([str(path), st.st_size, st.st_mtime_ns])
    return out


def file_id(st: os.stat_result) -> list[int]:
    """What tells one version of a file written by an atomic rename from another."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


def read(root: Path) -> dict[str, Any]:
    """The marker of the home `root` ({} if there is none, or it is damaged); its stamps
    become known to this process."""
    path = root / "derived" / MARKER
    try:
        with open(path, "rb") as fh:
            key = tuple(file_id(os.fstat(fh.fileno())))
            if root in _READ and _READ[root][0] == key:
                return _READ[root][1]
            body, _, crc = fh.read(256 * 1024).rpartition(b"\n")
        data = json.loads(body) if crc.isdigit() and int(crc) == zlib.crc32(body) else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    _READ[root] = (key, data)
    stamps = data.get("stamps")
    for name, entry in (stamps.items() if isinstance(stamps, dict) else ()):
        if (isinstance(entry, dict) and isinstance(entry.get("value"), str) and _files_ok(entry.get("files"))
                and name not in _KNOWN):
            _KNOWN[name] = (list(entry["files"]), str(entry["value"]))
    return data


def _files_ok(files: Any) -> bool:
    return isinstance(files, list) and all(isinstance(f, list) and len(f) == 3 for f in files)


def stamp(name: str, paths: list[Any], compute: Callable[[], str], root: Path | None = None) -> str:
    """`compute()` (a hash of the files `paths`), unless this process knows its value for
    exactly these files (the marker of the home `root`, or one read or computed before)."""
    if root is not None:
        read(root)
    ident = identity(paths)
    known = _KNOWN.get(name)
    if ident is not None and known is not None and known[0] == ident:
        return known[1]
    value = compute()
    if ident is not None:
        _KNOWN[name] = (ident, value)
    return value


def fingerprint(root: Path, manifest: list[int] | None) -> str | None:
    """The committed state's fingerprint, if the marker was written for the manifest whose
    file is `manifest` (``file_id``); None: the reader computes it."""
    if manifest is None:
        return None
    data = read(root)
    found = data.get("fingerprint")
    if data.get("manifest") == manifest and isinstance(found, str) and len(found) == 16:
        return found
    return None


def write(root: Path, fingerprint: str, manifest: Path) -> None:
    """Record the committed state (a writer, after its manifest is written): its fingerprint,
    the manifest it belongs to, and every stamp this process knows whose files are unchanged."""
    from regelwerk.index.store.disk import discard, write_atomic
    from regelwerk.ingest.model.errors import StoreError

    base = root / "derived"
    read(root)  # the stamps an earlier writer recorded, where their files are unchanged
    stamps = {name: {"files": files, "value": value} for name, (files, value) in sorted(_KNOWN.items())
              if identity(Path(str(f[0])) for f in files) == files}
    with contextlib.suppress(OSError, StoreError):
        data = {"fingerprint": fingerprint, "manifest": file_id(manifest.stat()), "stamps": stamps}
        body = json.dumps(data, sort_keys=True).encode("utf-8")
        if (base / MARKER).is_dir() and not (base / MARKER).is_symlink():  # damage: no rename replaces it
            discard(base / MARKER)
        write_atomic(base / MARKER, body + b"\n" + str(zlib.crc32(body)).encode("ascii"))
