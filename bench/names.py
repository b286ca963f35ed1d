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

import csv
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CR = ROOT.parent / "shared" / "corpus" / "en" / "MagicCompRules-20260417.txt"
TABLES = ("core.tsv", "keywords.tsv")


def names() -> list[tuple[str, str, str]]:
    """``(language, name, rule number)`` for every term row with a number, English and German."""
    out: list[tuple[str, str, str]] = []
    for table in TABLES:
        path = ROOT / "data" / "terms" / table
        lines = (line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))
        for row in csv.DictReader(lines, delimiter="\t"):
            number = row.get("number") or ""
            if not number or not row.get("de") or not row.get("en"):
                continue
            out.append(("en", row["en"], number))
            variants = [v for v in (row.get("de_variants") or "").split("|") if v]
            out.extend(("de", name, number) for name in [row["de"], *variants])
    return out


def covers(number: str, hit: str) -> bool:
    """Is `hit` the rule `number` or one of its subrules (``702.9`` covers ``702.9a``, never
    ``702.90``)?"""
    if hit == number or hit.startswith(number + "."):
        return True
    return hit.startswith(number) and hit[len(number) : len(number) + 1].isalpha()


def main(argv: list[str]) -> int:
    if not CR.exists():
        print(f"bench/names.py: {CR} is missing (needs ../shared)", file=sys.stderr)
        return 2
    os.environ["REGELWERK_HOME"] = tempfile.mkdtemp(prefix="regelwerk-names-")
    from regelwerk.index.search.query import SearchEngine
    from regelwerk.index.store.corpus import Corpus

    library = Corpus()
    if library.ingest([CR]).errors:
        print(f"bench/names.py: {CR} did not ingest", file=sys.stderr)
        return 2
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
