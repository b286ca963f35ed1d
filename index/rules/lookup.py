"""Rule lookup by number: the rule, its subrules and examples, and where it lives today.

This is the fast path behind ``regelwerk rule``; it must not import whoosh. Parsing every
stored document on each call would cost more than the whole command is allowed, so the first
lookup builds a small derived SQLite table (number -> document, text, current number) through
``Store.derived``; it is rebuilt exactly when a document's sha256 changes, like the search
index, and later lookups read only the rows they need.

"Current" is the same rule's number in the newest English CR (702.19 in the 2011 rules and in
the German seed is Banding, which is 702.22 today). Linking (``keyword_index``) knows that;
`current_numbers` asks it once per build and the table stores the answer.
"""

from __future__ import annotations

import bisect
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.rule_messages import (
    DOCUMENT,
    FOR_LANGUAGE,
    FOR_VERSION_AND_LANGUAGE,
    NOT_KNOWN_TODAY,
    NUMBER_IN_RELEASE,
    NUMBER_IN_RELEASES,
    NUMBER_TODAY,
    NUMBER_TODAY_MEANS,
    RELEASE,
    REMOVED_IN,
    RULE_OR_TERM,
    SAME_RULE_ELSEWHERE,
    SAME_RULE_NAMED,
    TODAY_IS,
)
from regelwerk.index.terms.names import both_names, german_name, glossed, other_name
from regelwerk.index.terms.table import TermRow
from regelwerk.ingest.model.errors import InputError, InvalidRuleNumber, UnknownRule, UnknownVersion
from regelwerk.ingest.model.fold import compact
from regelwerk.ingest.model.message import N_, Arg, Message, msg
from regelwerk.ingest.model.numbers import RuleNumber
from regelwerk.ingest.model.releases import CR_KINDS, is_release, release_key

if TYPE_CHECKING:
    from regelwerk.index.linking.keyword_index import KeywordIndex
    from regelwerk.index.linking.lineage_table import Chain
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest.model.records import ParsedDocument

#: Bump when the table layout changes, so stale derived tables are rebuilt.
RULES_SALT = "rules10"
#: At most this many notes on what the rule's number meant in other releases (one per rule it was).
ELSEWHERE_NOTES = 3


# -- current numbers ----------------------------------------------------------------------


def keyword_links(library: Corpus) -> KeywordIndex:
    """Linking's keyword index (imported here, not at module level: most lookups never build it)."""
    from regelwerk.index.linking.keyword_index import keyword_index

    return keyword_index(library)


def lineage_chain(library: Corpus, progress: Callable[[str], None] | None = None) -> Chain:
    """The lineage of the stored English CR releases; a writer computes the pairs the table
    lacks first, a reader that finds one missing raises `NotBuilt` (readers never build)."""
    from regelwerk.index.linking import lineage_table
    from regelwerk.index.store.disk import NotBuilt

    path = lineage_path(library)
    chain = lineage_table.chain_of(library.store.summaries())
    if not library.store.may_build:
        missing = lineage_table.missing_pairs(path, chain)
        if missing:
            raise NotBuilt("rule lineage", f"{path}: {len(missing)} pair(s) of releases not linked")
        computed = 0
    else:
        computed = lineage_table.update(path, chain, library.store.get, progress)
    key = (path, tuple(chain))
    if computed or key not in _CHAINS:
        # a build asks several times (numbers today for the rules table, the search index):
        # the steps of 100 releases take seconds to load, and a key names their exact bytes
        _CHAINS.clear()
        _CHAINS[key] = lineage_table.Chain.load(path, chain)
    return _CHAINS[key]


_CHAINS: dict[tuple[Path, tuple[Any, ...]], Chain] = {}


def lineage_path(library: Corpus) -> Path:
    """Where the lineage table lives: beside the per-fingerprint artefacts, not under them,
    because its pairs are keyed by content and outlive any one set of documents."""
    from regelwerk.index.linking.lineage_table import FILE

    return library.home / "lineage" / FILE


def current_numbers(
    library: Corpus, docs: list[ParsedDocument], removed: dict[tuple[str, str], str] | None = None
) -> dict[tuple[str, str], str | None]:
    """``(document id, number) -> number in the newest English CR`` for every numbered section.

    English CR releases follow their rule lineage (every rule, 722 of 2026-01-16 -> 723);
    `removed`, if given, receives the release that removed each rule lineage ends. Other
    documents (the German seeds, excerpts) ask keyword linking.
    """
    chain = lineage_chain(library)
    links: KeywordIndex | None = None
    out: dict[tuple[str, str], str | None] = {}
    for parsed in docs:
        doc = parsed.document
        for s in parsed.sections:
            if not s.number or (doc.id, s.number) in out:
                continue
            fate = chain.fate(doc.id, s.position, s.number)
            if fate is None:
                links = links or keyword_links(library)
                out[(doc.id, s.number)] = links.current(doc.id, s.number)
                continue
            out[(doc.id, s.number)] = fate.today
            if fate.removed_in and removed is not None:
                removed[(doc.id, s.number)] = fate.removed_in
    return out


def today_of(
    library: Corpus, chain: Chain, doc: str, position: int, number: str
) -> tuple[str | None, str | None]:
    """``(number today, release that removed it)`` of rule `number` at `position` of release
    `doc`, as `current_numbers` says it, from the lineage alone (no document is read)."""
    fate = chain.fate(doc, position, number)
    if fate is not None:
        return fate.today, fate.removed_in
    return keyword_links(library).current(doc, number), None


def appended_moves(
    library: Corpus, chain: Chain, kept: set[str]
) -> dict[str, tuple[str | None, str | None]] | None:
    """When the chain is the `kept` releases plus one newer release, where each number of the
    previous newest release lives now: ``number -> (number today, release that removed it)``.

    Then a rule of any older release whose number today was N has ``moves[N]`` as its number
    today now (lineage composes), so an added release costs a lookup per rule of one release,
    not per rule of every release. None when releases were removed or added elsewhere.
    """
    ids = [r.id for r in chain.releases]
    if len(ids) < 2 or ids[-1] in kept or set(ids[:-1]) != kept:
        return None
    previous, newest = chain.releases[-2], chain.releases[-1]
    moves: dict[str, tuple[str | None, str | None]] = {}
    for step in sorted(chain.pair(previous, newest), key=lambda s: s.old_position or 0):
        if step.old_position is not None and step.old_number and step.old_number not in moves:
            moves[step.old_number] = today_of(library, chain, previous.id, step.old_position, step.old_number)
    return moves


# -- the derived table ----------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE docs (id TEXT PRIMARY KEY, title TEXT, language TEXT, kind TEXT, version TEXT,
                   rank INTEGER, sha256 TEXT);
CREATE TABLE texts (tid INTEGER PRIMARY KEY, hash TEXT UNIQUE, text TEXT, examples TEXT, refs TEXT);
CREATE TABLE placed (doc TEXT, position INTEGER, number TEXT, parent TEXT, kind TEXT, title TEXT,
                     language TEXT, current TEXT, removed_in TEXT, tid INTEGER);
CREATE VIEW sections AS
    SELECT p.doc AS doc, p.position AS position, p.number AS number, p.parent AS parent, p.kind AS kind,
           p.title AS title, t.text AS text, p.language AS language, t.examples AS examples,
           t.refs AS refs, p.current AS current, p.removed_in AS removed_in
    FROM placed p JOIN texts t ON t.tid = p.tid;
"""
#: Each rule's text, examples and references are stored once (``texts``) however many releases
#: have them; ``sections`` reads as one table.

#: The indexes of ``placed``, made after a new table's rows are in: sorting 220,000 rows of the
#: archive once costs about 60% of keeping four indexes in order row by row.
_INDEXES = """
CREATE INDEX placed_number ON placed(number);
CREATE INDEX placed_position ON placed(doc, position);
CREATE INDEX placed_parent ON placed(doc, parent);
CREATE INDEX placed_current ON placed(current);
"""


def _doc_ranks(docs: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Higher is preferred: release order as a number (0 for documents that are no release)."""
    releases = sorted(
        (d for d in docs if is_release(str(d["kind"]), d.get("version"))),
        key=lambda d: release_key(str(d["kind"]), d.get("version")),
    )
    return {str(d["id"]): rank for rank, d in enumerate(releases, 1)}


def build_rules_table(library: Corpus, folder: Path, base: Path | None = None) -> None:
    """Write the table for the current documents into `folder`: from `base` (the previous
    table) only the documents that changed, else all of them.

    Documents outside the release chain take today's numbers from keyword linking, which a new
    document may change, so they are always written again (they are small); when the chain
    changed, the older releases' numbers today are looked up again in the lineage.
    """
    from regelwerk.index.linking.lineage_table import chain_of

    path = folder / "rules.sqlite"
    if base is not None:
        shutil.copyfile(base / "rules.sqlite", path)
    con = sqlite3.connect(path)
    try:
        if base is None:
            con.executescript(_SCHEMA)
        summaries = {str(d["id"]): d for d in library.store.summaries()}
        chain = {r.id for r in chain_of(summaries.values())}
        rows = con.execute("SELECT id, kind, language, version, sha256 FROM docs").fetchall()
        have = {r[0]: r[4] for r in rows}
        cols = ("id", "kind", "language", "version", "sha256")
        was_chain = {r.id for r in chain_of(dict(zip(cols, r, strict=True)) for r in rows)}
        gone = [i for i, sha in have.items() if summaries.get(i, {}).get("sha256") != sha or i not in chain]
        for doc_id in gone:
            con.execute("DELETE FROM placed WHERE doc = ?", (doc_id,))
            con.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
        if gone:
            con.execute("DELETE FROM texts WHERE tid NOT IN (SELECT tid FROM placed)")
        new = [library.store.get(i) for i in summaries if i not in have or i in gone]
        if any(i in chain or i in was_chain for i in gone) or any(p.document.id in chain for p in new):
            _renumber(library, con, {i for i in have if i not in gone})
        _insert(library, con, new)
        if base is None:
            con.executescript(_INDEXES)
        ranks = _doc_ranks(summaries.values())
        con.executemany("UPDATE docs SET rank = ? WHERE id = ?", [(ranks.get(i, 0), i) for i in summaries])
        con.commit()
    finally:
        con.close()


def _insert(library: Corpus, con: sqlite3.Connection, docs: list[ParsedDocument]) -> None:
    removed: dict[tuple[str, str], str] = {}
    currents = current_numbers(library, docs, removed)
    tids: dict[tuple[str, tuple[str, ...], tuple[str, ...]], int] = {}  # release after release
    for parsed in docs:
        d = parsed.document
        con.execute(
            "INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)",
            (d.id, d.title, d.language, d.kind, d.version, 0, d.sha256),
        )
        rows = []
        for sec in parsed.sections:
            if sec.number and _parses(sec.number):
                said = (sec.text, sec.examples, sec.references)
                tid = tids.get(said)
                if tid is None:  # a rule that reads as in an earlier release has its row
                    examples = json.dumps(list(sec.examples), ensure_ascii=False)
                    tid = tids[said] = _text_id(con, sec.text, examples, json.dumps(list(sec.references)))
                rows.append((
                    d.id, sec.position, sec.number, sec.parent, sec.kind, sec.title, sec.language,
                    currents.get((d.id, sec.number)), removed.get((d.id, sec.number)), tid,
                ))
        con.executemany("INSERT INTO placed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _text_id(con: sqlite3.Connection, text: str, examples: str, refs: str) -> int:
    """The row of `texts` holding exactly these, added if there is none."""
    import hashlib  # here, not at the top: a `rule` reads the table and hashes nothing

    digest = hashlib.sha1("\0".join((text, examples, refs)).encode("utf-8", "surrogatepass")).hexdigest()
    row = con.execute("SELECT tid FROM texts WHERE hash = ?", (digest,)).fetchone()
    if row is not None:
        return int(row[0])
    cur = con.execute(
        "INSERT INTO texts (hash, text, examples, refs) VALUES (?, ?, ?, ?)", (digest, text, examples, refs)
    )
    return int(cur.lastrowid or 0)


def _renumber(library: Corpus, con: sqlite3.Connection, kept: set[str]) -> None:
    """Numbers today and removing releases of the `kept` releases' rules, from the lineage
    (only through the newest pair when one release was added after them)."""
    chain = lineage_chain(library)
    marks = ",".join("?" * len(kept))
    moves = appended_moves(library, chain, kept)
    if moves is not None:  # only the numbers that moved, found through the index on `current`
        moved = [(c, *fate) for c, fate in moves.items() if fate != (c, None)]
        con.execute("CREATE TEMP TABLE moved (old TEXT PRIMARY KEY, today TEXT, removed_in TEXT)")
        con.executemany("INSERT INTO moved VALUES (?, ?, ?)", moved)
        # one statement: a number may be both moved away from and moved to
        con.execute(
            "UPDATE placed SET (current, removed_in) = "
            "(SELECT today, removed_in FROM moved WHERE old = current) "
            f"WHERE current IN (SELECT old FROM moved) AND doc IN ({marks})",
            sorted(kept),
        )
        con.execute("DROP TABLE moved")
        return
    rows = con.execute(
        f"SELECT rowid, doc, position, number, current, removed_in FROM placed WHERE doc IN ({marks}) "
        "ORDER BY doc, position",
        sorted(kept),
    ).fetchall()
    first: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    changes = []
    for rowid, doc, pos, number, current, removed_in in rows:
        key = (doc, number)
        if key not in first:  # a doubled number takes its first rule's fate, as current_numbers
            first[key] = today_of(library, chain, doc, pos, number)
        if first[key] != (current, removed_in):
            changes.append((*first[key], rowid))
    con.executemany("UPDATE placed SET current = ?, removed_in = ? WHERE rowid = ?", changes)


def _parses(number: str) -> bool:
    try:
        RuleNumber.parse(number)
    except InputError:
        return False
    return True


def rules_table(library: Corpus) -> sqlite3.Connection:
    """A read connection to the derived rules table, building it on first use (from the
    previous table when there is a sound one: only the changed documents are written)."""
    from regelwerk.index.terms.shipped import stamp

    salt = f"{RULES_SALT}-{stamp()}"
    def build(tmp: Path) -> None:
        build_rules_table(library, tmp, previous_artefact(library, "rules", salt))

    folder = library.store.derived("rules", build, salt=salt)
    con = sqlite3.connect(f"file:{folder / 'rules.sqlite'}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    return con


def previous_artefact(library: Corpus, name: str, salt: str) -> Path | None:
    """The newest artefact `name` of this `salt` on disk that passes its full checksum check
    (what a build may grow from), or None."""
    from regelwerk.index.store.disk import TEMP_PREFIX, artefact_problem

    found = []
    for folder in (library.store.root / "derived").glob(f"*-{salt}/{name}"):
        if folder.parent.name.startswith(TEMP_PREFIX):
            continue
        try:
            found.append((folder.stat().st_mtime, folder))
        except OSError:
            continue
    for _, folder in sorted(found, reverse=True):
        if artefact_problem(folder, full=True) is None:
            return folder
    return None


# -- lookup ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleView:
    """One rule as ``regelwerk rule`` shows it (the ``--json`` contract plus helpful extras)."""

    number: str
    title: str
    text: str
    language: str
    version: str | None
    document: str
    current: str | None
    subrules: tuple[dict[str, Any], ...] = ()
    #: The release whose rules no longer have this one (its lineage ends there), if any.
    removed_in: str | None = None
    examples: tuple[str, ...] = ()
    references: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()
    #: The notes as messages (template + arguments), for a reader of another language.
    messages: tuple[Message, ...] = ()
    elsewhere: tuple[dict[str, Any], ...] = field(default=())
    #: The title's term in both languages ({"en": "Banding", "de": "Bündnisfähigkeit"}).
    names: tuple[tuple[str, str | None], ...] = ()
    #: For English text shown to a German reader: (English term, German name) pairs in it.
    glosses: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "subrules": list(self.subrules),
            "examples": list(self.examples),
            "language": self.language,
            "version": self.version,
            "document": self.document,
            "current": self.current,
            "today": self.current,
            "removed_in": self.removed_in,
            "references": list(self.references),
            "notes": list(self.notes),
            "messages": [m.to_dict() for m in self.messages],
            "elsewhere": list(self.elsewhere),
            "names": dict(self.names),
            "glosses": [{"en": en, "de": de} for en, de in self.glosses],
            "citation": self.citation,
        }

    @property
    def citation(self) -> str:
        """How to cite it: "CR 702.19b (2026-04-17)"; an undated document by its id."""
        return f"CR {self.number} ({self.version or self.document})"


def lookup(
    library: Corpus, query: str, *, version: str | None = None, lang: str | None = None, today: bool = False
) -> RuleView:
    """The rule `query` names ("702.22", "rule 702.22 j", "CR 510.1c", "Regel 702.19").

    Default: the newest English version that has it (the German documents only with
    ``lang="de"`` or when no English one does). Raises InvalidRuleNumber for a malformed
    number, UnknownVersion for a version nobody has, UnknownRule for a number in no document.
    ``today=True``: `query` is a number of the newest rules; in another release or language
    the rule that is that number today is shown (the German 702.19 for today's 702.22).
    """
    number, notes, by_term = _resolve(query)
    by_term = by_term or today
    gloss = False
    con = rules_table(library)
    try:
        docs = {r["id"]: r for r in con.execute("SELECT * FROM docs")}
        if version is not None and not any(d["version"] == version for d in docs.values()):
            known = sorted({d["version"] for d in docs.values() if d["version"]}, reverse=True)
            raise UnknownVersion(version, known)
        rows = [r for r in con.execute("SELECT * FROM sections WHERE number = ?", (number,))]
        # a term names today's rule: in an older release it may have another number
        chosen = None if by_term else _choose(rows, docs, version, lang)
        moved: list[sqlite3.Row] = []
        if chosen is None:
            moved = [r for r in con.execute("SELECT * FROM sections WHERE current = ?", (number,))]
            chosen = _choose(moved, docs, version, lang)
            if chosen is not None and not by_term:
                notes.append(_moved_note(con, number, chosen, docs[chosen["doc"]], _scope_msg(version, lang)))
                return _view(con, chosen, docs, rows, notes, moved=True)
        if chosen is None and lang == "de":  # never a dead end: the English text, its terms glossed in German
            chosen = _choose(rows, docs, version, "en") or _choose(moved, docs, version, "en")
            if chosen is not None:
                gloss = True
                notes.append(msg(
                    N_("{number} has no German text in any ingested document; the English text of "
                       "{where} follows, with the German names of its terms."),
                    number=number, where=_where_msg(docs[chosen["doc"]]),
                ))
        if chosen is None:
            raise _unknown(con, number, version, lang)
        if by_term:  # the rows of the number the chosen release gives the rule
            rows = [r for r in con.execute("SELECT * FROM sections WHERE number = ?", (chosen["number"],))]
        return _view(con, chosen, docs, rows, notes, gloss=gloss)
    finally:
        con.close()


def releases_with(library: Corpus, number: str) -> list[dict[str, Any]]:
    """The English CR releases whose rules have `number`, newest first: ``{"version",
    "document", "title", "current"}`` each, the rule each is as `lookup` (number, version,
    ``lang="en"``) would show it, from one query instead of one lookup per release (the web
    rule page's release picker: 109 lookups took 0.4-3 s over the archive)."""
    con = rules_table(library)
    try:
        docs = {r["id"]: r for r in con.execute("SELECT * FROM docs")}
        releases = {d["version"] for d in docs.values()
                    if d["kind"] in CR_KINDS and d["version"] and d["language"] == "en"}
        rows = con.execute(
            "SELECT * FROM sections WHERE number = ? AND language = 'en'", (number,)
        ).fetchall()
        chosen: dict[str, sqlite3.Row] = {}
        for version in releases:
            found = _choose(rows, docs, version, "en")
            if found is not None:
                chosen[version] = found
        newest = sorted(chosen.items(), key=lambda kv: docs[kv[1]["doc"]]["rank"], reverse=True)
        return [{"version": version, "document": row["doc"], "title": _title(con, row),
                 "current": row["current"]} for version, row in newest]
    finally:
        con.close()


def _resolve(query: str) -> tuple[str, list[Message], bool]:
    """The rule number `query` names, notes about how, and whether a term named it.

    A number ("702.19b", "CR 510.1c") is itself. A keyword or game term in either language
    ("Trampelschaden", "Bündnis", "Spielfeld") names its rule in the newest CR (the term
    tables' number); a word with several senses ("counter") takes the first and names the
    others. Table-only, so this path stays fast.
    """
    try:
        return str(RuleNumber.from_query(query)), [], False
    except InvalidRuleNumber:
        from regelwerk.index.terms.aliases import senses

        found = [s for s in senses(query.strip()) if s.row.number and _parses(s.row.number)]
        if not found:
            raise InvalidRuleNumber(query, msg(RULE_OR_TERM)) from None
    first = found[0]
    said = query.strip()
    notes = [msg(N_("{word} is {term}: rule {number} in the newest rules."),
                 word=said, term=_term_name(first.row, said), number=first.row.number)]
    for other in found[1:]:
        notes.append(msg(N_("{word} also means {term}: regelwerk rule {number}"),
                         word=said, term=_term_name(other.row, said), number=other.row.number))
    return str(RuleNumber.parse(first.row.number)), notes, True


def _term_name(row: TermRow, said: str) -> str:
    """"Trample", or "Counters (Marke)" when the German name is not what the user typed."""
    shown = row.de and compact(row.de) not in (compact(said), compact(row.en))
    return f"{row.en} ({row.de})" if shown else row.en


def _matches(row: sqlite3.Row, docs: dict[str, sqlite3.Row], version: str | None, lang: str | None) -> bool:
    if version is not None and docs[row["doc"]]["version"] != version:
        return False
    return lang is None or row["language"] == lang


def _choose(
    rows: list[sqlite3.Row], docs: dict[str, sqlite3.Row], version: str | None, lang: str | None
) -> sqlite3.Row | None:
    fitting = [r for r in rows if _matches(r, docs, version, lang)]
    if not fitting:
        return None
    return max(fitting, key=lambda r: (r["language"] == "en", docs[r["doc"]]["rank"], -r["position"]))


def _moved_note(
    con: sqlite3.Connection, number: str, row: sqlite3.Row, doc: sqlite3.Row, scope: Arg
) -> Message:
    """The one note on a rule shown under another number (`number` asked for, `row` shown):
    where the same rule is, its name, and what its number there means today; the rule's own
    notes would say the same again, so `_view` leaves them out (``moved=True``)."""
    shown, title = row["number"], _title(con, row)
    today = _today(con, shown) if shown != number else ""
    then: Arg = msg(TODAY_IS, moved=shown, today=today) if today else ""
    if not title:
        return msg(SAME_RULE_ELSEWHERE,
                   number=number, scope=scope, moved=shown, where=_where_msg(doc), then=then)
    return msg(SAME_RULE_NAMED,
               number=number, scope=scope, named=_named(title, row["language"]), moved=shown,
               where=_where_msg(doc), then=then)


def _named(title: str, language: str) -> str:
    """A rule's title with its name in the other language beside it: "Bündnisfähigkeit (Banding)"."""
    alt = other_name(title, language)
    return f"{title} ({alt})" if alt else title


def _where(doc: sqlite3.Row) -> str:
    if doc["kind"] in CR_KINDS and doc["version"]:
        return f"the {doc['version']} rules"
    return f"{doc['id']!r} ({doc['language']})"


def _where_msg(doc: sqlite3.Row) -> Message:
    """`_where` as a message, for translation ("the 2011-02-04 rules"); a document that is no
    release carries its title too, which a reader is shown instead of the id (cli/notes.py)."""
    if doc["kind"] in CR_KINDS and doc["version"]:
        return msg(RELEASE, version=doc["version"])
    return msg(DOCUMENT, document=doc["id"], language=doc["language"],
               title=doc["title"] or "")


def _scope_msg(version: str | None, lang: str | None) -> Arg:
    if version and lang:
        return msg(FOR_VERSION_AND_LANGUAGE, version=version, lang=lang)
    if version:
        return msg(N_(" for version {version}"), version=version)
    if lang:
        return msg(FOR_LANGUAGE, lang=lang)
    return ""


def _title(con: sqlite3.Connection, row: sqlite3.Row) -> str:
    """A rule without a title of its own borrows the nearest titled ancestor's: "702.22j" ->
    "Banding" (its rule), "510.1c" -> "Combat Damage Step" (its section)."""
    title, parent = row["title"], row["parent"]
    while not title and parent:
        up = con.execute(
            "SELECT title, parent FROM sections WHERE doc = ? AND number = ? AND language = ?",
            (row["doc"], parent, row["language"]),
        ).fetchone()
        if up is None:
            break
        title, parent = up["title"], up["parent"]
    return str(title or "")


def _label(con: sqlite3.Connection, row: sqlite3.Row, width: int = 60) -> str:
    """A title for a cross-reference: the rule's own or borrowed title, else its first words."""
    title = _title(con, row)
    if title and row["kind"] != "subrule":
        return title
    text = " ".join(str(row["text"] or "").split())
    short = text if len(text) <= width else text[: width - 1].rsplit(" ", 1)[0] + "…"
    return f"{title}: {short}" if title else short


def _elsewhere_notes(
    con: sqlite3.Connection,
    row: sqlite3.Row,
    docs: dict[str, sqlite3.Row],
    same_number: list[sqlite3.Row],
    notes: list[Message],
    today_said: bool = False,
) -> list[dict[str, Any]]:
    """The other releases in which the same number means another rule, each also as a note:
    one note for a run of releases in which it meant the same rule (702.22 was Flanking in
    every release from 2009-07-11 to 2011-02-04), at most `ELSEWHERE_NOTES` of them; none for
    the rule the number is today when a note said that already (`today_said`)."""
    number, current = row["number"], row["current"]
    elsewhere = []
    for other in same_number:
        if other["doc"] == row["doc"] or other["language"] != row["language"]:
            continue
        moved = other["current"] != current and other["current"] is not None
        unlinked = other["current"] is None and other["title"] and other["title"] != row["title"]
        if (moved or unlinked) and docs[other["doc"]]["kind"] in CR_KINDS:
            elsewhere.append(
                {
                    "document": other["doc"],
                    "version": docs[other["doc"]]["version"],
                    "title": _title(con, other),
                    "current": other["current"],
                }
            )
    runs: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
    for e in sorted(elsewhere, key=lambda e: docs[e["document"]]["rank"]):
        runs.setdefault((e["title"], e["current"]), []).append(e)
    if today_said:
        runs = {key: run for key, run in runs.items() if key[1] != number}
    for (title, today), run in list(runs.items())[:ELSEWHERE_NOTES]:
        then = msg(N_("; today that is {current}"), current=today) if today not in (None, number) else ""
        first, last = (e["version"] or e["document"] for e in (run[0], run[-1]))
        if first == last:
            notes.append(msg(NUMBER_IN_RELEASE, number=number,
                             version=first, title=title, today=then))
        else:
            notes.append(msg(NUMBER_IN_RELEASES,
                             number=number, version=first, last=last, count=str(len(run)), title=title,
                             today=then))
    return elsewhere


def _references(
    con: sqlite3.Connection, row: sqlite3.Row, children: list[sqlite3.Row]
) -> list[dict[str, Any]]:
    """The rules `row` and its subrules cite, each with its title, outside the rule itself."""
    number = row["number"]
    refs: dict[str, None] = {}
    for r in (row, *children):
        for ref in json.loads(r["refs"]):
            if ref != number and not RuleNumber.parse(number).contains(RuleNumber.parse(ref)):
                refs.setdefault(ref, None)
    references: list[dict[str, Any]] = []
    for ref in refs:
        # the same document first, else the newest release that has it
        target = con.execute(
            "SELECT s.* FROM sections s JOIN docs d ON d.id = s.doc WHERE s.number = ? "
            "ORDER BY s.doc = ? DESC, s.language = ? DESC, d.rank DESC",
            (ref, row["doc"], row["language"]),
        ).fetchone()
        references.append({"number": ref, "title": _label(con, target) if target else None})
    return references


def _view(
    con: sqlite3.Connection,
    row: sqlite3.Row,
    docs: dict[str, sqlite3.Row],
    same_number: list[sqlite3.Row],
    notes: list[Message],
    gloss: bool = False,
    moved: bool = False,
) -> RuleView:
    """The rule `row` with its subrules, references and notes (`notes` has those said before;
    ``moved``: one of them already says where the rule lives today, `_moved_note`)."""
    doc = docs[row["doc"]]
    number, current = row["number"], row["current"]
    title = _title(con, row)
    children = con.execute(
        "SELECT * FROM sections WHERE doc = ? AND parent = ? AND language = ? ORDER BY position",
        (row["doc"], number, row["language"]),
    ).fetchall()
    today = "" if moved else _fate_note(con, row, doc, title, notes)
    elsewhere = _elsewhere_notes(con, row, docs, same_number, notes, today_said=bool(today))
    references = _references(con, row, children)
    return RuleView(
        number=number,
        title=title,
        text=row["text"] or "",
        language=row["language"],
        version=doc["version"],
        document=row["doc"],
        current=current,
        removed_in=row["removed_in"],
        subrules=tuple(
            {
                "number": c["number"],
                "text": c["text"],
                "examples": json.loads(c["examples"]),
                "current": c["current"],
            }
            for c in children
        ),
        examples=tuple(json.loads(row["examples"])),
        references=tuple(references),
        notes=tuple(str(n) for n in notes),
        messages=tuple(notes),
        elsewhere=tuple(elsewhere),
        names=tuple(both_names(title, row["language"]).items()),
        glosses=tuple(
            glossed(" ".join([row["text"] or "", *(c["text"] or "" for c in children)])) if gloss else ()
        ),
    )


def _fate_note(
    con: sqlite3.Connection, row: sqlite3.Row, doc: sqlite3.Row, title: str, notes: list[Message]
) -> str:
    """Add the note on where rule `row` of `doc` lives today, if it moved or was removed: one
    sentence says what it is, its number today and what its number means today (returned)."""
    number, current = row["number"], row["current"]
    if current and current != number:
        today = _today(con, number)
        if today:
            notes.append(msg(NUMBER_TODAY_MEANS,
                             number=number, where=_where_msg(doc),
                             title=_named(title, row["language"]) if title else msg(N_("this rule")),
                             current=current,
                             then=msg(TODAY_IS, moved=number, today=today)))
        else:
            notes.append(msg(NUMBER_TODAY,
                             number=number, where=_where_msg(doc), title=title or msg(N_("this rule")),
                             current=current))
        return today
    if current is None:
        notes.append(msg(REMOVED_IN if row["removed_in"] else NOT_KNOWN_TODAY, number=number,
                         where=_where_msg(doc), release=row["removed_in"] or ""))
    return ""


def _today(con: sqlite3.Connection, number: str) -> str:
    """What `number` means in the newest rules ("Trample (Trampelschaden)"), or ""."""
    row = con.execute(
        "SELECT s.* FROM sections s JOIN docs d ON d.id = s.doc WHERE s.number = ? AND s.current = ? "
        "ORDER BY s.language = 'en' DESC, d.rank DESC",
        (number, number),
    ).fetchone()
    title = _title(con, row) if row is not None else ""
    if not title:
        from regelwerk.index.terms.shipped import load_terms

        title = next((r.en for r in load_terms() if r.number == number), "")
    if not title:
        return ""
    german = german_name(title)
    return f"{title} ({german})" if german else title


def _unknown(con: sqlite3.Connection, number: str, version: str | None, lang: str | None) -> UnknownRule:
    """UnknownRule naming the nearest numbers that do exist (same section first).

    With `lang` the nearest numbers of that language's documents, and the message says so:
    ``rule 702.999z --lang de`` offered "702.191b, 702.192a", numbers only the English rules
    have. Where no document of `lang` has a rule, it says that, and offers the nearest of any
    language."""
    scope = _scope_msg(version, lang)
    if lang is not None:
        mine = _near(con, number, lang)
        if mine:
            return UnknownRule(msg(N_("rule {number!r} is in no ingested document{scope}; nearest in "
                                      "language '{lang}': {nearest}"),
                                   number=number, scope=scope, lang=lang, nearest=", ".join(mine)))
        offer = _near(con, number, None)
        if offer:
            return UnknownRule(msg(N_("rule {number!r} is in no ingested document{scope}; no ingested "
                                      "document in language '{lang}' has rules; nearest in any "
                                      "language: {nearest}"),
                                   number=number, scope=scope, lang=lang, nearest=", ".join(offer)))
    offer = _near(con, number, None)
    if not offer:
        return UnknownRule(msg(N_("rule {number!r} is in no ingested document{scope}; no rules are "
                                  "ingested yet"),
                               number=number, scope=scope))
    return UnknownRule(msg(N_("rule {number!r} is in no ingested document{scope}; nearest: {nearest}"),
                           number=number, scope=scope, nearest=", ".join(offer)))


def _near(con: sqlite3.Connection, number: str, lang: str | None) -> list[str]:
    """The numbers beside `number` of the same kind (section, rule or subrule) that some
    document (of `lang`) has, those of its section if there are any."""
    target = RuleNumber.parse(number)
    rows = (con.execute("SELECT DISTINCT number FROM placed") if lang is None
            else con.execute("SELECT DISTINCT number FROM placed WHERE language = ?", (lang,)))
    every = sorted({r[0] for r in rows}, key=lambda n: RuleNumber.parse(n).sort_key())
    same_kind = [n for n in every if RuleNumber.parse(n).kind == target.kind] or every
    keys = [RuleNumber.parse(n).sort_key() for n in same_kind]
    i = bisect.bisect_left(keys, target.sort_key())
    near = same_kind[max(0, i - 2) : i + 2]
    same_section = [n for n in near if RuleNumber.parse(n).section == target.section]
    return same_section or near
