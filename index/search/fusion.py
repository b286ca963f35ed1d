"""A plain BM25 second opinion on a German question's hits (rank fusion; issue 9).

The German question ranking translates, coordinates and re-ranks; fitted on the older dev
rows, it reaches the blind rounds' answers less often. A plain search of the question's
English reading (`semantic.english_text`: each step's lemmas within half of its best, the
words left untranslated after them) over the English titles and rule texts, with whoosh's
default BM25F and no boost, translation weight or re-ranking, fails differently: on the blind
rounds ``dev2.tsv`` to ``dev8.tsv`` it alone ranks German questions almost as well (MRR@10
0.455 against the code's 0.482) though far worse on the older rows (0.328 against 0.715). So
its best `DEPTH` hits are fused into the question's first ``query.RERANK`` (CombSUM: each
list's scores min-max normalised, the plain one's times `WEIGHT`); its hits outside the pool
join it. Only where the sentence vectors (`semantic`) give no second opinion: with them the
fusion moves nothing.

Measured in session 22 by ``bench/fusion.py`` (915 dev questions, the lexical ranking;
MRR@10 / hit@3, code -> fused):

- German, leave one blind round out (each round scored by the setting chosen on the other six;
  w 0.7-1, N 10-40): pooled 0.482 / 0.59 -> 0.543 / 0.63 (99 up, 69 down), every round up:
  dev2 0.523 -> 0.530, dev3 0.499 -> 0.527, dev4 0.617 -> 0.658, dev5 0.435 -> 0.552, dev6
  0.584 -> 0.636, dev7 0.378 -> 0.478, dev8 0.336 -> 0.420. 5-fold over the whole dev split
  (seed 9): w 0.5, N 5 in every fold, all dev 0.556 -> 0.588 (blind 0.482 -> 0.546, the
  older rows 0.715 -> 0.678: 5 up, 34 down). Shipped: that choice. (w 0.7, N 10 gives the
  blind rounds 0.553 but the older rows 0.629.) The ninth blind round (``dev9.tsv``), written
  while this was measured and scored once the choice was made: German 0.512 / 0.55 -> 0.583 /
  0.68 (13 up, 4 down). With it among the blind rounds (``BLIND`` in the bench), leave one
  round out 0.485 -> 0.546 (117 up, 75 down; dev9 0.597 by the setting the other seven chose),
  5-fold all dev 0.552 -> 0.587 (w 0.5, N 5 in every fold again). The keyword relevance set
  0.945 -> 0.939 (its German question cases: four down, one up); ``bench/names.py`` unchanged.
  Warm German dev questions, one process: CPU p50 6.8 -> 8.2 ms, p95 12.3 -> 14.2 ms (the mixed
  warm set of ``bench/bench.py --speed``: p95 7.9 ms wall at load 5.9).
- English questions are not fused: the same plain search moved them within noise (leave one
  round out 0.690 -> 0.685, 5-fold 0.715 -> 0.712). SQLite FTS5 (``bench.baseline``: no
  stemming) as the second ranking lifted them (reciprocal rank fusion, w 0.5, k 5, N 40: leave
  one round out 0.690 -> 0.710, 34 up, 23 down; 5-fold 0.715 -> 0.738; dev9, by the setting
  dev2-dev8 chose: 0.726 -> 0.764) but German less (0.482 -> 0.504; 5-fold 0.556 -> 0.554); it
  needs an FTS5 table built at ingest beside the whoosh index.
- With the sentence vectors on, neither second ranking carried: plain whoosh de 0.575 -> 0.566
  (leave one round out), en 0.780 -> 0.778; FTS5 de 0.575 -> 0.578, en 0.780 -> 0.788 (5-fold
  0.781 -> 0.779).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The plain ranking's weight beside the question ranking's (both min-max normalised) and
#: how many of its hits are fused (see the module docstring; 0 switches the fusion off).
WEIGHT = 0.5
DEPTH = 5
#: The fields the plain search reads (English, each at weight 1).
FIELDS = ("title_en", "text_en")

Ranked = list[tuple[dict[str, Any], float]]


def normalised(scores: Sequence[float], lo: float | None = None, hi: float | None = None) -> list[float]:
    """`scores` min-max normalised to [0, 1] over themselves (or over `lo`..`hi`); all 1 when
    they are equal."""
    if not scores:
        return []
    lo = min(scores) if lo is None else lo
    hi = max(scores) if hi is None else hi
    return [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]


def fuse(ranked: Ranked, plain: Ranked, weight: float, depth: int) -> Ranked:
    """`ranked`'s first `depth` hits and `plain`'s hits fused by CombSUM of min-max normalised
    scores (`plain`'s times `weight`), best first; a hit is the same in both by its ``key``
    (the occurrence's document and position), and one `ranked` holds twice gets the plain
    score once. Ties keep `ranked`'s order, then `plain`'s. The hits after `depth` follow,
    their scores on the head's scale (so below it)."""
    if not weight or not plain or not ranked:
        return ranked
    head, tail = ranked[:depth], ranked[depth:]
    scores = [sc for _, sc in head]
    lo, hi = min(scores), max(scores)
    fused: dict[Any, list[Any]] = {}  # key -> [fields, score, our place, plain place]
    for i, (f, s) in enumerate(zip((f for f, _ in head), normalised(scores), strict=True)):
        key = f.get("key")
        if key in fused:  # the same occurrence twice: kept apart, as the ranking has it
            key = (key, i)
        fused[key] = [f, s, i, len(plain)]
    for j, (f, s) in enumerate(zip((f for f, _ in plain), normalised([sc for _, sc in plain]), strict=True)):
        key = f.get("key")
        if key in fused:
            fused[key][1] += weight * s
            fused[key][3] = j
        else:
            fused[key] = [f, weight * s, len(head), j]
    order = sorted(fused.values(), key=lambda e: (-e[1], e[2], e[3]))
    rest = normalised([sc for _, sc in tail], lo, hi)
    return [(e[0], e[1]) for e in order] + [(f, s) for (f, _), s in zip(tail, rest, strict=True)]


__all__ = ["DEPTH", "FIELDS", "WEIGHT", "fuse", "normalised"]
