"""The corpus: the stored documents plus the shipped seeds, what every index part reads.

Callers outside ``index`` use the facade (``regelwerk.index.facade.Library``), which opens one.
Opening a corpus makes sure the embedded seed documents are ingested (first use, or a newer
package with changed seeds), so ``regelwerk docs`` lists them right after install.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.store.disk import Store
from regelwerk.index.store.home import home_dir
from regelwerk.ingest.model.errors import IngestError, StoreError
from regelwerk.ingest.model.message import N_, Message, msg
from regelwerk.ingest.model.releases import release_key

if TYPE_CHECKING:
    from regelwerk.ingest.model.records import ParsedDocument


@dataclass
class IngestReport:
    """What one ``ingest`` call did: documents written, skipped as unchanged, and failures."""

    documents: list[ParsedDocument] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # ids whose bytes were already stored
    errors: list[IngestError] = field(default_factory=list)
    skipped: list[Message] = field(default_factory=list)  # directory entries not read, and why
    replaced: list[str] = field(default_factory=list)  # ids whose stored record was replaced
    repaired: list[str] = field(default_factory=list)  # ids whose damaged record was rewritten

    def to_dict(self) -> dict[str, Any]:
        return {
            "documents": [p.summary() for p in self.documents],
            "unchanged": self.unchanged,
            "errors": [str(e) for e in self.errors],
            "skipped": [str(s) for s in self.skipped],
            # the same as template + arguments, for a reader of another language
            "skipped_messages": [s.to_dict() for s in self.skipped],
            "replaced": self.replaced,
            "repaired": self.repaired,
        }


def seed_stamp(home: Path | None = None) -> str:
    """A hash of the shipped seeds (names and bytes), as the manifest records the stored ones;
    taken from `home`'s ready marker when the seed files are those it was computed from."""
    from regelwerk.index.store import ready

    def compute() -> str:
        from regelwerk.ingest.model.ids import sha256

        return sha256(b"".join(name.encode() + b"\0" + data for name, data in seed_files()))

    return ready.stamp("seeds", list(_seed_entries()), compute, home)


def _seed_entries() -> list[Traversable]:
    folder = resources.files("regelwerk.data") / "seeds"
    return sorted((e for e in folder.iterdir() if e.name.endswith(".txt")), key=lambda e: e.name)


def seed_files() -> list[tuple[str, bytes]]:
    """(name, bytes) of the seed documents shipped in regelwerk.data/seeds."""
    return [(entry.name, entry.read_bytes()) for entry in _seed_entries()]


class Corpus:
    """The document store under ``home``; opening it for reading runs the writer step first
    when the shipped seeds are not stored yet (a new home) or have changed (an upgrade)."""

    def __init__(
        self, home: Path | None = None, *, seed: bool = True, stage: Callable[[str], None] | None = None
    ) -> None:
        """`stage` hears each step of that writer step (``Library.building``: a new home's first
        read builds the seeds' index, and their sentence vectors with the optional extra)."""
        self.home = home or home_dir()
        self.store = Store(self.home)
        if seed and not self.seeds_current():
            self.prepare(stage)

    def seeds_current(self) -> bool:
        """Are this package's seeds the stored ones (a cheap look at the manifest)?"""
        return bool(self.store.meta("seeds") == seed_stamp(self.home))

    @contextlib.contextmanager
    def publishing(
        self, stage: Callable[[str], None] | None = None, *, force: bool = False
    ) -> Iterator[None]:
        """A writer step: the writer lock, the shipped seeds staged if missing or changed, the
        witnesses' account settled (``witness``: a document destroyed without a trace is
        recorded as lost before a build forgets it), an older card database's schema brought
        up to date, the caller's changes, then, if anything
        changed (or `force`), every derived artefact built, and only then the commit. Other
        processes see the old state, then the new one whole. Nested inside another writer
        step, the outer one builds and commits."""
        if self.store.may_build:
            yield
            return
        with self.store.publishing():
            self.ensure_seeds()
            self.settle_unaccounted()
            self.upgrade_cards()
            yield
            if force or self.store.changed:
                from regelwerk.index.store.build import build

                build(self, stage)

    def prepare(self, stage: Callable[[str], None] | None = None) -> None:
        """The writer step a reader runs when it finds no built state (a new home's seeds, an
        index format changed by an upgrade, derived data removed as damaged): as a writer,
        under the writer lock (waiting at most ``REGELWERK_LOCK_TIMEOUT`` s for another one,
        then a one-line error), it stores the seeds and builds every artefact of the committed
        state; a state another writer built meanwhile is only checked, not built again."""
        with self.publishing(stage, force=True):
            pass

    def settle_unaccounted(self) -> list[Message]:
        """Record as lost each document derived data or the journal name that the store lost
        without a trace (``witness.settle``); what was recorded."""
        from regelwerk.index.store.witness import settle

        return settle(self.store)

    def upgrade_cards(self) -> None:
        """Bring a card database an older regelwerk wrote up to this one's schema (a writer
        step's part: readers never change it, they run the writer step; ``CardStore.upgrade``)."""
        from regelwerk.index.cards.store import CardStore

        cards = CardStore(self.home)
        if cards.exists():
            cards.upgrade()

    def ensure_seeds(self) -> None:
        """Stage the shipped seeds if they are missing or changed since the last run (inside a
        writer step; opened for reading, `Corpus` runs one when they are)."""
        stamp = seed_stamp(self.home)
        if self.store.meta("seeds") == stamp:
            return
        from regelwerk.ingest import parse_bytes

        with self.publishing():
            for name, data in seed_files():
                parsed = parse_bytes(data, f"seeds/{name}")
                if self.store.sha256_of(parsed.document.id) != parsed.document.sha256:
                    self.store.put(parsed, origin="seed")
            self.store.set_meta("seeds", stamp)

    def ingest(
        self,
        paths: Iterable[str | Path],
        fmt: str | None = None,
        progress: Callable[[Path], None] | None = None,
        *,
        strict: bool = False,
        follow_symlinks: bool = False,
        replace: bool = False,
        stage: Callable[[str], None] | None = None,
    ) -> IngestReport:
        """Parse and store each file; a bad file is reported and the rest go on.

        Nothing is written for a file until it has parsed completely, so a failure leaves every
        earlier document (and the index built from them) intact. Parsing is lenient: lines it
        cannot place become IngestIssues on the document; `strict` turns any issue into a
        failure of that file instead. Directories are walked without following symbolic links
        unless `follow_symlinks`; what was skipped is listed in the report. A different
        document arriving under a stored one's id is refused unless `replace` (see `identity`).
        It is one writer step (`publishing`): the documents become visible together with the
        derived data built from them (`stage` hears each step of the build).
        """
        from regelwerk.ingest import display_path, expand_paths

        report = IngestReport()
        files = expand_paths(paths, follow_symlinks=follow_symlinks, skipped=report.skipped)
        with self.publishing(stage):
            for path in files:
                if progress is not None:
                    progress(path)
                source = display_path(path)
                try:
                    self._ingest_one(path, source, fmt, report, strict=strict, replace=replace)
                except IngestError as exc:
                    report.errors.append(exc)
                except Exception as exc:  # a parser bug must not cost the user the other files
                    report.errors.append(
                        IngestError(source, msg(N_("could not be ingested ({error})"),
                                                error=f"{type(exc).__name__}: {exc}"))
                    )
        return report

    def _ingest_one(
        self, path: Path, source: str, fmt: str | None, report: IngestReport, *, strict: bool, replace: bool
    ) -> None:
        """Read, parse and store one file, recording the outcome in `report`.

        Bytes already stored are a no-op, unless their record is damaged: then they are parsed
        again and the record rewritten (re-ingesting a file repairs it).
        """
        from regelwerk.index.store.identity import conflict
        from regelwerk.ingest import parse_bytes, read_document
        from regelwerk.ingest.model.ids import sha256

        data = read_document(path)
        known = self.store.has_sha256(sha256(data))
        stored = self._stored(known)
        parsed = stored or parse_bytes(data, source, fmt)
        if strict and parsed.issues:
            n = len(parsed.issues)
            template = N_("{n} problem (--strict); first: {first}") if n == 1 else N_(
                "{n} problems (--strict); first: {first}")
            raise IngestError(source, msg(template, n=str(n), first=str(parsed.issues[0])))
        if stored is not None and known is not None:
            report.unchanged.append(known)
            report.documents.append(parsed)
            return
        old = self.store.summary_of(parsed.document.id)
        why = None if old is None or known else conflict(old, parsed.summary())
        if why is not None and not replace:
            raise IngestError(source, why)
        self.store.put(parsed)
        if known is not None:
            report.repaired.append(known)
        elif old is not None:
            report.replaced.append(parsed.document.id)
        report.documents.append(parsed)

    def _stored(self, doc_id: str | None) -> ParsedDocument | None:
        """The stored record of `doc_id`, or None if it is missing or cannot be read."""
        if doc_id is None:
            return None
        try:
            return self.store.get(doc_id)
        except StoreError:
            return None

    def documents(self) -> list[dict[str, Any]]:
        """Summaries of every stored document, newest CR releases first."""
        docs = self.store.summaries()
        docs.sort(key=lambda d: d["id"])
        docs.sort(key=lambda d: release_key(d["kind"], d["version"]), reverse=True)
        return docs
