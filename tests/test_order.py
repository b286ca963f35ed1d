"""The learned order of a question's candidates (`regelwerk.index.search.order`)."""

from __future__ import annotations

from typing import Any

import pytest

from regelwerk.index.search import order


def hits(*pairs: tuple[str, float]) -> list[tuple[dict[str, Any], float]]:
    """Hits keyed and numbered by `pairs`' names ("g:" names a glossary entry)."""
    return [
        ({"key": n, "current": None if n.startswith("g:") else n, "text": "x" * 20}, s) for n, s in pairs
    ]


def keys(ranked: list[tuple[dict[str, Any], float]]) -> list[str]:
    return [f["key"] for f, _ in ranked]


def weights(**named: float) -> tuple[float, ...]:
    """Weights 0 but `named` (and the fused order's anchor)."""
    w = dict.fromkeys(order.FEATURES, 0.0)
    w["final_norm"] = order.ANCHOR
    w.update(named)
    return tuple(w[name] for name in order.FEATURES)


def features(found: list[tuple[dict[str, Any], list[float]]], key: str) -> dict[str, float]:
    row = next(row for f, row in found if f["key"] == key)
    return dict(zip(order.FEATURES, row, strict=True))


@pytest.mark.parametrize(
    ("number", "expected"),
    [("704.5f", "704.5"), ("704.5", "704"), ("704", None), (None, None), ("", None), ("702.19", "702")],
)
def test_parent(number: str | None, expected: str | None) -> None:
    assert order.parent(number) == expected


def test_every_language_has_one_weight_per_feature() -> None:
    assert set(order.WEIGHTS) == {lang + mode for lang in ("de", "en") for mode in ("", order.VECTORS)}
    for w in order.WEIGHTS.values():
        assert len(w) == len(order.FEATURES)


def test_candidates_are_the_union_of_the_lists_final_first() -> None:
    code, asked, final = hits(("601.2", 3.0)), hits(("305.1", 9.0), ("601.2", 1.0)), hits(("704.5f", 2.0))
    found = order.candidates(code, asked, final)
    assert keys([(f, 0.0) for f, _ in found]) == ["704.5f", "601.2", "305.1"]


def test_features_of_a_candidate() -> None:
    code = hits(("704.5f", 9.0), ("704.5", 5.0), ("704.5g", 1.0))
    asked = hits(("704.5g", 4.0), ("g:Dies", 2.0))
    final = hits(("704.5", 8.0), ("704.5f", 6.0), ("704.5g", 3.0))
    found = order.candidates(code, asked, final)
    f = features(found, "704.5f")
    assert (f["code_norm"], f["code_rr"], f["code_in"]) == (1.0, 0.5, 1.0)
    assert (f["asked_norm"], f["asked_rr"], f["asked_in"]) == (0.0, 0.0, 0.0)
    assert f["final_norm"] == pytest.approx(0.6) and f["final_rr"] == pytest.approx(1 / 3)
    assert (f["sub"], f["gloss"], f["par_in"], f["par_better"]) == (1.0, 0.0, 1.0, 1.0)
    assert (f["has_kids"], f["kid_better"], f["k702"]) == (0.0, 0.0, 0.0)
    assert f["sibs"] == pytest.approx(0.6931, abs=1e-4)  # one sibling: log(2)
    parent = features(found, "704.5")
    assert (parent["sub"], parent["par_in"], parent["has_kids"], parent["kid_better"]) == (0.0, 0.0, 1.0, 0.0)
    assert features(found, "g:Dies")["gloss"] == 1.0
    assert features(found, "704.5g")["asked_rr"] == 0.5
    assert features(found, "704.5")["reading_in"] == 0.0


def test_the_english_reading_s_list_adds_features_not_candidates() -> None:
    final = hits(("601.2", 3.0), ("305.1", 1.0))
    found = order.candidates([], [], final, hits(("305.1", 2.0), ("702.9", 1.0)))
    assert [f["key"] for f, _ in found] == ["601.2", "305.1"]
    f = features(found, "305.1")
    assert (f["reading_norm"], f["reading_rr"], f["reading_in"]) == (1.0, 0.5, 1.0)
    ranked = order.reorder([], [], final, hits(("305.1", 2.0)), weights(reading_in=6.0))
    assert [k for k in keys(ranked)] == ["305.1", "601.2"]


def test_zero_weights_and_the_anchor_alone_keep_the_fused_order() -> None:
    code, asked = hits(("a", 1.0)), hits(("702.2", 5.0), ("b", 1.0))
    final = hits(*((f"601.{i}", 10.0 - i) for i in range(1, 6)))
    assert order.reorder(code, asked, final, [], (0.0,) * len(order.FEATURES)) == final
    assert keys(order.reorder(code, asked, final, [], weights()))[:5] == keys(final)


def test_a_weighted_feature_lifts_its_candidate_and_the_tail_follows() -> None:
    """The phrasings' first hit outside the fused list's head rises with the phrasings' weight;
    the fused hits after `HEAD` follow every candidate, in their order."""
    final = hits(*((f"601.{i}", 100.0 - i) for i in range(1, order.HEAD + 6)))
    asked = hits(("305.1", 5.0))
    ranked = order.reorder([], asked, final, [], weights(asked_in=6.0))
    assert keys(ranked)[0] == "305.1"
    assert keys(ranked)[-5:] == keys(final)[-5:]
    assert len(ranked) == len(final) + 1
    assert keys(order.reorder([], asked, final, [], weights(asked_in=2.0)))[0] == "601.1"


def test_the_fit_weighs_a_feature_that_marks_the_answers() -> None:
    """``tools/learn_order.py``: on made-up questions whose answer is the fused list's second
    candidate and the only one the phrasings found, the fit raises ``asked_in`` until the
    answers come first; with no such evidence the fused order stands."""
    np = pytest.importorskip("numpy")
    from tools import learn_order

    n = len(order.FEATURES)
    at = {name: i for i, name in enumerate(order.FEATURES)}

    def listing(marked: bool) -> tuple[Any, Any]:
        x = np.zeros((3, n))
        x[:, at["final_norm"]] = (1.0, 0.9, 0.0)
        if marked:
            x[1, at["asked_in"]] = 1.0
        return x, np.array([0.0, 1.0, 0.0])

    anchor = learn_order.anchor()
    assert learn_order.mrr([listing(True)], anchor) == 0.5
    w = learn_order.fit([listing(True) for _ in range(20)], 3.0)
    assert w[at["asked_in"]] > 0.5 and learn_order.mrr([listing(True)], w) == 1.0
    unmarked = learn_order.fit([listing(False) for _ in range(20)], 3.0)
    assert unmarked[at["asked_in"]] == 0.0
