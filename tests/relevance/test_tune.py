"""The tuning bench's machinery (``bench/tune.py``): folds that hold every dev question once,
weights that exist in the code and come back after a trial, and a whoosh memo that changes
no result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from bench import tune
from bench.questions import load_questions
from regelwerk.index.search.query import SearchEngine
from regelwerk.index.store.corpus import Corpus
from tests.search_home import library_with


def test_folds_hold_every_dev_question_once_spread_evenly() -> None:
    dev = load_questions(split="dev")
    folds = tune.folds(dev, seed=3)
    assert len(folds) == tune.FOLDS
    assert sorted(i for fold in folds for i in fold) == list(range(len(dev)))
    for source, lang in {(q.source, q.lang) for q in dev}:
        sizes = [sum(dev[i].source == source and dev[i].lang == lang for i in f) for f in folds]
        assert max(sizes) - min(sizes) <= 1, (source, lang, sizes)
    assert tune.folds(dev, seed=3) == folds and tune.folds(dev, seed=4) != folds


def test_every_weight_of_the_search_space_is_in_the_code_and_restored() -> None:
    now = tune.current()
    assert set(now) == set(tune.SPACE) == set(tune.NEUTRAL)
    assert all(tune.NEUTRAL[p] in values for p, values in tune.SPACE.items())
    trial = {p: values[-1] for p, values in tune.SPACE.items()}
    with tune.applied(trial):
        assert tune.current() == trial
    assert tune.current() == now


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    library: Corpus = library_with(tmp_path_factory)
    eng = SearchEngine(library)
    yield eng
    eng.close()


QUERIES = ["wer verteilt den Kampfschaden wenn ein Blocker Bündnisfähigkeit hat", "banding", "trample damage"]


def test_the_whoosh_memo_searches_once_and_changes_no_result(engine: SearchEngine) -> None:
    plain = [[h.to_dict() for h in engine.search(q).hits] for q in QUERIES]
    calls: Counter[str] = Counter()
    run = SearchEngine._run

    def counted(self: SearchEngine, q: object, limit: int, flt: object) -> object:
        calls["run"] += 1
        return run(self, q, limit, flt)

    SearchEngine._run = counted  # type: ignore[method-assign]
    try:
        with tune.whoosh_memo():
            first = [[h.to_dict() for h in engine.search(q).hits] for q in QUERIES]
            searched = calls["run"]
            with tune.applied({("rerank", "COORDINATION", None): 0.0}):
                again = [[h.to_dict() for h in engine.search(q).hits] for q in QUERIES]
    finally:
        SearchEngine._run = run  # type: ignore[method-assign]
    assert first == plain
    assert searched >= len(QUERIES) and calls["run"] == searched  # the re-ranking reused the hits
    assert again != plain  # ... and still re-ranked them


def test_pooled_figures_skip_a_language_a_set_lacks() -> None:
    dev = load_questions(split="dev")
    lines = tune.pooled([1.0 if q.lang == "de" else 0.0 for q in dev], dev)
    sets = {q.source for q in dev}
    expected = sum(len({q.lang for q in dev if q.source == s}) for s in sets) + 2
    assert len(lines) == expected
    assert all("MRR@10 1.000" in line for line in lines if " de " in line)
    assert all("MRR@10 0.000" in line for line in lines if " en " in line)


def test_a_descent_over_some_weights_moves_only_those() -> None:
    """``--only``: the named weights are chosen, every other one stays where it started, even
    where moving it would score better."""
    dev = load_questions(split="dev")
    topic, coordination = ("rerank", "TOPIC", None), ("rerank", "COORDINATION", None)
    start = {**tune.current(), topic: 1.0}

    def rr_of(setting: tune.Setting) -> list[float]:
        good = (setting[topic] == 0.3) + (setting[coordination] == 0.0)
        return [good / 2] * len(dev)

    everything = list(range(len(dev)))
    chosen = tune.descent(rr_of, dev, everything, verbose=False, start=start, space=[topic])
    assert chosen == {**start, topic: 0.3}
    # the full search moves it
    assert tune.descent(rr_of, dev, everything, verbose=False)[coordination] == 0.0
    with pytest.raises(SystemExit, match="unknown weight"):
        tune.paired(rr_of, dev, ["rerank.TOPIC", "rerank.NOPE"], seed=9)
