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
from regelwerk.ingest.model.errors import RegelwerkError, sentence
from regelwerk.ingest.model.message import N_, Arg, Message, msg
from regelwerk.ingest.model.records import ParsedDocument

FIX = "run `regelwerk doctor --repair`"


def _load(path: Path) -> ParsedDocument:
    return ParsedDocument.from_dict(json.loads(path.read_text(encoding="utf-8")))


def _record_problem(store: Store, doc_id: str, entry: dict[str, Any]) -> Message | None:
    path = str(store.record_path(doc_id))
    try:
        parsed = _load(Path(path))
    except FileNotFoundError:
        return msg(N_("{path}: the record of {doc_id!r} is missing"), path=path, doc_id=doc_id)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return msg(N_("{path}: the record of {doc_id!r} is damaged ({error})"), path=path, doc_id=doc_id,
                   error=type(exc).__name__)
    if parsed.document.sha256 != entry.get("sha256"):
        return msg(N_("{path}: the record of {doc_id!r} does not match its sha256 in the manifest"),
                   path=path, doc_id=doc_id)
    return None


def _reread(store: Store, doc_id: str, entry: dict[str, Any]) -> Message:
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
            return msg(N_("{doc_id}: dropped; {why}"), doc_id=doc_id, why=sentence(exc))
    else:
        store.remove(doc_id)
        return msg(N_("{doc_id}: dropped; its source {source} is gone: ingest it again to restore it"),
                   doc_id=doc_id, source=source or "?")
    try:
        parsed = parse_bytes(data, source, entry.get("summary", {}).get("kind"))
    except RegelwerkError as exc:
        store.remove(doc_id)
        return msg(N_("{doc_id}: dropped; its source no longer parses ({why})"), doc_id=doc_id,
                   why=sentence(exc))
    store.remove(doc_id)
    store.put(parsed, origin=str(entry.get("origin", "user")))
    return msg(N_("{doc_id}: re-read from {source}"), doc_id=doc_id, source=source)


def _rebuild_manifest(store: Store) -> Message:
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
    return msg(N_("manifest.json rebuilt from {n} readable records"), n=str(len(docs)))


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
    problems: list[Arg] = []
    repaired: list[Arg] = []
    with store.writing(), store.building():
        try:
            entries = dict(store.manifest()["documents"])
        except RegelwerkError as exc:
            problems.append(sentence(exc))
            if not repair:
                return _result(home, 0, 0, problems, repaired)
            repaired.append(_rebuild_manifest(store))
            entries = dict(store.manifest()["documents"])
        orphans = _orphans(store, entries)
        if orphans:
            lost = (N_("{n} stored record the manifest does not list ({ids}); a lost manifest was replaced")
                    if len(orphans) == 1 else
                    N_("{n} stored records the manifest does not list ({ids}); a lost manifest was replaced"))
            problems.append(msg(lost, n=str(len(orphans)), ids=", ".join(orphans[:3])))
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
        problems += [msg(N_("{path}: left by a build that did not finish"), path=str(t)) for t in temps]
        sound = 0
        for art in artefacts:
            damage = artefact_problem(art, full=True)
            if damage is None:
                sound += 1
            else:
                problems.append(damage)
                temps.append(art)
        if repair:
            for path in temps:
                shutil.rmtree(path, ignore_errors=True)
                repaired.append(msg(N_("{path}: removed"), path=str(path)))
    if repair:
        repaired.append(_rebuild(home))
    return _result(home, good, sound, problems, repaired)


def _rebuild(home: Path) -> Message:
    """Build every derived artefact of the current documents now, not at the next command."""
    from regelwerk.index.rules.lookup import keyword_links, rules_table
    from regelwerk.index.search.whoosh_index import index_dir
    from regelwerk.index.store.corpus import Corpus

    corpus = Corpus(home)
    rules_table(corpus).close()
    keyword_links(corpus)
    index_dir(corpus)
    return msg(N_("derived data (rules table, keyword links, search index) built for the current documents"))


def _result(home: Path, good: int, sound: int, problems: list[Arg], repaired: list[Arg]) -> dict[str, Any]:
    """The payload: ``problems`` and ``repaired`` as English sentences, and beside them as
    template + arguments (``problem_messages``, ``repaired_messages``) for other readers."""
    def as_data(found: list[Arg]) -> list[Any]:
        return [m.to_dict() if isinstance(m, Message) else m for m in found]

    return {
        "home": str(home),
        "documents": good,
        "artefacts": sound,
        "problems": [str(p) for p in problems],
        "repaired": [str(r) for r in repaired],
        "problem_messages": as_data(problems),
        "repaired_messages": as_data(repaired),
        "healthy": not problems or bool(repaired),
    }


__all__ = ["CHECKSUMS", "FIX", "doctor"]
