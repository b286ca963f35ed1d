"""How rules change across releases: ``history`` of one rule and ``diff`` of two releases.

Both read the derived rules table (text and titles per release) and the lineage table (which
rule of one release is which rule of the next), never the stored documents' JSON, except that
``diff`` reads the two releases' glossaries. Word-level diffs come from ``difflib``.

`history` anchors a rule in the newest release that has its number (or, for a keyword, the
newest release naming it), then walks the lineage back to the first release that had it and
forward to the newest or to the release that removed it: one entry per release in that span.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from regelwerk.index.linking import wording
from regelwerk.index.linking.wording import rule_text
from regelwerk.index.rule_messages import NEWER_THAN
from regelwerk.ingest.model.errors import (
    InputError,
    InvalidRuleNumber,
    UnknownKeyword,
    UnknownRelease,
    UnknownRule,
)
from regelwerk.ingest.model.fold import compact
from regelwerk.ingest.model.message import N_, msg
from regelwerk.ingest.model.numbers import RuleNumber, sort_key

if TYPE_CHECKING:
    from regelwerk.index.linking.lineage_table import Release
    from regelwerk.index.store.corpus import Corpus

#: Changes that carry a rule from one release into the next (not split/new/removed).
_CARRIES = ("same", "text", "renumbered", "merged")
_WORDS = re.compile(r"\S+")


def word_diff(old: str, new: str) -> list[list[str]]:
    """``[["=", "same words"], ["-", "old words"], ["+", "new words"], ...]`` by words; words
    that differ only by quotes (``wording.key``) count as the same and show as the new text
    has them."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    out: list[list[str]] = []
    keys_a, keys_b = [wording.key(w) for w in a], [wording.key(w) for w in b]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(["=", " ".join(b[j1:j2])])
            continue
        if i2 > i1:
            out.append(["-", " ".join(a[i1:i2])])
        if j2 > j1:
            out.append(["+", " ".join(b[j1:j2])])
    return out


@dataclass(frozen=True)
class _Rule:
    doc: str
    position: int
    number: str
    title: str
    text: str


class _Tables:
    """The rules and lineage tables of a corpus, opened read-only for one call."""

    def __init__(self, corpus: Corpus) -> None:
        from regelwerk.index.linking.lineage_table import chain_of, missing_pairs, read_only
        from regelwerk.index.rules.lookup import lineage_chain, lineage_path, rules_table

        # the releases in order; the steps are read per rule below, so the whole chain (seconds
        # over the archive) is loaded only when a store from an older version lacks pairs
        self.chain: list[Release] = chain_of(corpus.store.summaries())
        if missing_pairs(lineage_path(corpus), self.chain):
            self.chain = lineage_chain(corpus).releases
        if not self.chain:
            raise UnknownRelease(msg(N_("no Comprehensive Rules release is ingested; try: regelwerk "
                                        "ingest FILE")))
        self.rules = rules_table(corpus)
        path = lineage_path(corpus)
        self.lineage = read_only(path) if path.exists() else None
        if self.lineage is not None:
            self.lineage.row_factory = sqlite3.Row

    def close(self) -> None:
        self.rules.close()
        if self.lineage is not None:
            self.lineage.close()

    def rule(self, doc: str, position: int) -> _Rule | None:
        row = self.rules.execute(
            "SELECT * FROM sections WHERE doc = ? AND position = ?", (doc, position)
        ).fetchone()
        if row is None:
            return None
        return _Rule(doc, position, row["number"], self.title(row), _text(row))

    def title(self, row: sqlite3.Row) -> str:
        from regelwerk.index.rules.lookup import _title

        return _title(self.rules, row)

    def step(self, older: Release, newer: Release, *, old: int | None = None, new: int | None = None) -> Any:
        """The step of the pair carrying rule `old` forward (or leading to rule `new`)."""
        if self.lineage is None:
            return None
        if old is not None:
            rows = self.lineage.execute(
                "SELECT * FROM steps WHERE old_sha = ? AND new_sha = ? AND old_pos = ?",
                (older.sha256, newer.sha256, old),
            ).fetchall()
        else:
            rows = self.lineage.execute(
                "SELECT * FROM steps WHERE old_sha = ? AND new_sha = ? AND new_pos = ?",
                (older.sha256, newer.sha256, new),
            ).fetchall()
        order = {c: i for i, c in enumerate((*_CARRIES, "split", "removed", "new"))}
        rows.sort(key=lambda r: order.get(r[2], 99))
        return rows[0] if rows else None


def _text(row: sqlite3.Row) -> str:
    """What a stored rule says, as lineage compared it (``wording``)."""
    import json

    return rule_text(row["title"] or "", row["text"] or "", json.loads(row["examples"]))


# -- history -----------------------------------------------------------------------------------


def history(corpus: Corpus, query: str, *, full: bool = False) -> dict[str, Any]:
    """``{"query", "lineage": [{"version", "number", "title", "change", "text", "diff"}]}``."""
    tables = _Tables(corpus)
    try:
        index, position = _anchor(tables, corpus, query)
        lineage = _lineage(tables, index, position)
        for before, after in itertools.pairwise(lineage):
            after["diff"] = (
                word_diff(before["text"], after["text"])
                if not wording.same(before["text"], after["text"])
                else []
            )
        lineage[0]["diff"] = []
        return {"query": query, "lineage": lineage, "runs": _runs(lineage), "full": full}
    finally:
        tables.close()


def subrule_changes(corpus: Corpus, query: str) -> dict[str, Any]:
    """``{"query", "number", "version", "subrules": [{"number", "changes", "reworded", "releases",
    "first"}]}``: the subrules of the rule `query` names (as `history` anchors it: in the newest
    release that has it), each with how often it changed across the releases it is in (its own
    `history`'s changes, without word diffs) and how many of those changed its words (the rest
    are renumberings). A keyword's heading rarely changes while its subrules do: this is what its
    history page lists below its own runs. A section's rules are not its subrules: /rule/702
    lists none (a walk per keyword would take seconds over the archive)."""
    tables = _Tables(corpus)
    try:
        index, position = _anchor(tables, corpus, query)
        release = tables.chain[index]
        anchor = tables.rule(release.id, position)
        assert anchor is not None
        rows = tables.rules.execute(
            "SELECT number, position FROM sections WHERE doc = ? AND parent = ? AND kind = 'subrule' "
            "ORDER BY position",
            (release.id, anchor.number),
        ).fetchall()
        subrules = []
        for row in rows:
            lineage = _lineage(tables, index, int(row["position"]))
            changes = sum(1 for run in _runs(lineage) if run["change"] not in ("same", "new"))
            pairs = itertools.pairwise(lineage)
            worded = sum(1 for a, b in pairs if b["number"] and not wording.same(a["text"], b["text"]))
            subrules.append({"number": row["number"], "changes": changes, "reworded": worded,
                             "releases": sum(1 for e in lineage if e["number"]),
                             "first": lineage[0]["version"]})
        return {"query": query, "number": anchor.number, "version": release.version, "subrules": subrules}
    finally:
        tables.close()


def _lineage(tables: _Tables, index: int, position: int) -> list[dict[str, Any]]:
    """The entries of the rule at `position` of release `index`, from the first release that
    had it to the newest or the one that removed it (no word diffs)."""
    chain = tables.chain
    entries: dict[int, dict[str, Any]] = {}
    anchor = tables.rule(chain[index].id, position)
    assert anchor is not None
    entries[index] = _entry(chain[index], anchor, "same")
    # backwards: which rule of the older release became this one
    pos = position
    for i in range(index - 1, -1, -1):
        step = tables.step(chain[i], chain[i + 1], new=pos)
        if step is None or step["change"] not in (*_CARRIES, "split"):
            entries[i + 1]["change"] = "new"
            break
        entries[i + 1]["change"] = step["change"]
        pos = step["old_pos"]
        found = tables.rule(chain[i].id, pos)
        if found is None:
            break
        entries[i] = _entry(chain[i], found, "same")
    else:
        entries[min(entries)]["change"] = "new"
    # forwards: the rule's successor in each newer release, or its removal
    pos = position
    for i in range(index + 1, len(chain)):
        step = tables.step(chain[i - 1], chain[i], old=pos)
        if step is None or step["change"] not in _CARRIES:
            entries[i] = {
                **entries[i - 1],
                "version": chain[i].version,
                "document": chain[i].id,
                "number": None,
                "change": "removed",
                "text": "",
            }
            break
        pos = step["new_pos"]
        found = tables.rule(chain[i].id, pos)
        if found is None:
            break
        entries[i] = _entry(chain[i], found, step["change"])
    return [entries[i] for i in sorted(entries)]


def _entry(release: Release, rule: _Rule, change: str) -> dict[str, Any]:
    return {
        "version": release.version,
        "document": release.id,
        "number": rule.number,
        "title": rule.title,
        "names": _names(rule.title),
        "change": change,
        "text": rule.text,
    }


def _names(title: str) -> dict[str, str | None]:
    """The title's term in both languages ({"en": "Banding", "de": "Bündnisfähigkeit"})."""
    return dict(_both_names(title))


@functools.lru_cache(maxsize=1024)
def _both_names(title: str) -> dict[str, str | None]:
    """`_names`, looked up once per title: a history repeats one title in every release."""
    from regelwerk.index.terms.names import both_names

    return both_names(title, "en") if title else {"en": None, "de": None}


def _runs(lineage: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive releases with the same number and text (quotes aside: ``wording.same``), as
    one run each."""
    runs: list[dict[str, Any]] = []
    for e in lineage:
        last = runs[-1] if runs else None
        if last is not None and last["number"] == e["number"] and wording.same(last["text"], e["text"]):
            last["to"] = e["version"]
            last["releases"] += 1
            continue
        runs.append(
            {
                "number": e["number"],
                "title": e["title"],
                "from": e["version"],
                "to": e["version"],
                "releases": 1,
                "change": e["change"],
                "text": e["text"],
                "diff": e.get("diff", []),
            }
        )
    return runs


def _anchor(tables: _Tables, corpus: Corpus, query: str) -> tuple[int, int]:
    """(chain index, position) of the rule `query` names, in the newest release having it."""
    chain = tables.chain
    try:
        number = str(RuleNumber.from_query(query))
    except InvalidRuleNumber:
        number = None
    if number is not None:
        for i in range(len(chain) - 1, -1, -1):
            row = tables.rules.execute(
                "SELECT position FROM sections WHERE doc = ? AND number = ? ORDER BY position",
                (chain[i].id, number),
            ).fetchone()
            if row is not None:
                return i, int(row["position"])
        raise UnknownRule(msg(N_("rule {number!r} is in no ingested CR release"), number=number))
    names = _english_names(corpus, query)
    for i in range(len(chain) - 1, -1, -1):
        rows = tables.rules.execute(
            "SELECT position, title FROM sections WHERE doc = ? AND kind = 'rule' AND title != ''",
            (chain[i].id,),
        ).fetchall()
        for row in rows:
            if compact(row["title"]) in names:
                return i, int(row["position"])
    raise UnknownKeyword(msg(N_(
        "{query!r} is neither a rule number nor a rule title in any ingested CR release; "
        "try a number such as 702.22 or a keyword such as banding"), query=query))


def _english_names(corpus: Corpus, query: str) -> set[str]:
    """Folded English names `query` may mean: itself, and a keyword's English name for a German
    (or variant) name the term tables and linking know."""
    names = {compact(query)}
    from regelwerk.index.terms.shipped import load_terms

    key = compact(query)
    tabled = False
    for row in load_terms():
        german = [row.de or "", *row.de_variants, *row.de_old]
        if key in {compact(n) for n in german if n}:
            names.add(compact(row.en))
        tabled = tabled or compact(row.en) == key
    if len(names) == 1 and not tabled:  # ask linking (knows every release's headings)
        from regelwerk.index.linking.keyword_index import keyword_index

        found = keyword_index(corpus).find(query)
        if found is not None:
            names.add(compact(found.en))
    return names


# -- diff --------------------------------------------------------------------------------------


def resolve_release(chain: Sequence[Release], given: str) -> int:
    """Index in `chain` of a release named by date, ``latest`` or document id."""
    wanted = given.strip()
    if wanted.lower() in ("latest", "newest"):
        return len(chain) - 1
    for i, r in enumerate(chain):
        if wanted in (r.version, r.id, r.version.replace("-", "")):
            return i
    known = ", ".join(r.version for r in reversed(chain[-5:]))  # newest first, as they are named
    raise UnknownRelease(msg(N_(
        "no ingested CR release is {given!r}; give a date (YYYY-MM-DD), 'latest' or a document id "
        "(newest: {known})"), given=given, known=known))


def diff(corpus: Corpus, old: str, new: str, *, section: str | None = None) -> dict[str, Any]:
    """``{"from", "to", "counts", "changes": [...]}``: what changed from release `old` to `new`
    (only the rules of `section`, a chapter or section number the facade checked, if given)."""
    tables = _Tables(corpus)
    try:
        chain = tables.chain
        a, b = resolve_release(chain, old), resolve_release(chain, new)
        if a > b:
            raise InputError(msg(NEWER_THAN, old=old, old_version=chain[a].version, new=new,
                                 new_version=chain[b].version))
        changes = _rule_changes(tables, a, b) if a != b else []
        changes.extend(_glossary_changes(corpus, chain[a], chain[b]) if a != b else [])
        return narrowed({
            "from": chain[a].version,
            "to": chain[b].version,
            "from_document": chain[a].id,
            "to_document": chain[b].id,
            "section": None,
            "counts": {},
            "glossary_counts": {},
            "changes": changes,
        }, section)
    finally:
        tables.close()


def narrowed(found: dict[str, Any], section: str | None) -> dict[str, Any]:
    """A diff (`diff`'s object) with only the rule changes of `section` (a chapter "7" or a
    section "702"; None: all, the glossary too) and the counts of what is left. Narrowing
    the whole diff gives what `diff` gives for the section, without composing the releases
    again (the web's pages of one section reuse the whole diff)."""
    changes = found["changes"]
    if section is not None:
        prefix = section.strip()
        changes = [
            c
            for c in changes
            if any((n or "").startswith(prefix) for n in (c["old"], c["new"])) and c["kind"] == "rule"
        ]
    counts = dict.fromkeys(("added", "removed", "renumbered", "changed", "split", "merged"), 0)
    glossary = dict.fromkeys(("added", "removed", "changed"), 0)
    for c in changes:
        (counts if c["kind"] == "rule" else glossary)[c["change"]] += 1
    return {**found, "section": section, "counts": counts, "glossary_counts": glossary, "changes": changes}


def _rule_changes(tables: _Tables, a: int, b: int) -> list[dict[str, Any]]:
    """Compose the lineage steps from release `a` to `b` and classify what happened."""
    chain = tables.chain
    assert tables.lineage is not None
    # position in release a -> position in the current release, walked pair by pair
    alive: dict[int, int] = {}
    kinds: dict[int, str] = {}
    extra: list[tuple[str, int, int]] = []  # (split|merged, a position, b position) of the first pair
    rows = tables.lineage.execute(
        "SELECT * FROM steps WHERE old_sha = ? AND new_sha = ?", (chain[a].sha256, chain[a + 1].sha256)
    ).fetchall()
    for r in rows:
        if r["change"] in _CARRIES and r["change"] != "merged":
            alive[r["old_pos"]] = r["new_pos"]
        elif r["change"] in ("split", "merged"):
            extra.append((r["change"], r["old_pos"], r["new_pos"]))
            if r["change"] == "merged":
                kinds[r["old_pos"]] = "merged"
                alive[r["old_pos"]] = r["new_pos"]
    for i in range(a + 1, b):
        step_rows = tables.lineage.execute(
            "SELECT * FROM steps WHERE old_sha = ? AND new_sha = ? AND old_pos IS NOT NULL",
            (chain[i].sha256, chain[i + 1].sha256),
        ).fetchall()
        forward = {r["old_pos"]: r["new_pos"] for r in step_rows if r["change"] in _CARRIES}
        alive = {o: forward[p] for o, p in alive.items() if p in forward}
    old_rules = _rules_of(tables, chain[a].id)
    new_rules = _rules_of(tables, chain[b].id)
    reached = set(alive.values())
    changes: list[dict[str, Any]] = []
    for pos, rule in old_rules.items():
        target = alive.get(pos)
        if target is None:
            changes.append(_change("removed", rule, None))
            continue
        now = new_rules.get(target)
        if now is None:
            continue
        kind = kinds.get(pos)
        if kind == "merged":
            changes.append(_change("merged", rule, now))
        elif now.number != rule.number:
            changes.append(_change("renumbered", rule, now))
        elif not wording.same(now.text, rule.text):
            changes.append(_change("changed", rule, now))
    if b == a + 1:
        for change, old_pos, new_pos in extra:
            if change == "split" and old_pos in old_rules and new_pos in new_rules:
                changes.append(_change("split", old_rules[old_pos], new_rules[new_pos]))
                reached.add(new_pos)
    for pos, rule in new_rules.items():
        if pos not in reached:
            changes.append(_change("added", None, rule))
    changes.sort(key=lambda c: sort_key(c["new"] or c["old"]))
    return changes


def _rules_of(tables: _Tables, doc: str) -> dict[int, _Rule]:
    rows = tables.rules.execute(
        "SELECT * FROM sections WHERE doc = ? AND kind IN ('section', 'rule', 'subrule')", (doc,)
    ).fetchall()
    titles: dict[str, str] = {r["number"]: r["title"] for r in rows if r["title"]}
    out = {}
    for r in rows:
        title = r["title"] or next((titles[n] for n in _ancestors(r["number"]) if titles.get(n)), "")
        out[int(r["position"])] = _Rule(doc, int(r["position"]), r["number"], title, _text(r))
    return out


def _ancestors(number: str) -> tuple[str, ...]:
    try:
        return RuleNumber.parse(number).lineage()[1:]
    except InvalidRuleNumber:
        return ()


def _change(change: str, old: _Rule | None, new: _Rule | None) -> dict[str, Any]:
    text_old = old.text if old else ""
    text_new = new.text if new else ""
    either = new if new is not None else old
    assert either is not None
    return {
        "kind": "rule",
        "change": change,
        "old": old.number if old else None,
        "new": new.number if new else None,
        "title": either.title,
        "names": _names(either.title),
        "section": either.number.split(".")[0],
        "diff": word_diff(text_old, text_new) if not wording.same(text_old, text_new) else [["=", text_new]],
    }


def _glossary_changes(corpus: Corpus, older: Release, newer: Release) -> list[dict[str, Any]]:
    a = {g.term: g.text for g in corpus.store.get(older.id).glossary}
    b = {g.term: g.text for g in corpus.store.get(newer.id).glossary}
    out = []
    for term in sorted(set(a) | set(b), key=str.lower):
        if term not in b:
            change = "removed"
        elif term not in a:
            change = "added"
        elif not wording.same(a[term], b[term]):
            change = "changed"
        else:
            continue
        out.append(
            {
                "kind": "glossary",
                "change": change,
                "old": term if term in a else None,
                "new": term if term in b else None,
                "title": term,
                "names": _names(term),
                "section": "Glossary",
                "diff": word_diff(a.get(term, ""), b.get(term, "")),
            }
        )
    return out


__all__ = ["UnknownRelease", "diff", "history", "resolve_release", "word_diff"]
