"""``regelwerk doctor``: check every stored record and derived artefact, and heal the store.

What can go wrong on disk (a full disk, a crash of something else, a hand edit) and what it
costs: a damaged manifest hides every document, a damaged record one document, a damaged
artefact (rules table, keyword links, search index) only time, as it can be rebuilt. The
check reads everything against what was recorded when it was written (each record's sha256
in the manifest, each artefact's checksums); the repair rebuilds the manifest from the
records, re-reads documents whose source file still exists (the seeds from the package),
drops derived data that fails its checksums or was left by a killed build, and rebuilds it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from regelwerk.index.store.disk import CHECKSUMS, TEMP_PREFIX, Store, artefact_problem
from regelwerk.ingest.model.errors import RegelwerkError
from regelwerk.ingest.model.records import ParsedDocument

FIX = "run `regelwerk doctor --repair`"


def _load(path: Path) -> ParsedDocument:
    return ParsedDocument.from_dict(json.loads(path.read_text(encoding="utf-8")))


def _record_problem(store: Store, doc_id: str, entry: dict[str, Any]) -> str | None:
    path = store.record_path(doc_id)
    try:
        parsed = _load(path)
    except FileNotFoundError:
        return f"{path}: the record of {doc_id!r} is missing"
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"{path}: the record of {doc_id!r} is damaged ({type(exc).__name__})"
    if parsed.document.sha256 != entry.get("sha256"):
        return f"{path}: the record of {doc_id!r} does not match its sha256 in the manifest"
    return None


def _reread(store: Store, doc_id: str, entry: dict[str, Any]) -> str:
    """Parse a damaged document again from its source (or the packaged seed); what happened."""
    from regelwerk.index.store.corpus import seed_files
    from regelwerk.ingest import parse_bytes, read_document

    source = str(entry.get("summary", {}).get("source") or "")
    seeds = dict(seed_files())
    if source.startswith("seeds/") and source[len("seeds/"):] in seeds:
        data = seeds[source[len("seeds/"):]]
    elif source and Path(source).is_file():
        try:
            data = read_document(source)
        except RegelwerkError as exc:
            store.remove(doc_id)
            return f"{doc_id}: dropped; {exc}"
    else:
        store.remove(doc_id)
        return f"{doc_id}: dropped; its source {source or '?'} is gone: ingest it again to restore it"
    try:
        parsed = parse_bytes(data, source, entry.get("summary", {}).get("kind"))
    except RegelwerkError as exc:
        store.remove(doc_id)
        return f"{doc_id}: dropped; its source no longer parses ({exc})"
    store.remove(doc_id)
    store.put(parsed, origin=str(entry.get("origin", "user")))
    return f"{doc_id}: re-read from {source}"


def _rebuild_manifest(store: Store) -> str:
    """A manifest from the readable records (the records hold everything the manifest does)."""
    docs: dict[str, Any] = {}
    for path in sorted((store.root / "store" / "docs").glob("*.json")):
        try:
            parsed = _load(path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        origin = "seed" if parsed.document.source.startswith("seeds/") else "user"
        docs[parsed.document.id] = {"sha256": parsed.document.sha256, "origin": origin,
                                    "summary": parsed.summary()}
    store.reset_manifest(docs)
    return f"manifest.json rebuilt from {len(docs)} readable records"


def _orphans(store: Store, entries: dict[str, Any]) -> list[str]:
    """Ids of record files the manifest does not list: what a deleted manifest leaves behind
    once the next command has started a new one (the seeds only)."""
    folder = store.root / "store" / "docs"
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.json") if p.stem not in entries)


def _artefacts(store: Store) -> tuple[list[Path], list[Path]]:
    base = store.root / "derived"
    if not base.is_dir():
        return [], []
    found = [p for key in base.iterdir() if key.is_dir() for p in key.iterdir() if p.is_dir()]
    temps = [p for p in found if p.name.startswith(TEMP_PREFIX)]
    return [p for p in found if p not in temps], temps


def doctor(home: Path, repair: bool = False) -> dict[str, Any]:
    """``{"home", "documents", "artefacts", "problems", "repaired", "healthy"}``."""
    store = Store(home)
    problems: list[str] = []
    repaired: list[str] = []
    with store.writing(), store.building():
        try:
            entries = dict(store.manifest()["documents"])
        except RegelwerkError as exc:
            problems.append(str(exc))
            if not repair:
                return _result(home, 0, 0, problems, repaired)
            repaired.append(_rebuild_manifest(store))
            entries = dict(store.manifest()["documents"])
        orphans = _orphans(store, entries)
        if orphans:
            problems.append(f"{len(orphans)} stored record(s) the manifest does not list "
                            f"({', '.join(orphans[:3])}); a lost manifest was replaced")
            if repair:
                repaired.append(_rebuild_manifest(store))
                entries = dict(store.manifest()["documents"])
        good = 0
        for doc_id, entry in entries.items():
            why = _record_problem(store, doc_id, entry)
            if why is None:
                good += 1
                continue
            problems.append(why)
            if repair:
                repaired.append(_reread(store, doc_id, entry))
        artefacts, temps = _artefacts(store)
        problems += [f"{t}: left by a build that did not finish" for t in temps]
        sound = 0
        for art in artefacts:
            why = artefact_problem(art, full=True)
            if why is None:
                sound += 1
            else:
                problems.append(why)
                temps.append(art)
        if repair:
            for path in temps:
                shutil.rmtree(path, ignore_errors=True)
                repaired.append(f"{path}: removed")
    if repair:
        repaired.append(_rebuild(home))
    return _result(home, good, sound, problems, repaired)


def _rebuild(home: Path) -> str:
    """Build every derived artefact of the current documents now, not at the next command."""
    from regelwerk.index.rules.lookup import keyword_links, rules_table
    from regelwerk.index.search.whoosh_index import index_dir
    from regelwerk.index.store.corpus import Corpus

    corpus = Corpus(home)
    rules_table(corpus).close()
    keyword_links(corpus)
    index_dir(corpus)
    return "derived data (rules table, keyword links, search index) built for the current documents"


def _result(home: Path, good: int, sound: int, problems: list[str], repaired: list[str]) -> dict[str, Any]:
    return {
        "home": str(home),
        "documents": good,
        "artefacts": sound,
        "problems": problems,
        "repaired": repaired,
        "healthy": not problems or bool(repaired),
    }


__all__ = ["CHECKSUMS", "FIX", "doctor"]
