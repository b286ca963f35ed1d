"""What regelwerk is measured against: queries with expected answers, and a plain FTS5 index.

Shared by ``bench/bench.py`` and ``tests/relevance``. The baseline is what one would build
in an afternoon: SQLite FTS5 (stdlib) over the same sections and glossary entries, bm25
ranking, the query's words OR-ed. It knows no German, no typos and no moved numbers; its hits
carry a current number only for the newest English release, where the number *is* current.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest.model import newest_release
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.numbers import RuleNumber

QUERIES = Path(__file__).resolve().parents[1] / "tests" / "relevance" / "queries.tsv"
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Case:
    category: str
    query: str
    expect: tuple[str, ...]
    check: str
    options: dict[str, str] = field(default_factory=dict)


def load_cases(path: Path = QUERIES) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        cols += [""] * (5 - len(cols))
        options = dict(o.split("=", 1) for o in cols[4].split(",") if "=" in o)
        cases.append(Case(cols[0], cols[1], tuple(cols[2].split("|")), cols[3], options))
    return cases


def hit_matches(hit: dict[str, Any], expect: Iterable[str]) -> bool:
    """Does a hit (``number``/``current``/``term`` as in the search contract) answer the case?"""
    for e in expect:
        if e.startswith("term:"):
            terms = [t.strip().casefold() for t in (hit.get("term") or "").split(",")]
            if e[5:].casefold() in terms:
                return True
            continue
        current = hit.get("current")
        if not current:
            continue
        if e.endswith("*"):
            if RuleNumber.parse(e[:-1]).contains(RuleNumber.parse(current)):
                return True
        elif current == e:
            return True
    return False


@dataclass(frozen=True)
class Scores:
    hit1: float
    hit3: float
    mrr: float
    ranks: tuple[int | None, ...]

    def line(self, name: str) -> str:
        return f"{name:<10} hit@1 {self.hit1:.3f}  hit@3 {self.hit3:.3f}  MRR {self.mrr:.3f}"


def score(cases: Sequence[Case], run: Callable[[Case], list[dict[str, Any]]], depth: int = 10) -> Scores:
    ranks: list[int | None] = []
    for case in cases:
        hits = run(case)[:depth]
        ranks.append(next((i + 1 for i, h in enumerate(hits) if hit_matches(h, case.expect)), None))
    n = len(cases) or 1
    return Scores(
        hit1=sum(r == 1 for r in ranks) / n,
        hit3=sum(r is not None and r <= 3 for r in ranks) / n,
        mrr=sum(1 / r for r in ranks if r) / n,
        ranks=tuple(ranks),
    )


class Fts5Baseline:
    """SQLite FTS5 over every ingested section and glossary entry (one table, bm25)."""

    def __init__(self, library: Corpus) -> None:
        docs = library.store.all()
        newest = newest_release(docs)
        newest_id = newest.document.id if newest else None
        newest_version = {}
        for p in docs:
            d = p.document
            if d.kind in ("cr-text", "cr-html") and d.version:
                newest_version[d.language] = max(newest_version.get(d.language, ""), d.version)
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE f USING fts5(title, body, number UNINDEXED, current UNINDEXED, "
            "term UNINDEXED, language UNINDEXED, version UNINDEXED, scope UNINDEXED, "
            "tokenize='unicode61 remove_diacritics 2')"
        )
        rows = []
        for p in docs:
            d = p.document
            dated = d.kind in ("cr-text", "cr-html") and d.version
            for s in p.sections:
                lang = s.language
                default = newest_version.get(lang) == d.version if dated else lang not in newest_version
                current = s.number if d.id == newest_id else None
                rows.append((s.title, s.text, s.number, current, None, lang, d.version, int(default)))
            for g in p.glossary:
                default = newest_version.get(g.language) == d.version if dated else True
                rows.append((g.term, g.text, None, None, g.term, g.language, d.version, int(default)))
        self.db.executemany("INSERT INTO f VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def search(
        self, query: str, *, limit: int = 10, version: str | None = None, lang: str | None = None
    ) -> list[dict[str, Any]]:
        words = _TOKEN.findall(query)
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        where = ["f MATCH ?"]
        args: list[Any] = [match]
        if version is not None:
            where.append("version = ?")
            args.append(version)
        else:
            where.append("scope = 1")
        if lang is not None:
            where.append("language = ?")
            args.append(lang)
        sql = (
            f"SELECT number, current, term, title FROM f WHERE {' AND '.join(where)} ORDER BY bm25(f) LIMIT ?"
        )
        try:
            rows = self.db.execute(sql, [*args, limit]).fetchall()
        except sqlite3.OperationalError:
            return []
        return [{"number": r[0], "current": r[1], "term": r[2], "title": r[3]} for r in rows]


def expected_exists(library: Corpus, case: Case) -> str | None:
    """Why the case's first expected answer does not hold in the newest CR, or None if it does."""
    newest = newest_release(library.store.all())
    if newest is None:
        return "no English CR release is ingested"
    first = case.expect[0]
    word = case.check.casefold()
    if first.startswith("term:"):
        name = first[5:].casefold()
        for g in newest.glossary:
            if name in (t.casefold() for t in g.terms):
                ok = word in f"{g.term} {g.text}".casefold()
                return None if ok else f"glossary {first[5:]!r} does not mention {case.check!r}"
        return f"no glossary entry {first[5:]!r}"
    number = first.rstrip("*")
    try:
        RuleNumber.parse(number)
    except InputError:
        return f"{number!r} is not a rule number"
    sections = {s.number: s for s in newest.sections if s.number}
    s = sections.get(number)
    if s is None:
        return f"{number} is not in the {newest.document.version} CR"
    parent = sections.get(s.parent or "")
    text = f"{s.title} {s.text} {' '.join(s.examples)} {parent.title if parent else ''}".casefold()
    return None if word in text else f"{number} does not mention {case.check!r}"
