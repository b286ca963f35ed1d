"""Weighing the question ranking's signals jointly (issue 9): would choosing the re-ranking
factors' weights together, instead of one at a time (``bench/tune.py``), carry to unseen
questions, and does a signal the code does not use yet carry at all?

For each dev question the engine ranks its top RERANK hits as the code does; each hit gets
features: the log of each factor the re-ranking gave it (`FACTORS`: weight 1 more is the
factor squared, -1 switches it off) and signals the code does not use (`CANDIDATES`). A hit's
new score is log(its score) + sum(weight * feature), so all weights 0 is the code's order. A
coordinate search over `GRID` maximises the mean of the languages' MRR@10 on the training folds
(``tune.folds``, the same folds), and each question is scored once, by the weights chosen
without its fold. Collecting the hits takes a minute; each experiment then takes seconds.
The cross-validated figures are printed per language and per dev set; ``--blind FILE ...``
(``dev2.tsv`` to ``dev9.tsv``) adds each blind round scored by the weights chosen on the other
dev sets alone, as a change must carry to them (issue 9). Neither held-out set is read. Run
from the repository root (needs ../shared): ``python bench/learn.py [--features NAME ...]
[--seed N] [--pool N] [--blind FILE ...]`` (``--pool``: re-rank that many whoosh hits, not the
code's ``query.RERANK``).
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: "bench" must resolve to the package folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench import tune
from bench.baseline import hit_matches
from bench.questions import Question, load_questions, newest_library

#: The factors the code applies to a question's hits (see ``rerank``).
FACTORS = ("topic", "titled", "boilerplate", "consequence", "generality", "intent")
#: Signals the code does not use: a lettered subrule; a glossary entry; a German section; the
#: length of a rule's own text; how many other hits of the first ten share its section; a
#: section's first rule (``NNN.1``), for any question and for one asking what a thing is
#: ("was ist ...", the rule that says what the section's thing is); a rule that only announces
#: a list ("116.2. There are twelve special actions:"). Session 15 (`nearby`): how close
#: together the question's words stand in the hit's own text (``proximity``: each pair of
#: them by 1/distance², idf-weighted; ``span``: the words matched per word of the shortest
#: stretch holding them all), its best sentence's and its first sentence's idf-weighted share
#: of the question, squared (``sentence``, ``first_sentence``), what its parent rule's text
#: adds to that share (``parent``: a subrule read in its rule's context), what its section's
#: first rule adds (``opening_context``: "704.5g" read with "704.1"), and the summed
#: scores of the other hits of its rule beside its own (``rule_mates``). Session 17
#: (`family`): what tells a hit from its siblings.
CANDIDATES = (
    "lettered", "glossary", "german", "length", "section", "opening", "opening_what", "header",
    "proximity", "span", "sentence", "first_sentence", "parent", "opening_context", "rule_mates",
    *("family", "family_gain", "example_share", "kind", "generality_keyword", "generality_other"),
    *("generality_tied", "generality_untied", "negation_yes_no", "negation_asked"),
)
FEATURES = FACTORS + CANDIDATES
GRID = (-2.0, -1.0, -0.6, -0.3, -0.15, -0.07, 0.0, 0.07, 0.15, 0.3, 0.6, 1.0, 2.0)
PASSES = 3
_WHAT_IS = re.compile(r"^\s*(?:what\s+(?:is|are)|was\s+(?:ist|sind|bedeute\w*))\s(?!(?:if|wenn)\b)", re.I)
_HEADER = re.compile(r"^[^.:]*:\s*$")
Row = tuple[float, tuple[float, ...], bool]


@dataclass(frozen=True)
class Listing:
    """One question's hits: (log score, features, answers it) in the code's order."""

    lang: str
    query: str
    rows: tuple[Row, ...]
    source: str = ""


@contextmanager
def captured(into: dict[str, Any]) -> Iterator[None]:
    """Each search's final ranking and what its re-ranking knew, kept in `into`."""
    from regelwerk.index.search.query import SearchEngine

    order = SearchEngine._answer_order

    def keep(self: Any, ranked: Any, text: str, flt: Any, lang: str | None, terms: Any) -> Any:
        out = order(self, ranked, text, flt, lang, terms)
        wanted = {lg: {t for t in ts if self._known(lg, t)} for lg, ts in terms.items()}
        into.update(out=out, text=text, wanted=wanted, asks=self._asks, intents=self._intents)
        into["german"] = self._german
        into["templated"] = self._templated(flt)
        return out

    coordinate = SearchEngine._coordinate

    def scaled(self: Any, found: Any, wanted: Any, *args: Any) -> Any:
        into["scale"] = dict(args[3] or {}) if len(args) > 3 else {}  # (phrase, question, said, scale)
        return coordinate(self, found, wanted, *args)

    SearchEngine._answer_order = keep  # type: ignore[method-assign]
    SearchEngine._coordinate = scaled  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        SearchEngine._answer_order = order  # type: ignore[method-assign]
        SearchEngine._coordinate = coordinate  # type: ignore[method-assign]


def features(
    engine: Any, seen: dict[str, Any], f: dict[str, Any], sections: list[str | None], top: Any = ()
) -> dict[str, float]:
    """A hit's `FEATURES` (`sections`: the first ten hits' sections, the hit's own left out;
    `top`: the question's ranked hits, for `nearby`)."""
    from regelwerk.index.search import rerank

    asks, text = bool(seen["asks"]), str(seen["text"])
    rn = rerank.own_number(f)
    idf: Callable[[str], float] = lambda t: engine._idf("en", t)  # noqa: E731
    own = rerank._EXAMPLES.split(str(f.get("text") or ""), maxsplit=1)[0]
    section = _section(f)
    opening = rn is not None and rn.rule == 1 and rn.letter is None
    log = math.log
    return {
        "topic": log(rerank.topic_factor(f, seen["wanted"]["en"], engine._analyze, idf)) if asks else 0.0,
        "boilerplate": log(rerank.BOILERPLATE) if asks and seen["templated"](f) else 0.0,
        "titled": log(rerank.titled_factor(f, rerank.rarest(seen["wanted"], engine._idf), engine._analyze))
        if asks and not seen["german"]
        else 0.0,
        "consequence": log(rerank.consequence_factor(f)) if rerank.asks_consequence(text) else 0.0,
        "generality": log(rerank.generality_factor(f, engine._lists)) if asks else 0.0,
        "intent": log(rerank.intent_factor(f, seen["intents"])) if seen["intents"] else 0.0,
        "lettered": float(asks and rn is not None and rn.letter is not None),
        "glossary": float(asks and f.get("kind") == "glossary"),
        "german": float(f.get("language") == "de"),
        "length": log(1 + len(own.split())) if asks else 0.0,
        "section": log(1 + sum(s == section for s in sections)) if asks and section else 0.0,
        "opening": float(asks and opening),
        "opening_what": float(opening and bool(_WHAT_IS.match(text))),
        "header": float(asks and rn is not None and bool(_HEADER.match(own))),
    } | nearby(engine, seen, f, list(top)) | family(engine, seen, f, list(top))


_SENTENCE = re.compile(r"(?<=[.;:])\s+")
NEARBY = ("proximity", "span", "sentence", "first_sentence", "parent", "opening_context", "rule_mates")


def nearby(engine: Any, seen: dict[str, Any], f: dict[str, Any], top: list[Any]) -> dict[str, float]:
    """The session-15 candidates of a question's hit (see `CANDIDATES`); all 0 for a lookup."""
    from regelwerk.index.search import rerank

    if not seen["asks"]:
        return dict.fromkeys(NEARBY, 0.0)
    lang = "de" if f.get("language") == "de" else "en"
    wanted = seen["wanted"][lang]
    scale = seen.get("scale", {})
    weight = {t: engine._idf(lang, t) * scale.get(t, 1.0) for t in wanted}
    total = sum(weight.values()) or 1.0

    def share(text: str) -> float:
        return float(sum(weight[t] for t in rerank.text_terms(text, lang, engine._analyze) & wanted) / total)

    own = rerank._EXAMPLES.split(str(f.get("text") or ""), maxsplit=1)[0]
    places: dict[str, list[int]] = {}
    for i, ts in enumerate(rerank.text_sequence(own, lang, engine._analyze)):
        for t in ts & wanted:
            places.setdefault(t, []).append(i)
    pairs = list(itertools.combinations(sorted(places), 2))
    near = sum(min(weight[a], weight[b]) / max(_gap(places[a], places[b]), 1) ** 2 for a, b in pairs)
    sentences = [share(s) for s in _SENTENCE.split(own) if s]
    rn = rerank.own_number(f)
    parent = 0.0
    if rn is not None and rn.letter is not None:
        above = _parent_text(engine, f, str(rn.parent))
        parent = share(f"{above} {own}") ** 2 - share(own) ** 2 if above else 0.0
    opening = 0.0
    if rn is not None and rn.rule not in (None, 1):
        first = _parent_text(engine, f, f"{rn.section}.1")
        opening = share(f"{first} {own}") ** 2 - share(own) ** 2 if first else 0.0
    mine = next((sc for g, sc in top if g is f), 0.0)
    mates = [sc for g, sc in top if g is not f and _rule(g) is not None and _rule(g) == _rule(f)]
    return {
        "proximity": math.log1p(10 * near / total),
        "span": len(places) / _shortest(places) if len(places) > 1 else 0.0,
        "sentence": max(sentences, default=0.0) ** 2,
        "first_sentence": sentences[0] ** 2 if sentences else 0.0,
        "parent": parent,
        "opening_context": opening,
        "rule_mates": math.log1p(sum(mates) / mine) if mates and mine > 0 else 0.0,
    }


FAMILY = (
    "family", "family_gain", "example_share", "kind", "generality_keyword", "generality_other",
    "generality_tied", "generality_untied", "negation_yes_no", "negation_asked",
)
#: A statement that something does not happen or is not so ("Revealing a card doesn't cause
#: it to leave the zone it's in", "Priority doesn't apply to them"), and a question saying one.
_NEGATED = re.compile(r"n[’']t\b|\b(?:not|no|never|cannot|none|nothing|neither|nor)\b", re.I)
_ASKS_NEGATED = re.compile(r"\b(?:nicht|kein\w*|nichts|nie|niemals|not|no|never|none|nothing)\b|n[’']t\b",
                           re.I)
#: The intents (``question.INTENTS``) of a question that is more than a yes/no question.
_WH = {"time", "who", "where", "how", "which", "what", "count", "define", "why", "consequence"}
#: What a rule's own text states, by its wording (`family`'s ``kind``) ...
_KINDS = {
    "may": re.compile(r"\b(?:may|can)\b(?! ?(?:not|n[’']t))", re.I),
    "must": re.compile(r"\b(?:must|can(?:’|')t|cannot|can not|doesn(?:’|')t|isn(?:’|')t)\b", re.I),
    "consequence": re.compile(r"^\s*(?:if|when|once|whenever)\b|\binstead\b|\bis put into\b", re.I),
    "define": re.compile(r"^\s*(?:to \w+|an? [\w ,’'-]+ is|the term)\b|\bmeans\b", re.I),
}
#: ... and the kind that answers each intent: permission "may", obligation "must", consequence
#: ("If ...", "instead", "is put into"), definition ("To sacrifice ...", "A token is ...").
_ANSWERS = {"may": "may", "must": "must", "consequence": "consequence", "define": "define", "what": "define"}


def family(engine: Any, seen: dict[str, Any], f: dict[str, Any], top: Any = ()) -> dict[str, float]:
    """The session-17 candidates of a question's English rule hit: what tells it from its
    *family* (a subrule's parent and sibling subrules; a rule's section's other rules and its
    own subrules); all 0 for a lookup, a glossary entry or a German hit (`top`: the
    question's ranked hits).

    - ``family``: the idf-weighted share of the question its own text covers, each term
      weighed by how few of the family hold it too (1 - df/n): a word every sibling holds
      cannot tell them apart, one only this hit holds can;
    - ``family_gain``: its plain share minus its family's best member's;
    - ``example_share``: the share its Example paragraphs cover, squared (a field of its own);
    - ``kind``: 1 if its statement is of the kind the question's intent asks for (`_ANSWERS`);
    - ``generality_keyword`` / ``generality_other``: the ``generality`` factor's log in the
      keyword sections (701, 702) / the others, so each can be weighed apart;
    - ``generality_tied`` / ``generality_untied``: the same, split by whether a found parent
      or earlier sibling covers exactly the question terms this hit covers;
    - ``negation_yes_no`` / ``negation_asked``: its own text negates ("doesn't", "no", "can't")
      and the question is a yes/no question / says a negation itself.
    """
    from regelwerk.index.search import rerank

    out = dict.fromkeys(FAMILY, 0.0)
    rn = rerank.own_number(f)
    wanted = seen["wanted"]["en"]
    if not seen["asks"] or f.get("language") == "de" or rn is None or rn.rule is None or not wanted:
        return out
    scale = seen.get("scale", {})
    weight = {t: engine._idf("en", t) * scale.get(t, 1.0) for t in wanted}
    total = sum(weight.values()) or 1.0
    own, *examples = rerank._EXAMPLES.split(str(f.get("text") or ""), maxsplit=1)

    def covers(text: str) -> set[str]:
        return set(rerank.text_terms(text, "en", engine._analyze) & wanted)

    def share(terms: set[str]) -> float:
        return sum(weight[t] for t in terms) / total

    mine = covers(_own_titled(f))
    kin = [covers(text) for text in _kin_texts(engine, f, rn)]
    if kin:
        out["family"] = sum(weight[t] * (1 - sum(t in k for k in kin) / len(kin)) for t in mine) / total
        out["family_gain"] = share(mine) - max(share(k) for k in kin)
    out["example_share"] = share(covers(" ".join(examples))) ** 2
    kinds = [_ANSWERS[i] for i in seen["intents"] if i in _ANSWERS]
    out["kind"] = float(bool(kinds) and bool(_KINDS[kinds[0]].search(own)))
    general = math.log(rerank.generality_factor(f, engine._lists))
    out["generality_keyword" if rn.section in (701, 702) else "generality_other"] = general
    earlier = [g for g, _ in top if g is not f and _earlier_kin(rerank.own_number(g), rn)]
    tied = any(covers(_own_titled(g)) == mine for g in earlier if g.get("language") == "en")
    out["generality_tied" if tied else "generality_untied"] = general
    negated = float(bool(_NEGATED.search(own)))
    out["negation_yes_no"] = negated if not set(seen["intents"]) & _WH else 0.0
    out["negation_asked"] = negated if _ASKS_NEGATED.search(str(seen["text"])) else 0.0
    return out


def _own_titled(f: dict[str, Any]) -> str:
    """A hit's title and own text (its examples left out), as coverage reads it."""
    from regelwerk.index.search import rerank

    return f"{f.get('title') or ''} {rerank._EXAMPLES.split(str(f.get('text') or ''), maxsplit=1)[0]}"


def _earlier_kin(other: Any, rn: Any) -> bool:
    """Is `other` `rn`'s parent or an earlier sibling subrule?"""
    if other is None or rn.letter is None or other.section != rn.section or other.rule != rn.rule:
        return False
    return other.letter is None or other.letter < rn.letter


def _kin_texts(engine: Any, f: dict[str, Any], rn: Any) -> list[str]:
    """The own texts (titles first) of `f`'s family (see `family`), in its release and language."""
    from regelwerk.ingest.model.numbers import SUBRULE_LETTERS

    key = (f.get("version"), f.get("language"), str(rn))
    if key in _KIN:
        return _KIN[key]
    numbers: list[str] = []
    if rn.letter is not None:
        base = f"{rn.section}.{rn.rule}"
        numbers.append(base)
        numbers += [f"{base}{x}" for x in SUBRULE_LETTERS if x != rn.letter]
    else:
        base = f"{rn.section}.{rn.rule}"
        numbers += [f"{base}{x}" for x in SUBRULE_LETTERS]
        numbers += [f"{rn.section}.{k}" for k in range(1, 100) if k != rn.rule]
    out = []
    for number in numbers:
        got = _text_of(engine, f, number)
        if got is not None:
            out.append(got)
    _KIN[key] = out
    return out


_KIN: dict[Any, list[str]] = {}
_TEXT: dict[Any, str | None] = {}


def _text_of(engine: Any, f: dict[str, Any], number: str) -> str | None:
    """The title and own text of the rule `number` in `f`'s release and language, or None."""
    from regelwerk.index.search import rerank

    key = (f.get("version"), f.get("language"), number)
    if key not in _TEXT:
        _TEXT[key] = None
        for g in _same_release(engine, f, number):
            own = rerank._EXAMPLES.split(str(g.get("text") or ""), maxsplit=1)[0]
            _TEXT[key] = f"{g.get('title') or ''} {own}"
            break
    return _TEXT[key]


def _gap(a: list[int], b: list[int]) -> int:
    return min(abs(i - j) for i in a for j in b)


def _shortest(places: dict[str, list[int]]) -> int:
    """The length in words of the shortest stretch holding every term of `places`."""
    events = sorted((i, t) for t, ps in places.items() for i in ps)
    held: dict[str, int] = {}
    best, lo = len(events) + max(i for i, _ in events) + 1, 0
    for i, t in events:
        held[t] = held.get(t, 0) + 1
        while len(held) == len(places):
            best = min(best, i - events[lo][0] + 1)
            first = events[lo][1]
            held[first] -= 1
            if not held[first]:
                del held[first]
            lo += 1
    return best


def _parent_text(engine: Any, f: dict[str, Any], number: str) -> str:
    """The own text (no examples) of the rule `number` in `f`'s release and language, or ""
    (a heading such as "704.1" has its title for text). Until session 17 it compared the stored
    unit's version, which units have not (their place gives it): it found no parent, and
    ``parent`` and ``opening_context`` were 0 for every hit."""
    from regelwerk.index.search import rerank

    for g in _same_release(engine, f, number):
        return rerank._EXAMPLES.split(str(g.get("text") or ""), maxsplit=1)[0]
    return ""


def _same_release(engine: Any, f: dict[str, Any], number: str) -> list[dict[str, Any]]:
    """The stored fields of the rule `number` in `f`'s release and language, placed (a stored
    unit has no version of its own: its place in the search's scope gives it one)."""
    placed = engine._placed([(dict(engine._stored(d)), 0.0) for d in engine._numbered(number)])
    mine = (f.get("language"), f.get("version"))
    return [g for g, _ in placed if (g.get("language"), g.get("version")) == mine]


def _rule(f: dict[str, Any]) -> tuple[int, int | None] | None:
    from regelwerk.index.search import rerank

    rn = rerank.own_number(f)
    return None if rn is None else (rn.section, rn.rule)


def _section(f: dict[str, Any]) -> str | None:
    number = str(f.get("current") or f.get("number") or "")
    return number.split(".")[0] if number and f.get("kind") != "glossary" else None


def collect(engine: Any, dev: list[Question]) -> list[Listing]:
    """Every dev question's top RERANK hits in the code's order, with their features."""
    from regelwerk.index.search.query import RERANK

    out = []
    seen: dict[str, Any] = {}
    with captured(seen):
        for q in dev:
            engine.search(q.case.query, limit=RERANK)
            top = seen["out"][:RERANK]
            sections = [_section(f) for f, _ in top[:10]]
            rows = []
            for i, (f, sc) in enumerate(top):
                x = features(engine, seen, f, sections[:i] + sections[i + 1 :], top)
                hit = engine._hit(f, sc, {"en": set(), "de": set()}).to_dict()
                answers = hit_matches(hit, q.case.expect)
                rows.append((math.log(max(sc, 1e-9)), tuple(x[k] for k in FEATURES), answers))
            out.append(Listing(q.lang, q.case.query, tuple(rows), q.source))
    return out


def reciprocal_rank(rows: tuple[Row, ...], weights: tuple[float, ...]) -> float:
    """1 / the rank of the first answering hit in the top ten under `weights`, else 0."""
    ranked = sorted(rows, key=lambda r: -(r[0] + sum(w * x for w, x in zip(weights, r[1], strict=True))))
    return next((1 / (i + 1) for i, r in enumerate(ranked[:10]) if r[2]), 0.0)


def objective(data: list[Listing], subset: list[int], weights: tuple[float, ...]) -> float:
    """The mean of the languages' MRR@10 over `subset`."""
    means = []
    for lang in ("de", "en"):
        idx = [i for i in subset if data[i].lang == lang]
        if idx:
            means.append(sum(reciprocal_rank(data[i].rows, weights) for i in idx) / len(idx))
    return sum(means) / len(means)


def fit(data: list[Listing], subset: list[int], active: list[int]) -> tuple[float, ...]:
    """Coordinate search over `GRID` for the `active` features' weights, from all 0."""
    weights = [0.0] * len(FEATURES)
    best = objective(data, subset, tuple(weights))
    for _ in range(PASSES):
        for j in active:
            for value in GRID:
                trial = [*weights[:j], value, *weights[j + 1 :]]
                score = objective(data, subset, tuple(trial))
                if score > best + 1e-12:
                    best, weights = score, trial
    return tuple(weights)


def cross_validated(data: list[Listing], dev: list[Question], active: list[int], seed: int) -> list[float]:
    """Each question's reciprocal rank under the weights chosen without its fold."""
    held = [0.0] * len(data)
    for k, test in enumerate(tune.folds(dev, seed)):
        train = [i for i in range(len(data)) if i not in set(test)]
        weights = fit(data, train, active)
        for i in test:
            held[i] = reciprocal_rank(data[i].rows, weights)
        print(f"fold {k}: {_named(weights, active)}")
    return held


def blind_round(data: list[Listing], active: list[int], source: str) -> tuple[tuple[float, ...], list[float]]:
    """The weights chosen on every dev set but `source` (a blind round, ``dev2.tsv``), and each
    question's reciprocal rank under them: does a signal chosen without the round carry to it?"""
    weights = fit(data, [i for i, d in enumerate(data) if d.source != source], active)
    return weights, [reciprocal_rank(d.rows, weights) for d in data]


def _named(weights: tuple[float, ...], active: list[int]) -> str:
    return ", ".join(f"{FEATURES[j]}={weights[j]}" for j in active if weights[j]) or "all 0"


def report(
    data: list[Listing], held: list[float], sources: tuple[str, ...] = ("",), label: str = "cross-validated"
) -> None:
    """MRR@10 and hit@3 per language: the code's order beside the cross-validated one (`held`);
    per dev set too for each of `sources` ("" is all of them)."""
    zero = tuple(0.0 for _ in FEATURES)
    code = [reciprocal_rank(d.rows, zero) for d in data]
    for source, lang in itertools.product(sources, ("de", "en")):
        idx = [i for i, d in enumerate(data) if d.lang == lang and source in ("", d.source)]
        if not idx:
            continue
        if source:
            print(f"  {source:<14}", end="")
        mrr = [sum(rr[i] for i in idx) / len(idx) for rr in (code, held)]
        hit3 = [sum(rr[i] >= 1 / 3 for i in idx) / len(idx) for rr in (code, held)]
        print(f"  {lang} n={len(idx):<4} MRR@10 code {mrr[0]:.3f} -> {label} {mrr[1]:.3f}", end="")
        print(f"  hit@3 {hit3[0]:.2f} -> {hit3[1]:.2f}")


def main(argv: list[str]) -> int:
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 9
    if "--pool" in argv:  # re-rank this many whoosh hits instead of the code's RERANK
        from regelwerk.index.search import query

        query.RERANK = int(argv[argv.index("--pool") + 1])
    names = list(FEATURES)
    if "--features" in argv:
        after = argv[argv.index("--features") + 1 :]
        names = list(itertools.takewhile(lambda a: not a.startswith("--"), after))
    unknown = sorted(set(names) - set(FEATURES))
    if unknown:
        raise SystemExit(f"--features: unknown {unknown}; known: {list(FEATURES)}")
    library = newest_library("regelwerk-learn-")
    if library is None:
        return 0
    from regelwerk.index.search.query import SearchEngine

    engine = SearchEngine(library)
    dev = load_questions(split="dev")
    data = collect(engine, dev)
    engine.close()
    active = [FEATURES.index(n) for n in names]
    sources = ("", *sorted({d.source for d in data}))
    print(f"{tune.FOLDS}-fold, weights of {', '.join(names)} chosen without the held fold:")
    report(data, cross_validated(data, dev, active, seed), sources)
    after = argv[argv.index("--blind") + 1 :] if "--blind" in argv else []
    for blind in itertools.takewhile(lambda a: not a.startswith("--"), after):
        weights, held = blind_round(data, active, blind)
        print(f"chosen without {blind}: {_named(weights, active)}")
        report(data, held, (blind,), "chosen without it")
    weights = fit(data, list(range(len(data))), active)
    print(f"chosen on all dev: {_named(weights, active)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
