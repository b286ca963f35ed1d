"""Fit the learned order of a question's candidates (``regelwerk.index.search.order``).

Each dev question (``bench/questions.py``'s dev split, `TRAIN`; the 2026-04-17 CR, no
sentence vectors) is searched once; the engine keeps the three lists the
order sees (``last_lists``), and ``order.candidates`` gives each candidate's features. A
candidate is right when it answers the question (``bench.baseline.hit_matches``). The weights
minimise the mean over questions of -log(the right candidates' share of the softmax of their
scores), plus L2 * |w - w0|^2 / 2n, w0 being the fused order (``order.ANCHOR`` on
``final_norm``): Adam, `STEPS` steps of `RATE`.

    python tools/learn_order.py [--vectors] [--l2 X] [--folds] [--write] [--score FILE ...]

``--vectors``: the lists with the sentence vectors (the ``semantic`` extra installed), fitted
and written under the keys ``de+vectors`` and ``en+vectors``.
``--folds``: each dev file scored by the weights fitted on the others (per language, for
each of `GRID`'s penalties); ``--write``: the fitted weights into ``order.WEIGHTS``;
``--score FILE|SPLIT ...``: question files or ``bench/questions.py`` splits scored (pooled per
language, no query printed) with the fitted weights beside the fused order.
Needs ../shared and numpy (the ``semantic`` extra).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.baseline import hit_matches  # noqa: E402
from bench.questions import Question, load_questions, newest_library  # noqa: E402
from regelwerk.index.search import order  # noqa: E402

#: The questions fitted on: the dev split. (With the German translations of English dev
#: questions too, ``paired`` and ``paired2``, session 30: German held-out 0.704 against 0.706.)
TRAIN = ("dev",)
STEPS = 300
RATE = 0.05
GRID = (0.3, 3.0, 30.0)
L2 = 3.0

#: One question's candidates: features (n x FEATURES) and which answer it.
Listing = tuple[np.ndarray, np.ndarray]


def collect(questions: Sequence[Question]) -> list[tuple[Question, Listing]]:
    """Each question's candidates, as the engine's order sees them."""
    library = newest_library("regelwerk-order-")
    if library is None:
        raise SystemExit("needs ../shared (the 2026-04-17 CR)")
    from regelwerk.index.search.query import SearchEngine

    engine = SearchEngine(library)
    out = []
    for q in questions:
        engine.search(q.case.query, limit=10)
        if engine.last_lists is None:  # not read as a question: the order never runs
            continue
        found = order.candidates(*engine.last_lists)
        rows = np.array([row for _, row in found], dtype=float)
        right = np.array([hit_matches({"current": f.get("current"), "term": f.get("term")}, q.case.expect)
                          for f, _ in found], dtype=float)
        out.append((q, (rows, right)))
    engine.close()
    return out


def anchor() -> np.ndarray:
    w0 = np.zeros(len(order.FEATURES))
    w0[order.FEATURES.index("final_norm")] = order.ANCHOR
    return w0


def fit(listings: Sequence[Listing], l2: float) -> np.ndarray:
    """The weights (see the module docstring); questions with no right candidate teach nothing."""
    usable = [(x, y) for x, y in listings if y.any()]
    x = np.vstack([x for x, _ in usable])
    y = np.concatenate([y for _, y in usable])
    starts = np.cumsum([0] + [len(r) for r, _ in usable[:-1]])
    group = np.repeat(np.arange(len(usable)), [len(r) for r, _ in usable])
    n = len(usable)
    w0 = anchor()
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for t in range(1, STEPS + 1):
        s = x @ w
        e = np.exp(s - np.maximum.reduceat(s, starts)[group])
        p = e / np.add.reduceat(e, starts)[group]
        q = e * y / np.add.reduceat(e * y, starts)[group]
        g = x.T @ (p - q) / n + l2 * (w - w0) / n
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= RATE * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def reciprocal_rank(listing: Listing, w: np.ndarray) -> float:
    """1 / the first right candidate's place in the first ten by `w` (ties: the lists' order)."""
    x, y = listing
    ranked = np.argsort(-(x @ w), kind="stable")[:10]
    return next((1 / (i + 1) for i, j in enumerate(ranked) if y[j]), 0.0)


def mrr(listings: Sequence[Listing], w: np.ndarray) -> float:
    return sum(reciprocal_rank(x, w) for x in listings) / max(1, len(listings))


def folds(data: list[tuple[Question, Listing]], lang: str) -> None:
    mine = [(q, x) for q, x in data if q.lang == lang]
    files = sorted({q.source for q, _ in mine})
    print(f"{lang}: fused order {mrr([x for _, x in mine], anchor()):.3f}")
    for l2 in GRID:
        total = 0.0
        for name in files:
            w = fit([x for q, x in mine if q.source != name], l2)
            total += sum(reciprocal_rank(x, w) for q, x in mine if q.source == name)
        print(f"  L2 {l2:<5} leave one file out {total / len(mine):.3f}")


def write(weights: dict[str, np.ndarray]) -> None:
    """`weights` into ``order.WEIGHTS``, its other keys kept."""
    weights = {**{k: np.array(v) for k, v in order.WEIGHTS.items()}, **weights}
    path = ROOT / "index" / "search" / "order.py"
    body = "".join(
        f'    "{lang}": (\n'
        + "".join(f"        {x:.4f},  # {name}\n" for name, x in zip(order.FEATURES, w, strict=True))
        + "    ),\n"
        for lang, w in weights.items()
    )
    text = path.read_text(encoding="utf-8")
    block = re.compile(r"(WEIGHTS: dict\[str, tuple\[float, \.\.\.\]\] = \{\n).*?(^\}\n)", re.S | re.M)
    path.write_text(block.sub(lambda m: m.group(1) + body + m.group(2), text, count=1), encoding="utf-8")


def main(argv: list[str]) -> int:
    vectors = "--vectors" in argv
    if not vectors:
        os.environ["REGELWERK_SEMANTIC"] = "off"
    suffix = order.VECTORS if vectors else ""
    l2 = float(argv[argv.index("--l2") + 1]) if "--l2" in argv else L2
    dev = collect([q for split in TRAIN for q in load_questions(split=split)])
    if "--folds" in argv:
        for lang in ("de", "en"):
            folds(dev, lang)
    weights = {}
    for lang in ("de", "en"):
        mine = [x for q, x in dev if q.lang == lang]
        weights[lang + suffix] = fit(mine, l2)
        before, after = mrr(mine, anchor()), mrr(mine, weights[lang + suffix])
        print(f"{lang}: dev {len(mine)} questions, fused {before:.3f} -> fitted {after:.3f}")
    if "--score" in argv:
        names = [a for a in argv[argv.index("--score") + 1:] if not a.startswith("--")]
        other = collect([q for a in names for q in (
            load_questions(Path(a), None) if Path(a).is_file() else load_questions(split=a))])
        for lang in ("de", "en"):
            mine = [x for q, x in other if q.lang == lang]
            print(f"{lang}: scored {len(mine)} questions, fused {mrr(mine, anchor()):.3f} -> "
                  f"fitted {mrr(mine, weights[lang + suffix]):.3f}")
    if "--write" in argv:
        write(weights)
        print(f"written to order.WEIGHTS (L2 {l2})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
