"""Snippets: the few words of a hit's text that show why it was found, query terms marked «so».

A rule can run to a paragraph; the user wants the part that matched. Words are marked by
what they analyze to, so "Trampling" is marked for a query that searched "trample".
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left
from collections.abc import Callable

from regelwerk.index.search.analysis import TextCache

HIGHLIGHT = ("«", "»")

_WORD = re.compile(r"\w+")

#: Marks that open a quote or bracket (Unicode Ps, Pi: „ “ ‘ ( [ «) and the straight quotes,
#: which belong to the word they stand against: a window starting or ending at that word
#: keeps them (a snippet of "“Bands with other” is …" once began "Bands with other” is"); not
#: one between two words' letters (the apostrophe of "player's").
_STRAIGHT = "\"'"


def _opens(char: str) -> bool:
    return char in _STRAIGHT or unicodedata.category(char) in ("Ps", "Pi")


def _closes(char: str) -> bool:
    """Closing marks; "Pi" too: German closes a quote with “ (U+201C, an initial quote)."""
    return char in _STRAIGHT or unicodedata.category(char) in ("Pe", "Pf", "Pi")


#: How many texts' word positions `_words` keeps (cleared when full; a few kB each).
WORDS_CACHE = 2048
#: A text's word spans (starts, ends) and, per index term, the positions of the words that
#: analyze to it.
_Words = tuple["array[int]", "array[int]", dict[str, tuple[int, ...]]]
_WORDS: TextCache[_Words] = TextCache(WORDS_CACHE)


def _words(text: str, lang: str, analyze: Callable[[str, str], frozenset[str]]) -> _Words:
    """`text`'s word spans and where each of their index terms stands, cached (`TextCache`,
    as ``rerank.text_terms``): the same hits come back query after query, and analysing
    their words one by one was most of a snippet's time."""

    def make() -> _Words:
        starts, ends = array("l"), array("l")
        where: dict[str, list[int]] = {}
        for i, m in enumerate(_WORD.finditer(text)):
            starts.append(m.start())
            ends.append(m.end())
            for t in analyze(lang, m.group()):
                where.setdefault(t, []).append(i)
        return starts, ends, {t: tuple(ps) for t, ps in where.items()}

    return _WORDS.get(text, lang, analyze, make)


def densest(marked: list[int], width: int) -> int:
    """The first start of the `width`-word window holding the most of the sorted word
    positions `marked` (a window never starts past the last `width` words).

    A window's count only grows where a marked word enters it, so the first best start is 0
    or one that ends on a marked word: only those are counted (by bisection), not every
    start of a long text.
    """
    best, best_count = 0, -1
    for start in [0, *(p - width + 1 for p in marked if p >= width)]:
        got = bisect_left(marked, start + width) - bisect_left(marked, start)
        if got > best_count:
            best, best_count = start, got
    return best


#: How many words a snippet reaches back to start with its sentence (`sentence_start`).
SENTENCE_BACK = 12
#: What ends a sentence (or a clause a rule reads as one: "as follows:") before a word.
_SENTENCE_END = re.compile(r"[.!?:]\s")


def sentence_start(text: str, starts: array[int], ends: array[int], i: int, back: int = SENTENCE_BACK) -> int:
    """The first word of the sentence word `i` of `text` stands in, if it is at most `back`
    words before `i`, else `i`: a snippet that opens mid-sentence ("…could «cast». Effects
    that…") reads as a fragment, one that opens with its sentence ("The player doesn't need to
    have a sorcery they could «cast». Effects that…") as the rule."""
    for j in range(i, max(0, i - back) - 1, -1):
        if j == 0 or _SENTENCE_END.search(text, ends[j - 1], starts[j] + 1):
            return j
    return i


def snippet(
    text: str,
    lang: str,
    wanted: set[str],
    analyze: Callable[[str, str], frozenset[str]],
    width: int = 32,
) -> str:
    """About `width` words of `text` around the densest run of query terms, marked «so»,
    reaching back to the start of its first sentence when that is near (`sentence_start`).

    `analyze(lang, word)` gives a word's index terms; the engine passes its cached analyzer.
    """
    key = "de" if lang == "de" else "en"
    starts, ends, where = _words(text, key, analyze)
    if not starts:
        return text.strip()
    marks = {i for t in wanted for i in where.get(t, ())}
    densest_start = densest(sorted(marks), width)
    last = min(len(starts), densest_start + width) - 1
    best = sentence_start(text, starts, ends, densest_start)
    out: list[str] = []
    cursor = 0 if best == 0 else starts[best]
    while cursor > 0 and _opens(text[cursor - 1]) and not text[cursor - 2 : cursor - 1].isalnum():
        cursor -= 1
    for i in range(best, last + 1):
        s, e = starts[i], ends[i]
        out.append(text[cursor:s])
        out.append(f"{HIGHLIGHT[0]}{text[s:e]}{HIGHLIGHT[1]}" if i in marks else text[s:e])
        cursor = e
    if last == len(starts) - 1:
        trailing = text[cursor:]
    else:
        end = cursor
        while end < len(text) and _closes(text[end]) and not text[end + 1 : end + 2].isalnum():
            end += 1
        trailing = text[cursor:end]
    prefix = "…" if best > 0 else ""
    suffix = "…" if last < len(starts) - 1 else ""
    return " ".join(f"{prefix}{''.join(out)}{trailing}{suffix}".split())
