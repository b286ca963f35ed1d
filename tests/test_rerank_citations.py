"""`rerank.behind_cited_rules` looks each citation up among the found rules by what it covers
(a section, a rule with its subrules, one subrule): the same scores as comparing every cited
number with every found rule (``RuleNumber.contains``), on random hits."""

from __future__ import annotations

import random
from typing import Any

from regelwerk.index.search import rerank
from regelwerk.ingest.model.numbers import RuleNumber

NUMBERS = ["702", "702.19", "702.19b", "702.19c", "702.2", "702.2a", "704", "704.5", "704.5a", "704.5f",
           "508.1", "508.1d", "509"]


def _by_comparison(found: rerank.Ranked, names: Any) -> rerank.Ranked:
    """The definition: the best found rule of the hit's document that any citation contains."""
    rules = [(str(f["document"]), rn, sc) for f, sc in found if (rn := rerank.own_number(f)) is not None]
    out = []
    for f, sc in found:
        glossary = f.get("kind") == "glossary"
        if not (glossary and names(f)):
            cited = rerank.citations(str(f.get("text") or ""), None if glossary else f.get("number"))
            mine = [(rn, rs) for doc, rn, rs in rules if doc == f["document"]]
            best = max((rs for rn, rs in mine if any(c.contains(rn) for c in cited)), default=None)
            if best is not None and best <= sc and (glossary or best >= rerank.RESTATED * sc):
                sc = best * 0.99
        out.append((f, sc))
    return out


def _hit(rng: random.Random) -> dict[str, Any]:
    cites = " ".join(f"See rule {rng.choice(NUMBERS)}." for _ in range(rng.randint(0, 3)))
    if rng.random() < 0.2:
        return {"kind": "glossary", "term": "Word", "title": "Word", "text": f"A word. {cites}",
                "document": "cr"}
    return {"kind": "rule", "number": rng.choice(NUMBERS), "text": f"Some rule. {cites}",
            "document": rng.choice(("cr", "cr", "seed"))}


def test_citations_are_looked_up_by_what_they_cover() -> None:
    rng = random.Random(3)
    moved = 0
    for _ in range(300):
        found = [(_hit(rng), round(rng.uniform(0.5, 10.0), 2)) for _ in range(rng.randint(1, 30))]
        names = (lambda f: False) if rng.random() < 0.5 else (lambda f: True)
        got = rerank.behind_cited_rules(found, names)
        assert got == _by_comparison(found, names)
        moved += sum(a != b for (_, a), (_, b) in zip(got, found, strict=True))
    assert moved > 100  # the cases move hits, not only keep them
    assert RuleNumber.parse("702.19").contains(RuleNumber.parse("702.19b"))
