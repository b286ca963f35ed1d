"""The library facade: the one object the CLI and the web server call.

Each method does one user-level thing and returns the exact ``--json`` payload of the matching
command as a plain dict, without the ``"ok"`` key (the caller adds the envelope): the CLI renders
the dict with rich, the web server with a template or sends it as JSON. Bad input raises a
``RegelwerkError`` subclass (``regelwerk.ingest.model``); callers map it to their error envelope
once, in one place.

Heavy imports (whoosh for search, bs4 for ingest, the engine for examples) stay inside the
methods, so ``Library().rule(...)`` starts fast. The corpus is opened (and the shipped seeds
ingested) on first use, not when the object is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.ingest.model.errors import IngestError, InputError, RegelwerkError
from regelwerk.ingest.model.numbers import lineage

if TYPE_CHECKING:
    from regelwerk.engine.rulebook import RuleBook
    from regelwerk.index.store.corpus import Corpus

__all__ = ["Library", "LibraryRuleBook"]


class Library:
    """The rules library under ``home`` (default: ``REGELWERK_HOME`` or the user data directory)."""

    def __init__(self, home: Path | None = None) -> None:
        self._home = home
        self._corpus: Corpus | None = None

    @property
    def corpus(self) -> Corpus:
        """The stored documents, with the seeds ingested on first use."""
        if self._corpus is None:
            from regelwerk.index.store.corpus import Corpus

            self._corpus = Corpus(self._home)
        return self._corpus

    @property
    def home(self) -> Path:
        return self.corpus.home

    # -- read ------------------------------------------------------------------------------------
    def rule(self, query: str, version: str | None = None, lang: str | None = None) -> dict[str, Any]:
        """``{"rule": ...}``: the rule `query` names, with subrules, examples and references."""
        from regelwerk.index.rules.lookup import lookup

        return {"rule": lookup(self.corpus, query, version=version, lang=lang).to_dict()}

    def search(
        self,
        query: str,
        lang: str | None = None,
        limit: int = 10,
        version: str | None = None,
        all_versions: bool = False,
    ) -> dict[str, Any]:
        """``{"query", "hits", "notes", ...}``: ranked hits across both languages (or only `lang`)."""
        from regelwerk.index.search.query import search

        if version is not None and all_versions:
            raise InputError("use either a version or all versions, not both")
        found = search(self.corpus, query, limit=limit, version=version, all_versions=all_versions, lang=lang)
        return found.to_dict()

    def term(self, query: str, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        """``{"query", "matches", "eras"}``: keyword or card matches, best first, and how each
        undated document shown was dated (the reason in the reader's language)."""
        from regelwerk.index.linking.keyword_index import keyword_index
        from regelwerk.index.terms.lookup import lookup

        index = keyword_index(self.corpus)
        matches = [m.to_dict() for m in lookup(index, query, limit)]
        eras: dict[str, dict[str, Any]] = {}
        for m in matches:
            for ref in m.get("documents", ()):
                era = index.era(ref["document"])
                if era is not None:
                    eras[era.document] = {"versions": list(era.versions), "reason": era.explain(lang or "en")}
        return {"query": query.strip(), "matches": matches, "eras": eras}

    def history(self, query: str, full: bool = False) -> dict[str, Any]:
        """``{"query", "lineage", "runs"}``: one rule (number, or keyword in English or German)
        through every ingested CR release, with a word diff at each change."""
        from regelwerk.index.rules.changes import history

        return history(self.corpus, query, full=full)

    def diff(self, old: str, new: str, section: str | None = None) -> dict[str, Any]:
        """``{"from", "to", "counts", "changes"}``: added, removed, renumbered and changed rules
        and glossary entries between two releases (dates, ``latest`` or document ids)."""
        from regelwerk.index.rules.changes import diff

        return diff(self.corpus, old, new, section=section)

    def docs(self) -> dict[str, Any]:
        """``{"documents", "home"}``: every stored document, newest CR releases first."""
        return {"documents": self.corpus.documents(), "home": str(self.home)}

    # -- worked examples -------------------------------------------------------------------------
    def examples(self) -> dict[str, Any]:
        """``{"scenarios": [...]}``: the packaged scenarios with their titles and sources."""
        from regelwerk.engine.scenario import list_scenarios

        return {"scenarios": [s.to_dict() for s in list_scenarios()]}

    def example(self, name_or_path: str | None, lang: str | None = None) -> dict[str, Any]:
        """``{"scenarios": [...]}``: play one scenario (id or file path), or all packaged ones
        when `name_or_path` is None, narrated in `lang` (default German)."""
        from regelwerk.engine.runner import run_scenario
        from regelwerk.engine.scenario import load_packaged, resolve_scenario

        book = self.rulebook()
        scenarios = load_packaged() if name_or_path is None else [resolve_scenario(name_or_path)]
        return {"scenarios": [run_scenario(s, lang or "de", book).to_dict() for s in scenarios]}

    def rulebook(self) -> RuleBook:
        """Rule titles for the engine's narration, from this library's rules."""
        return LibraryRuleBook(self)

    # -- write -----------------------------------------------------------------------------------
    def ingest(
        self,
        paths: Iterable[str | Path],
        fmt: str | None = None,
        strict: bool = False,
        progress: Callable[[Path], None] | None = None,
        stage: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """``{"documents", "unchanged", "errors"}``: parse and store each file; a bad file is
        listed under ``errors`` and the rest go on. Raises when no file could be ingested.
        Then every derived structure is brought up to date (`stage` hears each step)."""
        from regelwerk.ingest import expand_paths

        given = [Path(p) for p in paths]
        for p in given:
            if not p.exists():
                raise IngestError(str(p), "no such file or directory")
        files = expand_paths(given)
        if not files:
            raise IngestError(", ".join(map(str, given)), "no .txt, .htm or .html documents found")
        report = self.corpus.ingest(files, fmt, progress=progress, strict=strict)
        if len(report.unchanged) < len(report.documents):
            self.build(stage)  # the first read after an ingest finds every index ready
        if report.errors and not report.documents:
            if len(report.errors) == 1:
                raise report.errors[0]
            raise InputError("; ".join(str(e) for e in report.errors))
        return report.to_dict()

    def build(self, stage: Callable[[str], None] | None = None) -> None:
        """Bring every derived structure up to date (lineage, keyword links, rules table,
        search index); the one builder, see ``regelwerk.index.store.build``."""
        from regelwerk.index.store.build import build

        build(self.corpus, stage)

    def forget(self, document: str, stage: Callable[[str], None] | None = None) -> dict[str, Any]:
        """``{"forgotten": summary, "documents": n}``: remove one document (its id, or a CR
        release's date) from the store and bring the derived structures up to date."""
        corpus = self.corpus
        summaries = {d["id"]: d for d in corpus.store.summaries()}
        wanted = document.strip()
        doc_id = wanted if wanted in summaries else None
        if doc_id is None:
            dated = [d for d in summaries.values() if d["version"] == wanted]
            dated.sort(key=lambda d: (d["kind"] != "cr-text", d["language"] != "en"))
            doc_id = dated[0]["id"] if dated else None
        if doc_id is None:
            known = ", ".join(sorted(summaries)[:8])
            hint = f"give an id from 'regelwerk docs' (e.g. {known})"
            raise InputError(f"no stored document is {document!r}; {hint}")
        with corpus.store.writing():
            corpus.store.remove(doc_id)
        self.build(stage)
        return {"forgotten": summaries[doc_id], "documents": len(summaries) - 1}

    def update(
        self,
        url: str | None = None,
        progress: Callable[[int, int | None], None] | None = None,
        stage: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """``{"updated", "url", "version", "previous", "counts", ...}``: fetch the current CR .txt
        (from Wizards' rules page, or `url`: a page linking it or the file itself), check that
        it parses as a release newer than the newest stored, ingest it and summarise the diff.
        Nothing is stored unless all of that succeeds."""
        from urllib.parse import urlparse

        from regelwerk.index.linking.lineage_table import chain_of
        from regelwerk.ingest import parse_bytes
        from regelwerk.ingest.fetch import RULES_PAGE, FetchError, fetch_release

        source, data = fetch_release(url or RULES_PAGE, progress)
        parsed = parse_bytes(data, source)
        doc = parsed.document
        unread = [i for i in parsed.issues if "lacks" in i.message or "not valid" in i.message]
        if doc.kind != "cr-text" or not doc.version or unread:
            why = str(unread[0]) if unread else "not a Comprehensive Rules .txt with an effective date"
            raise FetchError(f"{source}: {why}; the store is unchanged")
        chain = chain_of(self.corpus.store.summaries())
        previous = chain[-1] if chain else None
        if previous is not None and doc.version <= previous.version:
            return {"updated": False, "url": source, "version": doc.version, "previous": previous.version,
                    "document": previous.id, "counts": {}, "glossary_counts": {}}
        folder = self.home / "downloads"
        folder.mkdir(parents=True, exist_ok=True)
        name = Path(urlparse(source).path).name or f"MagicCompRules-{doc.version}.txt"
        target = folder / (name if name.endswith(".txt") else f"{name}.txt")
        target.write_bytes(data)
        report = self.ingest([target], fmt="cr-text", stage=stage)
        new_id = report["documents"][0]["id"]
        summary: dict[str, Any] = {"counts": {}, "glossary_counts": {}}
        if previous is not None:
            changes = self.diff(previous.id, new_id)
            summary = {"counts": changes["counts"], "glossary_counts": changes["glossary_counts"]}
        return {"updated": True, "url": source, "version": doc.version, "document": new_id,
                "previous": previous.version if previous else None, **summary}

    def files(self, paths: Iterable[str | Path]) -> list[Path]:
        """The document files an ingest of `paths` would read (directories expanded)."""
        from regelwerk.ingest import expand_paths

        return expand_paths(paths)


class LibraryRuleBook:
    """Rule titles from the ingested rules (the newest CR), falling back up the number tree.

    A subrule has no title of its own, so "702.22j" asks 702.22j, then 702.22, then 702 and
    keeps the first answer that reads like a heading. Failures mean "no title", never an error:
    a trace without titles is still a correct trace.
    """

    def __init__(self, library: Library | None = None) -> None:
        self._library = library
        self._cache: dict[tuple[str, str], str | None] = {}
        self._terms: dict[str, tuple[str, str]] | None = None

    def title(self, number: str, lang: str) -> str | None:
        key = (number, lang)
        if key not in self._cache:
            german = self._from_terms(number, "de") if lang == "de" else None
            self._cache[key] = german or self._find(number, lang) or self._from_terms(number, "en")
        return self._cache[key]

    def _from_terms(self, number: str, lang: str) -> str | None:
        """The term tables name every keyword and the turn-structure sections by current
        number, in both languages: titles even before any CR is ingested, German ones in
        German traces."""
        from regelwerk.index.terms.shipped import load_terms

        if self._terms is None:
            self._terms = {}
            for row in load_terms():  # file order: a section's own title comes first
                # Ability words are examples listed in 207.2c, not its title ("Adamant").
                if row.number and row.kind != "ability_word":
                    self._terms.setdefault(row.number, (row.en, row.de))
        for n in lineage(number):
            names = self._terms.get(n)
            if names is not None:
                return names[1] if lang == "de" else names[0]
        return None

    def _find(self, number: str, lang: str) -> str | None:
        from regelwerk.index.rules.lookup import lookup

        if self._library is None:
            self._library = Library()
        for n in lineage(number):
            try:
                title = lookup(self._library.corpus, n, lang=lang).title
            except (RegelwerkError, OSError):
                continue
            if title and len(title) <= 60 and not title.endswith((".", ":")):
                return str(title)
        return None
