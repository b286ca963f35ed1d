"""Feedback from the first hits: a question that names a glossary term searches again with
the words of its definition.

A question names a situation in the asker's words ("wie viele Zonen gibt es", "does anyone
get priority during the untap step"); the rule that answers it often says it in the words the
CR's glossary uses to define the term ("Untap Step: The first step of the beginning phase ...
the active player untaps all their permanents"). So when the first search's hits hold a
glossary entry whose head the question names whole (every head term among the question's
English terms, a German question's through its translation), the entry's definition (not its
"See rule ..." pointers, not its sense numbers) joins the question at GLOSS times a clause of
the user's own words, and the question is searched again.

Only entries among the first hits count: those are the ones whose definition shares more of
the question than their head. Looking every named head up in the glossary instead ("Player",
"Creature", "Card" in nearly every question) added the definitions of the everyday words as
well and scored worse (dev MRR de 0.699 -> 0.676, en 0.728 -> 0.693 at the same weight).

Tried and dropped, on the dev questions: classic pseudo-relevance feedback (RM3: the best
first hits' most distinctive terms, by relevance model times idf, added to the query for a
second search, from whoosh's order or from the re-ranked one, all terms, new terms only, or
only the question's own translations re-weighted to choose among a German word's senses) and
its re-ranking form (a hit lifted by its share of the feedback terms): each lowered German
dev MRR (0.699 -> 0.67-0.69) at every weight tried (0.05-0.5, 3-10 hits, 5-30 terms), English
moving -0.05 to +0.007. The first hits of a question are too often a close neighbour of the
answer, and their words pull the second search toward it.

Also tried and dropped: the titles the entry's pointers quote ("See rule 614, “Replacement
Effects.”") beside its definition (dev de 0.705 -> 0.703, en flat), and the rules the best
first hits cite added as candidates at a share of the citing hit's score (de -0.001 to -0.014,
en -0.010 to +0.001).

What it is worth (dev, 2026-04-17 CR, after session 13's lexicon): English MRR@10 0.728 ->
0.735, hit@3 0.80 -> 0.83, cross-validated the same; German 0.704 -> 0.709 (hit@3 0.78 ->
0.77), which does not carry to unfamiliar German words: with the lexicon's ``words.tsv``
entries left out (their learned probability kept where the cards gave one) German falls
0.588 -> 0.583. The keyword relevance set goes 0.923 -> 0.928. The cost is the second
search: 117 of the 265 dev questions and 17 of the 449 mixed bench queries run one, +12% mean
CPU per question and warm p95 of the mixed queries 7.5 -> 8.4 ms (load ~3.5); a cold question
costs the same CPU (its postings are read once either way).

Pure functions over stored fields, like ``rerank``: the engine hands in its cached analyzer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from regelwerk.index.search.rerank import Analyze, text_terms

#: How much a definition's word weighs, as a share of a clause of the question's own words
#: (0 turns the second search off). 0.2: chosen in every fold of ``bench/tune.py``'s
#: cross-validation (``--only feedback.GLOSS``). With ``dev2.tsv`` in the dev split (session
#: 16) every fold chose 0.1 (cross-validated de 0.648 -> 0.654, en 0.736 -> 0.734), but on all
#: dev 0.15 scores as 0.2 and 0.05 lower (de 0.646, en 0.733): no clear optimum, left at 0.2 at
#: first. 0.2 -> 0.1 (session 16, the retune): 0.1 in every fold of seeds 9, 1 and 2, and the
#: value chosen on the older dev sets alone, which scores the blind ``dev2.tsv`` de 0.472 ->
#: 0.497 (en unchanged). Chosen together with rerank.TOPIC and rerank.INTENT (INTENT 1.4 and
#: GLOSS 0.1 in every fold, TOPIC 0.5 in four of five), cross-validated de 0.653 -> 0.656, en
#: 0.736 -> 0.744; on the older dev sets alone the three are 0.1 / 1.4 / 0.3, scoring
#: ``dev2.tsv`` de 0.472 -> 0.486, en 0.642 -> 0.684. All dev with the three: de 0.653 ->
#: 0.656, en 0.736 -> 0.748, keyword set 0.939 -> 0.941.
GLOSS = 0.1

#: A glossary entry's pointers to its rules ("See rule 111, “Tokens.”"): numbers and titles,
#: not its definition.
_SEE = re.compile(r"\bSee (?:rules?|section)\b.*", re.IGNORECASE | re.DOTALL)


def glossed(found: Iterable[tuple[dict[str, Any], float]], wanted: set[str], analyze: Analyze) -> set[str]:
    """The English terms of the definitions of the glossary hits in `found` whose head the
    query names whole (each head term in `wanted`, the query's English terms), less `wanted`."""
    out: set[str] = set()
    for f, _ in found:
        if f.get("kind") != "glossary" or f.get("language") == "de":
            continue
        head = text_terms(str(f.get("title") or ""), "en", analyze)
        if head and head <= wanted:
            out |= text_terms(_SEE.sub("", str(f.get("text") or "")), "en", analyze)
    return {t for t in out - wanted if len(t) > 1 and not t.isdigit()}
