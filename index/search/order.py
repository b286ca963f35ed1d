"""A learned last ordering of a question's candidates (issue 9, session 30).

Without the sentence vectors, a question's hits come from three rankings fused by hand-set
weights (``fusion``): the code's own (translation, coordination, re-ranking), a plain BM25
one (`fusion.ENGLISH`, `fusion.WEIGHT`) and the players' phrasings (`fusion.ASKED`). Each
weight was chosen alone on the dev questions. Here a linear model orders the union of the
code's first `HEAD` hits, the phrasings' first `HEAD` hits and the fused list's first `HEAD`
hits by features of those lists and of each rule's place among its neighbours (`FEATURES`).
It was fitted on the dev questions by ``tools/learn_order.py``: softmax cross-entropy over
each question's candidates (a listwise loss, as in ListNet; Cao et al. 2007), with an L2
penalty towards the fused order (weight `ANCHOR` on ``final_norm``, 0 elsewhere). So with
little evidence for a feature the fused order stands.

Why this carries where the hand-set weights stopped: the fused list keeps a phrasing hit
only from its first 20, by one weight. The model also sees whether a hit is among the
phrasings' first 40 at all and its reciprocal rank there; for a German question, where the
same hit stands when its English reading (``semantic.english_text``) searches the English
phrasings (the ``reading`` list). It also sees how many of a rule's siblings came up (a
topic whose rules cluster) and whether its parent rule did. The largest weights after
``final_norm`` are the phrasings' lists' (German: the reading's first), then ``sibs``.
Fusing the reading's list by hand was tried in session 28 and did not help (German dev 0.658
against 0.656); as the model's features it does.

Measured in session 30 (``REGELWERK_SEMANTIC=off``, ``bench/questions.py``, MRR@10 German /
English, hit@3 in brackets):

- dev (fitted on): 0.719 / 0.788 (0.83 / 0.88) -> 0.759 / 0.795 (0.87 / 0.90); German 145
  questions up and 63 down, English 35 and 18. Each dev file scored by the weights fitted on
  the others (``tools/learn_order.py --folds``, the questions that reach this order): German
  0.721 -> 0.755 / 0.750 / 0.747 at L2 0.3 / 3 / 30, English 0.790 -> 0.781 / 0.788 / 0.797.
  The dev questions chose the fused order's weights, so they favour it; L2 3 is shipped.
- the twenty-nine held-out sets, never fitted on: 0.668 / 0.710 (0.77 / 0.81) -> 0.723 /
  0.727 (0.83 / 0.84), 1.73x FTS5's 0.421; German 216 up and 77 down (24 of 29 sets up),
  English 60 and 24. Without the ``reading`` features German reached 0.694 (0.79).
- Tried, within 0.003 on both (without ``reading``): features of the plain list (which needs
  a deeper plain search), the phrasings' raw bm25, the question's best phrasing score, the
  code's first gap, the scores of a candidate's section-mates in each list, its being parent,
  child or sibling of the fused first hit, products of the list features; fitting German on
  the paired translations too (held-out 0.704 against 0.706 over the questions that reach
  the order).
- Cost (``bench/bench.py --instructions``): see the README.

With the sentence vectors (the ``semantic`` extra) the same features are read off the lists
the extra makes (the code's ranking before the vectors re-order it, the fused list after), by
weights fitted on those (``tools/learn_order.py --vectors``, keys ``de+vectors`` and
``en+vectors``): dev fitted 0.717 / 0.796 -> 0.769 / 0.805, leave one file out at L2 3 0.760
/ 0.797; the twenty-nine held-out sets (over the questions that reach the order) 0.698 /
0.736 -> 0.749 / 0.747.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

from regelwerk.index.search.fusion import normalised
from regelwerk.ingest.model.numbers import lineage

#: How many hits of each list are candidates.
HEAD = 40
#: The fused order's weight the penalty pulls towards (the others towards 0).
ANCHOR = 5.0
#: Each candidate's features, in the order of `WEIGHTS`' rows. Per list (``code``: the code's
#: ranking before the second opinions; ``asked``: the phrasings' search; ``final``: the fused
#: list the code shipped before this model): its score min-max normalised over the list's
#: first `HEAD` (0 when absent), 1 / (2 + its place) and whether it is there at all. Then:
#: a lettered subrule; a glossary entry; its parent rule among the candidates; that parent
#: placed higher in the fused list; a subrule of it among the candidates; one placed higher;
#: log(1 + its siblings among the candidates); the log of its text's length / 7; a rule of
#: 702 (keyword abilities) or 701 (keyword actions). Last, the three list features of the
#: English phrasings' search with a German question's English reading (``reading``; none for
#: an English question), a list that adds no candidates.
LISTS = ("code", "asked", "final")
KINDS = ("norm", "rr", "in")
FEATURES = (
    *(f"{name}_{kind}" for name in LISTS for kind in KINDS),
    "sub", "gloss", "par_in", "par_better", "has_kids", "kid_better", "sibs", "len", "k702", "k701",
    *(f"reading_{kind}" for kind in KINDS),
)
#: The suffix of `WEIGHTS`' keys for the lists with the sentence vectors (the ``semantic``
#: extra): the code's ranking before them, the fused list after them.
VECTORS = "+vectors"
#: The weights ``tools/learn_order.py`` fitted, per language of the question, with and
#: without the sentence vectors (a key without weights leaves the fused list as it is).
WEIGHTS: dict[str, tuple[float, ...]] = {
    "de": (
        0.5812,  # code_norm
        0.6631,  # code_rr
        -0.6697,  # code_in
        0.7651,  # asked_norm
        0.2756,  # asked_rr
        0.4645,  # asked_in
        3.9027,  # final_norm
        -0.3429,  # final_rr
        0.1775,  # final_in
        -0.2167,  # sub
        -0.2345,  # gloss
        0.5128,  # par_in
        -0.0686,  # par_better
        -0.4244,  # has_kids
        0.5134,  # kid_better
        0.3847,  # sibs
        1.4827,  # len
        0.1952,  # k702
        0.2941,  # k701
        1.9140,  # reading_norm
        0.9839,  # reading_rr
        0.3147,  # reading_in
    ),
    "en": (
        0.8307,  # code_norm
        0.4228,  # code_rr
        -0.5040,  # code_in
        1.1206,  # asked_norm
        0.4237,  # asked_rr
        0.6411,  # asked_in
        5.2143,  # final_norm
        -0.1297,  # final_rr
        0.7274,  # final_in
        0.1714,  # sub
        -0.0889,  # gloss
        0.2228,  # par_in
        0.1339,  # par_better
        0.1621,  # has_kids
        -0.3648,  # kid_better
        0.4471,  # sibs
        0.2719,  # len
        -0.5535,  # k702
        -0.4909,  # k701
        0.0000,  # reading_norm
        0.0000,  # reading_rr
        0.0000,  # reading_in
    ),
    "de+vectors": (
        1.1104,  # code_norm
        0.9451,  # code_rr
        -1.8010,  # code_in
        0.4423,  # asked_norm
        0.1437,  # asked_rr
        0.4323,  # asked_in
        4.6279,  # final_norm
        -0.5543,  # final_rr
        0.5484,  # final_in
        -0.1924,  # sub
        -0.1472,  # gloss
        0.4022,  # par_in
        0.0249,  # par_better
        -0.3908,  # has_kids
        0.1453,  # kid_better
        0.3236,  # sibs
        1.5791,  # len
        0.2658,  # k702
        0.3260,  # k701
        1.8453,  # reading_norm
        0.9735,  # reading_rr
        0.2063,  # reading_in
    ),
    "en+vectors": (
        0.8484,  # code_norm
        1.0170,  # code_rr
        -1.1630,  # code_in
        0.5431,  # asked_norm
        0.1306,  # asked_rr
        0.7227,  # asked_in
        5.8184,  # final_norm
        0.1564,  # final_rr
        0.8761,  # final_in
        0.1836,  # sub
        -0.0907,  # gloss
        0.0805,  # par_in
        -0.0454,  # par_better
        0.1369,  # has_kids
        -0.2420,  # kid_better
        0.3575,  # sibs
        0.4811,  # len
        -0.5209,  # k702
        -0.5270,  # k701
        0.0000,  # reading_norm
        0.0000,  # reading_rr
        0.0000,  # reading_in
    ),
}

Fields = dict[str, Any]
Ranked = list[tuple[Fields, float]]


def parent(number: str | None) -> str | None:
    """The rule a rule hangs under: 704.5f -> 704.5 -> 704; None for a section or no number
    (`numbers.lineage`, cached)."""
    found = lineage(number) if number else ()
    return found[1] if len(found) > 1 else None


def _places(ranked: Ranked) -> dict[Any, tuple[int, float]]:
    """Each key's first place in `ranked` and its score there (`fusion.normalised`)."""
    out: dict[Any, tuple[int, float]] = {}
    for i, ((f, _), s) in enumerate(zip(ranked, normalised([s for _, s in ranked]), strict=True)):
        out.setdefault(f.get("key"), (i, s))
    return out


def candidates(
    code: Ranked, asked: Ranked, final: Ranked, reading: Sequence[tuple[Fields, float]] = ()
) -> list[tuple[Fields, list[float]]]:
    """The union of the three lists' first `HEAD` hits (by ``key``; `final`'s first, then the
    others' in their order), each with its `FEATURES`."""
    lists = {"final": final[:HEAD], "code": code[:HEAD], "asked": asked[:HEAD]}
    places = {name: _places(ranked) for name, ranked in lists.items()}
    read = _places(list(reading[:HEAD]))
    fields: dict[Any, Fields] = {}
    for ranked in lists.values():
        for f, _ in ranked:
            fields.setdefault(f.get("key"), f)
    numbers: dict[str, Any] = {}
    for key, f in fields.items():
        if f.get("current"):
            numbers.setdefault(str(f["current"]), key)
    kids: dict[str, list[str]] = {}
    for number in numbers:
        above = parent(number)
        if above:
            kids.setdefault(above, []).append(number)
    final_place = places["final"]

    def placed(key: Any) -> int:
        return final_place.get(key, (HEAD, 0.0))[0]

    out = []
    for key, f in fields.items():
        row: list[float] = []
        for name in LISTS:
            where = places[name].get(key)
            row += [where[1], 1 / (2 + where[0]), 1.0] if where else [0.0, 0.0, 0.0]
        number = str(f.get("current") or "")
        above = parent(number)
        mine = kids.get(number, []) if number else []
        siblings = len(kids.get(above, [])) - 1 if above else 0
        row += [
            1.0 if len(lineage(number)) == 3 else 0.0,
            0.0 if number else 1.0,
            1.0 if above in numbers else 0.0,
            1.0 if above in numbers and placed(numbers[above]) < placed(key) else 0.0,
            1.0 if mine else 0.0,
            1.0 if any(placed(numbers[k]) < placed(key) for k in mine) else 0.0,
            math.log1p(siblings),
            math.log1p(len(str(f.get("text") or ""))) / 7,
            1.0 if number.startswith("702.") else 0.0,
            1.0 if number.startswith("701.") else 0.0,
        ]
        where = read.get(key)
        row += [where[1], 1 / (2 + where[0]), 1.0] if where else [0.0, 0.0, 0.0]
        out.append((f, row))
    return out


def score(row: Sequence[float], weights: Sequence[float]) -> float:
    """The model's score of a candidate's `row` (a row and weights of different lengths are
    a model fitted for other features: an error, not a short sum)."""
    if len(row) != len(weights):
        raise ValueError(f"{len(row)} features but {len(weights)} weights")
    return float(sum(map(operator.mul, row, weights)))


def reorder(
    code: Ranked, asked: Ranked, final: Ranked, reading: Ranked, weights: Sequence[float]
) -> Ranked:
    """`final` with its candidates (`candidates`; `reading` adds features only) ordered by the
    model's score, best first (ties keep `final`'s order, then the other lists'); the hits of
    `final` after them follow, scored below every candidate. All weights 0 but ``final_norm``
    keeps `final`'s order."""
    found = candidates(code, asked, final, reading)
    if not found or not any(weights):
        return final
    scored = sorted(
        ((score(row, weights), i, f) for i, (f, row) in enumerate(found)), key=lambda t: (-t[0], t[1])
    )
    head = [(f, s) for s, _, f in scored]
    seen = {f.get("key") for f, _ in head}
    low = head[-1][1]
    tail = [(f, low - 1 - m) for m, (f, _) in enumerate(x for x in final if x[0].get("key") not in seen)]
    return head + tail


__all__ = [
    "ANCHOR", "FEATURES", "HEAD", "LISTS", "VECTORS", "WEIGHTS", "candidates", "parent", "reorder", "score",
]
