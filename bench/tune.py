"""Tuning the question ranking's weights on the dev sets, with k-fold cross-validation (issue 9).

Every hand-set weight of the question ranking is in the search (`SPACE`), each with its "off"
value among its choices: the field boosts (title, keyword context, section titles, examples),
BM25F's B and K1, the lexicon's and the concept lexicon's weights, and the re-ranking signals
(coordination and its derived forms, deferring restating rules, "what happens" consequences,
subrule generality, question-word cues, glossary entries handing their score to the rules
they cite, rules about a named thing the question does not name). A grid search
by coordinate descent starts from `NEUTRAL` (every signal off, the keyword lookups' field
boosts) and sets each weight in turn to the value of its grid that scores best, the others
held, for PASSES passes. A setting is scored by the mean MRR@10 of three groups, hit@3 breaking
ties: the German and the English dev questions (``tests/relevance/questions.tsv``'s ``dev``
rows, the players' questions ``players.tsv``, the German ones ``german.tsv`` and the second
to tenth rounds' ``dev2.tsv`` to ``dev10.tsv``: `load_questions`) and the question cases of the
keyword relevance set (``queries.tsv``), whose MRR must stay >= KEYWORD_FLOOR (a setting below
pays for it; tuned on the dev questions alone, an earlier round's weights took the keyword set's
questions 0.680 -> 0.506).

- **Cross-validation**: the dev questions are cut into FOLDS folds (fixed seed, each language
  and each dev set spread evenly); the descent runs on the other folds from `NEUTRAL` and its
  choice is scored on the held fold. Each question is so scored once, by weights chosen without
  it; the pooled figures per language and dev set say how well *choosing weights by this
  search* carries to unseen questions. (What the search cannot see: the code's shape and the
  lexicons were written looking at all dev questions, so the figure is still a little kind.)
- **The choice**: the descent on all dev questions, printed as the values to put in the code,
  beside the code's own weights.
- **One signal's held-out effect** (``--only rerank.TOPIC query.GERMAN_NAMED``): the named
  weights chosen per fold, every other weight as the code has it (`paired`): minutes, not the
  full run's 40, and free of the full descent's fold-to-fold path.

With ``dev2.tsv`` (session 16, 375 dev questions, the lexicon before its fourth pass) the full
run's descent from `NEUTRAL` ended below the code's weights (objective 0.725 against 0.727: de
0.637 / en 0.759 against 0.648 / 0.736) by another path through the grid (K1 2.0, examples
0.5, SUBRULE 0.1, the vocabulary weights lower), cross-validated de 0.610 / en 0.733
(``dev2.tsv`` 0.463 / 0.666); ``--only`` from the code's weights kept K1, examples, SUBRULE,
TITLED, BOILERPLATE and ENGLISH_COORDINATION and moved TOPIC, INTENT and feedback.GLOSS (see
each). The vocabulary weights (question.CR_WORDS, MEANING, COGNATE) are judged on the proxy,
not here: the dev questions' words are what ``words.tsv`` was written for.

Every setting's per-question reciprocal ranks are cached, and so are whoosh's hits per query
(`whoosh_memo`): a weight that only re-ranks costs no whoosh search. Neither held-out set is
read. Run from the repository root (needs ../shared): ``python bench/tune.py [--seed N] [--only NAME ...]``.
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
#: What each point of keyword MRR below KEYWORD_FLOOR costs a setting's score (see `objective`).
FLOOR_PENALTY = 5.0
PASSES = 3
#: RESTATED at this value never defers a rule behind the rule it cites (the signal is off).
OFF = 99.0
Param = tuple[str, str, str | None]
Setting = dict[Param, float]
#: The search space: (module, name, key or None) -> values to draw from; "off" is among them.
#: Wider grids where the code sits at an edge (session 16, ``--only`` from the code's weights):
#: INTENT up to 2.0, TITLED up to 2.0, SUBRULE up to 0.4, BOILERPLATE down to 0.2 and
#: ENGLISH_COORDINATION up to 16 chose the code's value (INTENT 1.4) in every fold (BOILERPLATE
#: 0.8 in one): nothing lies past these grids.
SPACE: dict[Param, tuple[float, ...]] = {
    ("query", "QUESTION_BOOSTS", "title"): (0.0, 0.25, 1.0, 4.0),
    ("query", "QUESTION_BOOSTS", "ctx"): (0.0, 0.25, 1.0, 2.0),
    ("query", "QUESTION_BOOSTS", "sect"): (0.0, 1.0, 2.0),
    ("query", "QUESTION_BOOSTS", "ex"): (0.0, 0.5, 1.0),
    ("query", "QUESTION_BM25", "B"): (0.75, 0.9),
    ("query", "QUESTION_BM25", "K1"): (1.2, 2.0),
    ("query", "LEXICON", None): (0.4, 0.6),
    ("question", "CR_WORDS", None): (0.0, 0.25, 0.5, 1.0),
    ("query", "CONCEPT", None): (0.0, 0.6),
    ("query", "CONCEPT_DE", None): (0.0, 1.0),
    ("query", "GLOSSARY_SHARE", None): (0.0, 0.25, 0.5),
    ("query", "GLOSSARY_KEEP", None): (1.0, 0.5),
    ("rerank", "COORDINATION", None): (0.0, 1.5, 3.0, 5.0),
    # 5.0 first: COORDINATION's own value, English questions not set apart ("off" for --only)
    ("rerank", "ENGLISH_COORDINATION", None): (5.0, 0.0, 1.5, 3.0, 8.0, 12.0),
    # 5.0 first: COORDINATION's own value, German questions not set apart ("off" for --only)
    ("rerank", "GERMAN_COORDINATION", None): (5.0, 8.0, 12.0, 16.0, 24.0),
    ("rerank", "RESTATED", None): (OFF, 0.6),
    ("rerank", "CONSEQUENCE", None): (1.0, 1.5),
    ("rerank", "SUBRULE", None): (0.0, 0.1, 0.2),
    # 0.2 first: SUBRULE's value, the other sections not set apart ("off" for --only)
    ("rerank", "OTHER_SUBRULE", None): (0.2, 0.1, 0.15, 0.3),
    ("rerank", "INTENT", None): (1.0, 1.2, 1.4),
    ("rerank", "DERIVED_COVER", None): (0.0, 0.5, 1.0),
    ("rerank", "TOPIC", None): (1.0, 0.7, 0.5, 0.3),
    ("rerank", "TITLED", None): (1.0, 1.2, 1.35, 1.5),
    ("query", "GERMAN_NAMED", None): (0.0, 1.0),
    ("rerank", "BOILERPLATE", None): (1.0, 0.8, 0.6, 0.4),
    ("question", "MEANING", None): (0.0, 0.25, 0.5, 1.0),
    ("question", "COGNATE", None): (0.0, 0.5, 1.0),
    ("feedback", "GLOSS", None): (0.0, 0.1, 0.2, 0.3),
}
#: Where every descent starts: each signal off, the field boosts of keyword lookups (title 4,
#: context 2, text 1, no section titles, examples 1), whoosh's BM25F (B 0.75, K1 1.2), the
#: lexicon at its lower weight. Nothing here was chosen on the dev questions, so the folds'
#: held questions never influenced where their descent began.
NEUTRAL: Setting = {param: values[0] for param, values in SPACE.items()}
NEUTRAL.update({("query", "QUESTION_BOOSTS", "title"): 4.0, ("query", "QUESTION_BOOSTS", "ctx"): 2.0})
NEUTRAL[("query", "QUESTION_BOOSTS", "ex")] = 1.0


def _module(name: str) -> Any:
    import importlib

    return importlib.import_module(f"regelwerk.index.search.{name}")


def _name(param: Param) -> str:
    mod, name, key = param
    return f"{mod}.{name}{f'[{key!r}]' if key else ''}"


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


@contextmanager
def whoosh_memo() -> Iterator[None]:
    """Each distinct whoosh search run once: its query (terms, fields, boosts), BM25F
    parameters, scope and limit are the key, so a setting that changes only the re-ranking
    reuses the hits of an earlier one instead of searching again; results are the same."""
    from regelwerk.index.search.query import SearchEngine

    memo: dict[tuple[Any, ...], list[tuple[dict[str, Any], float]]] = {}
    run = SearchEngine._run

    def cached(self: Any, q: Any, limit: int, flt: Any) -> list[tuple[dict[str, Any], float]]:
        # `_run` gives (stored fields, score) pairs, which outlive the searcher as they are
        key = (id(self), repr(q), limit, id(flt), self._bm25, self._version, self._all_versions)
        if key not in memo:
            memo[key] = run(self, q, limit, flt)
        return memo[key]

    SearchEngine._run = cached  # type: ignore[method-assign]
    try:
        yield
    finally:
        SearchEngine._run = run  # type: ignore[method-assign]


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
    and a setting that takes the whole keyword set below KEYWORD_FLOOR loses FLOOR_PENALTY
    times the shortfall. (A hard floor, any setting below it scored by its shortfall alone,
    left a descent from `NEUTRAL`, far below the floor, blind to the questions until the
    re-ranking lifted the keyword set: it fixed the field boosts for keywords first and ended
    at 0.621 where the code's weights reach 0.646.)
    """
    mrr, hit3 = [], []
    for lang in ("de", "en"):
        idx = [i for i in subset if questions[i].lang == lang]
        if idx:
            mrr.append(sum(rr[i] for i in idx) / len(idx))
            hit3.append(sum(rr[i] >= 1 / 3 for i in idx) / len(idx))
    below = 0.0
    if len(rr) > len(questions):
        keyword = rr[len(questions) :]
        below = max(0.0, KEYWORD_FLOOR - sum(keyword) / len(keyword))
        asks = [r for r, c in zip(keyword, Keyword.cases, strict=True) if c.category.endswith("question")]
        mrr.append(sum(asks) / len(asks))
        hit3.append(sum(r >= 1 / 3 for r in asks) / len(asks))
    return sum(mrr) / len(mrr) - FLOOR_PENALTY * below, sum(hit3) / len(hit3)


class Keyword:
    """The keyword relevance set (``tests/relevance/queries.tsv``) on its own library (the
    2026, 2015 and 2011 CRs, as ``tests/relevance/test_relevance.py`` builds it)."""

    cases: ClassVar[list[Any]] = []
    engine: ClassVar[Any] = None

    @classmethod
    def open(cls, corpus: Path) -> None:
        from bench.baseline import load_cases
        from bench.scratch import scratch
        from regelwerk.index.search.query import SearchEngine
        from regelwerk.index.store.corpus import Corpus

        library = Corpus(scratch("regelwerk-tune-kw-"))
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
    """FOLDS folds of question indexes, each dev set's languages dealt round-robin after a
    shuffle (so every fold holds its share of German, English and players' questions)."""
    out: list[list[int]] = [[] for _ in range(FOLDS)]
    rng = random.Random(seed)
    n = 0
    for source in sorted({q.source for q in questions}):
        for lang in ("de", "en"):
            idx = [i for i, q in enumerate(questions) if q.lang == lang and q.source == source]
            rng.shuffle(idx)
            for i in idx:
                out[n % FOLDS].append(i)
                n += 1
    return out


def descent(
    rr_of: Callable[[Setting], list[float]],
    questions: list[Question],
    subset: list[int],
    verbose: bool,
    passes: int = PASSES,
    start: Setting | None = None,
    space: list[Param] | None = None,
) -> Setting:
    """Coordinate descent over `space` (all of `SPACE`) from `start` (`NEUTRAL`), scored on `subset`."""
    best = dict(NEUTRAL if start is None else start)
    score = objective(rr_of(best), questions, subset)
    for _ in range(passes):
        for param, values in SPACE.items():
            if space is not None and param not in space:
                continue
            for v in values:
                trial = {**best, param: v}
                got = objective(rr_of(trial), questions, subset)
                if got > score:
                    best, score = trial, got
            if verbose:
                print(f"  {_name(param)} -> {best[param]}: {score[0]:.3f}", flush=True)
    return best


def pooled(rr: list[float], questions: list[Question]) -> list[str]:
    """MRR@10 and hit@3 per dev set and language, and per language over both sets."""
    lines = []
    for source in [*sorted({q.source for q in questions}), "all sets"]:
        for lang in ("de", "en"):
            idx = [i for i, q in enumerate(questions) if q.lang == lang and source in ("all sets", q.source)]
            if not idx:  # a German-only set
                continue
            mrr = sum(rr[i] for i in idx) / len(idx)
            hit3 = sum(rr[i] >= 1 / 3 for i in idx) / len(idx)
            lines.append(f"  {source:<14} {lang}  n={len(idx):<4} MRR@10 {mrr:.3f}  hit@3 {hit3:.2f}")
    return lines


def summary(label: str, rr: list[float], dev: list[Question]) -> str:
    """A setting's objective, its keyword set MRR and its `pooled` figures."""
    keyword = rr[len(dev) :]
    head = f"{label}: objective {objective(rr, dev, list(range(len(dev))))[0]:.3f}"
    return "\n".join([f"{head}, keyword set MRR {sum(keyword) / len(keyword):.3f}", *pooled(rr, dev)])


def cross_validate(rr_of: Callable[[Setting], list[float]], dev: list[Question], seed: int) -> list[float]:
    """Each dev question's reciprocal rank under the weights the descent chose without it."""
    held_out = [0.0] * len(dev)
    everything = range(len(dev))
    for k, test in enumerate(folds(dev, seed)):
        train = [i for i in everything if i not in set(test)]
        chosen = descent(rr_of, dev, train, verbose=False)
        rr = rr_of(chosen)
        for i in test:
            held_out[i] = rr[i]
        moved = ", ".join(f"{_name(p)}={v}" for p, v in chosen.items() if v != NEUTRAL[p])
        train_mrr, test_mrr = objective(rr, dev, train)[0], objective(rr[: len(dev)], dev, test)[0]
        print(f"fold {k}: train {train_mrr:.3f}, held fold {test_mrr:.3f}", flush=True)
        print(f"  chose {moved}", flush=True)
    return held_out


def paired(rr_of: Callable[[Setting], list[float]], dev: list[Question], names: list[str], seed: int) -> None:
    """The held-out effect of some weights alone (``--only NAME ...``): each fold chooses them
    on the other folds, starting from their "off" value (the first of their grid), every
    other weight held at the code's value; printed beside the same folds with them off.

    The full cross-validation measures the whole search from `NEUTRAL`, whose path through
    the other weights moves from fold to fold (a new signal once sent one fold's descent
    elsewhere: held fold 0.75 -> 0.63 on weights that had nothing to do with it), in 40
    minutes; this asks only whether the named weights carry to unseen questions, in a few.
    The other weights were chosen on all dev questions, the same for both columns.
    """
    params = [p for p in SPACE if _name(p) in names]
    unknown = set(names) - {_name(p) for p in params}
    if unknown:
        raise SystemExit(f"--only: unknown weight(s) {sorted(unknown)}; known: {[_name(p) for p in SPACE]}")
    off = {**current(), **{p: SPACE[p][0] for p in params}}
    held, held_off = [0.0] * len(dev), [0.0] * len(dev)
    for k, test in enumerate(folds(dev, seed)):
        train = [i for i in range(len(dev)) if i not in set(test)]
        chosen = descent(rr_of, dev, train, verbose=False, start=off, space=params)
        for i in test:
            held[i], held_off[i] = rr_of(chosen)[i], rr_of(off)[i]
        print(f"fold {k}: chose " + ", ".join(f"{_name(p)}={chosen[p]}" for p in params), flush=True)
    print(f"{FOLDS}-fold, {', '.join(names)} off, every other weight as the code has it:")
    print("\n".join(pooled(held_off, dev)))
    print(f"{FOLDS}-fold, {', '.join(names)} chosen without the held fold:")
    print("\n".join(pooled(held, dev)))


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
    if "--only" in argv:
        names = [a for a in argv[argv.index("--only") + 1 :] if not a.startswith("--")]
        with whoosh_memo():
            paired(rr_of, dev, names, seed)
        engine.close()
        return 0
    with whoosh_memo():
        for label, setting in (("as the code is now", current()), ("neutral (every signal off)", NEUTRAL)):
            print(summary(label, rr_of(setting), dev), flush=True)
        best = descent(rr_of, dev, everything, verbose=True)
        print(summary("chosen on all dev", rr_of(best), dev), flush=True)
        now = current()
        for param, value in best.items():
            print(f"  {_name(param)} = {value}{'' if value == now[param] else f'  (code: {now[param]})'}")
        held_out = cross_validate(rr_of, dev, seed)
    print(f"{FOLDS}-fold cross-validated (each question scored by weights chosen without it):")
    print("\n".join(pooled(held_out, dev)))
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
