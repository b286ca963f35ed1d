"""The joint weighing bench's machinery (``bench/learn.py``): weights 0 keep the code's order,
and the search finds a weight that puts the answers first, on made-up hit lists."""

from __future__ import annotations

from bench import learn


def _listing(lang: str, answer_at: int, marked: int | None) -> learn.Listing:
    """Five hits scored 5, 4.5 .. 3, the answer at `answer_at`, the feature 'lettered' on `marked`."""
    n = len(learn.FEATURES)
    rows = []
    for i in range(5):
        x = [0.0] * n
        if i == marked:
            x[learn.FEATURES.index("lettered")] = 1.0
        rows.append((5.0 - i / 2, tuple(x), i == answer_at))
    return learn.Listing(lang, f"q{answer_at}", tuple(rows))


def test_zero_weights_keep_the_code_s_order() -> None:
    zero = tuple(0.0 for _ in learn.FEATURES)
    assert learn.reciprocal_rank(_listing("de", 0, None).rows, zero) == 1.0
    assert learn.reciprocal_rank(_listing("de", 2, None).rows, zero) == 1 / 3
    assert learn.reciprocal_rank(_listing("de", 9, None).rows, zero) == 0.0


def test_the_search_weighs_a_feature_that_marks_the_answers() -> None:
    """The answer sits third and carries the feature: a weight of more than 1 (the score gap)
    lifts it first; a feature marking only wrong hits is not raised."""
    data = [_listing("de", 2, 2), _listing("en", 2, 2), _listing("en", 0, None)]
    j = learn.FEATURES.index("lettered")
    weights = learn.fit(data, [0, 1, 2], [j])
    assert weights[j] > 1.0
    assert learn.objective(data, [0, 1, 2], weights) == 1.0
    assert learn.objective(data, [0, 1, 2], tuple(0.0 for _ in learn.FEATURES)) < 1.0
    wrong = [_listing("de", 0, 3), _listing("en", 1, 4)]
    assert learn.fit(wrong, [0, 1], [j])[j] <= 0.0


def test_a_blind_round_is_scored_by_weights_chosen_without_it() -> None:
    """The feature marks the answer in the older set only: chosen without the blind round, its
    weight comes from the older set; the round's own listings never choose it."""
    older = [learn.Listing("de", "q1", _listing("de", 2, 2).rows, "questions.tsv")]
    blind = [learn.Listing("de", "q2", _listing("de", 0, 3).rows, "dev2.tsv")]
    j = learn.FEATURES.index("lettered")
    weights, held = learn.blind_round(older + blind, [j], "dev2.tsv")
    assert weights[j] > 1.0
    assert held[0] == 1.0 and held[1] < 1.0  # what carried from the older set costs the round
    weights, held = learn.blind_round(older + blind, [j], "questions.tsv")
    assert weights[j] <= 0.0 and held[1] == 1.0
