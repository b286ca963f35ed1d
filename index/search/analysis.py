"""The named text analyzers of the search index, built as whoosh pipelines in one place.

Index time and query time must analyze a word the same way, so every field of the schema and
every query builder takes its analyzer from here by name (`ANALYZERS`). Whoosh pickles the
schema, analyzers included, into the index: the custom filters are plain classes with only
picklable state (strings, frozensets), never lambdas or closures.

- ``en``: words, lowercase, English stop words (plus question words), the base word of a
  negated one beside it ("untapped" -> untap, tap; "nontoken" -> nontoken, token), Porter
  stemming. The rules negate by prefix where a question names the base word ("can a tapped
  creature block" is answered by 509.1a's "untapped creatures"), and the two never met.
- ``de``: words, lowercase, umlaut folding (``regelwerk.ingest.model.fold``: ü = ue = u, ß = ss),
  splitting of rules-vocabulary compounds ("Kampfschaden" -> kampfschaden, kampf, schaden),
  German stop words (plus question words), Snowball German stemming. Folding comes first so
  "Buendnis", "Bündnis" and "Bundnis" meet at one term, and the compound parts are stemmed
  like free-standing words, so "Schaden" finds "Kampfschaden" and "Marke" finds "Giftmarken".
- ``name``: lowercase and folding only, for titles and keyword names, where the spelling
  vocabulary feeds typo correction.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from whoosh.analysis import (
    Analyzer,
    Filter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)

from regelwerk.index.terms.function_words import function_words
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.stemming import StemIndex, stem_de, stem_en

#: Tokens: runs of word characters; an apostrophe inside a word ("creature’s") splits it.
WORD_PATTERN = r"\w+"

#: Word parts of the German rules vocabulary, folded. A compound is split when it is made of
#: these (with an optional linking "s"/"n"/"en"/"es"/"e" between parts and an inflection at
#: the end). Kept short and domain-specific: splitting everyday words would only add noise.
RULES_PARTS: frozenset[str] = frozenset(
    fold(w)
    for w in [
        "angriff",
        "angreifer",
        "anfang",
        "artefakt",
        "aura",
        "ausrustung",
        "beherrscher",
        "bibliothek",
        "block",
        "blocker",
        "bonus",
        "bundnis",
        "doppel",
        "effekt",
        "eigenschaft",
        "ende",
        "erst",
        "exil",
        "fahigkeit",
        "farbe",
        "feld",
        "flug",
        "fluch",
        "friedhof",
        "gegner",
        "gift",
        "hand",
        "kampf",
        "karte",
        "kosten",
        "kraft",
        "kreatur",
        "ladung",
        "land",
        "leben",
        "mana",
        "marke",
        "phase",
        "planeswalker",
        "punkt",
        "regel",
        "reihenfolge",
        "runde",
        "schaden",
        "schlag",
        "schritt",
        "schutz",
        "segment",
        "spiel",
        "spieler",
        "spruch",
        "stapel",
        "starke",
        "stein",
        "tarnung",
        "todes",
        "trampel",
        "typ",
        "verteidiger",
        "verteilung",
        "verzauberung",
        "wanderer",
        "welten",
        "widerstand",
        "zauber",
        "ziel",
        "zug",
        "zuweisung",
        "segment",
        "beruhrung",
        "bewegung",
        "sumpf",
        "wald",
        "insel",
        "berg",
        "ebene",
        "basis",
    ]
)
_LINKS = ("", "s", "es", "n", "en", "e")
_MIN_PART = 3


#: Longer tokens are not words (a pasted hash, a run of one letter): they are dropped before
#: stemming, whose cost grows with the length of a word.
MAX_WORD = 80
#: Longer "words" are not split: no German compound in the rules comes near, and splitting
#: a pasted 320,000-letter token must not cost more than reading it.
MAX_COMPOUND = 64


def split_compound(word: str, parts: frozenset[str] = RULES_PARTS) -> tuple[str, ...]:
    """The vocabulary parts of a folded compound, or () if it is not made only of them."""
    if len(word) > MAX_COMPOUND:
        return ()
    return _split_compound(word, parts)


@functools.lru_cache(maxsize=1 << 16)
def _split_compound(word: str, parts: frozenset[str]) -> tuple[str, ...]:
    """`split_compound`, cached: a question's every word is tried as a compound, and the same
    words come back question after question (a frozenset keeps its hash once computed)."""
    longest = max((len(p) for p in parts), default=0) + max(len(link) for link in _LINKS)
    found = _split(word, parts, True, longest, set())
    return tuple(found) if found and len(found) > 1 else ()


def _split(rest: str, parts: frozenset[str], first: bool, longest: int, failed: set[str]) -> list[str] | None:
    """Greedy longest-first split; a head longer than the longest part (plus link) cannot be
    one, and a tail that failed once fails again (`failed`), so the work stays small."""
    if not first and (rest in parts or _stems(parts).find(rest)):
        return [rest]
    for cut in range(min(len(rest) - _MIN_PART, longest), _MIN_PART - 1, -1):
        head = rest[:cut]
        for link in _LINKS:
            base = head[: len(head) - len(link)] if link else head
            if link and not head.endswith(link):
                continue
            if len(base) >= _MIN_PART and base in parts and rest[cut:] not in failed:
                tail = _split(rest[cut:], parts, False, longest, failed)
                if tail:
                    return [base, *tail]
                failed.add(rest[cut:])
    return None


@functools.lru_cache(maxsize=8)
def _stems(parts: frozenset[str]) -> StemIndex:
    """A compound vocabulary by German stem: an inflected last part ("...marken") meets its
    word ("marke")."""
    return StemIndex(sorted(parts), "de")


@functools.lru_cache(maxsize=100_000)
def _fold_cached(word: str) -> str:
    return fold(word)


class StatelessFilter(Filter):  # type: ignore[misc]
    """A filter without settings: any two of one class are equal (whoosh compares schemas)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class FoldFilter(StatelessFilter):
    """Umlaut folding (see `fold`); expects lowercase tokens."""

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        for t in tokens:
            if len(t.text) <= MAX_WORD:  # longer ones are dropped by the stop filter anyway
                t.text = _fold_cached(t.text)
            yield t


class CompoundFilter(Filter):  # type: ignore[misc]
    """Keeps each token and adds its rules-vocabulary parts at the same position."""

    def __init__(self, parts: frozenset[str] = RULES_PARTS) -> None:
        self.parts = frozenset(parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompoundFilter) and other.parts == self.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        memo: dict[str, tuple[str, ...]] = {}
        for t in tokens:
            word = t.text  # read before yielding: later filters rewrite the shared token
            yield t
            found = memo.get(word)
            if found is None:
                found = memo[word] = split_compound(word, self.parts)
            for part in found:
                t.text = part
                yield t


#: Negating prefixes of English rules words (`NegationFilter`), longest first.
NEGATIONS = ("non", "un")
_NEGATION_STARTS = frozenset(p[0] for p in NEGATIONS)
#: A base shorter than this is no word of its own ("unit", "undo").
_MIN_BASE = 3
#: Words that begin like a negation and are not one, or whose "base" is another word
#: ("unless" is not "less"; Unearth, Undying and Unleash are keyword names, not negations;
#: "under..." never is one: `negated_base`).
NOT_NEGATED: frozenset[str] = frozenset(
    {
        "unless",
        "unlike",
        "until",
        "unearth",
        "undying",
        "unleash",
        "unique",
        "uniqueness",
        "union",
        "unity",
        "universe",
        "universal",
        "unicorn",
        "unfinity",
        "unstable",
        "nonetheless",
    }
)


class NegationFilter(StatelessFilter):
    """Keeps each token and adds the base of a negated word at the same position
    ("untapped" -> untapped, tapped), so a question's base word finds the rule that says it
    negated and the stemmer meets both forms; see `NEGATIONS`, `NOT_NEGATED`."""

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        for t in tokens:
            word = t.text  # read before yielding: later filters rewrite the shared token
            yield t
            if word[:1] in _NEGATION_STARTS:  # most words: no cache look-up
                base = negated_base(word)
                if base:
                    t.text = base
                    yield t


@functools.lru_cache(maxsize=1 << 14)
def negated_base(word: str) -> str:
    """The word `word` negates by prefix ("untapped" -> "tapped"), or "" if none."""
    if word in NOT_NEGATED or word.startswith("under"):
        return ""
    for prefix in NEGATIONS:
        if word.startswith(prefix) and len(word) - len(prefix) >= _MIN_BASE and word[len(prefix)].isalpha():
            return word[len(prefix) :]
    return ""


#: Stop words from the one function-word table (``index.terms.function_words``): whoosh's
#: English and German lists with question words added ("what", "wann"), German folded.
EN_STOP: frozenset[str] = function_words("en", "stop")
DE_STOP: frozenset[str] = function_words("de", "stop", folded=True)


# The stem filters call `stem_en`/`stem_de` directly (``cachesize=None``): ``stem`` has a
# bounded C cache of its own, and whoosh's default LFU cache in front of it cost more per
# token than the stemming it saved (tokenizing, lowercasing and stemming 300 kB of CR text:
# 0.47 s with it, 0.36 s without).


def english() -> Analyzer:
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | StopFilter(stoplist=EN_STOP, minsize=1, maxsize=MAX_WORD)
        | NegationFilter()
        | StemFilter(stemfn=stem_en, cachesize=None)
    )


def german() -> Analyzer:
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | FoldFilter()
        | CompoundFilter()
        | StopFilter(stoplist=DE_STOP, minsize=1, maxsize=MAX_WORD)
        | StemFilter(stemfn=stem_de, cachesize=None)
    )


def name() -> Analyzer:
    return RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | FoldFilter()


#: Analyzer factories by language/purpose; the schema and the query builder both use these.
ANALYZERS = {"en": english, "de": german, "name": name}

_CACHE: dict[str, Analyzer] = {}


def analyzer(key: str) -> Analyzer:
    """A shared instance of the named analyzer (query-time use; the schema makes its own)."""
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = ANALYZERS[key]()
    return found


#: The filters `word_positions` knows to work token by token: what each makes of a token
#: depends on that token alone (the stop filter's renumbering aside, which it redoes).
_TOKENWISE = (LowercaseFilter, FoldFilter, CompoundFilter, NegationFilter, StopFilter, StemFilter)
#: How many distinct words `word_positions` remembers per analyzer (cleared when full).
WORDS_CACHE = 1 << 16
#: What `word_positions` made of each word, per analyzer object: equal analyzers (each whoosh
#: writer unpickles its own schema, two per build) share one table; at most `_HELD` analyzers
#: are held (a process that builds again and again keeps a few tables, not one per writer).
_WORDS: dict[int, tuple[Analyzer, dict[str, tuple[tuple[str, int], ...]]]] = {}
_HELD = 16


def _words_of(ana: Analyzer) -> dict[str, tuple[tuple[str, int], ...]]:
    held = _WORDS.get(id(ana))
    if held is not None and held[0] is ana:
        return held[1]
    words = next((w for other, w in _WORDS.values() if other == ana), {})
    if len(_WORDS) >= _HELD:
        _WORDS.clear()
    _WORDS[id(ana)] = (ana, words)
    return words


def word_positions(ana: Analyzer, text: str) -> dict[str, list[int]] | None:
    """``term -> positions`` of `text` as whoosh's Positions format gathers them from `ana`
    (``ana(text, positions=True, boosts=True, mode="index")``), worked out word by word: each
    distinct word runs through `ana` once (remembered per analyzer), and its terms are placed as
    the pipeline places them. None when `ana` is no pipeline of the `WORD_PATTERN` tokenizer
    and the filters of `_TOKENWISE` with one stop filter, which renumbers: then only whoosh
    knows.

    Index time (``whoosh_index.RememberedText``): half of building the search index was the
    pipeline's generators handing each token through six filters, while the CR's 300,000
    words are 12,000 distinct ones. What a filter makes of a token depends on that token
    alone, but for the stop filter's positions: the first token it keeps keeps the
    tokenizer's position, and each later one takes the next number (a German compound's parts
    too, which the compound filter puts before it). Alone, a word's kept tokens are numbered
    0, 1, ... so its terms are placed at that offset from where the word's first kept token
    falls: the tokenizer's position if nothing before it was kept, else the number after the
    last one.
    """
    items = getattr(ana, "items", None)
    if (
        not items
        or type(items[0]) is not RegexTokenizer
        or items[0].gaps
        or items[0].expression.pattern != WORD_PATTERN
        or any(type(f) not in _TOKENWISE for f in items[1:])
    ):
        return None
    stops = [f for f in items[1:] if type(f) is StopFilter]
    if len(stops) != 1 or not stops[0].renumber:
        return None
    words = _words_of(ana)
    poses: dict[str, list[int]] = {}
    last = -1  # the position the last kept token took; -1: none yet
    for i, word in enumerate(items[0].expression.findall(text)):
        found = words.get(word)
        if found is None:
            if len(words) >= WORDS_CACHE:
                words.clear()
            kept = ana(word, positions=True, boosts=True, mode="index")
            found = words[word] = tuple((t.text, t.pos) for t in kept if not t.stopped)
        if not found:
            continue
        start = i if last < 0 else last + 1
        for term, offset in found:
            poses.setdefault(term, []).append(start + offset)
        last = start + found[-1][1]
    return poses


T = TypeVar("T")


class TextCache(Generic[T]):
    """What was made of a text by an analyzer (its term set, its word sequence, its word
    positions), kept because the same hits come back query after query. Keyed by the text,
    its language and the analyzer's function, not the engine it is bound to: every engine's
    analyzer gives the same terms, and a cache holding engines would keep their searchers
    alive. Starts again when `limit` texts are held."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._found: dict[tuple[str, str, object], T] = {}

    def get(
        self, text: str, lang: str, analyze: Callable[[str, str], frozenset[str]], make: Callable[[], T]
    ) -> T:
        """The cached value for `text` in `lang` by `analyze`, made by `make()` the first time."""
        key = (text, lang, getattr(analyze, "__func__", analyze))
        found = self._found.get(key)
        if found is None:
            if len(self._found) >= self.limit:
                self._found.clear()
            found = self._found[key] = make()
        return found

    def __iter__(self) -> Iterator[tuple[str, str, object]]:
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)


def terms(key: str, text: str) -> list[str]:
    """The index terms the named analyzer makes of `text`, in order (duplicates kept)."""
    if len(text) <= SHORT_TEXT:
        return list(_short_terms(key, text))
    return [t.text for t in analyzer(key)(text)]


#: Texts up to this long (a word, a name, a short query) have their terms cached.
SHORT_TEXT = 64


@functools.lru_cache(maxsize=1 << 16)
def _short_terms(key: str, text: str) -> tuple[str, ...]:
    """`terms` of a short text, cached: query building runs every word of a question through
    both languages' analyzers, several times, and the same words come back query after query."""
    return tuple(t.text for t in analyzer(key)(text))
