"""General rules questions (issue 9): every expected answer holds in the CR, and search
answers the dev questions at least as well as it did when this was written.

The dev set (``questions.tsv``, see ``bench/questions.py``) was written before any tuning; a
wrong expectation would skew every score measured on it, so each one is checked here against
the 2026-04-17 CR: every expected number exists and the first one's text mentions the check
word. The floors sit a little under the scores reached on the dev split, now with the players'
questions (``players.tsv``), the German ones (``german.tsv``) and, since session 16, the second
round's (``dev2.tsv``, written blind) beside ``questions.tsv``'s dev rows
(German MRR@10 0.645, hit@3 0.72 with ``german.tsv`` after its round's German-side changes;
English 0.66 / 0.70, FTS5 0.46, so 1.4x; after the sixth round's topic and German-section
changes German 0.676 / 0.75, English 0.706 / 0.76, 1.54x FTS5; after the seventh round's negated
words and chapter titles German 0.694 / 0.77, English 0.728 / 0.80, 1.59x FTS5; after the
glossary feedback of session 13 German 0.705 / 0.77, English 0.735 / 0.83, 1.61x FTS5; with
the titled rules English 0.749 / 0.85, 1.64x FTS5; with ``dev2.tsv``'s 90 blind questions, which
score well under the older sets (German 0.451 / 0.62, English 0.642 / 0.83, near the held-out
sets), the dev split holds German 0.648 / 0.73, English 0.736 / 0.86, 1.62x FTS5; with the
weights retuned on it (TOPIC, INTENT, feedback.GLOSS) German 0.656 / 0.74, English 0.748 /
0.85, 1.64x FTS5; with ``dev3.tsv``'s 90 more, written blind the same way after those changes
were chosen (German 0.499 / 0.55, English 0.593 / 0.83), German 0.632 / 0.71, English 0.717 /
0.85, 1.53x FTS5; with ``dev4.tsv``'s 90 more, written blind in session 17 (German 0.600 /
0.68, English 0.616 / 0.77), German 0.627 / 0.71, English 0.701 / 0.83, 1.46x FTS5; with
``dev5.tsv``'s 90 more, written blind in session 18 (German 0.423 / 0.53, English 0.634 / 0.73),
German 0.604 / 0.69, English 0.696 / 0.82, 1.44x FTS5; with ``dev6.tsv``'s 90 more, written blind
in session 19 (German 0.559 / 0.67, English 0.826 / 0.83), German 0.599 / 0.69, English 0.712 /
0.82, 1.40x FTS5; with ``dev7.tsv``'s 90 more, written blind in session 20 (German 0.377 / 0.47,
English 0.774 / 0.83), German 0.580 / 0.67, English 0.719 / 0.82, 1.39x FTS5; with ``dev8.tsv``'s
90 more, written blind in session 21 (German 0.336 / 0.40, English 0.513 / 0.63, under FTS5's
0.536), German 0.556 / 0.65, English 0.699 / 0.80, 1.35x FTS5; with ``dev9.tsv``'s 90 more,
written blind in session 22 (German 0.512 / 0.55, English 0.726 / 0.87, under FTS5's 0.762),
German 0.552 / 0.64, English 0.716 / 0.83, 1.32x FTS5; with ``dev10.tsv``'s 100 realistic
ones, written in session 26 (German 0.532 / 0.68, English 0.458 / 0.55, over FTS5's 0.268),
German 0.596 / 0.68, English 0.712 / 0.81, 1.39x FTS5); the held-out
split is only reported
(``python bench/questions.py --split held``), never tested, so nothing is tuned on it; so is
the fresh held-out sets (``fresh.tsv``, ``--split fresh``; ``fresh2.tsv``, ``--split fresh2``;
``fresh3.tsv``, ``--split fresh3``; ``fresh4.tsv``, ``--split fresh4``; ``fresh5.tsv``,
``--split fresh5``; ``fresh6.tsv``, ``--split fresh6``; ``fresh7.tsv``, ``--split fresh7``;
``fresh8.tsv``, ``--split fresh8``; ``fresh9.tsv``, ``--split fresh9``; ``fresh10.tsv``,
``--split fresh10``; ``fresh11.tsv``, ``--split fresh11``; ``fresh12.tsv``, ``--split fresh12``;
``fresh13.tsv``, ``--split fresh13``;
``fresh15.tsv``, ``--split fresh15``; ``fresh16.tsv``, ``--split fresh16``; ``fresh17.tsv``,
``--split fresh17``; ``fresh19.tsv``, ``--split fresh19``; and the realistic ``real17.tsv``,
``--split real17``, ``real19.tsv``, ``--split real19``; ``fresh20.tsv`` and ``real20.tsv``;
``fresh21.tsv``, ``real21.tsv``, ``fresh22.tsv``, ``real22.tsv``, ``fresh23.tsv``, ``real23.tsv``
``real24.tsv``, ``real25.tsv`` and ``fresh24.tsv``),
whose answers are checked here too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from bench.baseline import Fts5Baseline, score
from bench.questions import Question, expectation_problem, groups, load_questions
from regelwerk.index.search.query import SearchEngine
from regelwerk.index.store.corpus import Corpus
from tests.conftest import NEEDS_SHARED
from tests.search_home import NEWEST, library_with, semantic_library_with

ALL = load_questions(split=None)
DEV = [q for q in ALL if q.split == "dev"]
#: The fresh held-out set: its answers are checked here, its scores only reported.
FRESH = load_questions(split="fresh")
#: The third held-out set (the fifth round's): checked like the fresh one, scores only reported.
FRESH2 = load_questions(split="fresh2")
#: The fourth held-out set (session 12's, written by the lead before that session's changes).
FRESH3 = load_questions(split="fresh3")
#: The fifth held-out set (session 13's, written by the lead before that session's changes).
FRESH4 = load_questions(split="fresh4")
#: The sixth held-out set (session 14's, written by a helper before that session's changes).
FRESH5 = load_questions(split="fresh5")
#: The seventh held-out set (session 15's, written by a helper before that session's changes).
FRESH6 = load_questions(split="fresh6")
#: The eighth held-out set (session 16's, written by a helper before that session's changes).
FRESH7 = load_questions(split="fresh7")
#: The ninth held-out set (session 17's, written by a helper before that session's changes).
FRESH8 = load_questions(split="fresh8")
#: The tenth held-out set (session 18's, written by a helper before that session's changes).
FRESH9 = load_questions(split="fresh9")
#: The eleventh held-out set (session 19's, written by a helper before that session's changes).
FRESH10 = load_questions(split="fresh10")
#: The twelfth held-out set (session 20's, written by a helper before that session's changes).
FRESH11 = load_questions(split="fresh11")
#: The thirteenth held-out set (session 21's, written by a helper before that session's changes).
FRESH12 = load_questions(split="fresh12")
#: The fourteenth held-out set (session 22's, written by a helper before that session's changes).
FRESH13 = load_questions(split="fresh13")
#: The fifteenth held-out set (session 24's, written by a helper before that session's changes).
FRESH15 = load_questions(split="fresh15")
#: The sixteenth held-out set (session 24's second, written by a helper once fresh15 was scored).
FRESH16 = load_questions(split="fresh16")
#: The seventeenth held-out set (session 25's, written by a helper before that session's changes).
FRESH17 = load_questions(split="fresh17")
#: The realistic held-out set (session 25's: common topics, no novelty rule on its answers).
REAL17 = load_questions(split="real17")
#: The nineteenth held-out set and the second realistic one (session 27's, written by helpers
#: before that session's changes).
FRESH19 = load_questions(split="fresh19")
REAL19 = load_questions(split="real19")
#: The twentieth and the third realistic one (written at session 27's end, after its changes).
FRESH20 = load_questions(split="fresh20")
REAL20 = load_questions(split="real20")
#: Session 28's: the twenty-first and fourth realistic (written before its changes) and the
#: twenty-second and fifth realistic (written after them).
FRESH21 = load_questions(split="fresh21")
REAL21 = load_questions(split="real21")
FRESH22 = load_questions(split="fresh22")
REAL22 = load_questions(split="real22")
#: Session 29's: the twenty-third and sixth realistic (written before its changes).
FRESH23 = load_questions(split="fresh23")
REAL23 = load_questions(split="real23")
#: ... and the seventh realistic (written after them).
REAL24 = load_questions(split="real24")
#: Session 30's: the eighth realistic (written before its changes).
REAL25 = load_questions(split="real25")
#: ... and the twenty-fourth (a looser novelty rule: no earlier first answer).
FRESH24 = load_questions(split="fresh24")
#: German translations of English dev questions (session 25): tuning data, not in the dev figures.
PAIRED = load_questions(split="paired")
#: Their second round (session 27): the other English dev questions' German twins.
PAIRED2 = load_questions(split="paired2")
#: (MRR@10, hit@3) floors per language on the dev split, a little under what it reaches (with
#: ``dev4.tsv``: German 0.627 / 0.71, English 0.701 / 0.834; with ``dev5.tsv``: German 0.604 /
#: 0.694, English 0.696 / 0.820, so the German floor moved down from 0.60 / 0.69; with
#: ``dev6.tsv``: German 0.599 / 0.690, English 0.712 / 0.822; with ``dev7.tsv``, whose German
#: scores 0.377 / 0.47 alone: German 0.580 / 0.673, English 0.719 / 0.823, so the German floor
#: moved down from 0.58 / 0.67; with ``dev8.tsv``, whose German scores 0.336 / 0.40 and English
#: 0.513 / 0.63 alone: German 0.556 / 0.647, English 0.699 / 0.804, so both floors moved down
#: from 0.56 / 0.65 and 0.68 / 0.81; the whole top 40 collected (session 21): English 0.715 /
#: 0.821, so its floor moved back up; with ``dev9.tsv``, whose German scores 0.512 / 0.55 and
#: English 0.726 / 0.87 alone: German 0.552 / 0.638, English 0.716 / 0.825; session 26's: German
#: 0.601 / 0.68, English 0.743 / 0.84; with the realistic ``dev10.tsv`` (session 27), whose
#: common-topic questions score German 0.532 / 0.68 and English 0.458 / 0.55 alone: German
#: 0.596 / 0.677, English 0.712 / 0.806, so the English floor moved down from 0.70 / 0.80; with
#: how players ask for each rule (``asked``, session 28): German 0.702 / 0.80, English 0.759 /
#: 0.84, so both floors moved up from 0.54 / 0.63 and 0.69 / 0.78; with its third round,
#: session 29: German 0.719 / 0.83, English 0.788 / 0.88, 1.54x FTS5, so the floors moved up
#: from 0.68 / 0.78 and 0.74 / 0.82, and the FTS5 ratio's from 1.30; with the learned order
#: fitted on them, session 30: German 0.759 / 0.87, English 0.795 / 0.90, 1.55x FTS5).
FLOORS = {"de": (0.74, 0.85), "en": (0.78, 0.87)}
#: English MRR at least this many times FTS5's on the same questions (with ``dev5.tsv``: 1.44x;
#: with ``dev6.tsv``, whose English FTS5 answers better than the older sets', 1.402x; with
#: ``dev7.tsv``, whose English FTS5 answers better still (0.593), 1.390x; with ``dev8.tsv``, whose
#: English FTS5 answers better than regelwerk (0.536 against 0.513), 1.345x; after the whole top
#: 40 is collected, session 21, 1.378x; with ``dev9.tsv``, whose English FTS5 answers better than
#: regelwerk (0.762 against 0.726), 1.323x, so the ratio moved down; with ``dev10.tsv``, whose
#: English FTS5 answers worse (0.268 against 0.458), 1.39x; session 30, 1.55x).
OVER_FTS5 = 1.50


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return library_with(tmp_path_factory, NEWEST)


def test_the_set_is_big_enough_and_split() -> None:
    first = [q for q in ALL if q.source == "questions.tsv"]  # the set the issue asked for
    langs = Counter(q.lang for q in first)
    assert len(first) >= 120 and langs["de"] >= 70
    held = Counter(q.lang for q in first if q.split == "held")
    for lang, n in langs.items():
        assert 0.25 <= held[lang] / n <= 0.35, (lang, held[lang], n)
    assert {q.split for q in ALL} == {"dev", "held"}
    more_dev = ("players.tsv", "german.tsv", "dev2.tsv", "dev3.tsv", "dev4.tsv", "dev5.tsv",
                "dev6.tsv", "dev7.tsv", "dev8.tsv", "dev9.tsv", "dev10.tsv")
    assert {q.split for q in ALL if q.source in more_dev} == {"dev"}
    assert len({q.case.query for q in ALL}) == len(ALL), "a question is in the set twice"


@pytest.mark.parametrize(
    ("held", "split", "before", "least"),
    [(FRESH, "fresh", ALL, (45, 30)), (FRESH2, "fresh2", ALL + FRESH, (40, 27)),
     (FRESH3, "fresh3", ALL + FRESH + FRESH2, (44, 29)),
     (FRESH4, "fresh4", ALL + FRESH + FRESH2 + FRESH3, (45, 30)),
     (FRESH5, "fresh5", ALL + FRESH + FRESH2 + FRESH3 + FRESH4, (45, 30)),
     (FRESH6, "fresh6", ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5, (45, 30)),
     (FRESH7, "fresh7", ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6, (45, 30)),
     (FRESH8, "fresh8", ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7, (45, 30)),
     (FRESH9, "fresh9", ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8,
      (45, 30)),
     (FRESH10, "fresh10",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9, (45, 30)),
     (FRESH11, "fresh11",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10,
      (45, 30)),
     (FRESH12, "fresh12",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11,
      (45, 30)),
     (FRESH13, "fresh13",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12,
      (45, 30)),
     (FRESH15, "fresh15",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13,
      (45, 30)),
     (FRESH16, "fresh16",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15,
      (45, 30)),
     (FRESH17, "fresh17",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16,
      (45, 30)),
     (REAL17, "real17",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17,
      (45, 30)),
     (FRESH19, "fresh19",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED,
      (45, 30)),
     (REAL19, "real19",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19,
      (45, 30)),
     (FRESH20, "fresh20",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2,
      (45, 30)),
     (REAL20, "real20",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20,
      (45, 30)),
     (FRESH21, "fresh21",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20,
      (45, 30)),
     (REAL21, "real21",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21,
      (45, 30)),
     (FRESH22, "fresh22",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21,
      (45, 30)),
     (REAL22, "real22",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22,
      (45, 30)),
     (FRESH23, "fresh23",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22,
      (45, 30)),
     (REAL23, "real23",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22 + FRESH23,
      (45, 30)),
     (REAL24, "real24",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22 + FRESH23 + REAL23,
      (45, 30)),
     (REAL25, "real25",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22 + FRESH23 + REAL23 + REAL24,
      (45, 30)),
     (FRESH24, "fresh24",
      ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
      + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + PAIRED + FRESH19 + REAL19
      + PAIRED2 + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22 + FRESH23 + REAL23 + REAL24 + REAL25,
      (45, 30))],
)
def test_the_fresh_sets_are_big_enough_and_new(
    held: list[Question], split: str, before: list[Question], least: tuple[int, int]
) -> None:
    langs = Counter(q.lang for q in held)
    assert len(held) >= least[0] and langs["de"] >= least[1], langs
    assert {q.split for q in held} == {split}
    seen = {q.case.query.casefold() for q in before}
    again = [q.case.query for q in held if q.case.query.casefold() in seen]
    assert not again, f"already in an earlier set: {again}"
    assert len({q.case.query for q in held}) == len(held), "a question is in the set twice"


def test_two_runs_compare_question_by_question() -> None:
    """``--against``: only questions in both runs whose reciprocal rank moved (0: not in the ten)."""
    from bench.questions import changes

    before = {"a": 2, "b": 0, "c": 2, "d": 1, "e": 0}
    now = {"a": 1, "b": 0, "c": 2, "e": 4, "f": 1}
    assert changes(now, before) == [("a", 2, 1), ("e", 0, 4)]


def test_the_heldout_split_pools_every_held_out_question() -> None:
    """``--split heldout`` is the held rows of questions.tsv and every held-out set, each once,
    under its own file name (the pooled figure the closing notes report)."""
    from bench.questions import HELD_OUT

    pooled = load_questions(split="heldout")
    sets = [load_questions(split=name) for name in HELD_OUT]
    held = [q for q in ALL if q.split == "held"]
    assert [q.case.query for q in pooled] == [q.case.query for q in held + [q for s in sets for q in s]]
    assert {q.source for q in pooled} == {"questions.tsv"} | {path.name for path in HELD_OUT.values()}
    assert not {q.case.query for q in pooled} & {q.case.query for q in DEV}


def test_the_paired_questions_are_german_twins_of_english_dev_questions() -> None:
    """Each paired question is German, has the expectations of an English dev question, is
    asked once, and is not itself a dev question (it stays out of the dev figures)."""
    english = Counter(q.case.expect for q in ALL if q.lang == "en")
    assert len(PAIRED) >= 85 and len(PAIRED2) >= 250
    for split, pairs in (("paired", PAIRED), ("paired2", PAIRED2)):
        assert {q.lang for q in pairs} == {"de"} and {q.split for q in pairs} == {split}
        assert all(english[q.case.expect] for q in pairs)
    both = PAIRED + PAIRED2
    assert len({q.case.query for q in both}) == len(both)
    assert not {q.case.query for q in both} & {q.case.query for q in ALL}


@NEEDS_SHARED
@pytest.mark.parametrize(
    "question",
    ALL + FRESH + FRESH2 + FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 + FRESH10
    + FRESH11 + FRESH12 + FRESH13 + FRESH15 + FRESH16 + FRESH17 + REAL17 + FRESH19 + REAL19
    + FRESH20 + REAL20 + FRESH21 + REAL21 + FRESH22 + REAL22 + FRESH23 + REAL23 + REAL24 + REAL25
    + FRESH24 + PAIRED + PAIRED2,
    ids=lambda q: f"{q.lang}-{q.category}:{q.case.query}",
)
def test_expectation_holds_in_the_cr(library: Corpus, question: Question) -> None:
    problem = expectation_problem(library, question.case)
    assert problem is None, problem


@pytest.fixture(scope="module")
def engine(library: Corpus) -> Iterator[SearchEngine]:
    eng = SearchEngine(library)
    yield eng
    eng.close()


@NEEDS_SHARED
@pytest.mark.parametrize("lang", ["de", "en"])
def test_dev_questions_stay_above_their_floor(engine: SearchEngine, library: Corpus, lang: str) -> None:
    cases = [q.case for q in groups(DEV)[lang]]
    ours = score(cases, lambda c: [h.to_dict() for h in engine.search(c.query, limit=10).hits])
    baseline = Fts5Baseline(library)
    fts = score(cases, lambda c: baseline.search(c.query))
    misses = [f"{c.query!r} (rank {r})" for c, r in zip(cases, ours.ranks, strict=True) if r != 1]
    print(f"\n{lang}: {len(cases)} dev questions")
    print(ours.line("regelwerk"))
    print(fts.line("FTS5"))
    print("not first:", *misses, sep="\n  ")
    mrr, hit3 = FLOORS[lang]
    assert ours.mrr >= mrr, f"{lang} MRR@10 {ours.mrr:.3f} < {mrr}"
    assert ours.hit3 >= hit3, f"{lang} hit@3 {ours.hit3:.3f} < {hit3}"
    if lang == "en":
        assert ours.mrr >= OVER_FTS5 * fts.mrr, f"MRR {ours.mrr:.3f} < {OVER_FTS5} x FTS5 {fts.mrr:.3f}"


@NEEDS_SHARED
def test_a_question_mark_changes_no_answer(engine: SearchEngine) -> None:
    """None of the sets' questions end in "?", but people type them: it must not change a hit."""
    changed = [
        q.case.query
        for q in DEV
        if [h.number for h in engine.search(q.case.query + "?", limit=10).hits]
        != [h.number for h in engine.search(q.case.query, limit=10).hits]
    ]
    assert not changed, changed


#: The same floors with sentence vectors (the optional extra ``regelwerk[semantic]``, see
#: `regelwerk.index.search.semantic`), a little under what they reach on the dev split (session
#: 18: German 0.661 / 0.77, English 0.772 / 0.88, 1.62x FTS5; with ``dev5.tsv``, written after
#: the weight was chosen, German 0.651 / 0.76, English 0.764 / 0.88, 1.58x FTS5; with
#: ``dev6.tsv``, German 0.646 / 0.75, English 0.777 / 0.88, 1.53x FTS5; with ``dev7.tsv``, German
#: 0.632 / 0.733, English 0.785 / 0.889, 1.52x FTS5, so the German floor moved down; with
#: ``dev8.tsv``, German 0.616 / 0.715, English 0.766 / 0.870, 1.475x FTS5, so the German floor and
#: the ratio moved down; with ``dev9.tsv``, German 0.619 / 0.720, English 0.780 / 0.885, 1.441x
#: FTS5, so the ratio moved down; with ``dev10.tsv`` (session 27; alone German 0.609 / 0.73,
#: English 0.574 / 0.68), German 0.629 / 0.737, English 0.758 / 0.863, 1.48x FTS5; with how
#: players ask for each rule (``asked``, session 28), German 0.700 / 0.80, English 0.752 / 0.87,
#: 1.47x FTS5, so the German floor moved up from 0.60 / 0.70; with its third round, session
#: 29: German 0.715 / 0.82, English 0.794 / 0.90, 1.55x, so both moved up again; with the
#: learned order fitted on them, session 30: German 0.767 / 0.87, English 0.802 / 0.90, 1.57x).
SEMANTIC_FLOORS = {"de": (0.75, 0.85), "en": (0.78, 0.88)}
SEMANTIC_OVER_FTS5 = 1.50


@pytest.fixture(scope="module")
def semantic_library(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return semantic_library_with(tmp_path_factory, NEWEST)


@NEEDS_SHARED
@pytest.mark.parametrize("lang", ["de", "en"])
def test_dev_questions_with_sentence_vectors_stay_above_their_floor(
    semantic_library: Corpus, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from regelwerk.index.search import semantic

    monkeypatch.setenv(semantic.ENV, "on")
    engine = SearchEngine(semantic_library)
    try:
        cases = [q.case for q in groups(DEV)[lang]]
        ours = score(cases, lambda c: [h.to_dict() for h in engine.search(c.query, limit=10).hits])
    finally:
        engine.close()
    baseline = Fts5Baseline(semantic_library)
    fts = score(cases, lambda c: baseline.search(c.query))
    print(f"\n{lang}: {len(cases)} dev questions, sentence vectors on")
    print(ours.line("regelwerk"))
    print(fts.line("FTS5"))
    mrr, hit3 = SEMANTIC_FLOORS[lang]
    assert ours.mrr >= mrr, f"{lang} MRR@10 {ours.mrr:.3f} < {mrr}"
    assert ours.hit3 >= hit3, f"{lang} hit@3 {ours.hit3:.3f} < {hit3}"
    if lang == "en":
        assert ours.mrr >= SEMANTIC_OVER_FTS5 * fts.mrr, f"MRR {ours.mrr:.3f} < {SEMANTIC_OVER_FTS5} x FTS5"
