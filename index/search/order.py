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
phrasings' first 40 at all and its reciprocal rank there. It also sees how many of a rule's
siblings came up (a topic whose rules cluster) and whether its parent rule did. The largest
weights after ``final_norm`` are those of the phrasings' list and ``sibs``.

Measured in session 30 (``REGELWERK_SEMANTIC=off``, ``bench/questions.py``, MRR@10 German /
English, hit@3 in brackets):

- dev (fitted on): 0.719 / 0.788 (0.83 / 0.88) -> 0.738 / 0.795 (0.84 / 0.90); German 102
  questions up and 45 down, English 35 and 18. Each dev file scored by the weights fitted on
  the others (``tools/learn_order.py --folds``, the questions that reach this order): German
  0.721 -> 0.730 / 0.730 / 0.729 at L2 0.3 / 3 / 30, English 0.790 -> 0.781 / 0.788 / 0.797.
  The dev questions chose the fused order's weights, so they favour it; L2 3 is shipped.
- the twenty-nine held-out sets, never fitted on: 0.668 / 0.710 (0.77 / 0.81) -> 0.694 /
  0.727 (0.79 / 0.84), 1.73x FTS5's 0.421; German 153 up and 70 down (22 of 29 sets up),
  English 60 and 24.
- Tried, within 0.003 on both: features of the plain list (which needs a deeper plain search),
  the phrasings' raw bm25, the question's best phrasing score, the code's first gap, the
  scores of a candidate's section-mates in each list, its being parent, child or sibling of
  the fused first hit, products of the list features; fitting German on the paired
  translations too (held-out 0.704 against 0.706 over the questions that reach the order).
- Cost (``bench/bench.py --instructions``): a cold German question 1.97x -> 1.98x the typer
  floor, English 1.88x -> 1.89x.

With the sentence vectors (the ``semantic`` extra) the order is not applied: it was fitted on
the lists without them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

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
#: 702 (keyword abilities) or 701 (keyword actions).
LISTS = ("code", "asked", "final")
FEATURES = (
    *(f"{name}_{kind}" for name in LISTS for kind in ("norm", "rr", "in")),
    "sub", "gloss", "par_in", "par_better", "has_kids", "kid_better", "sibs", "len", "k702", "k701",
)
#: The weights ``tools/learn_order.py`` fitted, per language of the question (its printout).
WEIGHTS: dict[str, tuple[float, ...]] = {
    "de": (
        0.7270,  # code_norm
        0.7767,  # code_rr
        -0.5282,  # code_in
        1.1981,  # asked_norm
        0.5325,  # asked_rr
        0.6496,  # asked_in
        4.5772,  # final_norm
        -0.2361,  # final_rr
        0.3557,  # final_in
        -0.1736,  # sub
        -0.3423,  # gloss
        0.5236,  # par_in
        -0.0358,  # par_better
        -0.4754,  # has_kids
        0.5499,  # kid_better
        0.4076,  # sibs
        1.2133,  # len
        0.1574,  # k702
        0.1267,  # k701
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
    ),
}

Fields = dict[str, Any]
Ranked = list[tuple[Fields, float]]
_LETTERED = re.compile(r"^\d{3}\.\d+[a-z]$")
_NUMBERED = re.compile(r"^\d{3}\.\d+$")


def parent(number: str | None) -> str | None:
    """The rule a rule hangs under: 704.5f -> 704.5 -> 704; None for a section or no number."""
    if not number:
        return None
    if _LETTERED.match(number):
        return number[:-1]
    if _NUMBERED.match(number):
        return number.split(".")[0]
    return None


def _places(ranked: Ranked) -> dict[Any, tuple[int, float]]:
    """Each key's first place in `ranked` and its score there, min-max normalised."""
    scores = [s for _, s in ranked]
    lo, hi = (min(scores), max(scores)) if scores else (0.0, 0.0)
    out: dict[Any, tuple[int, float]] = {}
    for i, (f, s) in enumerate(ranked):
        out.setdefault(f.get("key"), (i, (s - lo) / (hi - lo) if hi > lo else 1.0))
    return out


def candidates(code: Ranked, asked: Ranked, final: Ranked) -> list[tuple[Fields, list[float]]]:
    """The union of the three lists' first `HEAD` hits (by ``key``; `final`'s first, then the
    others' in their order), each with its `FEATURES`."""
    lists = {"final": final[:HEAD], "code": code[:HEAD], "asked": asked[:HEAD]}
    places = {name: _places(ranked) for name, ranked in lists.items()}
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
            1.0 if _LETTERED.match(number) else 0.0,
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
        out.append((f, row))
    return out


def score(row: Sequence[float], weights: Sequence[float]) -> float:
    return sum(x * w for x, w in zip(row, weights, strict=True))


def reorder(code: Ranked, asked: Ranked, final: Ranked, weights: Sequence[float]) -> Ranked:
    """`final` with its candidates (`candidates`) ordered by the model's score, best first
    (ties keep `final`'s order, then the other lists'); the hits of `final` after them follow,
    scored below every candidate. All weights 0 but ``final_norm`` keeps `final`'s order."""
    found = candidates(code, asked, final)
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


__all__ = ["ANCHOR", "FEATURES", "HEAD", "LISTS", "WEIGHTS", "candidates", "parent", "reorder", "score"]
