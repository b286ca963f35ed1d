"""Tuning the question ranking's weights on the dev set, with cross-validation (issue 9).

A small grid search by coordinate descent: starting from the weights before tuning (`START`:
the section-title field boost, the lexicon and concept-lexicon weights and the subrule-
generality factor, each on or off at the value a one-at-a-time sweep on the dev questions
suggested), each weight in turn takes
the value of its grid (`SPACE`) that scores best, the others held, for PASSES passes. A
setting is scored by the mean MRR@10 of three groups, hit@3 breaking ties: the German and the
English dev questions (``tests/relevance/questions.tsv``, split ``dev``, and the players'
questions ``players.tsv``) and the question
cases of the keyword relevance set (``queries.tsv``), whose every case must keep MRR >=
KEYWORD_FLOOR. (Tuned on the dev questions alone, the weights lifted them 0.616 -> 0.680 but
took the keyword set's questions 0.680 -> 0.506: a sign of fitting 127 questions, not of
answering questions.) Every setting's per-question reciprocal ranks are cached, so repeated
descents cost little more than one. Then

- **cross-validation**: the dev questions are cut into FOLDS folds (fixed seed, each language
  spread evenly); the descent is run on the other folds and its result scored on the fold, so
  the mean over folds says how well *choosing by this search* generalises to unseen questions;
- **the choice**: the descent on the whole dev set, printed as the values to put in the code.

Tried and taken out again, as the search set both to 0 in every run: rule-level aggregation
(a rule gaining a share of its subrules' scores) and section titles counting toward the
coordination factor's coverage. Neither held-out set is read. Run from the repository root
(needs ../shared): ``python bench/tune.py``; 20-40 minutes (two libraries, ~350 searches a
setting).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

if __name__ == "__main__":  # run as a script: "bench" must resolve to the package folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import hit_matches
from bench.questions import NEWEST, Question, load_questions, newest_library

FOLDS = 5
#: The keyword relevance set must keep at least this MRR (issue 9: "must not drop below 0.90").
KEYWORD_FLOOR = 0.90
PASSES = 2
#: The search space: (module, name, key or None) -> values to draw from.
SPACE: dict[tuple[str, str, str | None], tuple[float, ...]] = {
    ("query", "QUESTION_BOOSTS", "sect"): (1.0, 2.0),
    ("query", "LEXICON", None): (0.4, 0.6),
    ("query", "CONCEPT", None): (0.0, 0.6),
    ("query", "CONCEPT_DE", None): (0.0, 1.0),
    ("rerank", "SUBRULE", None): (0.0, 0.1),
}
Setting = dict[tuple[str, str, str | None], float]
#: Where every descent starts: the weights the second round chose, with this round's new
#: signals off (concept lexicon, subrule generality). The second round's grid also searched
#: the title, context and example boosts, LEX_POWER, GLOSSARY_SHARE, COORDINATION, INTENT,
#: CONSEQUENCE, RESTATED and BM25F's B and K1; a one-at-a-time sweep on this round's dev set
#: left them where they were, so they stay out of the grid (each setting costs ~350 searches,
#: a minute on a loaded machine).
#: Starting the cross-validation folds here, not at the weights the code has now (chosen on
#: all dev questions, the test fold's too), keeps their test scores honest.
START: Setting = {
    ("query", "QUESTION_BOOSTS", "sect"): 1.0,
    ("query", "LEXICON", None): 0.6,
    ("query", "CONCEPT", None): 0.0,
    ("query", "CONCEPT_DE", None): 0.0,
    ("rerank", "SUBRULE", None): 0.0,
}


def _module(name: str) -> Any:
    import importlib

    return importlib.import_module(f"regelwerk.index.search.{name}")


def current() -> Setting:
    """The weights as the code has them now."""
    out: Setting = {}
    for mod, name, key in SPACE:
        value = getattr(_module(mod), name)
        out[(mod, name, key)] = float(value[key] if key is not None else value)
    return out


@contextmanager
def applied(setting: Setting) -> Iterator[None]:
    """The code's weights replaced by `setting` for the duration (restored after)."""
    saved: list[tuple[Any, str, Any]] = []
    for (mod, name, key), value in setting.items():
        m = _module(mod)
        old = getattr(m, name)
        saved.append((m, name, old))
        setattr(m, name, {**old, key: value} if key is not None else value)
    try:
        yield
    finally:
        for m, name, old in reversed(saved):
            setattr(m, name, old)


def reciprocal_ranks(engine: Any, questions: list[Question], setting: Setting) -> list[float]:
    out = []
    with applied(setting):
        for q in questions:
            hits = [h.to_dict() for h in engine.search(q.case.query, limit=10).hits]
            rank = next((i + 1 for i, h in enumerate(hits) if hit_matches(h, q.case.expect)), None)
            out.append(1 / rank if rank else 0.0)
    return out


def objective(rr: list[float], questions: list[Question], subset: list[int]) -> tuple[float, float]:
    """(mean of the languages' MRR@10, mean of their hit@3) over `subset` of the questions.

    `rr` may go on past the dev questions with the keyword relevance set's reciprocal ranks
    (`Keyword`): then its question cases count as a third "language" beside German and English,
    and a setting that takes the whole keyword set below KEYWORD_FLOOR scores below zero, by
    how far below it is (so a descent starting there still finds its way back above it).
    """
    mrr, hit3 = [], []
    for lang in ("de", "en"):
        idx = [i for i in subset if questions[i].lang == lang]
        if idx:
            mrr.append(sum(rr[i] for i in idx) / len(idx))
            hit3.append(sum(rr[i] >= 1 / 3 for i in idx) / len(idx))
    if len(rr) > len(questions):
        keyword = rr[len(questions) :]
        below = KEYWORD_FLOOR - sum(keyword) / len(keyword)
        if below > 0:
            return -below, 0.0  # worse than any setting that keeps the floor, nearer is better
        asks = [r for r, c in zip(keyword, Keyword.cases, strict=True) if c.category.endswith("question")]
        mrr.append(sum(asks) / len(asks))
        hit3.append(sum(r >= 1 / 3 for r in asks) / len(asks))
    return sum(mrr) / len(mrr), sum(hit3) / len(hit3)


class Keyword:
    """The keyword relevance set (``tests/relevance/queries.tsv``) on its own library (the
    2026, 2015 and 2011 CRs, as ``tests/relevance/test_relevance.py`` builds it)."""

    cases: ClassVar[list[Any]] = []
    engine: ClassVar[Any] = None

    @classmethod
    def open(cls, corpus: Path) -> None:
        import tempfile

        from bench.baseline import load_cases
        from regelwerk.index.search.query import SearchEngine
        from regelwerk.index.store.corpus import Corpus

        library = Corpus(Path(tempfile.mkdtemp(prefix="regelwerk-tune-kw-")))
        names = ("MagicCompRules-20260417.txt", "MagicCompRules-20110204.txt", "MagicCompRules-20151113.txt")
        assert not library.ingest([corpus / n for n in names]).errors
        cls.cases = load_cases()
        cls.engine = SearchEngine(library)

    @classmethod
    def reciprocal_ranks(cls, setting: Setting) -> list[float]:
        out = []
        with applied(setting):
            for c in cls.cases:
                o = c.options
                found = cls.engine.search(c.query, limit=10, version=o.get("version"), lang=o.get("lang"))
                hits = [h.to_dict() for h in found.hits]
                rank = next((i + 1 for i, h in enumerate(hits) if hit_matches(h, c.expect)), None)
                out.append(1 / rank if rank else 0.0)
        return out


def folds(questions: list[Question], seed: int) -> list[list[int]]:
    """FOLDS folds of question indexes, each language dealt round-robin after a shuffle."""
    out: list[list[int]] = [[] for _ in range(FOLDS)]
    rng = random.Random(seed)
    for lang in ("de", "en"):
        idx = [i for i, q in enumerate(questions) if q.lang == lang]
        rng.shuffle(idx)
        for n, i in enumerate(idx):
            out[n % FOLDS].append(i)
    return out


def descent(
    rr_of: Callable[[Setting], list[float]],
    questions: list[Question],
    subset: list[int],
    verbose: bool,
    passes: int = PASSES,
) -> Setting:
    """Coordinate descent over `SPACE` from `START`, scored on `subset`."""
    best = dict(START)
    score = objective(rr_of(best), questions, subset)
    for _ in range(passes):
        for param, values in SPACE.items():
            for v in values:
                trial = {**best, param: v}
                got = objective(rr_of(trial), questions, subset)
                if got > score:
                    best, score = trial, got
            if verbose:
                name = f"{param[1]}{f'[{param[2]!r}]' if param[2] else ''}"
                print(f"  {name} -> {best[param]}: {score[0]:.3f}", flush=True)
    return best


def main(argv: list[str]) -> int:

    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 9
    library = newest_library("regelwerk-tune-")
    if library is None:
        return 0
    from regelwerk.index.search.query import SearchEngine

    engine = SearchEngine(library)
    Keyword.open(NEWEST.parent)
    dev = load_questions(split="dev")
    cache: dict[tuple[tuple[Any, float], ...], list[float]] = {}

    def rr_of(setting: Setting) -> list[float]:
        key = tuple(sorted(setting.items(), key=str))
        if key not in cache:
            cache[key] = reciprocal_ranks(engine, dev, setting) + Keyword.reciprocal_ranks(setting)
        return cache[key]

    everything = list(range(len(dev)))
    print(f"as the code is now: {objective(rr_of(current()), dev, everything)}", flush=True)
    print(f"before tuning: {objective(rr_of(START), dev, everything)}", flush=True)
    best = descent(rr_of, dev, everything, verbose=True)
    print(f"chosen on all dev: {objective(rr_of(best), dev, everything)}", flush=True)
    print(f"  dev questions only: {objective(rr_of(best)[: len(dev)], dev, everything)}", flush=True)
    keyword = rr_of(best)[len(dev) :]
    print(f"  keyword set MRR: {sum(keyword) / len(keyword):.3f}", flush=True)
    for (mod, name, key), value in best.items():
        print(f"  {mod}.{name}{f'[{key!r}]' if key else ''} = {value}")
    cv = []
    for k, test in enumerate(folds(dev, seed)):
        train = [i for i in everything if i not in set(test)]
        chosen = descent(rr_of, dev, train, verbose=False, passes=1)
        cv.append(objective(rr_of(chosen)[: len(dev)], dev, test)[0])
        print(f"fold {k}: train {objective(rr_of(chosen), dev, train)[0]:.3f}, test {cv[-1]:.3f}", flush=True)
        print(f"         before tuning: {objective(rr_of(START)[: len(dev)], dev, test)[0]:.3f}", flush=True)
    print(f"cross-validated MRR (mean of languages): {sum(cv) / len(cv):.3f}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
