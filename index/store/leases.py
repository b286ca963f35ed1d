"""Reader leases on derived versions: the builder removes only what no reader holds.

A derived version is one folder ``derived/<key>/`` (the store's fingerprint plus the
artefact's salt). A reader that chose it holds a *shared* ``flock`` on its lease file
``derived/.leases/<key>`` for as long as its store object lives (a CLI command: until it
exits; the web server: until it swaps in a newer library). The builder removes an outdated
version only while it holds the *exclusive* lock on that file, taken without waiting: if any
reader holds the version, the builder leaves it for a later build. The kernel drops a lock
when its process dies, so a killed reader never pins a version for good, and nothing depends
on clocks or grace periods.

The race between "a reader chose the version" and "the builder removed it" is closed by the
order of steps: the reader locks first and then checks that the folder is still there (and
that its lock is on the file now at that path, not on one the builder already unlinked); the
builder removes the folder and then the lease file while it holds the exclusive lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from pathlib import Path

#: Lease files live here, one per derived version, beside the versions themselves.
LEASES = ".leases"


def lease_path(base: Path, key: str) -> Path:
    return base / LEASES / key


def take(base: Path, key: str) -> int:
    """A shared lock on `key`'s lease file, as an open descriptor the caller keeps (closing it
    ends the lease). Waits only while a builder is removing that very version."""
    path = lease_path(base, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_SH)
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the builder unlinked the file we locked: lock the current one


def release(fd: int) -> None:
    if fd >= 0:
        with contextlib.suppress(OSError):
            os.close(fd)


def remove_if_unleased(base: Path, key: str) -> bool:
    """Remove version `key` (folder and lease file) if no reader holds it; whether it did."""
    path = lease_path(base, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a reader holds it
        shutil.rmtree(base / key, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return True
    finally:
        os.close(fd)


def orphaned(base: Path) -> list[str]:
    """Keys of lease files whose version folder is gone (a reader's lease on a pruned or
    never-built version), for the builder to tidy up."""
    folder = base / LEASES
    if not folder.is_dir():
        return []
    return [p.name for p in folder.iterdir() if not (base / p.name).exists()]


__all__ = ["LEASES", "lease_path", "orphaned", "release", "remove_if_unleased", "take"]
