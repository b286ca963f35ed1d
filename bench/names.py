"""Every term's name as a lookup: does ``regelwerk search NAME`` find the term's own rule?

    python bench/names.py [--misses] [--json OUT]

The term tables (``data/terms/core.tsv``, ``keywords.tsv``) give each term its English name,
its German name and variants, and its rule number in the newest CR: a one-word (or
few-word) lookup by any of those names should show that rule. Run against the 2026-04-17 CR
alone, default ranking (set ``REGELWERK_SEMANTIC=off`` where the extra is installed: lookups
are not re-ordered by it anyway). A hit counts when it is the rule or one of its subrules
(``122`` for "Marke"; ``702.9a`` for "Fliegend"). Prints MRR@10 and hit@1 per language;
``--misses`` lists the names whose rule is not first. The rows name their own answers, so
this measures the term lookups the tables were written for, not unseen questions: it guards
one-word lookups against changes made for questions (session 21: ``rerank.derived_factor``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.questions import newest_library  # noqa: E402
from regelwerk.index.terms.shipped import load_terms  # noqa: E402
from regelwerk.ingest.model.errors import InputError  # noqa: E402
from regelwerk.ingest.model.numbers import RuleNumber  # noqa: E402


def names() -> list[tuple[str, str, str]]:
    """``(language, name, rule number)`` for every term row with a number, English and German."""
    out: list[tuple[str, str, str]] = []
    for row in load_terms():
        if not row.number or not row.de or not row.en:
            continue
        out.append(("en", row.en, row.number))
        out.extend(("de", name, row.number) for name in (row.de, *row.de_variants))
    return out


def covers(number: str, hit: str) -> bool:
    """Is `hit` the rule `number` or one of its subrules (``702.9`` covers ``702.9a``, never
    ``702.90``; a glossary hit, which has no number, covers nothing)?"""
    try:
        return RuleNumber.parse(number).contains(RuleNumber.parse(hit))
    except InputError:
        return False


def main(argv: list[str]) -> int:
    library = newest_library("regelwerk-names-")
    if library is None:
        return 2
    from regelwerk.index.search.query import SearchEngine

    engine = SearchEngine(library)
    ranks: dict[str, dict[str, int | None]] = {"en": {}, "de": {}}
    for lang, name, number in names():
        rank = None
        for i, hit in enumerate(engine.search(name, limit=10).hits, 1):
            if covers(number, hit.current or hit.number or ""):
                rank = i
                break
        ranks[lang][f"{name}\t{number}"] = rank
    for lang, found in ranks.items():
        rr = [1 / r if r else 0.0 for r in found.values()]
        first = sum(1 for r in found.values() if r == 1)
        print(f"{lang}  {len(rr)} names  MRR@10 {sum(rr) / len(rr):.3f}  hit@1 {first / len(rr):.3f}")
        if "--misses" in argv:
            for key, r in sorted(found.items()):
                if r != 1:
                    print(f"    {key.replace(chr(9), ' -> ')}: {r or '-'}")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(ranks, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
