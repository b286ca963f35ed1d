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

from pathlib import Path
from typing import Any

from regelwerk.index.store.disk import (
    CHECKSUMS,
    SEAL,
    SQLITE_DAMAGE,
    TEMP_PREFIX,
    UNSEALED,
    Store,
    artefact_problem,
    damage_text,
    discard,
    read_record,
    real_dir,
    seal,
    seal_path,
    seal_problem,
)
from regelwerk.ingest.model.errors import RegelwerkError, StoreError, sentence
from regelwerk.ingest.model.message import N_, Arg, Message, msg
from regelwerk.ingest.model.records import ParsedDocument

FIX = "run `regelwerk doctor --repair`"
#: SQLite databases beside the derived versions: lineage and linking's per-release lookups are
#: rebuilt from the records, the compiled lexicon from the shipped tables at its next use
#: (`regelwerk.index.search.lexicon_tables`), the card database only from the card files (so
#: its repair asks for them again).
DATABASES = ("lineage/*.sqlite", "linking/*.sqlite", "lexicon/*.sqlite", "cards/cards.sqlite")
#: The folders of those that only hold derived data (a damaged one is simply made again).
DERIVED_FOLDERS = ("derived", "lineage", "linking", "lexicon")


def database_problem(path: Path) -> str | None:
    """What is wrong with the SQLite database at `path` (None: sound or absent): SQLite's
    integrity check (the quick check passes an index that no longer matches its table, which
    fails the next write), then every table and view read to the end, so damage the check
    passes (a flipped byte in a view's text, a value that is not UTF-8) is found too."""
    import sqlite3

    if not path.exists() and not path.is_symlink():
        return None
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute("PRAGMA integrity_check(1)").fetchall()
            if rows == [("ok",)]:  # the structure is sound: is every value readable too?
                rows = _read_everything(con)
        finally:
            con.close()
    except SQLITE_DAMAGE as exc:
        return f"{path}: damaged ({damage_text(exc)})"
    if rows != [("ok",)]:
        return f"{path}: damaged ({rows[0][0]})"
    if path.parent.name == "cards":  # its stored JSON too (SQLite cannot tell damaged text)
        from regelwerk.index.cards.store import content_problem

        try:
            return content_problem(path)
        except SQLITE_DAMAGE as exc:
            return f"{path}: damaged ({damage_text(exc)})"
    return None


def _read_everything(con: Any) -> list[tuple[str]]:
    """Read every row of every table and view; ``[("ok",)]``, or why not."""
    names = con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    if not names:  # SQLite reads a file shorter than its header as an empty database
        return [("no tables",)]
    for (name,) in names:
        for _ in con.execute(f'SELECT * FROM "{name}"'):
            pass
    return [("ok",)]


def _databases(home: Path) -> list[Path]:
    return [path for pattern in DATABASES for path in sorted(home.glob(pattern))]


def heal(store: Store) -> list[str]:
    """Remove derived data that fails its checks, so the writer step that called it builds it
    again; what was removed. Damage that derived data cannot heal (the card database) raises
    a StoreError naming the fix. Used by reads that met damage (see the facade)."""
    from regelwerk.index.store.disk import damaged_artefacts

    home = store.root
    healed = [str(m) for m in _structure(store, DERIVED_FOLDERS)]
    with store.building():
        cards = database_problem(home / "cards" / "cards.sqlite")
        if cards is not None:
            from regelwerk.index.cards.store import DAMAGED

            raise StoreError(msg(DAMAGED, problem=cards))
        for why in damaged_artefacts(home):
            folder = _artefact_of(home, why)
            if folder is not None:
                discard(folder)
                healed.append(why)
        for path in _databases(home):
            if path.parent.name in DERIVED_FOLDERS and _database_damage(path) is not None:
                discard(path)
                discard(seal_path(path))
                healed.append(str(path))
    return healed


def _database_damage(path: Path) -> str | None:
    """SQLite's own checks, then the seal (a value changed since its writer finished); a
    database only unsealed (a writer killed, an older regelwerk) is no damage here."""
    why = database_problem(path)
    if why is None:
        why = seal_problem(path)
        if why is not None and why.endswith(UNSEALED):
            return None
    return why


def _artefact_of(home: Path, why: str) -> Path | None:
    """The artefact folder (derived/<key>/<name>) a damage report names."""
    base = home / "derived"
    for key in base.iterdir() if base.is_dir() else ():
        for folder in key.iterdir() if key.is_dir() and not key.is_symlink() else ():
            if why.startswith(str(folder)):
                return folder
    return None


def _load(path: Path) -> ParsedDocument:
    return read_record(path)


def _record_problem(store: Store, doc_id: str, entry: dict[str, Any], repair: bool = False) -> Message | None:
    """What is wrong with the record of `doc_id` or its manifest entry; with `repair`, a
    manifest entry that differs from a sound record is written again from it."""
    path = str(store.record_path(doc_id))
    try:
        parsed = _load(Path(path))
    except FileNotFoundError:
        return msg(N_("{path}: the record of {doc_id!r} is missing"), path=path, doc_id=doc_id)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return msg(N_("{path}: the record of {doc_id!r} is damaged ({error})"), path=path, doc_id=doc_id,
                   error=type(exc).__name__)
    if parsed.document.sha256 != entry.get("sha256") or parsed.document.id != doc_id:
        return msg(N_("{path}: the record of {doc_id!r} does not match its sha256 in the manifest"),
                   path=path, doc_id=doc_id)
    if entry.get("summary") != parsed.summary():  # a flipped byte in the manifest's copy of it
        if repair:
            store.put(parsed, origin=str(entry.get("origin", "user")))
        return msg(N_("the manifest's summary of {doc_id!r} does not match its record (rewritten from the "
                      "record when repairing)"), doc_id=doc_id)
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
            return _lost(store, doc_id, entry, msg(N_("{doc_id}: dropped; {why}"), doc_id=doc_id,
                                                   why=sentence(exc)))
    else:
        gone = msg(N_("{doc_id}: dropped; its source {source} is gone: ingest it again to restore it"),
                   doc_id=doc_id, source=source or "?")
        return _lost(store, doc_id, entry, gone)
    try:
        parsed = parse_bytes(data, source, entry.get("summary", {}).get("kind"))
        if parsed.document.id != doc_id:
            raise StoreError(msg(N_("it now holds {other!r}"), other=parsed.document.id))
    except RegelwerkError as exc:
        return _lost(store, doc_id, entry, msg(N_("{doc_id}: dropped; its source no longer parses ({why})"),
                                               doc_id=doc_id, why=sentence(exc)))
    store.remove(doc_id)
    store.put(parsed, origin=str(entry.get("origin", "user")))
    return msg(N_("{doc_id}: re-read from {source}"), doc_id=doc_id, source=source)


def _lost(store: Store, doc_id: str, entry: dict[str, Any], why: Message) -> Message:
    """Drop a document nothing can bring back, and remember it as lost (``docs`` and lookups
    of it name it until it is ingested again)."""
    summary = entry.get("summary", {})
    store.mark_lost(doc_id, {"version": summary.get("version"), "kind": summary.get("kind"),
                             "source": summary.get("source"), "why": str(why)})
    return why


def _check_journal(store: Store, problems: list[Arg], repaired: list[Arg] | None) -> None:
    """Compare the journal (the second account of the documents) with the manifest: a document
    it lists that the store lacks lost its record and manifest entry together; it is re-read
    from its source, or named as lost. A missing or damaged journal is written again."""
    from regelwerk.index.store import journal

    state = journal.replay(store.manifest_path.parent)
    documents = store.manifest()["documents"]
    where = str(store.manifest_path.parent / journal.FILE)
    if state.damaged or (not state.exists and documents):
        problems.append(msg(N_("{path}: {n} damaged lines"), path=where, n=str(state.damaged)) if state.exists
                        else msg(N_("{path}: missing"), path=where))
        if repaired is not None:
            repaired.append(msg(N_("{path}: written again from the manifest"), path=where))
    for doc_id, info in state.held().items():
        if doc_id in documents:
            continue
        problems.append(msg(N_("{doc_id} ({version}): the journal lists it, but its record and its manifest "
                               "entry are gone"), doc_id=doc_id, version=str(info.get("version") or "?")))
        if repaired is not None:
            repaired.append(_reread(store, doc_id, {"summary": info, "origin": info.get("origin") or "user"}))
    if repaired is not None:  # what the journal knows lost stays named; the journal is written whole
        lost = {k: v for k, v in state.lost().items() if k not in store.manifest()["documents"]}
        store.reset_manifest(dict(store.manifest()["documents"]), {**lost, **store.lost()})


def _rebuild_manifest(store: Store, entries: dict[str, Any]) -> list[Arg]:
    """The manifest `entries` plus every readable record it does not list (the records hold
    everything the manifest does); a record file that cannot be read and that no entry names
    is moved to ``store/damaged/`` (nothing is deleted) and named, so its loss is never silent."""
    docs = dict(entries)
    out: list[Arg] = []
    for path in sorted((store.root / "store" / "docs").glob("*.json")):
        if path.stem in docs or path.name.startswith("."):
            continue
        try:
            parsed = _load(path)
            if parsed.document.id != path.stem:
                raise ValueError("another document's record")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            out.append(msg(N_("an unreadable record the manifest does not list: {moved}; ingest its file "
                              "again if it was yours"), moved=_set_aside(store, path)))
            continue
        origin = "seed" if parsed.document.source.startswith("seeds/") else "user"
        docs[parsed.document.id] = {"sha256": parsed.document.sha256, "origin": origin,
                                    "summary": parsed.summary()}
    try:
        lost = store.lost()
    except StoreError:  # the manifest itself was damaged: the journal still knows what was lost
        lost = {}
    store.reset_manifest(docs, lost)
    rebuilt = msg(N_("manifest.json rebuilt: {n} documents, {new} of them from records it did not list"),
                  n=str(len(docs)), new=str(len(docs) - len(entries)))
    return [rebuilt, *out]


def _set_aside(store: Store, path: Path) -> Message:
    """Move a damaged store file to ``store/damaged/`` (nothing of the user's is deleted)."""
    aside = store.set_aside(path)
    return msg(N_("{path} moved to {aside}"), path=str(path), aside=str(aside))


def _orphans(store: Store, entries: dict[str, Any]) -> list[str]:
    """Ids of record files the manifest does not list: what a deleted manifest leaves behind
    once the next command has started a new one (the seeds only)."""
    folder = store.root / "store" / "docs"
    if not folder.is_dir():
        return []
    records = [p for p in folder.glob("*.json") if not p.name.startswith(".")]
    return sorted(p.stem for p in records if p.stem not in entries)


def _artefacts(store: Store) -> tuple[list[Path], list[Path]]:
    """(built artefacts, what is no artefact: temp dirs of killed builds, files where a
    version folder or an artefact belongs, symbolic links)."""
    base = store.root / "derived"
    if not base.is_dir() or base.is_symlink():
        return [], [base] if base.exists() or base.is_symlink() else []
    keys = [k for k in base.iterdir() if not k.name.startswith(".")]
    stray = [k for k in keys if k.is_symlink() or not k.is_dir()]
    found = [p for key in keys if key not in stray for p in key.iterdir()]
    temps = [p for p in found if p.name.startswith(TEMP_PREFIX) or p.is_symlink() or not p.is_dir()]
    return [p for p in found if p not in temps], stray + temps


FOLDERS = ("store/docs", *DERIVED_FOLDERS, "cards")


def _structure(store: Store, folders: tuple[str, ...] = FOLDERS) -> list[Arg]:
    """Folders of the store that are not folders (a file, a link loop): made folders again."""
    out: list[Arg] = []
    for rel in folders:
        path = store.root / rel
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            real_dir(path)
            out.append(msg(N_("{path}: not a directory; replaced by an empty one"), path=str(path)))
    return out


def doctor(home: Path, repair: bool = False) -> dict[str, Any]:
    """``{"home", "documents", "artefacts", "problems", "repaired", "healthy"}``."""
    store = Store(home)
    problems: list[Arg] = []
    repaired: list[Arg] = []
    with store.writing(), store.building():
        if repair:
            repaired += _structure(store)
        try:
            entries = dict(store.manifest()["documents"])
        except RegelwerkError as exc:
            problems.append(sentence(exc))
            if not repair:
                return {**_result(home, 0, 0, problems, repaired), "lost": []}
            repaired.append(_set_aside(store, store.manifest_path))
            repaired += _rebuild_manifest(store, {})
            entries = dict(store.manifest()["documents"])
        orphans = _orphans(store, entries)
        if orphans:
            lost = (N_("{n} stored record the manifest does not list ({ids}); a lost manifest was replaced")
                    if len(orphans) == 1 else
                    N_("{n} stored records the manifest does not list ({ids}); a lost manifest was replaced"))
            problems.append(msg(lost, n=str(len(orphans)), ids=", ".join(orphans[:3])))
            if repair:
                repaired += _rebuild_manifest(store, entries)
                entries = dict(store.manifest()["documents"])
        fixes = repaired if repair else None
        _check_journal(store, problems, fixes)
        _check_witnesses(store, problems, fixes)
        entries = dict(store.manifest()["documents"])
        good = _check_records(store, entries, problems, fixes)
        card_sources = _card_sources(home, problems)
        sound = _check_derived(store, problems, fixes)
        if repair:
            repaired += _reread_cards(home, card_sources)
        named = [_lost_line(k, v) for k, v in sorted(store.lost().items())]
    if repair:
        repaired.append(_rebuild(home))
    return {**_result(home, good, sound, problems, repaired), "lost": named}


def _check_witnesses(store: Store, problems: list[Arg], repaired: list[Arg] | None) -> None:
    """Documents only derived data still name (``witness``: their record, manifest entry and
    journal line were all destroyed) are problems; the repair records them as lost (named by
    ``docs`` and every lookup of them) before the rebuild forgets them."""
    from regelwerk.index.store.witness import gone_message, settle, unaccounted

    for doc_id, info in unaccounted(store).items():
        if not info.get("journal"):  # the journal's own account was checked just before
            problems.append(gone_message(doc_id, info))
    if repaired is not None:
        lost = N_("{why}: recorded as lost; ingest its file again")
        repaired += [msg(lost, why=why) for why in settle(store)]


def _lost_line(doc_id: str, info: dict[str, Any]) -> str:
    return f"{doc_id} ({info.get('version') or '-'}): {info.get('why') or 'lost'}"


def _card_sources(home: Path, problems: list[Arg]) -> dict[str, str]:
    """Where the ingested card files were read from: the card database's seal, and the store's
    journal (which outlives a card folder destroyed whole, and is named then)."""
    from regelwerk.index.cards.store import CardStore, card_db_path
    from regelwerk.index.store import journal

    sources = {**journal.replay(home / "store").cards(), **CardStore(home).sources()}
    db = card_db_path(home)
    if sources and not db.exists() and not db.is_symlink():
        problems.append(msg(N_("{path}: missing, but {n} card files were ingested"), path=str(db),
                            n=str(len(sources))))
    return sources


def _reread_cards(home: Path, sources: dict[str, str]) -> list[Arg]:
    """After a damaged card database was removed: read its card files again (those still
    there) into a new one; name those that are gone."""
    from regelwerk.index.cards.store import CardStore, card_db_path

    db = card_db_path(home)
    if db.is_symlink() or (db.exists() and not db.is_file()):  # no database file: a link (loop), a folder
        discard(db)
    if db.exists() or not sources:
        return []
    there = [Path(p) for p in sources.values() if Path(p).is_file()]
    gone = sorted(p for p in sources.values() if not Path(p).is_file())
    out: list[Arg] = []
    if there:
        cards = CardStore(home)
        report = cards.ingest(there)
        cards.close()
        again = N_("the card database was read again from {n} card files")
        out.append(msg(again, n=str(len(report.documents))))
    if gone:
        out.append(msg(N_("card files gone, ingest them again: {files}"), files=", ".join(gone)))
    return out


def _check_records(
    store: Store, entries: dict[str, Any], problems: list[Arg], repaired: list[Arg] | None
) -> int:
    """How many records are sound; each damaged one is a problem (re-read when repairing)."""
    good = 0
    for doc_id, entry in entries.items():
        why = _record_problem(store, doc_id, entry, repair=repaired is not None)
        if why is None:
            good += 1
            continue
        problems.append(why)
        if repaired is not None and "summary" in why.id:
            repaired.append(msg(N_("{doc_id}: manifest entry written again from its record"), doc_id=doc_id))
        elif repaired is not None:
            repaired.append(_reread(store, doc_id, entry))
    return good


def _check_derived(store: Store, problems: list[Arg], repaired: list[Arg] | None) -> int:
    """How many derived artefacts are sound; damaged ones, leftovers of killed builds and
    damaged databases are problems (removed when repairing, to be built again)."""
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
    temps += _check_databases(store.root, problems, repaired)
    if repaired is not None:
        for path in temps:
            discard(path)
            for suffix in ("-wal", "-shm", "-journal", SEAL):
                discard(path.with_name(path.name + suffix))
            repaired.append(msg(N_("{path}: removed"), path=str(path)))
    return sound


def _check_databases(home: Path, problems: list[Arg], repaired: list[Arg] | None) -> list[Path]:
    """The SQLite databases beside the derived versions: SQLite's checks, then their seals (a
    value changed since the writer finished). The damaged ones, to remove when repairing (the
    lineage and linking tables are built again, the card database read again from its files);
    an unsealed one is made again too where it can be (`_rebuildable`), else sealed as it is."""
    out = []
    for path in _databases(home):
        why = database_problem(path)
        unsealed = False
        if why is None:
            why = seal_problem(path)
            unsealed = why is not None and why.endswith(UNSEALED)
        if why is None:
            continue
        problems.append(why)
        if unsealed and not _rebuildable(home, path):
            if repaired is not None:
                _reseal(path)
                sealed = N_("{path}: sealed as it is (it passes SQLite's checks; its card files are gone)")
                repaired.append(msg(sealed, path=str(path)))
            continue
        out.append(path)
    return out


def _rebuildable(home: Path, path: Path) -> bool:
    """Can `path` be made again from its sources? Without its seal nothing tells a sound
    database from one with a value changed in place, so a repair builds it again where it can
    (lineage and linking from the records, the card database from its card files, if every one
    is still there) and seals it as it is only where it cannot."""
    if path.parent.name != "cards":
        return True
    sources = _card_sources(home, [])
    return bool(sources) and all(Path(p).is_file() for p in sources.values())


def _reseal(path: Path) -> None:
    if path.parent.name == "cards":
        from regelwerk.index.cards.store import CardStore

        cards = CardStore(path.parent.parent)
        cards.seal(cards.sources())
        cards.close()
    else:
        seal(path)


def _rebuild(home: Path) -> Message:
    """Build every derived structure of the current documents now, not at the next command
    (the one builder: lineage, keyword links, rules table, search index), as a writer step."""
    from regelwerk.index.store.corpus import Corpus

    Corpus(home, seed=False).prepare()
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


__all__ = ["CHECKSUMS", "FIX", "database_problem", "doctor", "heal"]
