"""Re-ranking: what a hit's own words say about how well it answers the query.

whoosh scores a hit by the query terms it matches, one term at a time; whether the hit covers
the whole question, holds a name in its order, names something else through a shared stem,
or only points at the rule that answers are things its stored fields show. These are pure
functions over those fields (a dict) and scores: the engine hands in what only the index
knows (which terms a language knows, their idf) and its cached analyzer, ``analyze(lang,
word)`` -> the word's index terms.

Tried and dropped in session 15 (``bench/learn.py --features NAME``, each alone, 5-fold
cross-validated dev MRR@10 against the code's 0.709 German and 0.760 English): how close
together a question's words stand in a hit's own text (``proximity``: de 0.705, en 0.755;
``span``: 0.690, 0.744), the best sentence's share of the question (``sentence``: 0.708,
0.749) or the first sentence's (``first_sentence``: 0.705, 0.760), a subrule read with its
parent rule's text (``parent``: 0.709, 0.760, weight 0 in every fold), a rule read with its
section's first rule (``opening_context``: the same, weight 0 in every fold) and the scores
of the other hits of the same rule (``rule_mates``: 0.699, 0.757). Fitted on all dev at once, all but
``first_sentence`` (0.15) and ``rule_mates`` (0.07) still take weight 0: the factors below
already say what these say. ``bench/questions.py --neighbours`` counts where the misses stand.

Tried and dropped in session 16 (dev MRR@10 German / English; "old dev" is the 285 questions
before ``dev2.tsv``, 0.709 / 0.767, the whole dev split with it 0.648 / 0.736):

- A citation prior: a rule hit times 1 + w * log(1 + n), n how often the other rules of its
  release cite its rule or a subrule of it (601.2, 704.5, 608.2: the rules the CR builds on;
  counted at build time per document). On old dev it carried: ``bench/tune.py --only`` chose
  w = 0.15 in every fold (0.709 -> 0.722, 0.767 -> 0.775; the German proxy 0.651 -> 0.668),
  and every w from 0.05 to 0.3 scored higher. On ``dev2.tsv``, written blind with answers no
  other set expects, it fell (w 0.15: de 0.451 -> 0.401, en 0.642 -> 0.631; 0.05: 0.426,
  0.643), and cross-validated on the whole dev split de went 0.648 -> 0.640 (en 0.736 ->
  0.740): it favours the answers the older sets happened to ask for. Counting a subrule's own
  citations only, or the glossary's too, was no better on old dev.
- A section prior: which sections the question's English terms are most typical of (each
  section read as one language model over its rules, Dirichlet-smoothed with the whole CR at
  3-100 rules' worth; Liu and Croft 2004), a hit times exp(w * (its section's mean
  log-likelihood of the terms - the best section's among the hits)). Every w lowered both
  languages on old dev (0.02: 0.703 / 0.761; 0.1: 0.696 / 0.758; 1: 0.649 / 0.693), chapters
  in place of sections too (0.1: 0.698 / 0.765): the answers stand as often in the sections
  every corner of the game refers to (704, 601, 608), the least typical of any one topic.
- A keyword rule's first subrule (701.21a, 702.19a: its definition) lowered for a question
  that does not ask for a meaning, as ``dev2.tsv`` misses 701.19b, 701.20b, 701.12b for their
  "a": 0.9-0.7 lifts dev2 de 0.451 -> 0.459-0.478 but lowers the other sets (whole dev de
  0.648 -> 0.648-0.644, en 0.736 -> 0.733-0.737).

Session 17: telling siblings apart (704.5a from 704.5f, 118.8 from 118.8a). Of the 108 misses
of ``dev2.tsv`` and ``dev3.tsv``, 92 have their answer among the 40 re-ranked hits; beside the
first hit, the answer covers the same question terms in 32 (17 of them in its section), fewer
in 24 (the first hit shares a word such as "cast", "pay", "battlefield" by chance), more in 7
(and loses on BM25's term frequency and length), and each holds terms the other lacks in 29.
What would tell them apart is mostly a word of the question that no hit holds: the answer says
it in other words ("beide": "the same player"; "nichts": "no legal object"; "normal":
"optional"), a matter of vocabulary, not of ranking. Each signal below was tried in
``bench/learn.py`` (5-fold cross-validated dev MRR@10 against the code's de 0.637 / en 0.717;
"without dev2" is the weight chosen on the other dev sets, scoring ``dev2.tsv``'s de 0.511 /
en 0.701 and ``dev3.tsv``'s 0.500 / 0.593):

- A family-local idf (``family``: each question term weighed by how few of the hit's parent
  and siblings hold it): weight 0 in every fold; its share against the family's best member
  (``family_gain``): -0.3, de 0.629, dev3 de 0.478. In the 32 ties the terms are the same.
- The Example paragraphs as a field of their own (``example_share``), and a statement kind
  matched to the intent ("may", "must", "If ...", "To sacrifice ..."; ``kind``): 0 in every fold.
- A subrule read with its parent (``parent``, now measured: until this session learn.py's
  parent text was never found, so session 15's ``parent`` and ``opening_context`` were 0 for
  every hit): 0.3 in four folds, de 0.634, dev2 de 0.497 and en 0.684 without dev2;
  ``opening_context`` 0.3, de 0.634, dev2 de 0.503.
- A negative statement ("doesn't", "no", "can't", as 701.20b, 117.2b, 120.1a answer) for a
  yes/no question: 0 in every fold; for a question that says a negation itself: 0.3, en
  0.721, de 0.636, dev3 de 0.489.
- SUBRULE set apart outside the keyword sections (701, 702): learn.py chose the factor to the
  power 0.85 there in every fold (de 0.642, en 0.724, dev2 de 0.532), the engine's own
  ``tune.py --only`` at first not (0.15 in four folds, de 0.632 -> 0.631, dev2 en 0.701 ->
  0.684); after the count fix and with ``dev4.tsv`` it did, and carried: see OTHER_SUBRULE.
  The miss list's ties go to the later sibling, but over all questions a tie wants the
  earlier one more, not less (the factor squared where an earlier sibling covers the same
  terms: 1.0 in every fold, de 0.635).
- All of these jointly: de 0.607, en 0.693 (the folds' weights scatter).
- The intent cues narrowed: "any" out of the time cues moves 12 questions up and 3 down (de
  0.637 -> 0.642, en unchanged, but dev2 en "when I get to choose new targets" 1 -> 5),
  "only" out of the permission cues 3 up (de 0.637 -> 0.640); chosen on the dev questions'
  changes, they are not counted as carried.

What carried: `intent_factor`'s count cue no longer reads a rule's citations as numbers (see
`INTENT_CUES`), and subrules outside the keyword sections weigh their place less (OTHER_SUBRULE).
Also tried: the intent cues read in a rule's own text, its examples left out (as coverage
reads it): de 0.631 -> 0.627 (trample's "how much damage" is answered in 702.19b's example).

Session 21: where plain FTS5 ranks an English question's answer better. Of the 210 English
questions of the blind rounds ``dev2.tsv`` to ``dev8.tsv``, FTS5 did so for 38 (default mode):
4 answers whoosh's early stop never read (fixed: `query.SearchEngine._run`), 13 where
coordination favours a rule that repeats the question's words while the answer says them
otherwise ("any object" for "noncreature permanent", "paid" for "pay", "untargeted", "created"
for "started"), 5 where TITLED lifts the named variant's section over an answer filed
elsewhere (Planechase's 901 over 103.7, 810 over 901.12b), 5 where a later subrule loses to its
parent or first sibling (SUBRULE, OTHER_SUBRULE), 4 where TOPIC lowers the answer though the
question names its thing by a title word that is not the title's rarest ("controls" for
"Controlling Another Player", "typecycling" for "Cycling"), 2 "what happens" (CONSEQUENCE
lifts another "If ..." rule), 2 intent cues (every competitor says "can", the answer
"doesn't allow"), 2 answers outside the 40 even when collected whole, 1 a near tie. After the fix, each
of these weights scored leave-one-round-out over the seven rounds (the value chosen on the
other six rounds' English; MRR@10, English pooled 0.690, German 0.482):

- TOPIC 0.7 (grid 0.5-1.0): chosen in every round, English 0.690 -> 0.695 (dev4 0.649 -> 0.673,
  dev7 0.841 -> 0.853, dev8 0.580 -> 0.579), German 0.482 -> 0.494, but the older sets lower
  (questions.tsv en 0.791 -> 0.783, players.tsv en 0.754 -> 0.748, keyword set 0.945 -> 0.939)
  and ``bench/tune.py --only rerank.TOPIC`` keeps 0.5 in every fold (5-fold en 0.715, de 0.556):
  one question's worth on the blind rounds against as much on the others; not carried.
- TOPIC passed by any title term the question holds (not only the rarest), or any of idf >= 3:
  0.690 -> 0.688; TOPIC to the power of the title's uncovered idf share: 0.686 in-sample.
- TITLED 1.0 / 1.25 / 1.75: 0.690 -> 0.690 (dev split en 0.715 -> 0.710 at 1.0 and 1.25).
- SUBRULE 0.1: 0.690 -> 0.691 (0.3: 0.681); OTHER_SUBRULE 0 / 0.1: 0.688 (0.2: 0.683).
- CONSEQUENCE 1.25 / 1.0: base chosen in every round (0.687 / 0.682 in-sample); INTENT 1.2 /
  1.0: 0.685 (0.685 / 0.678 in-sample).
- ENGLISH_COORDINATION 6 / 10: 0.689. With the whole top 40 collected, a deeper or shallower
  pool (`query.RERANK` 30 / 50 / 60 / 80): 0.684, German 0.477; `query.COMMON` 0.07 / 0.12 /
  0.15 / 0.2: 0.692, German 0.488, but not monotone (0.12 scores 0.688, 0.15 0.694, 0.2 0.695
  in-sample), the keyword set 0.945 -> 0.943 / 0.939 and ``german.tsv`` 0.688 -> 0.665 at 0.2.

Session 25: are the factors fitted to the dev questions? Each switched off alone (its neutral
value), MRR@10 on the dev split (German / English) and on the fifteen fresh held-out sets
``fresh.tsv`` to ``fresh16.tsv`` (463 German, 227 English questions, each set scored once
before): as shipped 0.588 / 0.740 and 0.469 / 0.589; TOPIC 0.586 / 0.726 and 0.469 / 0.578;
TITLED 0.588 / 0.736 and 0.469 / 0.591; BOILERPLATE 0.591 / 0.739 and 0.470 / 0.583;
CONSEQUENCE 0.584 / 0.737 and 0.470 / 0.584; INTENT 0.574 / 0.730 and 0.460 / 0.572; SUBRULE
0.590 / 0.736 and 0.467 / 0.584; OTHER_SUBRULE 0.580 / 0.731 and 0.475 / 0.568; RESTATED
0.589 / 0.736 and 0.475 / 0.590; ``feedback.GLOSS`` 0.582 / 0.735 and 0.469 / 0.584; the
German fusion (``fusion.WEIGHT``) 0.551 / 0.740 and 0.459 / 0.589, the English one 0.588 /
0.716 and 0.469 / 0.566; ``query.CONCEPT`` 0.588 / 0.728 and 0.469 / 0.588. No factor helps the
dev questions and hurts the held-out ones by more than a question or two: the held-out sets
score lower because their answers are rules no earlier set asked about, not because the
weights were fitted to the dev rows. (The held-out sets were read for this only as figures.)
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from regelwerk.index.search.analysis import TextCache
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.numbers import KEYWORD_SECTIONS, SUBRULE_LETTERS, RuleNumber, find_references
from regelwerk.ingest.model.releases import release_date

Fields = dict[str, Any]
Ranked = list[tuple[Fields, float]]
Analyze = Callable[[str, str], frozenset[str]]

#: The factor for a hit whose title meets the query only through a derived word
#: ("Poisonous" for "poison counter"; see `derived_factor`).
DERIVED = 0.6
#: Endings that inflect a word rather than derive another ("starting" is "start").
_INFLECTIONS = ("", "s", "es", "d", "ed", "ing")
#: The factor for a conditional rule when the query asks what happens (see `consequence_factor`).
CONSEQUENCE = 1.5
#: Coordination: a hit's score is multiplied by (1 + COORDINATION * share²), share being the
#: idf-weighted part of the query's terms its title and text contain, so for questions the
#: rule that answers most of the question beats a short glossary entry that repeats one word.
#: 3.0 -> 5.0 by ``bench/tune.py`` (chosen in four cross-validation folds of five).
COORDINATION = 5.0
#: ... and ENGLISH_COORDINATION for an English question (it asks, and is read as English): its
#: terms are the asker's own words, so covering all of them says more than for a keyword lookup
#: (when it was set apart, a German question's weighted translations were thought to say less;
#: measured in session 27 they say more still: GERMAN_COORDINATION).
#: ``bench/tune.py --only rerank.ENGLISH_COORDINATION`` chose 8.0 in every fold of seeds 9, 1,
#: 2 and 3 (grid 0-12): cross-validated dev MRR@10 en 0.760 -> 0.767, hit@3 0.85 -> 0.87, de
#: unchanged; 10 scores en higher in-sample (0.774) but costs the keyword set's questions
#: (0.939 -> 0.935). Keyword lookups keep COORDINATION.
ENGLISH_COORDINATION = 8.0
#: ... and GERMAN_COORDINATION for a German question's hits. Until session 27 German questions
#: kept COORDINATION with the keyword lookups, and ``bench/tune.py``'s grid for it stopped at
#: 5. Set apart, ``--only rerank.GERMAN_COORDINATION`` (1,105 dev questions with ``dev10.tsv``)
#: chose 24 in four folds and 12 in one: cross-validated German 0.596 -> 0.601 (hit@3 0.68 ->
#: 0.69); English and the keyword lookups are unchanged. In-sample 8 / 12 / 16 / 24 / 32 score
#: 0.598 / 0.601 / 0.602 / 0.602 / 0.602, and the German twins of English dev questions
#: (``paired.tsv``, ``paired2.tsv``, 353) 0.582 -> 0.582 / 0.583 / 0.585 / 0.582 / 0.584: 16, best
#: on both together. At 16 eight of the nine blind rounds go up (dev2 to dev10: dev4 0.705 ->
#: 0.727, the realistic dev10 0.544 -> 0.570, dev8 0.402 -> 0.412), the older sets written
#: beside the first German reading go down (players.tsv 0.622 -> 0.603, german.tsv 0.651 ->
#: 0.620); with sentence vectors German 0.629 -> 0.637. A German question's terms are weighted
#: translations, but the rule that holds the most of them still answers it more often than the
#: plainer weight let on.
GERMAN_COORDINATION = 16.0
#: A hit whose title holds the English query words in the query's order scores (1 + PHRASE)
#: times more (in its text: a quarter of that, as the field boosts weigh them), so "poison
#: counter" prefers "Poison Counter" to "Poisonous"; only for short queries, where the order
#: is a name's, not a sentence's. Checked on the re-ranked hits' stored fields, as whoosh
#: phrase queries cost more time than they tell. Translated names get no phrase: that lifts
#: the English hits of a German question over its German ones.
PHRASE = 1.0
PHRASE_WORDS = 3
#: A query of at least this many words, or this many terms one language knows, is a question
#: ("when can a player concede"): it wants the rule that answers it, so a glossary entry or a
#: rule restating another ranks just below the best hit among the rules it cites.
QUESTION_TERMS = 3
#: A rule citing another found rule goes behind it only if the cited rule scores at least this
#: share of its own score: then it restates the cited rule ("... loses the game as a
#: state-based action. See rule 704."); a rule far ahead of the rule it mentions in passing
#: ("(See rule 509, ...)") is the better answer itself.
RESTATED = 0.6

#: The stemmer keeps a word and the words derived from it apart ("own" / "owner", "block" /
#: "blockers"), though a question asking "who owns a token" is answered by "The player who
#: creates a token is its owner" (111.2). For a question, an English term a hit holds only in
#: such a form (the term with up to DERIVED_LETTERS more letters) covers this share of its
#: weight in `coordinate` (tuned by ``bench/tune.py``; 0 turns it off). A negated word needs
#: none of this: the analyzer gives "untapped" the term of "tapped" too (``analysis``).
DERIVED_COVER = 1.0  # 0.5 -> 1.0: chosen in every cross-validation fold
DERIVED_LETTERS = 3

_WORD = re.compile(r"\w+")
#: Where a hit's stored text turns to its examples (see `coordinate`).
_EXAMPLES = re.compile(r"\n(?:Example|Beispiel):")
#: "What happens if ...", "was passiert mit ...": the user wants the rule that says what
#: follows from a situation, and those rules are written "If <situation>, <consequence>."
_CONSEQUENCE_QUESTION = re.compile(
    r"\b(?:what\s+happens|what\s+happened|was\s+passiert|was\s+geschieht)\b", re.IGNORECASE
)
_CONSEQUENCE_RULE = re.compile(r"^\s*(?:if|wenn|falls)\b", re.IGNORECASE)


def coordinate(
    found: Ranked,
    known: dict[str, set[str]],
    weight: dict[str, dict[str, float]],
    analyze: Analyze,
    derived: Mapping[str, frozenset[str]] | None = None,
    coordination: float | None = None,
) -> Ranked:
    """Each hit's score times (1 + COORDINATION * share²) of the `known` terms it covers
    (`coordination` in place of COORDINATION when given: ENGLISH_COORDINATION or
    GERMAN_COORDINATION, a question's).

    Coverage counts only terms the hit's language knows (a German word run through the
    English analyzer is noise), weighs each by its idf (`weight`: covering "cleanup" says more
    than covering "hand") and is squared, so covering nearly all of a question beats covering
    its common half. An English term the hit has only in a form `derived` from it ("owner"
    for "own") covers DERIVED_COVER of its weight. A rule's examples do not count: they tell
    a story in other rules' words ("Example: ... blocks ... is dealt damage ... dies"), so a
    question's words in them say little about what the rule itself says.
    """
    total = {lang: sum(w.values()) for lang, w in weight.items()}
    factor = COORDINATION if coordination is None else coordination
    out = []
    for f, sc in found:
        lang = "de" if f.get("language") == "de" else "en"
        if not total[lang]:
            out.append((f, sc))
            continue
        own = _EXAMPLES.split(str(f.get("text") or ""), maxsplit=1)[0]
        words = text_terms(f"{f.get('title') or ''} {own}", lang, analyze)
        have = words & known[lang]
        got = sum(weight[lang][t] for t in have)
        if derived and lang == "en":
            through = [t for t, forms in derived.items() if t not in have and forms & words]
            got += DERIVED_COVER * sum(weight[lang][t] for t in through)
        share = got / total[lang]
        out.append((f, sc * (1 + factor * share * share)))
    return out


#: How many texts' term sets (and word sequences) re-ranking keeps (cleared when full).
TERMS_CACHE = 8192
_TEXT_TERMS: TextCache[frozenset[str]] = TextCache(TERMS_CACHE)


def text_terms(text: str, lang: str, analyze: Analyze) -> frozenset[str]:
    """The index terms of `text`'s words in `lang`, cached (`TextCache`): a question's 40 hits
    are analysed word by word for coverage (and the glossary feedback reads definitions the
    same way), and the same hits come back query after query (about 2 ms of a long question's
    warm time before the cache)."""

    def make() -> frozenset[str]:
        out: set[str] = set()
        for w in _WORD.findall(text):
            out |= analyze(lang, w)
        return frozenset(out)

    return _TEXT_TERMS.get(text, lang, analyze, make)


def phrase_factor(
    f: Fields, phrase: list[frozenset[str]], analyze: Analyze, boosts: Mapping[str, float]
) -> float:
    """The PHRASE factor of an English hit: its title, else its text, holds `phrase`, the
    query's words in order, each as its index terms (stop words left out), compared word by
    word ("untapped" is untap and tap, and "tapped" is not it).

    `boosts` are the query's field boosts: the text's factor is scaled down as its words are.
    """
    if f.get("language") == "de":
        return 1.0
    n = len(phrase)
    for field in ("title", "text"):
        seq = text_sequence(str(f.get(field) or ""), "en", analyze)
        if any(seq[i : i + n] == phrase for i in range(len(seq) - n + 1) if seq[i] == phrase[0]):
            return 1 + PHRASE * boosts[field] / boosts["title"]
    return 1.0


_TEXT_SEQUENCES: TextCache[list[frozenset[str]]] = TextCache(TERMS_CACHE)


def text_sequence(text: str, lang: str, analyze: Analyze) -> list[frozenset[str]]:
    """The index terms of `text`'s words in `lang`, word by word (words without any, stop
    words, left out), cached as `text_terms` is: a short query's phrase is looked for in its
    40 hits' text, and the same hits come back query after query. Callers must not change it."""
    return _TEXT_SEQUENCES.get(
        text, lang, analyze, lambda: [t for t in (analyze(lang, w) for w in _WORD.findall(text)) if t]
    )


@functools.lru_cache(maxsize=4096)
def _inflected(word: str) -> frozenset[str]:
    """`word` and its regular English inflections, spelling changes included ("resolve":
    resolving, resolved; "ability": abilities), so they never count as derived words."""
    forms = {word + end for end in _INFLECTIONS}
    if word.endswith("e"):
        forms |= {word[:-1] + end for end in ("ing", "ed")}
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        forms |= {word[:-1] + "ies", word[:-1] + "ied"}
    return frozenset(forms)


def derived_factor(f: Fields, wanted: set[str], said: set[str], analyze: Analyze) -> float:
    """DERIVED if an English hit's title meets the query only through a derived word.

    The stemmer makes "Poisonous" = "poison", so every rule of the keyword Poisonous
    (title and context) matches "poison counter" as strongly as the rules about poison
    counters do. A title word that shares a query term's stem but is not a word the query
    said (nor a regular inflection of one, `_inflected`) names something else.

    Session 21: applied to one-word lookups too (before, only from two terms on), with
    "resolving", "abilities" as inflections. Every term row's rule looked up by its names
    (``bench/names.py``): English 299 names MRR@10 0.717 -> 0.723 (8 up: "Enchantment"
    8 -> 3, "Counters" 5 -> 2; 2 down: "Prevent" -> 615 "Prevention Effects" 3 -> 5,
    "Attack" -> 508 "Declare Attackers Step" 10 -> out),
    German 318 names and variants 0.740 -> 0.744 with `SearchEngine._german_only`; the
    keyword set (0.945) and the 915 dev questions unchanged.
    """
    if f.get("language") == "de" or not wanted:
        return 1.0
    for w in _WORD.findall(str(f.get("title") or "").lower()):
        if not analyze("en", w) & wanted:
            continue
        w = fold(w)
        if any(w in _inflected(s) for s in said):
            return 1.0
        return DERIVED
    return 1.0


def names_query(wanted: dict[str, set[str]], analyze: Analyze) -> Callable[[Fields], bool]:
    """A test: does a glossary entry's term name everything the query asks for?"""

    def names(f: Fields) -> bool:
        lang = "de" if f.get("language") == "de" else "en"
        have: set[str] = set()
        for w in _WORD.findall(str(f.get("title") or "")):
            have |= analyze(lang, w)
        return bool(wanted[lang]) and wanted[lang] <= have

    return names


def behind_cited_rules(found: Ranked, names_whole_query: Callable[[Fields], bool]) -> Ranked:
    """Move each hit that refers elsewhere just behind the best-scoring found rule it cites.

    A glossary entry is a definition pointing at rules ("See rule 702.70"), and a rule that
    restates another's outcome points at it too ("... loses the game as a state-based action.
    See rule 704."); for a question the cited rule is the answer and the citing hit a pointer
    to it, so both stay but the cited rule goes first. Hits citing no found rule, rules
    scoring far above the rule they cite (see RESTATED), and glossary entries whose term is
    the whole query ("combat damage step") keep their score. Deferring is decided on the
    scores before any hit moves, so one move never sets off another.
    """
    best_at: dict[tuple[str, tuple[Any, ...]], float] = {}  # (document, what cites it) -> best score
    for f, sc in found:
        rn = own_number(f)
        if rn is not None:
            doc = str(f.get("document"))
            for key in _citing_keys(rn):
                if best_at.get((doc, key), sc) <= sc:
                    best_at[(doc, key)] = sc
    out = []
    for f, sc in found:
        glossary = f.get("kind") == "glossary"
        if not (glossary and names_whole_query(f)):
            cited = citations(str(f.get("text") or ""), None if glossary else f.get("number"))
            doc = str(f.get("document"))
            scores = [best_at[(doc, k)] for k in map(_cited_key, cited) if (doc, k) in best_at]
            best = max(scores, default=None)
            if best is not None and best <= sc and (glossary or best >= RESTATED * sc):
                sc = best * 0.99
        out.append((f, sc))
    return out


def _citing_keys(rn: RuleNumber) -> tuple[tuple[Any, ...], ...]:
    """The citations that contain `rn` (``RuleNumber.contains``), as `_cited_key` names them:
    its section, its rule and the subrule itself."""
    if rn.rule is None:
        return ((rn.section,),)
    return ((rn.section,), (rn.section, rn.rule), (rn.section, rn.rule, rn.letter))


def _cited_key(c: RuleNumber) -> tuple[Any, ...]:
    """What a citation covers: a section, a rule with its subrules, or one subrule."""
    if c.rule is None:
        return (c.section,)
    return (c.section, c.rule) if c.letter is None else (c.section, c.rule, c.letter)


def own_number(f: Fields) -> RuleNumber | None:
    """A rule hit's number, else None (glossary entries, unnumbered sections)."""
    if f.get("kind") == "glossary" or not f.get("number"):
        return None
    return _parsed_number(str(f.get("number")))


@functools.lru_cache(maxsize=8192)
def _parsed_number(number: str) -> RuleNumber | None:
    try:
        return RuleNumber.parse(number)
    except InputError:
        return None


@functools.lru_cache(maxsize=8192)
def citations(text: str, number: str | None) -> tuple[RuleNumber, ...]:
    """The rules `text` cites, leaving out its own rule's ancestors and subrules (`number`).

    Cached: the same hits come back query after query, and parsing their references on every
    question would cost more than the rest of the re-ranking.
    """
    own = _parsed_number(number) if number else None
    out = []
    for ref in find_references(text):
        rn = _parsed_number(ref)
        if rn is not None and (own is None or not (rn.contains(own) or own.contains(rn))):
            out.append(rn)
    return tuple(out)


def asks_consequence(query: str) -> bool:
    """Does `query` ask what follows from a situation ("what happens if ...")?"""
    return bool(_CONSEQUENCE_QUESTION.search(query))


def consequence_factor(f: Fields) -> float:
    """CONSEQUENCE for a rule written as "If <situation>, <consequence>", else 1."""
    if f.get("kind") == "glossary" or not f.get("number"):
        return 1.0
    return CONSEQUENCE if _CONSEQUENCE_RULE.match(str(f.get("text") or "")) else 1.0


#: A question's hit from further down its rule weighs less: a rule's first subrules state it
#: ("702.19b": trample's damage goes through), the later ones its corner cases (702.19e:
#: trample over planeswalkers attacking a removed planeswalker), and a player asks the rule
#: far more often than a corner. The factor is 1 / (1 + SUBRULE * log(1 + k)) for the k-th
#: subrule (a: 0); tuned by ``bench/tune.py`` (0 turns it off). A rule whose text ends in a
#: colon lists peers ("704.5. The state-based actions are as follows:", "116.2. There are
#: twelve special actions:"): its subrules are not corners of one rule, and keep their score.
SUBRULE = 0.2  # 0.1 -> 0.2: chosen in four cross-validation folds of five
#: ... in the keyword sections (`numbers.KEYWORD_SECTIONS`: 701, 702), where a rule is one keyword: its first
#: subrule defines it, the later ones are its corners. Elsewhere a rule's subrules are as often
#: peers whose parent does not end in a colon (903.12's Brawl rules, 509.3's kinds of "blocks"
#: triggers, 118.8's additional costs), and the factor uses OTHER_SUBRULE: 0.2 -> 0.15 (session
#: 17, 555 dev questions with ``dev4.tsv``): ``bench/tune.py --only rerank.OTHER_SUBRULE``
#: chose 0.15 in every fold of seeds 9, 1 and 2, cross-validated de 0.631 -> 0.633, en 0.701
#: -> 0.706 (SUBRULE itself, re-checked beside it: 0.2 in every fold, de 0.624 without it);
#: the blind rounds dev2.tsv de 0.511 -> 0.523, dev3.tsv de 0.500 -> 0.499 and en 0.593 ->
#: 0.600, dev4.tsv de 0.600 -> 0.605 (hit@3 0.68 -> 0.73), their English otherwise unchanged;
#: the older sets questions.tsv de 0.735 -> 0.740, en 0.776 -> 0.791, players.tsv de 0.703 ->
#: 0.708, en 0.751 -> 0.754, german.tsv 0.714 -> 0.688 ("was ist der Manawert einer Karte":
#: 202.3 first -> fourth); keyword set 0.945 unchanged. Before the count cue's fix (`_counts`)
#: and ``dev4.tsv`` the same grid chose 0.15 in four folds of five and did not
#: carry (de 0.632 -> 0.631, dev2.tsv en 0.701 -> 0.684).
OTHER_SUBRULE = 0.15


def generality_factor(f: Fields, lists: Callable[[str], bool]) -> float:
    """How early in its rule a rule hit stands (see SUBRULE, OTHER_SUBRULE); `lists(parent
    number)` says whether the parent rule introduces a list of peers."""
    rn = own_number(f)
    if rn is None or rn.letter is None or lists(str(rn.parent)):
        return 1.0
    weight = SUBRULE if rn.section in KEYWORD_SECTIONS else OTHER_SUBRULE
    return 1.0 / (1.0 + weight * math.log1p(SUBRULE_LETTERS.index(rn.letter)))


#: A rule about one named thing answers a question only if the question names it: the keyword
#: actions and abilities (701, 702), the additional rules from coin flips on (705-733: face-down
#: permanents, sagas, the monarch, shortcuts ...) and the multiplayer and casual variants (800
#: on). Their words are every rule's words ("damage", "counter", "turn"), so a question about
#: +1/+1 and -1/-1 counters found Graft and Modular first, "who wins if every player loses"
#: the Two-Headed Giant. Such a hit whose title (its own or its section's: "Vanishing",
#: "Shared Team Turns Option") does not hold the question's rarest term scores TOPIC times less
#: (a title names its thing by its rarest word: "share", not "turns", which "play a land during
#: my turn" says too); a section headed "General" (700, 800, 900) names no topic. Tuned by
#: ``bench/tune.py`` (1 turns it off): 0.5 -> 0.3 in every cross-validation fold (both modes, 285
#: dev questions); 0.3 -> 0.5 with ``dev2.tsv`` (session 16, 375): ``--only rerank.TOPIC`` chose
#: 0.5 in every fold of seeds 9, 1 and 2 (cross-validated en 0.736 -> 0.740, de unchanged), and
#: chosen on the older dev sets alone it is 0.5 too, which lifts the blind ``dev2.tsv``'s English
#: 0.642 -> 0.659 (German unchanged; keyword set 0.939 both).
TOPIC = 0.5
NAMED_SECTIONS = (range(701, 703), range(705, 800), range(801, 900), range(901, 1000))


def titled(f: Fields, wanted: set[str], lang: str, analyze: Analyze) -> bool:
    """Does a hit's title share a term with `wanted` (the query's terms in `lang`)?"""
    return any(analyze(lang, w) & wanted for w in _WORD.findall(str(f.get("title") or "")))


def topic_factor(f: Fields, wanted: set[str], analyze: Analyze, idf: Callable[[str], float]) -> float:
    """TOPIC for an English rule hit about a named thing (`NAMED_SECTIONS`) whose title's rarest
    term (by `idf`) is not among the question's English terms `wanted`, else 1."""
    if f.get("language") == "de" or f.get("kind") == "glossary":
        return 1.0
    rn = _parsed_number(str(f.get("current") or f.get("number") or ""))
    if rn is None or not any(rn.section in named for named in NAMED_SECTIONS):
        return 1.0
    title = {t for w in _WORD.findall(str(f.get("title") or "")) for t in analyze("en", w)}
    return 1.0 if not title or max(sorted(title), key=idf) in wanted else TOPIC


#: An English question's rarest word names what it is about ("can I look at my opponent's
#: graveyard": graveyard, "when can I cast a spell with flash": flash), and a rule filed under a
#: title with that word (its own or its section's: "Graveyard", "Flash") is about it; its
#: neighbours elsewhere only use the word. Such a hit scores TITLED times more (``bench/tune.py``;
#: 1 turns it off). ``--only rerank.TITLED`` chose 1.5 in every fold: cross-validated dev MRR@10
#: en 0.735 -> 0.749 (hit@3 0.83 -> 0.85). A German question is left out: its rarest English
#: term is a translation, and lifting the titles of it, or of the rarest of its likelier
#: translations only (p >= 0.3, 0.5, 0.8), did not carry (``bench/learn.py``: de 0.709 -> 0.707).
TITLED = 1.5


def rarest(wanted: dict[str, set[str]], idf: Callable[[str, str], float]) -> dict[str, set[str]]:
    """Each language's rarest query term by `idf(lang, term)`, as a set (empty if it has none)."""
    out: dict[str, set[str]] = {}
    for lang, ts in wanted.items():
        out[lang] = {max(sorted(ts), key=lambda t: idf(lang, t))} if ts else set()
    return out


def titled_factor(f: Fields, rarest_terms: dict[str, set[str]], analyze: Analyze) -> float:
    """TITLED for a hit whose title holds the query's rarest term in the hit's language
    (`rarest_terms`, see `rarest`), else 1."""
    lang = "de" if f.get("language") == "de" else "en"
    return TITLED if titled(f, rarest_terms.get(lang, set()), lang, analyze) else 1.0


#: The keyword rules repeat a few sentences with only the keyword's name changed ("Multiple
#: instances of flying on the same creature are redundant", "The deathtouch rules function no
#: matter what zone an object with deathtouch deals damage from"): corners every keyword has,
#: which a question about one keyword ("does lifelink work on noncombat damage") seldom asks.
#: Such a templated rule of a question's hits scores BOILERPLATE times less (``bench/tune.py``;
#: 1 turns it off).
BOILERPLATE = 0.6
_DIGITS = re.compile(r"\d+")


@functools.lru_cache(maxsize=8192)
def template(text: str, title: str) -> str:
    """A keyword rule's text with its keyword's name (its title) and its numbers masked: the
    same for every keyword's copy of a templated sentence (cached: the same hits come back)."""
    if title:
        text = re.sub(re.escape(title), "X", text, flags=re.IGNORECASE)
    return _DIGITS.sub("N", _EXAMPLES.split(text, maxsplit=1)[0]).strip()


def version_rank(version: str | None, language: str | None) -> int:
    """Newest dated release first; English before German at equal dates (the default view)."""
    return release_date(version) * 2 + (language == "en")


#: What a hit's text says when it answers a question of each intent (see `question.INTENTS`):
#: "wann"/"when" is answered by a rule of timing words, "darf"/"may" by one saying what a
#: player may or can't do, "wie viele"/"how many" by a number: a word of digits or a number
#: word, not a rule it cites ("as described in rule 601.2b", `_counts`). Read as numbers,
#: citations gave the count cue to 35% of the English rules (19% without), 118.8 ("... rule
#: 601.2b") as well as 118.8a ("Any number of additional costs"); without them (session 17) five German "wie
#: viele" questions go up and none down: dev de 0.632 -> 0.637 (players.tsv 0.687 -> 0.703,
#: the blind rounds dev2.tsv 0.503 -> 0.511, dev3.tsv 0.499 -> 0.500), English unchanged (no
#: "how many" question moved), the keyword set 0.941 -> 0.945; ``tune.py --only`` with it as
#: a switch chose it in every fold.
INTENT_CUES: dict[str, frozenset[str]] = {
    "time": frozenset({"any", "time", "during", "until", "whenever", "priority", "before", "after", "only"}),
    "may": frozenset({"may", "can", "can’t", "can't", "cannot", "only"}),
    "must": frozenset({"must", "required", "requirement", "requirements", "can’t", "can't"}),
    "who": frozenset({"player", "controller", "owner", "chooses", "who"}),
    "count": frozenset({"one", "two", "three", "four", "five", "six", "seven", "ten", "number", "twenty"}),
    "define": frozenset({"means", "mean", "term", "called", "defined", "definition"}),
}
#: "What does sacrifice mean": a rule defining a word speaks as "To sacrifice a permanent, ..."
#: (701.21a) or "The term dies means ..." (700.4); the first is no cue word (see INTENT_CUES).
_DEFINES = re.compile(r"^\s*To \w+")
#: The factor for a hit whose text holds a cue of the question's intent. 1.2 -> 1.4 with
#: ``dev2.tsv`` (session 16): ``bench/tune.py --only rerank.INTENT`` chose 1.4 in every fold of
#: seeds 9, 1 and 2 (a grid up to 2.0 too): cross-validated en 0.736 -> 0.748 (hit@3 0.86 ->
#: 0.87), de 0.653 -> 0.650; chosen on the older dev sets alone it is 1.4 too, which scores the
#: blind ``dev2.tsv`` en 0.642 -> 0.684 (hit@3 0.83 -> 0.87), de 0.472 -> 0.458 (the German
#: questions' English hits have the cues as well). With feedback.GLOSS = 0.1 beside it German
#: gains: see there.
INTENT = 1.4
_CUE_WORD = re.compile(r"[\w’']+")


def intent_factor(f: Fields, intents: tuple[str, ...]) -> float:
    """INTENT if an English rule hit's text speaks to one of the question's `intents`."""
    if f.get("language") == "de" or f.get("kind") == "glossary":
        return 1.0
    cues = [INTENT_CUES[i] for i in intents if i in INTENT_CUES]
    if not cues:
        return 1.0
    words = _cue_words(str(f.get("text") or ""))
    if any(c & words for c in cues) or ("count" in intents and _counts(str(f.get("text") or ""))):
        return INTENT
    if "define" in intents and _DEFINES.match(str(f.get("text") or "")):
        return INTENT
    return 1.0


#: A rule's citations of other rules ("see rule 601.2b", "rules 601.2a–h", "See section 8"):
#: numbers that count nothing, left out when a "how many" question looks for a number.
_REFERENCE = re.compile(r"(?<![\d.])[1-9]\d{2}\.\d+[a-z]?|\b(?:rules?|sections?)\s+\d+\b", re.IGNORECASE)


@functools.lru_cache(maxsize=8192)
def _counts(text: str) -> bool:
    """Does `text` hold a number (a word of digits) other than a rule it cites? (Cached.)"""
    return any(w.isdigit() for w in _CUE_WORD.findall(_REFERENCE.sub(" ", text)))


@functools.lru_cache(maxsize=8192)
def _cue_words(text: str) -> frozenset[str]:
    """`text`'s words, lower-cased, as intent cues are matched (cached: the same hits come back)."""
    return frozenset(_CUE_WORD.findall(text.lower()))


def interleave_language(
    found: Ranked, lang: str, share: float, lifts: Callable[[Fields], bool] | None = None
) -> Ranked:
    """Lift the `lang` hits so the best of them scores at least `share` of the best other hit.

    Scores of different languages are not comparable (a German sentence reaches English
    text through many translated terms, German text through its few own words); scaling
    keeps each language's order and puts the asker's own language right beside the best
    answer instead of below forty English ones. With `lifts`, only the `lang` hits it
    accepts are lifted; the others keep their score.
    """

    def lifted(f: Fields) -> bool:
        return f.get("language") == lang and (lifts is None or lifts(f))

    mine = [sc for f, sc in found if lifted(f)]
    other = [sc for f, sc in found if f.get("language") != lang]
    if not mine or not other or max(mine) <= 0:
        return found
    factor = share * max(other) / max(mine)
    if factor <= 1.0:
        return found  # already there: never pushed down
    out = [(f, sc * factor if lifted(f) else sc) for f, sc in found]
    out.sort(key=lambda x: -x[1])
    return out
