"""Does fusing the question ranking with a plain BM25 ranking carry (issue 9)? A measurement.

On the blind rounds' English questions plain FTS5 (`bench.baseline.Fts5Baseline`: bm25, the
query's words OR-ed, no stemming, no boosts) ranks some answers better than the code does
(coordination favouring a rule that repeats the question's words, title boosts, subrule
against parent). Rank fusion of two rankers that fail differently is the standard remedy:

- ``rrf`` (reciprocal rank fusion, Cormack, Clarke and Buettcher 2009): a hit's fused score is
  1 / (k + its rank in the code's top RERANK) + w / (k + its rank in FTS5's top N);
- ``top`` (CombSUM of top-normalised scores): score / the first hit's score in each list,
  the FTS5 one times w; ``minmax``: the same with each list min-max normalised over its top.

FTS5's hits outside the code's pool join it. Only a question (`SearchEngine._asks`) is
fused, never a keyword lookup. A German question's FTS5 search reads its English reading
(`semantic.english_text`), since FTS5 finds nothing for German words in the English CR.

Both rankings are collected once per dev question (cached under ``/tmp/fusion-cache/``,
keyed by the questions and the search code), then every (method, k, w, N) is scored in
memory. Parameters are chosen per language (w = 0 is "off" and among the choices):

- leave one round out over the blind rounds ``dev2.tsv`` to ``dev9.tsv``: each round scored by
  the parameters that score best (mean MRR@10, hit@3 breaking ties) on the other seven
  (``dev9.tsv`` landed after the shipped choice; `regelwerk.index.search.fusion` gives the
  figures before and after it);
- 5-fold over the whole dev split (``tune.folds``, seed 9).

The code's own ranking is collected with its second opinions switched off (``fusion.WEIGHT``
and ``fusion.ENGLISH``'s weight 0), so "code" is the ranking before them. Run from the
repository root (needs ../shared): ``python bench/fusion.py`` (the lexical ranking,
``REGELWERK_SEMANTIC=off``) or ``python bench/fusion.py --semantic`` (with the optional
extra's sentence vectors, where installed);
``--whoosh``: fuse whoosh's plain BM25 (`plain_ranked`, what the code ships for German
questions) instead of FTS5; ``--fixed METHOD,W,K,N``: one setting's figures per dev set.
Neither held-out set is read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import pickle
import re
import sqlite3
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: "bench" must resolve to the package folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench import tune
from bench.baseline import Fts5Baseline, hit_matches
from bench.questions import Question, load_questions, newest_library

CACHE = Path("/tmp/fusion-cache")
BLIND = ("dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9")
#: How deep each list is collected (the code's RERANK is 40).
DEPTH = 40
KS = (1.0, 3.0, 5.0, 10.0, 20.0, 40.0, 60.0)
WS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5)
NS = (5, 10, 20, 40)
_TOKEN = re.compile(r"\w+")
Row = tuple[tuple[str, ...], float, bool]  # (key, score, answers the question)


@dataclass(frozen=True)
class Listing:
    """One dev question's two rankings."""

    lang: str
    group: str  # "old" or the blind round's name
    query: str
    asks: bool
    fts_text: str  # what FTS5 searched (a German question's English reading)
    ours: tuple[Row, ...]
    fts: tuple[Row, ...]
    plain: tuple[Row, ...] = ()  # whoosh's plain BM25 over the English titles and texts (`plain_ranked`)


@dataclass(frozen=True)
class Params:
    method: str  # "rrf", "top", "minmax"
    w: float
    k: float  # RRF's k (unused by CombSUM)
    n: int  # FTS5's depth

    def label(self) -> str:
        if self.w == 0:
            return "off"
        k = f" k={self.k:g}" if self.method == "rrf" else ""
        return f"{self.method} w={self.w:g}{k} N={self.n}"


def grid(methods: Sequence[str]) -> list[Params]:
    out = [Params("rrf", 0.0, 0.0, 0)]  # off: the code's ranking
    for m in methods:
        for w, n in product(WS[1:], NS):
            if m == "rrf":
                out.extend(Params(m, w, k, n) for k in KS)
            else:
                out.append(Params(m, w, 0.0, n))
    return out


def group(q: Question) -> str:
    name = q.source.removesuffix(".tsv")
    return name if re.fullmatch(r"dev\d+", name) else "old"


def key_of(hit: dict[str, Any]) -> tuple[str, ...]:
    """What identifies a hit in both rankings: a glossary entry by its term, a rule by its
    language and number."""
    if hit.get("term"):
        return ("term", str(hit["term"]).casefold())
    return ("rule", str(hit.get("language") or "en"), str(hit.get("current") or hit.get("number")))


def plain_ranked(engine: Any, text: str, limit: int) -> list[tuple[dict[str, Any], float]]:
    """The engine's own index searched the plain way: the English terms of `text` (its
    analyzer's, stemmed) OR-ed over the English titles and rule texts at weight 1, whoosh's
    default BM25F (B 0.75, K1 1.2), no translation, no re-ranking; default scope."""
    from whoosh import query as wq
    from whoosh import scoring

    from regelwerk.index.search.query import _union

    found: set[str] = set()
    for w in _TOKEN.findall(text):
        found |= engine._analyze("en", w.lower())
    q = _union([wq.Term(f"{field}_en", t) for t in sorted(found) for field in ("title", "text")])
    if q is None:
        return []
    weighting, bm25 = engine.searcher.weighting, engine._bm25
    engine.searcher.weighting, engine._bm25 = scoring.BM25F(), (0.75, 1.2)
    try:
        results = engine._run(q, limit, engine._scope(None, False, None))
    finally:
        engine.searcher.weighting, engine._bm25 = weighting, bm25
    return list(engine._placed(results))


def fts_ranked(fts: Fts5Baseline, text: str, limit: int) -> list[tuple[dict[str, Any], float]]:
    """FTS5's best `limit` hits of `text` in the default scope with their scores (-bm25)."""
    words = _TOKEN.findall(text)
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    sql = ("SELECT number, current, term, language, bm25(f) FROM f WHERE f MATCH ? AND scope = 1 "
           "ORDER BY bm25(f) LIMIT ?")
    try:
        rows = fts.db.execute(sql, [match, limit]).fetchall()
    except sqlite3.OperationalError:
        return []
    return [({"number": r[0], "current": r[1], "term": r[2], "language": r[3]}, -float(r[4])) for r in rows]


# -- collecting ---------------------------------------------------------------------------------
def collect(questions: list[Question]) -> tuple[list[Listing], float]:
    library = newest_library("regelwerk-fusion-")
    assert library is not None
    from regelwerk.index.search import semantic
    from regelwerk.index.search.query import SearchEngine

    engine = SearchEngine(library)
    fts = Fts5Baseline(library)
    out = []
    direct = 0.0
    for q in questions:
        hits = [h.to_dict() for h in engine.search(q.case.query, limit=DEPTH).hits]
        first = (i + 1 for i, h in enumerate(hits[:10]) if hit_matches(h, q.case.expect))
        direct += 1 / next(first, math.inf)
        reading = engine._reading
        text = semantic.english_text(q.case.query, reading) if q.lang == "de" else q.case.query
        ours = tuple((key_of(h), float(h["score"]), hit_matches(h, q.case.expect)) for h in hits)
        asks = engine._asks
        theirs = tuple((key_of(h), sc, hit_matches(h, q.case.expect))
                       for h, sc in fts_ranked(fts, text, DEPTH))
        plain = tuple((key_of(f), float(sc), hit_matches(f, q.case.expect))
                      for f, sc in plain_ranked(engine, text, DEPTH))
        out.append(Listing(q.lang, group(q), q.case.query, asks, text, ours, theirs, plain))
    engine.close()
    return out, direct / max(len(questions), 1)


def listings(questions: list[Question], mode: str) -> list[Listing]:
    """`collect`, cached on disk by the questions, the search code and the mode."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{mode} {DEPTH} plain\n".encode())
    for q in questions:
        digest.update(f"{q.source}\t{q.lang}\t{q.case.query}\t{q.case.expect}\n".encode())
    for p in sorted((root / "index" / "search").glob("*.py")) + sorted((root / "data" / "lexicon").glob("*")):
        if p.is_file():
            digest.update(p.read_bytes())
    digest.update((root / "bench" / "baseline.py").read_bytes())
    path = CACHE / f"listings-{digest.hexdigest()[:16]}.pkl"
    if path.exists():
        data, direct = pickle.loads(path.read_bytes())
    else:
        t = time.perf_counter()
        data, direct = collect(questions)
        print(f"(collected {len(data)} questions' rankings in {time.perf_counter() - t:.0f} s)")
        CACHE.mkdir(exist_ok=True)
        path.write_bytes(pickle.dumps((data, direct)))
    pooled = statistics.fmean(reciprocal_rank(d, Params("rrf", 0.0, 0.0, 0)) for d in data)
    print(f"check: code MRR@10 from the collected lists {pooled:.4f}, as the search returns it {direct:.4f}")
    return data


# -- fusing -------------------------------------------------------------------------------------
def _normalised(scores: Sequence[float], method: str) -> list[float]:
    if not scores:
        return []
    if method == "top":
        top = scores[0] if scores[0] > 0 else 1.0
        return [s / top for s in scores]
    lo, hi = min(scores), max(scores)
    return [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]


def fused(d: Listing, p: Params) -> list[bool]:
    """Whether each hit of the fused ranking answers the question, best first."""
    if p.w == 0 or not d.asks:
        return [m for _, _, m in d.ours]
    theirs = d.fts[: p.n]
    score: dict[tuple[str, ...], float] = {}
    answers: dict[tuple[str, ...], bool] = {}
    order: dict[tuple[str, ...], tuple[int, int]] = {}
    if p.method == "rrf":
        a = [1 / (p.k + i + 1) for i in range(len(d.ours))]
        b = [p.w / (p.k + i + 1) for i in range(len(theirs))]
    else:
        a = _normalised([s for _, s, _ in d.ours], p.method)
        b = [p.w * s for s in _normalised([s for _, s, _ in theirs], p.method)]
    for i, ((key, _, m), s) in enumerate(zip(d.ours, a, strict=True)):
        if key in score:  # the same rule twice (another place of it): kept apart, as the code has it
            key = (*key, str(i))
        score[key], answers[key], order[key] = s, m, (i, DEPTH)
    for j, ((key, _, m), s) in enumerate(zip(theirs, b, strict=True)):
        score[key] = score.get(key, 0.0) + s
        answers[key] = answers.get(key, False) or m
        order[key] = (order.get(key, (DEPTH, j))[0], j)
    ranked = sorted(score, key=lambda key: (-score[key], order[key]))
    return [answers[key] for key in ranked]


def reciprocal_rank(d: Listing, p: Params) -> float:
    return 1 / next((i + 1 for i, m in enumerate(fused(d, p)[:10]) if m), math.inf)


def fts_alone(d: Listing) -> float:
    """The second ranking's (FTS5's, or with ``--whoosh`` whoosh's plain) reciprocal rank alone."""
    return 1 / next((i + 1 for i, (_, _, m) in enumerate(d.fts[:10]) if m), math.inf)


class Table:
    """Every question's reciprocal rank under every setting, computed once."""

    def __init__(self, data: list[Listing], settings: list[Params]) -> None:
        self.data = data
        self.settings = settings
        self.rr = {p: [reciprocal_rank(d, p) for d in data] for p in settings}

    def best(self, idx: Iterable[int]) -> Params:
        idx = list(idx)

        def objective(p: Params) -> tuple[float, float, float]:
            rr = self.rr[p]
            return (sum(rr[i] for i in idx), sum(rr[i] >= 1 / 3 for i in idx), -p.w)

        return max(self.settings, key=objective)


def figures(rr: Sequence[float], idx: Sequence[int]) -> str:
    if not idx:
        return "-"
    mrr = sum(rr[i] for i in idx) / len(idx)
    hit3 = sum(rr[i] >= 1 / 3 for i in idx) / len(idx)
    return f"{mrr:.3f}/{hit3:.2f}"


def moves(base: Sequence[float], new: Sequence[float], idx: Sequence[int]) -> str:
    up = sum(new[i] > base[i] + 1e-12 for i in idx)
    down = sum(new[i] < base[i] - 1e-12 for i in idx)
    return f"+{up}/-{down}"


def report(name: str, data: list[Listing], code: list[float], chosen: list[float], fts: list[float],
           rows: dict[str, list[int]]) -> None:
    print(f"{name}: MRR@10/hit@3  code -> fused (questions up/down)  the second ranking alone")
    for label, idx in rows.items():
        print(f"  {label:<12} n={len(idx):<4} {figures(code, idx)} -> {figures(chosen, idx)} "
              f"({moves(code, chosen, idx)})   {figures(fts, idx)}")


def leave_one_round_out(table: Table, lang: str, code: list[float], fts: list[float]) -> None:
    data = table.data
    chosen = list(code)
    rows: dict[str, list[int]] = {}
    for r in BLIND:
        test = [i for i, d in enumerate(data) if d.lang == lang and d.group == r]
        if not test:
            continue
        train = [i for i, d in enumerate(data) if d.lang == lang and d.group in BLIND and d.group != r]
        p = table.best(train)
        for i in test:
            chosen[i] = table.rr[p][i]
        rows[f"{r} ({p.label()})"] = test
    rows["blind pooled"] = [i for i in range(len(data)) if data[i].lang == lang and data[i].group in BLIND]
    report(f"{lang}, leave one blind round out", data, code, chosen, fts, rows)


def k_fold(table: Table, lang: str, code: list[float], fts: list[float], questions: list[Question],
           seed: int) -> None:
    data = table.data
    chosen = list(code)
    labels = []
    for test in tune.folds(questions, seed):
        test_l = [i for i in test if data[i].lang == lang]
        train = [i for i in range(len(data)) if data[i].lang == lang and i not in set(test)]
        p = table.best(train)
        labels.append(p.label())
        for i in test_l:
            chosen[i] = table.rr[p][i]
    every = [i for i in range(len(data)) if data[i].lang == lang]
    rows = {"all dev": every,
            "old rows": [i for i in every if data[i].group == "old"],
            "blind": [i for i in every if data[i].group in BLIND]}
    head = f"{lang}, {tune.FOLDS}-fold (seed {seed}; chose {'; '.join(labels)})"
    report(head, data, code, chosen, fts, rows)


def in_sample(table: Table, lang: str) -> None:
    """The best few settings on all blind rounds (for reading, not for choosing)."""
    data = table.data
    idx = [i for i, d in enumerate(data) if d.lang == lang and d.group in BLIND]
    off = sum(table.rr[table.settings[0]][i] for i in idx) / len(idx)
    by = sorted(table.settings, key=lambda p: -sum(table.rr[p][i] for i in idx))
    best = ", ".join(f"{p.label()} {sum(table.rr[p][i] for i in idx) / len(idx):.3f}" for p in by[:5])
    print(f"  {lang} in-sample over the blind rounds (off {off:.3f}): {best}")


def main(argv: list[str]) -> int:
    mode = "semantic" if "--semantic" in argv else "lexical"
    if mode == "lexical":
        os.environ["REGELWERK_SEMANTIC"] = "off"
    from regelwerk.index.search import fusion

    fusion.WEIGHT = 0.0  # the code's ranking without the second opinions it now fuses questions with
    fusion.ENGLISH = {**fusion.ENGLISH, "weight": 0.0}
    seeds = [int(argv[argv.index("--seed") + 1])] if "--seed" in argv else [9]
    questions = load_questions(split="dev")
    data = listings(questions, mode)
    if "--whoosh" in argv:  # fuse whoosh's plain BM25 (`plain_ranked`) instead of FTS5
        data = [dataclasses.replace(d, fts=d.plain) for d in data]
        print("second ranking: whoosh's plain BM25 over the English titles and texts")
    asks = sum(d.asks for d in data)
    print(f"== {mode} ranking: {len(data)} dev questions ({asks} asking; the rest are never fused)")
    code = [reciprocal_rank(d, Params("rrf", 0.0, 0.0, 0)) for d in data]
    fts = [fts_alone(d) for d in data]
    inside = sum(any(m for _, _, m in d.ours) for d in data)
    theirs = sum(any(m for _, _, m in d.fts) for d in data)
    union = sum(any(m for _, _, m in d.ours) or any(m for _, _, m in d.fts) for d in data)
    print(f"answer within the top {DEPTH}: code {inside}, FTS5 {theirs}, either {union} of {len(data)}")
    if "--fixed" in argv:  # one setting, e.g. minmax,0.7,0,10 (method, w, k, N), on every group
        method, w, k, n = argv[argv.index("--fixed") + 1].split(",")
        p = Params(method, float(w), float(k), int(n))
        rr = [reciprocal_rank(d, p) for d in data]
        for lang in ("en", "de"):
            every = [i for i, d in enumerate(data) if d.lang == lang]
            rows = {"all dev": every, "old rows": [i for i in every if data[i].group == "old"],
                    **{r: [i for i in every if data[i].group == r] for r in BLIND},
                    "blind": [i for i in every if data[i].group in BLIND]}
            report(f"{lang}, {p.label()} fixed", data, code, rr, fts, rows)
        return 0
    families: dict[str, list[str]] = {
        "rrf": ["rrf"], "combsum": ["top", "minmax"], "all": ["rrf", "top", "minmax"]}
    for family, methods in families.items():
        table = Table(data, grid(methods))
        print(f"\n-- {family} ({len(table.settings)} settings)")
        for lang in ("en", "de"):
            in_sample(table, lang)
            leave_one_round_out(table, lang, code, fts)
            for seed in seeds:
                k_fold(table, lang, code, fts, questions, seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
