"""The store's journal: a second, append-only account of which documents the store holds.

Readers use the manifest; the journal is for when the manifest is gone together with a record
(or the whole records folder), so that no document is ever lost without a word. Each line is
one change (a document put, removed, or lost) with what finding it again takes (id, sha256,
source, kind, version, language, origin) and a checksum of its own, so a damaged line is
skipped, never misread. A put is appended after the manifest that lists it is written, a
removal before the manifest that drops it: the journal never lists a document the store was
not meant to hold. ``doctor`` compares the two: a document the journal lists and the store
lacks is re-read from its source, or recorded as lost and named (``docs``, and every lookup
of it) until it is ingested again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

FILE = "journal.jsonl"
#: What a line keeps of a document's summary (enough to re-read it, or to say what it was).
FIELDS = ("sha256", "source", "kind", "version", "language", "title")
#: The op of a card file ingested into the card database (kept apart from the rules' documents).
CARDS = "cards"
#: The journal is rewritten from the current state once it has this many lines per document.
COMPACT_AFTER = 4


def _check(entry: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode("utf-8", "replace")).hexdigest()[:16]


def line(op: str, doc_id: str, details: dict[str, Any]) -> str:
    """One journal line: `op` ("put", "remove", "lost") of `doc_id`, with its check."""
    entry = {"op": op, "id": doc_id, **{k: details.get(k) for k in (*FIELDS, "origin", "why")}}
    return json.dumps({**entry, "check": _check(entry)}, ensure_ascii=True) + "\n"


def entry_of(summary: dict[str, Any], origin: str) -> dict[str, Any]:
    """What the journal keeps of a manifest entry's summary."""
    return {**{k: summary.get(k) for k in FIELDS}, "origin": origin}


class State:
    """The journal replayed: the last change of each document, and how many lines were damaged."""

    def __init__(self) -> None:
        self.last: dict[str, dict[str, Any]] = {}
        self.damaged = 0
        self.lines = 0
        self.exists = False

    def cards(self) -> dict[str, str]:
        """Card files ingested into the card database: file id -> where each was read from."""
        return {k.removeprefix(f"{CARDS}:"): str(v.get("source")) for k, v in self.last.items()
                if v["op"] == CARDS and v.get("source")}

    def held(self) -> dict[str, dict[str, Any]]:
        """Documents whose last change is a put: what the store should hold."""
        return {k: v for k, v in self.last.items() if v["op"] == "put"}

    def lost(self) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.last.items() if v["op"] == "lost"}


def replay(folder: Path) -> State:
    """Read ``folder/journal.jsonl`` (a missing or unreadable one is an empty journal)."""
    state = State()
    try:
        raw = (folder / FILE).read_bytes()
    except OSError:
        return state
    state.exists = True
    for text in raw.split(b"\n"):
        if not text.strip():
            continue
        state.lines += 1
        try:
            entry = json.loads(text.decode("utf-8"))
            check = entry.pop("check")
            if not isinstance(entry.get("id"), str) or check != _check(entry):
                raise ValueError("checksum")
        except (ValueError, AttributeError, KeyError, TypeError):
            state.damaged += 1
            continue
        state.last[entry["id"]] = entry
    return state


def append(folder: Path, lines: list[str]) -> None:
    """Append `lines` (synced to disk: the journal is worth most after a crash)."""
    if not lines:
        return
    if (folder / FILE).is_symlink() or (folder / FILE).is_dir():
        rewrite(folder, lines)
        return
    fd = os.open(folder / FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, "".join(lines).encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


def rewrite(folder: Path, lines: list[str]) -> None:
    """Replace the journal with `lines` in one rename (compaction, or repair of a damaged one)."""
    from regelwerk.index.store.disk import discard, write_atomic

    target = folder / FILE
    if target.is_dir() and not target.is_symlink():
        discard(target)
    write_atomic(target, "".join(lines))


def sync(folder: Path, documents: dict[str, Any], lost: dict[str, Any]) -> None:
    """After a manifest listing `documents` was written: journal what it holds that the journal
    does not (new or changed documents, documents found lost); a journal grown long, or with
    damaged lines, is rewritten from the state when it lists nothing the manifest lacks (its
    removals too: derived data a reader still holds may name a removed document, see
    ``witness``)."""
    state = replay(folder)
    held = state.held()
    out = [line("put", doc_id, entry_of(e["summary"], e.get("origin", "user")))
           for doc_id, e in documents.items()
           if doc_id not in held or held[doc_id].get("sha256") != e.get("sha256")]
    out += [line("lost", doc_id, info) for doc_id, info in lost.items()
            if state.last.get(doc_id, {}).get("op") != "lost"]
    whole = set(held) <= set(documents)
    if whole and (state.damaged or state.lines + len(out) > COMPACT_AFTER * len(documents) + 32):
        removed = [line(str(v["op"]), k, v) for k, v in state.last.items()
                   if v["op"] in ("remove", CARDS) and k not in documents]
        rewrite(folder, [line("put", k, entry_of(e["summary"], e.get("origin", "user")))
                         for k, e in documents.items()]
                + [line("lost", k, v) for k, v in lost.items()] + removed)
    else:
        append(folder, out)


__all__ = ["CARDS", "FILE", "State", "append", "entry_of", "line", "replay", "rewrite", "sync"]
