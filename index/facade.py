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

import functools
import queue
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

# the rules' notes and errors by name (``rule_messages.NEWER_THAN``): the web says some of them
# in its own way and recognises them by these names, never by their words (a light module)
from regelwerk.index import rule_messages
from regelwerk.ingest.model.errors import (
    IngestError,
    InputError,
    RegelwerkError,
    StoreError,
    UnknownCard,
    UnknownKeyword,
    joined,
    sentence,
)
from regelwerk.ingest.model.message import N_, Message, msg
from regelwerk.ingest.model.numbers import lineage

if TYPE_CHECKING:
    from regelwerk.engine.model import CardLookup
    from regelwerk.engine.rulebook import RuleBook
    from regelwerk.index.cards.store import CardStore
    from regelwerk.index.search.query import SearchEngine
    from regelwerk.index.store.corpus import Corpus

#: Search engines one library keeps for reuse (opening one costs more than a query). A server
#: answers many searches from one library; they run one at a time on the GIL anyway, so a few
#: engines serve any number of concurrent requests.
SEARCH_ENGINES = 4

__all__ = ["Library", "LibraryRuleBook", "group_hits", "rule_messages"]

NO_CARDS = msg(N_("no cards ingested yet; add MTGJSON set files first, e.g. regelwerk ingest "
                  "../shared/corpus/cards/"))


_F = TypeVar("_F", bound=Callable[..., Any])


def _names_damage(method: _F) -> _F:
    """Readers never build. A call that finds no built state (`NotBuilt`: a new home, an index
    format an upgrade changed, derived data removed as damaged) runs the writer step
    (`Library.prepare`) and asks again. A call that fails on damaged derived data (same-size
    corruption the cheap check on every use cannot see) has a writer step remove what fails
    its full checksums and build it again, then asks again. Damage only a repair can heal
    (records, the card database) is named with its fix; any other error is raised as it is,
    so a bug is never disguised as damage."""

    @functools.wraps(method)
    def wrapper(self: Library, *args: Any, **kwargs: Any) -> Any:
        from regelwerk.index.store.disk import NotBuilt

        healed: list[str] = []
        prepare = False
        for attempt in range(3):
            try:
                if prepare:  # inside the try: a writer step that meets damage heals it too
                    self.prepare()
                return method(self, *args, **kwargs)
            except RegelwerkError as exc:
                lost = self._lost_named(args, kwargs)
                if lost is not None:
                    raise lost from exc
                raise
            except NotBuilt as exc:
                if attempt == 2:
                    fix = N_("{problem}; run `regelwerk doctor --repair`")
                    raise StoreError(msg(fix, problem=exc.problem)) from None
                prepare = True
            except Exception as exc:
                if healed:
                    problem = f"{healed[0]} ({type(exc).__name__} after rebuilding it)"
                    raise StoreError(msg(N_("{problem}; run `regelwerk doctor --repair`"),
                                         problem=problem)) from exc
                healed = self._heal()
                if not healed:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    return wrapper  # type: ignore[return-value]


def lost_message(doc_id: str, info: dict[str, Any]) -> Message:
    """What reads say of a lost document: which, and how to bring it back."""
    return msg(N_("{doc_id} (version {version}) was lost: its record was destroyed and `doctor --repair` "
                  "could not read it again; ingest its file again: regelwerk ingest {source}"),
               doc_id=doc_id, version=str(info.get("version") or "-"),
               source=str(info.get("source") or "FILE"))


#: A German-only search where no German CR is stored: only the seeds' German sections answer.
NO_GERMAN_RULES = N_("no German Comprehensive Rules are ingested: with --lang de only the German seed "
                     "texts (older than today's rules) are searched; without --lang a German question "
                     "finds the English rules too")
#: A diff's section that is neither a chapter nor a section number.
BAD_SECTION = N_("--section {section!r}: expected a chapter (7) or a section (702)")


def check_section(section: str | None) -> None:
    """Refuse a diff's `section` that is not a chapter (7) or a section (702) number."""
    if section is not None and not re.fullmatch(r"[1-9](?:\d\d)?", section.strip()):
        raise InputError(msg(BAD_SECTION, section=section))


def diff_section(found: dict[str, Any], section: str | None) -> dict[str, Any]:
    """A whole `Library.diff` narrowed to `section`: what ``diff(old, new, section=section)``
    returns, without composing the releases again (the web's section pages reuse one diff)."""
    from regelwerk.index.rules.changes import narrowed

    check_section(section)
    return narrowed(found, section)


_RULE = re.compile(r"\d+(?:\.\d+)?")


def rule_of(number: str) -> str:
    """The rule a number belongs to: "702.15e" -> "702.15", "702.15" -> "702.15", "702" -> "702"."""
    m = _RULE.match(number)
    return m.group(0) if m else number


def group_hits(hits: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Hits of the same rule in the same document together, at the place of the best of them:
    the best line first (the answer the ranking found), the rest in rule order, the best
    line's language before the other (a bilingual document's lines stay by language).

    The rest in rule order because that is how a judge reads a rule: by score, the seeds'
    Banding excerpt listed 702.22b e c i m g a f d h, the definition seventh. A hit without a
    number of its own that linking numbered (a paragraph of the unnumbered excerpt) goes with
    the rule it is today, placed by that number; hits without either (glossary entries) stay
    on their own. `Library.search` returns its hits in this order, so ``--json``, the web
    page and the terminal's groups list them alike.
    """
    from regelwerk.ingest.model.numbers import sort_key

    groups: dict[tuple[str, str, str] | int, list[dict[str, Any]]] = {}
    for i, h in enumerate(hits):
        key: tuple[str, str, str] | int = i
        if h["number"]:
            key = (h["document"], "own", rule_of(h["number"]))
        elif h["current"]:
            key = (h["document"], "today", rule_of(h["current"]))
        groups.setdefault(key, []).append(h)
    out = []
    for best, *rest in groups.values():
        lang = best["language"]
        rest.sort(key=lambda h: (h["language"] != lang, sort_key(h["number"] or h["current"])))
        out.append([best, *rest])
    return out


class Library:
    """The rules library under ``home`` (default: ``REGELWERK_HOME`` or the user data directory)."""

    #: Hears each step of a writer step that a read runs (`prepare`, and a new home's first
    #: read, which stores the seeds and builds: with the extra, embedding their sentence
    #: vectors took 4 s in silence): a home built before the extra was installed builds its
    #: sentence vectors on its first question, minutes with the multilingual model. The CLI
    #: prints them on a terminal's stderr; None: silent.
    building: Callable[[str], None] | None = None

    def __init__(self, home: Path | None = None) -> None:
        self._home = home
        self._corpus: Corpus | None = None
        self._engines: queue.SimpleQueue[SearchEngine] = queue.SimpleQueue()
        self._searching = threading.BoundedSemaphore(SEARCH_ENGINES)
        self._cards: CardStore | None = None

    def _lost_named(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> StoreError | None:
        """A call that failed while naming a lost document (its id or version; see
        `Store.lost`) learns that it was lost, and how to bring it back."""
        try:
            lost = self._lost()
        except RegelwerkError:
            return None
        asked = {str(a).strip() for a in (*args, *kwargs.values()) if isinstance(a, str)}
        for doc_id, info, said in lost:
            if doc_id in asked or info.get("version") in asked:
                return StoreError(said)
        return None

    def _lost(self) -> list[tuple[str, dict[str, Any], Message]]:
        """(id, what is known, what to say) of each lost document: those ``doctor --repair`` or a
        writer step recorded lost, and those only derived data or the journal still name
        (``witness``), which the next writer step records."""
        from regelwerk.index.store.witness import unaccounted

        store = self.corpus.store
        out = [(k, v, lost_message(k, v)) for k, v in sorted(store.lost().items())]
        for doc_id, info in unaccounted(store).items():
            said = msg(N_("{doc_id} (version {version}) was lost: its record and manifest entry were "
                          "destroyed ({witness} names it); run `regelwerk doctor --repair`, and ingest its "
                          "file again if that cannot read it"), doc_id=doc_id,
                       version=str(info.get("version") or "-"), witness=str(info.get("witness")))
            out.append((doc_id, info, said))
        return out

    def _heal(self) -> list[str]:
        """A writer step that removes derived data failing its full checks and builds it again
        (``doctor.heal``); what it removed (nothing: the failure was no damage)."""
        from regelwerk.index.store.build import build
        from regelwerk.index.store.doctor import heal

        corpus = self._writer()
        with corpus.publishing():
            healed = heal(corpus.store)
            if healed:
                build(corpus)
        self._reopen()
        return healed

    def _reopen(self) -> None:
        """Drop what was opened (engines, corpus, card database), to read healed data afresh."""
        self._corpus = None
        self._cards = None
        self._engines = queue.SimpleQueue()

    @property
    def corpus(self) -> Corpus:
        """The stored documents, with the seeds ingested on first use (a writer step)."""
        if self._corpus is None:
            from regelwerk.index.store.corpus import Corpus

            self._corpus = Corpus(self._home, stage=type(self).building)
        return self._corpus

    def _writer(self) -> Corpus:
        """The corpus for a writer step that stages the seeds itself (a new home's first ingest
        builds once, with the seeds and its documents together)."""
        if self._corpus is None:
            from regelwerk.index.store.corpus import Corpus

            self._corpus = Corpus(self._home, seed=False)
        return self._corpus

    def prepare(self) -> None:
        """The writer step a read runs when it finds no built state (see ``Corpus.prepare``)."""
        self._writer().prepare(type(self).building)  # the class's function, not bound to self
        self._reopen()

    @property
    def home(self) -> Path:
        return self.corpus.home

    # -- read ------------------------------------------------------------------------------------
    @_names_damage
    def rule(self, query: str, version: str | None = None, lang: str | None = None) -> dict[str, Any]:
        """``{"rule": ...}``: the rule `query` names, with subrules, examples and references."""
        from regelwerk.index.rules.lookup import lookup

        if lang == "both":
            return self._rule_both(query, version)
        return {"rule": lookup(self.corpus, query, version=version, lang=lang).to_dict()}

    @_names_damage
    def rule_releases(self, number: str) -> dict[str, Any]:
        """``{"releases": [{"version", "document", "title", "current"}]}``: the English CR
        releases that have rule `number` (a number as `rule` shows it), newest first."""
        from regelwerk.index.rules.lookup import releases_with

        return {"releases": releases_with(self.corpus, number)}

    @_names_damage
    def cite(self, query: str, version: str | None = None, lang: str | None = None) -> dict[str, Any]:
        """``{"citation": "CR 702.19b (2026-04-17)"}``: how to cite the rule `query` names.

        A citation names a dated CR release, whatever language the reader reads: it is the
        same for a German and an English reader, and ``rule "CR 702.19b" --version 2026-04-17``
        finds it again. So the rule is looked up in the CR releases first (the newest, or
        `version`); only a rule no release has is cited by its document's id (a seed)."""
        from regelwerk.index.rules.lookup import lookup
        from regelwerk.ingest.model.errors import UnknownRule

        try:
            found = lookup(self.corpus, query, version=version)
        except UnknownRule:
            found = None
        if found is None or not found.version:
            found = lookup(self.corpus, query, version=version, lang=None if lang == "both" else lang)
        return {"citation": found.citation}

    def _rule_both(self, query: str, version: str | None) -> dict[str, Any]:
        """``{"rule": English, "translation": German or None}``: the same rule in both languages.

        The German side is the rule that is the English one's number *today* (the German seed's
        702.19 for today's 702.22), so the two texts are one rule even across renumbering.
        """
        from regelwerk.index.rules.lookup import lookup
        from regelwerk.ingest.model.errors import UnknownRule

        en = lookup(self.corpus, query, version=version, lang="en")
        translation = None
        try:
            de = lookup(self.corpus, en.current or en.number, lang="de", today=True)
        except UnknownRule:
            de = None
        if de is not None and de.language == "de":
            translation = de.to_dict()
        return {"rule": en.to_dict(), "translation": translation}

    @_names_damage
    def terms(self, kind: str | None = None) -> dict[str, Any]:
        """``{"terms": [...]}``: every keyword and game term of the term tables in both
        languages (``kind``: keyword_action, keyword_ability, ability_word or core)."""
        from regelwerk.index.terms.shipped import load_terms
        from regelwerk.index.terms.table import KINDS

        if kind is not None and kind not in KINDS:
            raise InputError(msg(N_("kind {kind!r} is not a term kind; expected one of {kinds}"),
                                 kind=kind, kinds=", ".join(KINDS)))
        rows = [r for r in load_terms() if kind is None or r.kind == kind]
        return {"terms": [
            {"en": r.en, "de": r.de or None, "kind": r.kind, "number": r.number or None,
             "de_variants": list(r.de_variants), "de_old": list(r.de_old), "source": r.source or None}
            for r in rows
        ]}

    @_names_damage
    def search(
        self,
        query: str,
        lang: str | None = None,
        limit: int = 10,
        version: str | None = None,
        all_versions: bool = False,
    ) -> dict[str, Any]:
        """``{"query", "hits", "notes", ...}``: ranked hits across both languages (or only `lang`),
        grouped by rule as every reader shows them (`group_hits`; the engine's score order
        places the groups, the bench reads the engine)."""
        from regelwerk.index.search.query import SearchEngine

        if version is not None and all_versions:
            raise InputError(msg(N_("use either a version or all versions, not both")))
        with self._searching:  # an engine serves one search at a time; at most SEARCH_ENGINES exist
            try:
                engine = self._engines.get_nowait()
            except queue.Empty:
                engine = SearchEngine(self.corpus)
            try:
                found = engine.search(
                    query, limit=limit, version=version, all_versions=all_versions, lang=lang
                )
            finally:
                self._engines.put(engine)
        data = found.to_dict()
        data["hits"] = [h for group in group_hits(data["hits"]) for h in group]
        if lang == "de" and not self._german_rules():
            note = msg(NO_GERMAN_RULES)
            data["notes"].append(str(note))
            data["messages"].append(note.to_dict())
        if self.cards.exists():  # after the rules, the cards the query names
            from regelwerk.index.cards.search import named_cards

            data["cards"] = named_cards(self.cards.connect(), query)
        return data

    def _german_rules(self) -> bool:
        """Is a German (or bilingual) CR release stored? (The manifest's summaries: no record read.)"""
        from regelwerk.ingest.model.releases import is_release

        docs = self.corpus.store.manifest().get("documents", {}).values()
        return any(is_release(d["summary"]["kind"], d["summary"].get("version"))
                   and "de" in d["summary"]["language"] for d in docs if "summary" in d)

    @_names_damage
    def search_cards(self, query: str, limit: int = 10) -> dict[str, Any]:
        """``{"query", "cards"}``: cards whose German or English text has every word of `query`
        ("Schaden verhindern"), best first, with the German printing that matched."""
        from regelwerk.index.cards.search import search_cards
        from regelwerk.index.terms.check import check_query

        text = check_query(query)
        if self.cards.count() == 0:
            raise UnknownCard(NO_CARDS)
        return {"query": text, "cards": search_cards(self.cards.connect(), text, limit)}

    @_names_damage
    def term(self, query: str, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        """``{"query", "matches", "eras"}``: keyword or card matches, best first, and how each
        undated document shown was dated (the reason in the reader's language)."""
        from regelwerk.index.terms.lookup import lookup, term_vocabulary

        vocab = term_vocabulary(self.corpus)  # names only: records are read for the hits
        try:
            matches = [m.to_dict() for m in lookup(vocab, query, limit)]
        except UnknownKeyword:
            matches = []
            cards = self._card_terms(query, limit, matches)
            if not cards:
                raise
        else:
            cards = self._card_terms(query, limit, matches)
        # Cards come after keywords and game terms of the same score (a stable sort keeps that).
        matches = sorted(matches + cards, key=lambda m: -m["score"])[:limit]
        from regelwerk.index.terms.evidence import evidence_for

        for m in matches:
            if m["kind"] != "card":
                m["evidence"] = evidence_for(m["en"], m["kind"])
        eras: dict[str, dict[str, Any]] = {}
        for m in matches:
            for ref in m.get("documents", ()):
                era = vocab.index.era(ref["document"])
                if era is not None:
                    eras[era.document] = {"versions": list(era.versions), "reason": era.explain(lang or "en")}
        return {"query": query.strip(), "matches": matches, "eras": eras}

    @_names_damage
    def titles(self) -> dict[str, str]:
        """Each stored document's title by its id, from the manifest alone: what a reader is shown
        where a payload names a document by its id (``term``'s documents, a rule note's seed)."""
        return {str(d["id"]): str(d["title"]) for d in self.corpus.store.summaries() if d.get("title")}

    def stamp(self) -> tuple[int, int]:
        """Changes whenever any process changes the stored documents: a long-lived reader (the
        web server) compares it to know when to open a fresh library."""
        try:
            st = self.corpus.store.manifest_path.stat()
        except OSError:
            return (0, 0)
        return (st.st_mtime_ns, st.st_size)

    def _card_terms(self, query: str, limit: int, matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Card database answers for ``term``, shaped like its card entries; a card the keyword
        lookup already found (an example card of a glossary page) gets the database entry
        attached instead of a second line."""
        from regelwerk.index.cards.lookup import card_payload, find_cards

        store = self.cards
        if not store.exists():
            return []
        conn = store.connect()
        seen = {m["en"]: m for m in matches if m.get("kind") == "card"}
        out = []
        for found in find_cards(conn, query, limit):
            card = card_payload(conn, found)
            if card["name_en"] in seen:
                seen[card["name_en"]]["card"] = card
                continue
            german = [p for p in card["printings"] if p["name_de"]] or card["printings"]
            out.append(
                {
                    "en": card["name_en"],
                    "de": (card["names_de"] or [None])[0],
                    "kind": "card",
                    "set": german[-1]["set"] if german else None,
                    "document": None,
                    "text": card["oracle_text"],
                    "keyword": None,
                    "rules": {k["name"]: k["rule"] for k in card["keywords"] if k["rule"]},
                    "score": found.score,
                    "match": "card" if found.how == "exact" else found.how,
                    "matched": found.matched,
                    "alias": None,
                    "card": card,
                }
            )
        return out

    @property
    def cards(self) -> CardStore:
        """The card database (opening it does not open the rules corpus)."""
        if self._cards is None:
            from regelwerk.index.cards.store import CardStore
            from regelwerk.index.store.home import home_dir

            self._cards = CardStore(self._home or home_dir())
        return self._cards

    @_names_damage
    def card(self, query: str, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        """``{"query", "cards"}``: cards whose German or English name matches `query` (exact,
        umlaut-folded, by prefix, fuzzy), best first, each with its German printings."""
        from regelwerk.index.cards.lookup import card_payload, find_cards, nearest
        from regelwerk.index.terms.check import check_query

        text = check_query(query)
        store = self.cards
        if store.count() == 0:
            raise UnknownCard(NO_CARDS)
        conn = store.connect()
        found = find_cards(conn, text, limit)
        if not found:
            near = nearest(conn, text)
            if near:
                raise UnknownCard(msg(N_("no card matches {text!r}; nearest: {nearest}"),
                                      text=text, nearest=", ".join(near)))
            raise UnknownCard(msg(N_("no card matches {text!r}"), text=text))
        return {"query": text, "cards": [card_payload(conn, m) for m in found]}

    @_names_damage
    def history(self, query: str, full: bool = False) -> dict[str, Any]:
        """``{"query", "lineage", "runs"}``: one rule (number, or keyword in English or German)
        through every ingested CR release, with a word diff at each change."""
        from regelwerk.index.rules.changes import history

        return history(self.corpus, query, full=full)

    @_names_damage
    def subrule_changes(self, query: str) -> dict[str, Any]:
        """``{"query", "number", "version", "subrules": [{"number", "changes", "reworded",
        "releases", "first"}]}``: the subrules of the rule `query` names (as `history` finds it),
        each with how often its own history changed and how often its words did: a keyword's
        heading seldom changes, its subrules do."""
        from regelwerk.index.rules.changes import subrule_changes

        return subrule_changes(self.corpus, query)

    @_names_damage
    def diff(self, old: str, new: str, section: str | None = None) -> dict[str, Any]:
        """``{"from", "to", "counts", "changes"}``: added, removed, renumbered and changed rules
        and glossary entries between two releases (dates, ``latest`` or document ids)."""
        from regelwerk.index.rules.changes import diff

        check_section(section)
        return diff(self.corpus, old, new, section=section)

    @_names_damage
    def docs(self) -> dict[str, Any]:
        """``{"documents", "home", "semantic"}``: every stored document, newest CR releases first,
        then the ingested card files; whether sentence vectors order questions (and why not)."""
        from regelwerk.index.search import semantic

        lost = [said for _, _, said in self._lost()]
        vectors = semantic.status(self.corpus)
        return {"documents": self.corpus.documents() + self.cards.summaries(), "home": str(self.home),
                "lost": [str(m) for m in lost], "lost_messages": [m.to_dict() for m in lost],
                "semantic": semantic.enabled(), "semantic_note": str(vectors),
                "semantic_message": vectors.to_dict()}

    # -- worked examples -------------------------------------------------------------------------
    @_names_damage
    def examples(self) -> dict[str, Any]:
        """``{"scenarios": [...]}``: the packaged scenarios with their titles and sources."""
        from regelwerk.engine.scenario import list_scenarios

        return {"scenarios": [s.to_dict() for s in list_scenarios(self.scenario_cards())]}

    @_names_damage
    def example(self, name_or_path: str | None, lang: str | None = None) -> dict[str, Any]:
        """``{"scenarios": [...]}``: play one scenario (id or file path), or all packaged ones
        when `name_or_path` is None, narrated in `lang` (default German)."""
        from regelwerk.engine.runner import run_scenario
        from regelwerk.engine.scenario import load_packaged, resolve_scenario

        book, cards = self.rulebook(), self.scenario_cards()
        scenarios = load_packaged(cards) if name_or_path is None else [resolve_scenario(name_or_path, cards)]
        return {"scenarios": [run_scenario(s, lang or "de", book).to_dict() for s in scenarios]}

    def scenario_cards(self) -> CardLookup:
        """Where a scenario's ``card = "Craw Wurm"`` finds the card: the ingested card database
        first, then the table shipped for the packaged scenarios (so they run before any cards
        are ingested, and a partial database still finds every shipped card)."""
        from regelwerk.engine.cards import CardChain, DatabaseCards, shipped_cards

        store = self.cards
        if store.exists() and store.count():
            from regelwerk.index.cards.lookup import NamedCards

            return CardChain(DatabaseCards(NamedCards(store.connect())), shipped_cards())
        return shipped_cards()

    def rulebook(self) -> RuleBook:
        """Rule titles for the engine's narration, from this library's rules."""
        return LibraryRuleBook(self)

    # -- write -----------------------------------------------------------------------------------
    @_names_damage
    def ingest(
        self,
        paths: Iterable[str | Path],
        fmt: str | None = None,
        strict: bool = False,
        progress: Callable[[Path], None] | None = None,
        follow_symlinks: bool = False,
        replace: bool = False,
        stage: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """``{"documents", "unchanged", "errors", "skipped", "replaced", "repaired"}``: parse and
        store each file; a bad file is listed under ``errors`` and the rest go on. Raises when
        no file could be ingested. Symbolic links inside a directory are skipped (and listed
        under ``skipped``) unless `follow_symlinks`. A different document under a stored
        one's id is refused unless `replace`. MTGJSON card files go to the card database. Then
        every derived structure of the rules is brought up to date (`stage` hears each step)."""
        from regelwerk.index.store.corpus import IngestReport
        from regelwerk.ingest import expand_paths, is_card_file

        given = [Path(p) for p in paths]
        for p in given:
            if not p.exists():
                raise IngestError(str(p), msg(N_("no such file or directory")))
        skipped: list[Message] = []
        files = expand_paths(given, follow_symlinks=follow_symlinks, skipped=skipped)
        if not files:
            also = msg(N_(" ({n} skipped: {first})"),
                       n=str(len(skipped)), first=skipped[0]) if skipped else ""
            raise IngestError(", ".join(map(str, given)),
                              msg(N_("no .txt, .htm, .html or MTGJSON card files found{also}"), also=also))
        # Card files go to the card database (streamed; an AllPrintings never loads whole).
        card_files = [f for f in files if f.is_file() and is_card_file(f)]
        rule_files = [f for f in files if f not in card_files]
        report = IngestReport()
        if rule_files:  # one writer step: the documents become visible with their build
            report = self._writer().ingest(rule_files, fmt, progress=progress, strict=strict, replace=replace,
                                           stage=stage)
        report.skipped[:0] = skipped
        data = report.to_dict()
        if card_files:  # a writer too: one at a time, so each seal names the file its ingest left
            with self._writer().store.writing():
                cards = self.cards.ingest(card_files, progress=progress)
            data["documents"] += cards.documents
            data["unchanged"] += cards.unchanged
            data["errors"] += [str(e) for e in cards.errors]
            report.errors += cards.errors
        # the same errors as template + arguments, for a reader of another language
        data["error_messages"] = [m.to_dict() if isinstance(m, Message) else m
                                  for m in (sentence(e) for e in report.errors)]
        if report.errors and not data["documents"]:
            if len(report.errors) == 1:
                raise report.errors[0]
            raise InputError(joined([sentence(e) for e in report.errors]))
        return data

    def doctor(self, repair: bool = False) -> dict[str, Any]:
        """``{"home", "documents", "artefacts", "problems", "repaired", "healthy"}``: check every
        stored record and derived artefact against its hash; with `repair`, rebuild the
        manifest and derived data and re-read damaged documents from their sources."""
        from regelwerk.index.store.doctor import doctor
        from regelwerk.index.store.home import home_dir

        return doctor(self._home or home_dir(), repair=repair)

    def build(self, stage: Callable[[str], None] | None = None) -> None:
        """Bring every derived structure up to date (lineage, keyword links, rules table,
        search index) in a writer step; the one builder, see ``regelwerk.index.store.build``."""
        self._writer().prepare(stage)
        self._reopen()

    @_names_damage
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
            raise InputError(msg(N_("no stored document is {document!r}; give an id from 'regelwerk "
                                    "docs' (e.g. {known})"),
                                 document=document, known=known))
        with corpus.publishing(stage):  # gone for readers together with the new build
            corpus.store.remove(doc_id)
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
            why = str(unread[0]) if unread else msg(N_("not a Comprehensive Rules .txt with an "
                                                       "effective date"))
            raise FetchError(msg(N_("{url}: {why}; the store is unchanged"), url=source, why=why))
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

    def files(self, paths: Iterable[str | Path], follow_symlinks: bool = False) -> list[Path]:
        """The document files an ingest of `paths` would read (directories expanded)."""
        from regelwerk.ingest import expand_paths

        return expand_paths(paths, follow_symlinks=follow_symlinks)


class LibraryRuleBook:
    """Rule titles from the ingested rules (the newest CR), falling back up the number tree.

    A subrule has no title of its own, so "702.22j" asks 702.22j, then 702.22, then 702 and
    keeps the first answer that reads like a heading. Failures mean "no title", never an error:
    a trace without titles is still a correct trace.
    """

    def __init__(self, library: Library | None = None) -> None:
        self._library = library
        self._cache: dict[tuple[str, str], str | None] = {}
        self._terms: dict[str, list[tuple[str, str]]] | None = None
        self._names: dict[tuple[str, str], tuple[str | None, str | None]] = {}

    def title(self, number: str, lang: str) -> str | None:
        key = (number, lang)
        if key not in self._cache:
            german = self._from_terms(number, "de") if lang == "de" else None
            self._cache[key] = german or self._find(number, lang) or self._from_terms(number, "en")
        return self._cache[key]

    def names(self, number: str) -> tuple[str | None, str | None]:
        """English and German names of one heading or term, from the first level of the number
        tree that has a term of the tables ("509.1b" is Evasion Ability · Ausweichfähigkeit,
        though 509 is Declare Blockers Step), else the CR's title (English only: "601.2" ->
        Casting Spells)."""
        key = (number, "names")
        if key not in self._names:
            from regelwerk.index.terms.names import other_name

            en, de = self._names_at_first_level(number)
            # the German name rule headings show beside the title: a plural section title gets
            # the German plural ("Abilities · Fähigkeiten", data/terms/plurals.tsv)
            self._names[key] = en, (other_name(en, "en") if en else None) or de
        return self._names[key]

    def _names_at_first_level(self, number: str) -> tuple[str | None, str | None]:
        terms = self._term_rows()
        for n in lineage(number):
            rows = terms.get(n)
            if rows:
                names = rows[0] if len(rows) == 1 else self._titled(n, rows)
                if names is None:  # terms of this number, none of them its title (104, 113)
                    break
                return names[0], names[1] or None
        return self._find(number, "en"), None

    def _term_rows(self) -> dict[str, list[tuple[str, str]]]:
        from regelwerk.index.terms.shipped import load_terms

        if self._terms is None:
            self._terms = {}
            for row in load_terms():  # file order: a section's own title comes first
                # Ability words are examples listed in 207.2c, not its title ("Adamant").
                if row.number and row.kind != "ability_word":
                    self._terms.setdefault(row.number, []).append((row.en, row.de))
        return self._terms

    def _from_terms(self, number: str, lang: str) -> str | None:
        """The term tables name every keyword and the turn-structure sections by current
        number, in both languages: titles even before any CR is ingested, German ones in
        German traces. Where several terms share a number (104: Lose the Game, Win the Game,
        Concede), only the one that is the CR's own title of that number is a title; if none
        is, the CR's English title stands ("104.2a Ending the Game", not "das Spiel verlieren")."""
        terms = self._term_rows()
        for n in lineage(number):
            rows = terms.get(n)
            if rows:
                names = rows[0] if len(rows) == 1 else self._titled(n, rows)
                if names is None:
                    return None
                return names[1] if lang == "de" else names[0]
        return None

    def _titled(self, number: str, rows: list[tuple[str, str]]) -> tuple[str, str] | None:
        """Of several terms with one number, the one that is the number's title: the CR's title
        when a CR is ingested; otherwise the first row if it reads as a heading (a step or phase,
        or a rule below a section), never a glossary outcome such as "Lose the Game"."""
        title = self._find(number, "en")
        if title:
            return next((r for r in rows if r[0].casefold() == title.casefold()), None)
        first = rows[0]
        if "." in number or first[0].endswith((" Step", " Phase")):
            return first
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
