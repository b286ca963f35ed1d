"""Plain BM25 second opinions on a question's hits (rank fusion; issue 9).

The question ranking translates, coordinates and re-ranks; fitted on the older dev rows, it
reaches the blind rounds' answers less often. A plain BM25 ranking fails differently, so a
question's first ``query.RERANK`` hits are fused with one, its hits outside the pool joining
it, where the sentence vectors (`semantic`) give no second opinion (with them the fusion
moves nothing):

- a German question with a plain whoosh search of its English reading (`semantic.english_text`:
  each step's lemmas within half of its best, the words left untranslated after them) over
  the English titles and rule texts, whoosh's default BM25F, no boost, translation weight or
  re-ranking; on the blind rounds it alone ranks German questions almost as well as the code
  (MRR@10 0.455 against 0.482, dev2-dev8), far worse on the older rows (0.328 against 0.715).
  Its best `DEPTH` hits are fused by CombSUM (each list's scores min-max normalised, the plain
  one's times `WEIGHT`: `fuse`);
- an English question with SQLite FTS5's bm25 ranking of its words as typed (no stemming, stop
  words kept) over the default scope's English titles and rule texts (``members.PLAIN``, built
  with the index), by reciprocal rank fusion (Cormack, Clarke and Buettcher 2009; `ENGLISH`:
  `reciprocal`).

Measured in session 22 by ``bench/fusion.py`` (915 dev questions, the lexical ranking;
MRR@10 / hit@3, code -> fused):

- German, plain whoosh, leave one blind round out (each round scored by the setting chosen on the other six;
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
- English, FTS5 (``bench.baseline``'s table; reciprocal rank fusion): leave one blind round out
  over dev2-dev8 0.690 / 0.81 -> 0.710 / 0.83 (34 up, 23 down); 5-fold w 0.5, k 5, N 40 in
  every fold, all dev 0.715 -> 0.738 (the older rows 0.773 -> 0.769). dev9, by the setting
  dev2-dev8 chose (w 0.5, k 5, N 40: shipped): 0.726 -> 0.764. With dev9, leave one round out
  0.694 -> 0.716 (38 up, 24 down), that setting fixed every blind round up: dev2 0.701 ->
  0.738, dev3 0.600 -> 0.675, dev4 0.649 -> 0.670, dev5 0.634 -> 0.652, dev6 0.826 -> 0.828,
  dev7 0.841 -> 0.872, dev8 0.580 -> 0.632 (blind 0.694 -> 0.729, 39 up, 15 down). The code
  (its own table, ``bench/questions.py``): all dev 0.716 -> 0.740, the same rounds. The keyword
  relevance set, both fusions: 0.945 -> 0.924 (its English questions: five down, one up). Cost
  (``bench/bench.py --speed``, load 2, off -> on): warm mixed p95 2.5 -> 4.5 ms, a cold English
  question 1.78x the floor in both runs (+24 ms), ingest about +0.1 s (the table and its common
  terms); FTS5 scores every row a question's words match, about 3 ms a question warm. FTS5
  knows no players' words ("when are SBAs checked": 704.3 second -> fourth); searching it with
  the CR's words for them too (`concepts`) moved 3 English dev questions up and 3 down (dev3,
  dev6 down, dev4 up), all dev 0.740 either way: left out.
- English with the plain whoosh search instead: within noise (leave one round out 0.690 ->
  0.685, 5-fold 0.715 -> 0.712); German with FTS5 instead: less (0.482 -> 0.504; 5-fold 0.556
  -> 0.554). Leaving English stop words out of the FTS5 search (2 ms a question cheaper) lost
  most of the gain: all dev 0.724.
- Fusing only where the code's ranking is unsure (session 23, on ``bench/fusion.py``'s
  collected lists; the shipped settings applied where a gate opens, the code's ranking kept
  elsewhere): gated by its first two scores' gap ((s1 - s2) / s1, or the first and third's,
  below 0.02-0.7) or by agreement (the plain list's first hit among the code's first one or
  three). German: leave one round out 0.551 -> 0.550, 5-fold all dev 0.587 -> 0.580; English
  0.729 -> 0.727 and 0.740 -> 0.737. The older rows' loss is not where the code is sure: a
  gap below 0.02 keeps them at 0.704 but the blind rounds fall to 0.493. Did not carry.
- Not fusing a German question that names a keyword (a keyword ability's or action's name
  from the term tables in its words; session 23): on the older rows the fusion lowers those
  (0.757 -> 0.650, the rest 0.704 -> 0.685), but on the blind rounds it lifts them as much as
  the rest (0.530 -> 0.601; 0.463 -> 0.525), so the gate costs the blind rounds 0.551 -> 0.527
  (seven of eight down). The older rows' loss is theirs, not the keywords'.
- A German question's FTS5 ranking of its English reading as a third list, after the shipped
  fusion (RRF w 0.1-1, k 5-60, N 5-40, or CombSUM w 0.1-0.5, N 5-20; session 23): leave one
  round out 0.551 -> 0.544 (five rounds down), 5-fold 0.587 -> 0.587. Did not carry.
- Other readings for the plain search (session 23): the step's lemmas within a quarter of its
  best, or its best alone, instead of half: alone 0.462 -> 0.466, fused within noise (leave one
  round out 0.548 -> 0.553 / 0.554, the shipped w 0.5, N 5 0.551 -> 0.551 / 0.549); each lemma
  boosted by its weight: alone 0.379, fused 0.529-0.534. The reading stays as it is.
- Document translation (McCarley 1999; session 23): each default-scope English unit rendered
  as a bag of German lemmas, every English word (simplemma's lemma, the title twice) giving the
  German lemmas the lexicon translates into it with their p (p >= 0.05-0.4), and a German
  question's lemmas (function words out) ranked over the bags by BM25 (k1 1.2, b 0.75). Alone
  it ranks the blind rounds' German questions 0.356 (the plain whoosh search of the English
  reading 0.455). As a third list after the shipped fusion (CombSUM w 0.1-1, N 5-40, or RRF):
  leave one round out 0.551 -> 0.558-0.563 (dev5 0.535 -> 0.512, dev6 level), 5-fold all dev
  0.587 -> 0.590 with the older rows 0.675 -> 0.662-0.668; instead of the plain whoosh list
  0.485 -> 0.528 (less than it). Too little for a table more at ingest: did not carry.
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
#: An English question's: reciprocal rank fusion with FTS5's bm25 ranking of its words
#: (``members.PLAIN``), FTS5's weight, RRF's k and how many of FTS5's hits are fused.
ENGLISH = {"weight": 0.5, "k": 5.0, "depth": 40}
#: Every question's: CombSUM (`fuse`) with a plain BM25 search of its own words over how
#: players ask for each rule in its language (``asked``), that ranking's weight and depth.
#: Session 28, dev MRR@10 German / English from 0.602 / 0.718. The first table (two German
#: phrasings and one English for the rules outside 701/702): weight 0.5, depth 10 -> 0.656 /
#: 0.746 (219 up, 133 down); weight 0.4 0.649 / 0.751, 0.6 0.661 / 0.742; depth 5 0.654 /
#: 0.749, 20 0.658 / 0.745; on a prototype (the table in an index of its own) 0.3 0.645 /
#: 0.751, 0.8 0.646 / 0.725, by RRF (k 5, depth 20) 0.630 / 0.729 at weight 0.5 and 0.585 /
#: 0.669 at 1, fused before the other opinion 0.649 / 0.748. A German question also searching
#: ``ask_en`` with its English reading (at 0.2 / 0.5 of its German words): 0.658 / 0.657,
#: left out. With the keyword rules (701/702) too: 0.684 / 0.758 (0.689 / 0.759 at 0.6); with
#: a second round for the rest (the shipped table), at 0.5 0.684 / 0.752, 0.7 0.699 / 0.757,
#: 0.8 0.702 / 0.759 (shipped; 327 up, 171 down against no table), 0.9 0.703 / 0.758, 0.7
#: and depth 20 0.701 / 0.758; English alone at 0.3 / 0.5: 0.755 / 0.752. Every German dev
#: set goes up (dev10 0.570 -> 0.687, dev8 0.412 -> 0.536) but german.tsv (0.620, level); the
#: older English sets go down (questions.tsv 0.815 -> 0.770, players.tsv 0.773 -> 0.732),
#: the blind rounds up (dev7 0.872 -> 0.957, dev10 0.477 -> 0.512). These were measured with
#: the phrasings as whoosh fields (BM25F); written to FTS5 tables instead (``members.ASKED``:
#: the ingest's extra instructions 7.0 G -> 4.0 G), dev scores 0.703 / 0.753 at 0.8.
#: Session 29, a third round for every rule (two German, two English: 28,236 rows), at 0.8 and
#: depth 10 0.711 / 0.778 (1.0 0.710 / 0.780, 1.2 0.707 / 0.770); depth 20 0.721 / 0.788
#: (shipped; 30 0.720, 50 0.720 German), at 0.6 0.707 / 0.791, at 1.0 0.720 / 0.789. Searching
#: one row per phrasing and scoring a rule by its best (FTS5 bm25 over short rows): German
#: 0.697, the best two (the second at half) 0.708, English 0.782 at depth 10 (0.789 at 20), on
#: the held-out sets within noise (English 0.723 against 0.719): the one row per rule stays.
#: Leaving the common terms out (``members.ASKED_COMMON``: in more than 30 % of the rows) 0.719
#: / 0.788 (20 % 0.703 / 0.747 with the old table, 10 % 0.699 / 0.745).
ASKED = {"weight": 0.8, "depth": 20}
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


def reciprocal(ranked: Ranked, plain: Ranked, weight: float, k: float, depth: int) -> Ranked:
    """`ranked`'s first `depth` hits and `plain`'s fused by reciprocal rank fusion: a hit's
    score is 1 / (k + its place in `ranked`) + `weight` / (k + its place in `plain`), places
    from 1, best first; hits are the same by ``key`` as in `fuse`, ties keep `ranked`'s order,
    then `plain`'s. The hits after `depth` follow, scored below every fused one."""
    if not weight or not plain or not ranked:
        return ranked
    head, tail = ranked[:depth], ranked[depth:]
    fused: dict[Any, list[Any]] = {}  # key -> [fields, score, our place, plain place]
    for i, (f, _) in enumerate(head):
        key = f.get("key")
        if key in fused:
            key = (key, i)
        fused[key] = [f, 1 / (k + i + 1), i, len(plain)]
    for j, (f, _) in enumerate(plain):
        key = f.get("key")
        if key in fused:
            fused[key][1] += weight / (k + j + 1)
            fused[key][3] = j
        else:
            fused[key] = [f, weight / (k + j + 1), len(head), j]
    order = sorted(fused.values(), key=lambda e: (-e[1], e[2], e[3]))
    low = order[-1][1]
    return [(e[0], e[1]) for e in order] + [(f, low * (k + 1) / (k + 2 + m)) for m, (f, _) in enumerate(tail)]


__all__ = ["ASKED", "DEPTH", "ENGLISH", "FIELDS", "WEIGHT", "fuse", "normalised", "reciprocal"]
