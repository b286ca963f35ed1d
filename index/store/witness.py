"""Derived data as witnesses of the documents the store held: the third account.

The manifest and the journal each list the stored documents, and each record holds one. A
release whose manifest entry, record and journal line are all destroyed would still vanish
without a word, were it not for the derived data built from it: the rules table and the search
index's members table of the last committed state name every document they were built from
(id, version, sha256). ``doctor`` and every writer step compare them with the manifest and the
journal; a document they name that the store neither holds nor removed nor knows as lost is
named, and recorded as lost so that ``docs`` and every lookup of it keep naming it.

Only the state a writer *committed* is a witness: a writer marks it (``derived/.committed``,
the fingerprint) after its manifest is written. A build a killed ingest left behind names a
document that was never stored, and is no witness. Rule lineage and linking's per-release
lookups are not witnesses either, for the same reason: a writer fills them before it commits.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.store import journal
from regelwerk.ingest.model.errors import StoreError
from regelwerk.ingest.model.message import N_, Message, msg

if TYPE_CHECKING:
    from regelwerk.index.store.disk import Store

#: The committed state's fingerprint, beside the derived versions.
COMMITTED = ".committed"
#: What each witness artefact (under a derived version) says of its documents.
WITNESSES = {
    "rules/rules.sqlite": "SELECT id, version, sha256, kind FROM docs",
    "search/members.sqlite": "SELECT id, version, sha256, NULL FROM docs",
}


def mark_committed(root: Path, fingerprint: str) -> None:
    """Record `fingerprint` as the committed state (after its manifest is written)."""
    from regelwerk.index.store.disk import discard, write_atomic

    base = root / "derived"
    if base.is_dir() and not base.is_symlink():
        if (base / COMMITTED).is_dir():  # damage: no rename replaces a directory
            discard(base / COMMITTED)
        write_atomic(base / COMMITTED, fingerprint)


def named(root: Path) -> dict[str, dict[str, Any]]:
    """id -> {version, sha256, kind, witness} of every document the committed state's derived
    data name (damaged or missing witnesses say nothing)."""
    base = root / "derived"
    try:
        fingerprint = (base / COMMITTED).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return {}
    if len(fingerprint) != 16 or not fingerprint.isalnum():
        return {}
    found: dict[str, dict[str, Any]] = {}
    for version in sorted(base.glob(f"{fingerprint}*")):
        for rel, query in WITNESSES.items():
            for row in _rows(version / rel, query):
                doc_id, ver, sha, kind = row
                if isinstance(doc_id, str):
                    found.setdefault(doc_id, {"version": ver, "sha256": sha, "kind": kind,
                                              "witness": str(version / rel)})
    return found


def _rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    from regelwerk.index.store.disk import SQLITE_DAMAGE

    if not path.is_file():
        return []
    with contextlib.suppress(*SQLITE_DAMAGE, OSError):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return [tuple(r) for r in con.execute(query) if len(r) == 4]
        finally:
            con.close()
    return []


def unaccounted(store: Store) -> dict[str, dict[str, Any]]:
    """Documents the witnesses (or the journal) say the store held that it neither holds, nor
    removed, nor knows as lost: id -> what is known of them. A damaged manifest raises."""
    state = journal.replay(store.manifest_path.parent)
    held = store.manifest()["documents"]
    settled = {k for k, v in state.last.items() if v["op"] in ("remove", "lost")} | set(store.lost())
    where = str(store.manifest_path.parent / journal.FILE)
    said = {**named(store.root),
            **{k: {**v, "witness": where, "journal": True} for k, v in state.held().items()}}
    return {k: v for k, v in sorted(said.items()) if k not in held and k not in settled}


def _readable(record: Path, doc_id: str) -> bool:
    """Is there a sound record of `doc_id` (which ``doctor --repair`` lists again)?"""
    from regelwerk.index.store.disk import read_record

    try:
        return read_record(record).document.id == doc_id
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def gone_message(doc_id: str, info: dict[str, Any]) -> Message:
    return msg(N_("{doc_id} ({version}): its record, manifest entry and journal line were destroyed; "
                  "{witness} names it"), doc_id=doc_id, version=str(info.get("version") or "-"),
               witness=str(info.get("witness")))


def settle(store: Store) -> list[Message]:
    """Record as lost (``Store.mark_lost``) each document only derived data name whose record is
    gone too, so that ``docs`` and lookups of it name it after the witnesses are rebuilt; what
    was recorded. A sound record still on disk is left for ``doctor --repair`` to list again
    (a damaged one is set aside to ``store/damaged/``), and a document the journal holds for
    it to re-read from its source."""
    out = []
    for doc_id, info in unaccounted(store).items():
        record = store.record_path(doc_id)
        if info.get("journal") or _readable(record, doc_id):
            continue  # the journal keeps naming it, and doctor re-reads it (or lists its record) again
        why = gone_message(doc_id, info)
        try:
            if record.exists() or record.is_symlink():
                store.set_aside(record)  # a damaged record: kept in store/damaged/, as doctor does
            store.mark_lost(doc_id, {"version": info.get("version"), "kind": info.get("kind"),
                                     "source": info.get("source"), "why": str(why)})
        except OSError as exc:  # the records folder itself is damaged (a link loop): no build may
            # forget the witness before doctor --repair has mended the folder and recorded the loss
            raise StoreError(msg(N_("{path} is damaged ({why}); run `regelwerk doctor --repair`"),
                                 path=str(record.parent), why=type(exc).__name__)) from None
        out.append(why)
    return out


__all__ = ["COMMITTED", "gone_message", "mark_committed", "named", "settle", "unaccounted"]
