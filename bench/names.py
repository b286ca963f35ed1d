"""Every term's name as a lookup: does ``regelwerk search NAME`` find the term's own rule?

    python bench/names.py [--misses] [--json OUT] [--home DIR]

The term tables (``data/terms/core.tsv``, ``keywords.tsv``) give each term its English name,
its German name and variants, and its rule number in the newest CR: a one-word (or
few-word) lookup by any of those names should show that rule. Run against the 2026-04-17 CR
alone, default ranking (set ``REGELWERK_SEMANTIC=off`` where the extra is installed: lookups
are not re-ordered by it anyway). A hit counts when it is the rule or one of its subrules
(``122`` for "Marke"; ``702.9a`` for "Fliegend"). Prints MRR@10 and hit@1 per language;
``--misses`` lists the names whose rule is not first. The rows name their own answers, so
this measures the term lookups the tables were written for, not unseen questions: it guards
one-word lookups against changes made for questions (session 21: ``rerank.derived_factor``).
``--home DIR`` looks the names up in an existing home instead (a home with every release of
``../shared/corpus/archive/``: its newest release's rules compete with 103 older releases').

Session 22, a section's term names in fields of their own (``whoosh_index._section_record``,
weighed by lookups as a keyword rule's context, by questions not at all; the 1005 dev questions
and the keyword set score exactly as before: German 0.587, English 0.716, keyword set 0.939,
every blind round the same): the 2026-04-17 CR alone English 0.723 -> 0.730, German 0.744 ->
0.756 (21 names up, none down: "Marke" 2 -> 1, "Verzauberung" 4 -> 2, "Artefakt" 6 -> 2,
"Spielstein" none -> 2); the archive home (104 releases, ``--home``) English 0.709 -> 0.715,
German 0.746 -> 0.759. The same names ranked as on one release before (the archive was not the
cause: 701.6 Counter outranked 122 Counters on one release too, named in its context where the
section was not). The names in the context field itself gave 0.824 / 0.863 but lowered the
blind dev rounds (dev2 German 0.523 -> 0.516, dev3 0.499 -> 0.479; measured before the fusion
of f084481): questions weigh that field; as the title in the other language 0.726 / 0.770, but
German dev 0.552 -> 0.550 (more words "indexed" change a question's reading); at weight 4.0
instead of the context's 2.0 0.732 / 0.788, German dev 0.552 -> 0.551. Tried, did not carry.
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
    if "--home" in argv:
        import os

        os.environ["REGELWERK_HOME"] = argv[argv.index("--home") + 1]
        from regelwerk.index.store.corpus import Corpus

        library: Corpus | None = Corpus()
    else:
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
