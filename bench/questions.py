"""General rules questions (issue 9): the dev set, its checks and its per-language report.

``tests/relevance/questions.tsv`` holds questions a judge or player types in German or English
("Wann darf ich ein Land spielen", "can a tapped creature block"), each with the rule numbers
that answer it in the 2026-04-17 CR and a word the first answer must contain. A third of each
language is held out (``split`` = ``held``): tuning looks at the ``dev`` rows only, the held
rows are scored for the final report. Run ``python bench/questions.py`` from the repository
root (needs ../shared) for hit@1, hit@3 and MRR@10 per language and category, regelwerk beside
the FTS5 baseline; ``--split held`` or ``--split all`` for the other rows, ``--split fresh`` for
the fresh held-out set (``tests/relevance/fresh.tsv``), ``--split fresh2``, ``--split fresh3``,
``--split fresh4``, ``--split fresh5``, ``--split fresh6``, ``--split fresh7``, ``--split fresh8``,
``--split fresh9``, ``--split fresh10``, ``--split fresh11``, ``--split fresh12``, ``--split fresh13``,
``--split fresh15``, ``--split fresh16``, ``--split fresh17``, ``--split fresh19``, ``--split
fresh20`` to ``--split fresh24`` for the third to twenty-fourth (``fresh2.tsv``
to ``fresh13.tsv``, ``fresh15.tsv`` to ``fresh17.tsv``, ``fresh19.tsv`` to ``fresh24.tsv``),
``--split real17``, ``--split real19`` to ``--split real25`` for the realistic ones
(``real17.tsv``, ``real19.tsv`` to ``real25.tsv``:
common topics, no novelty rule), ``--split heldout`` for every held-out question at once (pooled
per language and per set: the figure issue 9's closing notes report), ``--split paired`` and
``--split paired2`` for German translations of English dev questions (``paired.tsv``,
``paired2.tsv``: what the reading loses); the dev split also reads the
players' questions (``players.tsv``), the German ones (``german.tsv``), the second round's
(``dev2.tsv``), the third's (``dev3.tsv``), the fourth's (``dev4.tsv``), the fifth's
(``dev5.tsv``), the sixth's (``dev6.tsv``), the seventh's (``dev7.tsv``), the eighth's
(``dev8.tsv``), the ninth's (``dev9.tsv``) and the realistic tenth's (``dev10.tsv``), each alone
with ``--split players``, ``german``, ``dev2``, ``dev3``, ``dev4``, ``dev5``, ``dev6``, ``dev7``,
``dev8``, ``dev9`` or ``dev10``;
``--save FILE`` writes each question's rank (JSON) and ``--against FILE`` counts, per language, the
questions a change moved up and down against such a file, listing them for a dev split (a held-out
question is never printed); ``--misses`` lists
the questions whose answer is not first; ``--neighbours`` counts, per language, where each
miss's first hit stands beside its answer (the answer's rule, its section, its chapter, or
elsewhere) and how many answers are not among the RERANK re-ranked hits, nor among
``NEIGHBOUR_POOL`` (`neighbourhood`).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if __name__ == "__main__":  # run as a script: "bench" must resolve to the package folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import Case, Scores, expected_exists, score

if TYPE_CHECKING:
    from regelwerk.index.store.corpus import Corpus

QUESTIONS = Path(__file__).resolve().parents[1] / "tests" / "relevance" / "questions.tsv"
#: The second, fresh held-out set (``split`` = ``fresh``): written and committed before the
#: second round of ranking changes, after the first held-out part had been looked at.
FRESH = QUESTIONS.with_name("fresh.tsv")
#: The third held-out set (``split`` = ``fresh2``): written by the lead at the start of the
#: fifth round, kept outside the repository while that round tuned, scored only at its end.
FRESH2 = QUESTIONS.with_name("fresh2.tsv")
#: The fourth held-out set (``split`` = ``fresh3``): written by the lead at the start of the
#: twelfth session, kept outside the repository while that session tuned, scored at its end.
FRESH3 = QUESTIONS.with_name("fresh3.tsv")
#: The fifth held-out set (``split`` = ``fresh4``): written by the lead at the start of the
#: thirteenth session, kept outside the repository while that session tuned, scored at its end;
#: its answers are rules no earlier question set expects.
FRESH4 = QUESTIONS.with_name("fresh4.tsv")
#: The sixth held-out set (``split`` = ``fresh5``): written by a helper at the start of the
#: fourteenth session, before any of its changes, kept outside the repository while that
#: session tuned, scored at its end; its answers are rules no earlier question set expects,
#: nor their parent or subrule.
FRESH5 = QUESTIONS.with_name("fresh5.tsv")
#: The seventh held-out set (``split`` = ``fresh6``): written by a helper at the start of the
#: fifteenth session, before any of its changes, kept outside the repository while that
#: session tuned, scored at its end; its answers are rules no earlier question set expects,
#: nor their parent or subrule.
FRESH6 = QUESTIONS.with_name("fresh6.tsv")
#: The eighth held-out set (``split`` = ``fresh7``): written by a helper at the start of the
#: sixteenth session, before any of its changes, kept outside the repository while that
#: session tuned, scored at its end; its answers are rules no earlier question set expects,
#: nor their parent or subrule (whole sections such as 704 or 614 excepted).
FRESH7 = QUESTIONS.with_name("fresh7.tsv")
#: The ninth held-out set (``split`` = ``fresh8``): written by a helper at the start of the
#: seventeenth session, before any of its changes, kept outside the repository while that
#: session tuned, scored at its start and its end; its answers are rules no earlier question
#: set expects (the dev rounds ``dev2.tsv`` and ``dev3.tsv`` included), nor their parent or subrule.
FRESH8 = QUESTIONS.with_name("fresh8.tsv")
#: The tenth held-out set (``split`` = ``fresh9``): written by a helper at the start of the
#: eighteenth session, before any of its changes, kept outside the repository while that
#: session worked, scored at its start and its end; its answers are rules no earlier question
#: set expects (the dev rounds to ``dev4.tsv`` and ``fresh8.tsv`` included), nor their parent or subrule.
FRESH9 = QUESTIONS.with_name("fresh9.tsv")
#: The eleventh held-out set (``split`` = ``fresh10``): written by a helper at the start of the
#: nineteenth session, before any of its changes, kept outside the repository while that
#: session worked, scored at its start and its end; its answers are rules no earlier question
#: set expects (the dev rounds to ``dev5.tsv`` and ``fresh9.tsv`` included), nor their parent or subrule.
FRESH10 = QUESTIONS.with_name("fresh10.tsv")
#: The twelfth held-out set (``split`` = ``fresh11``): written by a helper at the start of the
#: twentieth session, before any of its changes, kept outside the repository while that
#: session worked, scored at its start and its end; its answers are rules no earlier question
#: set expects (the dev rounds to ``dev6.tsv`` and ``fresh10.tsv`` included), nor their parent or subrule.
FRESH11 = QUESTIONS.with_name("fresh11.tsv")
#: The thirteenth held-out set (``split`` = ``fresh12``): written by a helper at the start of the
#: twenty-first session, before any of its changes, kept outside the repository while that
#: session worked, scored at its start and its end; its answers are rules no earlier question
#: set expects (the dev rounds to ``dev7.tsv`` and ``fresh11.tsv`` included), nor their parent or subrule.
FRESH12 = QUESTIONS.with_name("fresh12.tsv")
#: The fourteenth held-out set (``split`` = ``fresh13``): written by a helper at the start of the
#: twenty-second session, before any of its changes, kept outside the repository while that
#: session and the next worked, scored at the start of each and the end of the second; its
#: answers are rules no earlier question set expects (the dev rounds to ``dev8.tsv`` and
#: ``fresh12.tsv`` included), nor their parent or subrule.
FRESH13 = QUESTIONS.with_name("fresh13.tsv")
#: The fifteenth held-out set (``split`` = ``fresh15``; the one written for session 23 was lost
#: with that machine unscored): written by a helper at the start of the twenty-fourth session,
#: before any of its changes, kept outside the repository while that session worked, scored at
#: its start and its end; its answers are rules no earlier question set expects (the dev rounds
#: to ``dev9.tsv`` and ``fresh13.tsv`` included), nor their parent or subrule.
FRESH15 = QUESTIONS.with_name("fresh15.tsv")
#: The sixteenth held-out set (``split`` = ``fresh16``): written by a helper in the twenty-fourth
#: session once ``fresh15.tsv`` had been scored and added, kept outside the repository until that
#: session's end, scored when it was finished and at the end; its answers are rules no earlier
#: question set expects (``fresh15.tsv`` included), nor their parent or subrule.
FRESH16 = QUESTIONS.with_name("fresh16.tsv")
#: The seventeenth held-out set (``split`` = ``fresh17``): written by a helper at the start of the
#: twenty-fifth session, before any of its changes, kept outside the repository until that
#: session's end, scored at its start and its end; its answers are rules no earlier question set
#: expects (``fresh16.tsv`` included), nor their parent or subrule.
FRESH17 = QUESTIONS.with_name("fresh17.tsv")
#: The first realistic held-out set (``split`` = ``real17``): written by a helper at the start of
#: the twenty-fifth session like ``fresh17.tsv``, but without the novelty rule: the common topics
#: a judge is asked about (the issue's own list) in realistic proportion, answers anywhere in the
#: CR; written without reading an earlier set's questions and checked to be no near-duplicate of
#: one (rapidfuzz token_set_ratio < 85 against every query of tests/relevance).
REAL17 = QUESTIONS.with_name("real17.tsv")
#: The nineteenth held-out set (``split`` = ``fresh19``; the eighteenth, written in session 26,
#: was lost with that machine): written by a helper at the start of the twenty-seventh session,
#: before any of its changes, kept outside the repository until that session's end, scored at
#: its start and its end; its answers are rules no earlier question set expects (``dev10.tsv``
#: and ``real17.tsv`` included), nor their parent or subrule.
FRESH19 = QUESTIONS.with_name("fresh19.tsv")
#: The second realistic held-out set (``split`` = ``real19``): written beside ``fresh19.tsv``
#: like ``real17.tsv`` (common topics, no novelty rule, no near-duplicate of an earlier query).
REAL19 = QUESTIONS.with_name("real19.tsv")
#: The twentieth held-out set and the third realistic one (``split`` = ``fresh20``, ``real20``):
#: written by helpers at the end of the twenty-seventh session, after all of its changes, scored
#: once and committed at once (two sessions' sets had been lost with their machine uncommitted).
FRESH20 = QUESTIONS.with_name("fresh20.tsv")
REAL20 = QUESTIONS.with_name("real20.tsv")
#: The twenty-first held-out set and the fourth realistic one (``fresh21``, ``real21``): written
#: by helpers at the start of session 28, before its changes, and committed at its end.
FRESH21 = QUESTIONS.with_name("fresh21.tsv")
REAL21 = QUESTIONS.with_name("real21.tsv")
#: The twenty-second and the fifth realistic one (``fresh22``, ``real22``): written at the end of
#: session 28, after all of its changes, scored once and committed at once.
FRESH22 = QUESTIONS.with_name("fresh22.tsv")
REAL22 = QUESTIONS.with_name("real22.tsv")
#: The twenty-third and the sixth realistic one (``fresh23``, ``real23``): written by helpers at
#: the start of session 29, before its changes, and committed before any change was made.
FRESH23 = QUESTIONS.with_name("fresh23.tsv")
REAL23 = QUESTIONS.with_name("real23.tsv")
#: The seventh realistic one (``real24``): written at the end of session 29, after all of its
#: changes, scored once and committed at once.
REAL24 = QUESTIONS.with_name("real24.tsv")
#: The eighth realistic one (``real25``): written by a helper at the start of session 30,
#: before its changes, kept outside the repository while it tuned, scored once at its end.
REAL25 = QUESTIONS.with_name("real25.tsv")
#: The twenty-fourth (``fresh24``): written by a helper during session 30, before any of its
#: changes was scored on it, under a looser novelty rule (no first answer is an earlier set's
#: first answer, nor its parent or subrule), scored once at the session's end.
FRESH24 = QUESTIONS.with_name("fresh24.tsv")
#: German translations of English dev questions the search answered first (``split`` =
#: ``paired``, session 25): a probe of what the German reading loses. Tuning data, but not
#: among the dev rows (`load_questions` reads it for ``--split paired`` only).
PAIRED = QUESTIONS.with_name("paired.tsv")
#: German translations of the other English dev questions (``split`` = ``paired2``, session 27:
#: the 264 not in ``paired.tsv``, answered first or not), tuning data like `PAIRED`.
PAIRED2 = QUESTIONS.with_name("paired2.tsv")
#: The paired files by split name.
PAIRS = {"paired": PAIRED, "paired2": PAIRED2}
#: The held-out files by split name.
HELD_OUT = {"fresh": FRESH, "fresh2": FRESH2, "fresh3": FRESH3, "fresh4": FRESH4, "fresh5": FRESH5,
            "fresh6": FRESH6, "fresh7": FRESH7, "fresh8": FRESH8,
            "fresh9": FRESH9, "fresh10": FRESH10, "fresh11": FRESH11, "fresh12": FRESH12,
            "fresh13": FRESH13, "fresh15": FRESH15, "fresh16": FRESH16, "fresh17": FRESH17,
            "real17": REAL17, "fresh19": FRESH19, "real19": REAL19, "fresh20": FRESH20, "real20": REAL20,
            "fresh21": FRESH21, "real21": REAL21, "fresh22": FRESH22, "real22": REAL22,
            "fresh23": FRESH23, "real23": REAL23, "real24": REAL24,
            "real25": REAL25, "fresh24": FRESH24}
#: Players' questions (third round): more dev rows, written from the CR before that round's
#: ranking changes (slang, typos, keyword behaviour); read with ``questions.tsv``'s dev rows.
PLAYERS = QUESTIONS.with_name("players.tsv")
#: German questions (fourth round): more German dev rows, written and scored before that
#: round's German-side changes; read with the other dev rows (``--split german`` alone).
GERMAN = QUESTIONS.with_name("german.tsv")
#: Dev questions, second round (session 16): 90 more dev rows (60 German, a quarter of them
#: colloquial or misspelt; 30 English), written blind before any was scored, so tuning sees a
#: larger, broader dev set; their answers are rules no held-out set expects, nor their parent or
#: subrule. Read with the other dev rows (``--split dev2`` alone).
DEV2 = QUESTIONS.with_name("dev2.tsv")
#: Dev questions, third round (session 16): 90 more dev rows written blind like `DEV2`'s (60
#: German, 15 of them colloquial or misspelt; 30 English) by another helper, on rules no held-out
#: set expects (nor their parent or subrule) and, but for one second answer, no other set does.
#: Read with the other dev rows (``--split dev3`` alone).
DEV3 = QUESTIONS.with_name("dev3.tsv")
#: Dev questions, fourth round (session 17): 90 more dev rows written blind like `DEV2`'s (60
#: German, 15 of them colloquial or misspelt; 30 English) by another helper, on rules no held-out
#: set expects (nor their parent or subrule) and no other set does. Read with the other dev rows
#: (``--split dev4`` alone).
DEV4 = QUESTIONS.with_name("dev4.tsv")
#: Dev questions, fifth round (session 18): 90 more dev rows written blind like `DEV2`'s (60
#: German, 15 of them colloquial or misspelt; 30 English) by another helper, after the
#: sentence-vector re-rank's weight was chosen on the 555 older dev rows, on rules no held-out set
#: expects (``fresh9.tsv`` included; nor their parent or subrule) and no other set does. Read with
#: the other dev rows (``--split dev5`` alone).
DEV5 = QUESTIONS.with_name("dev5.tsv")
#: Dev questions, sixth round (session 19): 90 more dev rows written blind like `DEV2`'s (60
#: German, 20 of them colloquial or misspelt; 30 English) by another helper, while the
#: multilingual encoder for the sentence-vector re-rank was measured, on rules no held-out set
#: expects (``fresh10.tsv`` included; nor their parent or subrule) and, but for one second
#: answer, no other set does. Read with the other dev rows (``--split dev6`` alone).
DEV6 = QUESTIONS.with_name("dev6.tsv")
#: Dev questions, seventh round (session 20): 90 more dev rows written blind like `DEV2`'s (60
#: German, 20 of them colloquial or misspelt; 30 English) by another helper, while the German
#: reading's rules found on dev4-dev6 were changed, on rules no held-out set expects
#: (``fresh11.tsv`` included; nor their parent or subrule) and no other set does. Read with the
#: other dev rows (``--split dev7`` alone).
DEV7 = QUESTIONS.with_name("dev7.tsv")
#: Dev questions, eighth round (session 21): 90 more dev rows written blind like `DEV2`'s (60
#: German, 20 of them colloquial or misspelt; 30 English) by another helper, while the German
#: reading was changed again, on rules no held-out set expects (the thirteenth, written at the
#: same time, included; nor their parent or subrule) and no other set does. Read with the other
#: dev rows (``--split dev8`` alone).
DEV8 = QUESTIONS.with_name("dev8.tsv")
#: Dev questions, ninth round (session 22): 90 more dev rows written blind like `DEV2`'s (60
#: German, 20 of them colloquial or misspelt; 30 English) by another helper, to score that
#: session's changes on questions nothing was tuned on, on rules no held-out set expects (the
#: fourteenth, written at the same time, included; nor their parent or subrule). Read with the
#: other dev rows (``--split dev9`` alone).
DEV9 = QUESTIONS.with_name("dev9.tsv")
#: Dev questions, tenth round (session 26): 100 realistic rows (60 German, 25 of them
#: colloquial; 40 English) on the common topics a judge is asked about, like ``real17.tsv``'s,
#: with no novelty rule on their answers; written by a helper without reading an earlier set's
#: questions and kept below a near-duplicate score of 85 against every one. Read with the other
#: dev rows since session 27 (``--split dev10`` alone).
DEV10 = QUESTIONS.with_name("dev10.tsv")
#: The dev files read beside ``questions.tsv``'s dev rows, by the split that reads one alone.
MORE_DEV = {"players": PLAYERS, "german": GERMAN, "dev2": DEV2, "dev3": DEV3, "dev4": DEV4,
            "dev5": DEV5, "dev6": DEV6, "dev7": DEV7, "dev8": DEV8, "dev9": DEV9, "dev10": DEV10}
Run = Callable[[Case], list[dict[str, Any]]]


@dataclass(frozen=True)
class Question:
    split: str
    lang: str
    category: str
    case: Case
    source: str = QUESTIONS.name


def load_questions(path: Path | None = None, split: str | None = "dev") -> list[Question]:
    """The questions of one split (``dev``, ``held``; None: all), in file order.

    Without `path`: ``dev`` and None read ``questions.tsv``, the players' dev questions
    (`PLAYERS`), the German ones (`GERMAN`), the second to tenth rounds' (`DEV2`, `DEV3`,
    `DEV4`, `DEV5`, `DEV6`, `DEV7`, `DEV8`, `DEV9`, `DEV10`), ``held`` ``questions.tsv`` alone,
    ``players``, ``german``, ``dev2`` to ``dev10`` one of those files alone (`MORE_DEV`), ``fresh`` the fresh
    held-out file (`FRESH`), ``fresh2`` to ``fresh13``, ``fresh15`` to ``fresh17``, ``fresh19`` to
    ``fresh24`` the third to twenty-fourth ones and ``real17``, ``real19`` to ``real25`` the
    realistic ones (`HELD_OUT`), ``heldout``
    all of those and ``questions.tsv``'s held rows together; ``paired`` and ``paired2`` the German
    translations of English dev questions (`PAIRS`).
    """
    if path is None:
        if split == "heldout":  # every held-out question, each set under its own file name
            return load_questions(QUESTIONS, "held") + [
                q for name, held in HELD_OUT.items() for q in load_questions(held, name)
            ]
        if split in HELD_OUT:
            return load_questions(HELD_OUT[split], split)
        if split in PAIRS:
            return load_questions(PAIRS[split], split)
        if split in MORE_DEV:
            return load_questions(MORE_DEV[split], "dev")
        more = tuple(MORE_DEV.values()) if split in ("dev", None) else ()
        extra = [q for extra in more for q in load_questions(extra, split)]
        return load_questions(QUESTIONS, split) + extra
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("split\t"):
            continue
        part, lang, category, query, expect, check = line.split("\t")
        if split is None or part == split:
            case = Case(f"{lang}-{category}", query, tuple(expect.split("|")), check)
            out.append(Question(part, lang, category, case, path.name))
    return out


def expectation_problem(library: Corpus, case: Case) -> str | None:
    """Why a question's expected answers do not hold in the newest CR, or None if they do.

    Every expected number must exist; the first must mention the check word (its title,
    text, examples or its parent's title: `expected_exists`).
    """
    problem = expected_exists(library, case)
    if problem is not None:
        return problem
    from regelwerk.ingest.model import newest_release

    newest = newest_release(library.store.all())
    assert newest is not None
    numbers = {s.number for s in newest.sections if s.number}
    missing = [e for e in case.expect[1:] if e.rstrip("*") not in numbers]
    return f"{', '.join(missing)} not in the CR" if missing else None


def groups(questions: Sequence[Question]) -> dict[str, list[Question]]:
    """Questions by language (``de``, ``en``), by dev set and language (``players.tsv de``,
    when there is more than one set) and by ``lang/category``, in a stable order."""
    out: dict[str, list[Question]] = {}
    for q in questions:
        out.setdefault(q.lang, []).append(q)
    if len({q.source for q in questions}) > 1:
        for q in sorted(questions, key=lambda q: (q.source, q.lang)):
            out.setdefault(f"{q.source} {q.lang}", []).append(q)
    for q in sorted(questions, key=lambda q: (q.lang, q.category)):
        out.setdefault(f"{q.lang}/{q.category}", []).append(q)
    return out


def report(questions: Sequence[Question], engines: dict[str, Run]) -> dict[str, dict[str, Scores]]:
    """Scores of every engine on every group of `questions` (see `groups`)."""
    return {
        name: {key: score([q.case for q in qs], run) for key, qs in groups(questions).items()}
        for name, run in engines.items()
    }


def table(scores: dict[str, dict[str, Scores]], sizes: dict[str, int]) -> str:
    names = list(scores)
    head = f"{'group':<20} {'n':>3}  " + "  ".join(f"{n + ' h@1/h@3/MRR':<24}" for n in names)
    lines = [head]
    for key, n in sizes.items():
        cells = "  ".join(
            f"{s.hit1:.2f} / {s.hit3:.2f} / {s.mrr:.3f}    " for s in (scores[e][key] for e in names)
        )
        lines.append(f"{key:<20} {n:>3}  {cells}")
    return "\n".join(lines)


NEWEST = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "en" / "MagicCompRules-20260417.txt"


#: Where the benches keep the sentence vectors' cache between runs (see `newest_library`).
SENTENCE_CACHE = Path(tempfile.gettempdir()) / "regelwerk-bench-sentences"


def newest_library(prefix: str) -> Corpus | None:
    """A library in a fresh temporary home with the 2026-04-17 CR, or None (and a note) when
    ../shared is absent."""
    import os

    from bench.scratch import scratch

    if not NEWEST.exists():
        print(f"skipped: {NEWEST} not found (../shared is needed)")
        return None
    home = scratch(prefix)
    os.environ["REGELWERK_HOME"] = str(home)
    from regelwerk.index.search import semantic
    from regelwerk.index.store.corpus import Corpus

    if semantic.enabled():  # the sentence cache outlives the scratch home: a CR is embedded once
        models = ", ".join(m.name for m in semantic.models())
        print(f"sentence vectors on ({models}; {semantic.ENV}=off for the lexical ranking alone)")
        SENTENCE_CACHE.mkdir(exist_ok=True)
        (home / "cache").symlink_to(SENTENCE_CACHE, target_is_directory=True)
    library = Corpus()
    assert not library.ingest([NEWEST]).errors
    return library


#: The deeper pool `neighbourhood` looks for an answer the RERANK hits miss.
NEIGHBOUR_POOL = 200


def place(first: str | None, expect: Sequence[str]) -> str:
    """Where a miss's first hit (its ``current`` number) stands beside the nearest expected
    answer: ``rule`` (702.19a for 702.19b), ``section`` (702.2b), ``chapter`` (704.5g), else
    ``elsewhere`` (a glossary entry too)."""
    from regelwerk.ingest.model.errors import InputError
    from regelwerk.ingest.model.numbers import RuleNumber

    try:
        got = RuleNumber.parse(first or "")
    except InputError:
        return "elsewhere"
    best = "elsewhere"
    for e in expect:
        try:
            want = RuleNumber.parse(e.rstrip("*"))
        except InputError:
            continue
        if got.section == want.section and got.rule is not None and got.rule == want.rule:
            return "rule"
        if got.section == want.section:
            best = "section"
        elif got.section // 100 == want.section // 100 and best == "elsewhere":
            best = "chapter"
    return best


def neighbourhood(engine: Any, questions: Sequence[Question]) -> dict[str, dict[str, int]]:
    """Per language, the misses by `place` of their first hit, and (``not re-ranked``) the
    answers not among the RERANK re-ranked hits, (``... nor in 200``) nor NEIGHBOUR_POOL's."""
    from bench.baseline import hit_matches
    from regelwerk.index.search import query

    out: dict[str, dict[str, int]] = {}
    pool = query.RERANK
    for q in questions:
        counts = out.setdefault(q.lang, dict.fromkeys(("questions", "first", "rule", "section", "chapter",
                                                          "elsewhere", "not re-ranked", "... nor in 200"), 0))
        counts["questions"] += 1
        hits = [h.to_dict() for h in engine.search(q.case.query, limit=pool).hits]
        if hits and hit_matches(hits[0], q.case.expect):
            counts["first"] += 1
            continue
        counts[place(hits[0]["current"] if hits else None, q.case.expect)] += 1
        if any(hit_matches(h, q.case.expect) for h in hits):
            continue
        counts["not re-ranked"] += 1
        query.RERANK = NEIGHBOUR_POOL
        try:
            deeper = [h.to_dict() for h in engine.search(q.case.query, limit=NEIGHBOUR_POOL).hits]
        finally:
            query.RERANK = pool
        counts["... nor in 200"] += not any(hit_matches(h, q.case.expect) for h in deeper)
    return out


def rank_table(questions: Sequence[Question], scores: dict[str, Scores]) -> dict[str, int]:
    """Each question's rank (0: not in the first ten) by ``source|lang|query``: what ``--save``
    writes and ``--against`` reads, so two commits' runs compare question by question."""
    out: dict[str, int] = {}
    by_lang = groups(questions)
    for lang in ("de", "en"):
        if lang not in by_lang:
            continue
        for q, r in zip(by_lang[lang], scores[lang].ranks, strict=True):
            out[f"{q.source}|{q.lang}|{q.case.query}"] = r or 0
    return out


def changes(now: dict[str, int], before: dict[str, int]) -> list[tuple[str, int, int]]:
    """The questions of both runs whose reciprocal rank differs: (key, before, now)."""
    def rr(rank: int) -> float:
        return 1 / rank if rank else 0.0

    return [(k, before[k], r) for k, r in now.items() if k in before and rr(r) != rr(before[k])]


def main(argv: list[str]) -> int:
    split = "dev"
    if "--split" in argv:
        split = argv[argv.index("--split") + 1]
    library = newest_library("regelwerk-questions-")
    if library is None:
        return 0
    from bench.baseline import Fts5Baseline
    from regelwerk.index.search.query import SearchEngine

    questions = load_questions(split=None if split == "all" else split)
    bad = [(q.case.query, p) for q in questions if (p := expectation_problem(library, q.case))]
    for query, problem in bad:
        print(f"BAD EXPECTATION {query!r}: {problem}")
    engine = SearchEngine(library)
    fts = Fts5Baseline(library)
    engines: dict[str, Run] = {
        "regelwerk": lambda c: [h.to_dict() for h in engine.search(c.query, limit=10).hits],
        "FTS5": lambda c: fts.search(c.query),
    }
    scores = report(questions, engines)
    sizes = {k: len(v) for k, v in groups(questions).items()}
    print(f"== general rules questions, split {split!r} ({len(questions)} questions, 2026-04-17 CR)")
    print(table(scores, sizes))
    if "--misses" in argv:
        ranks = scores["regelwerk"]
        for key, qs in groups(questions).items():
            if key not in ("de", "en"):
                continue
            for q, r in zip(qs, ranks[key].ranks, strict=True):
                if r != 1:
                    hits = engine.search(q.case.query, limit=3).hits
                    got = ", ".join(f"{h.current or h.number or h.term}" for h in hits)
                    print(f"  {q.lang} rank {r}: {q.case.query!r} want {'|'.join(q.case.expect)} got {got}")
    ranks_now = rank_table(questions, scores["regelwerk"])
    if "--save" in argv:
        Path(argv[argv.index("--save") + 1]).write_text(json.dumps(ranks_now, ensure_ascii=False, indent=0))
    if "--against" in argv:
        before_file = argv[argv.index("--against") + 1]
        changed = changes(ranks_now, json.loads(Path(before_file).read_text(encoding="utf-8")))
        held = split in ("held", "heldout") or split in HELD_OUT
        for lang in ("de", "en"):
            mine = [c for c in changed if c[0].split("|")[1] == lang]
            up = sum(1 for _, b, r in mine if r and (not b or r < b))
            print(f"against {before_file}: {lang} {up} up, {len(mine) - up} down")
            for key, b, r in [] if held else mine:  # a held-out question is never printed
                print(f"  {b} -> {r}: {key}")
    if "--neighbours" in argv:
        print("where the misses' first hit stands beside the answer:")
        for lang, counts in neighbourhood(engine, questions).items():
            print(f"  {lang}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    engine.close()
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
