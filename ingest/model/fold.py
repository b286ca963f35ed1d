"""German-aware folding: the ONE place that decides when two spellings are the same word.

Germans type "Bündnisfähigkeit", "Buendnisfaehigkeit" or "Bundnisfahigkeit" depending on
their keyboard, and "Großmeister" as "Grossmeister". Every matcher (keyword linking, the
``term`` command, search analyzers) must agree on that, so they all call `fold` from here
rather than growing their own ``lower().replace(...)``:

- case-insensitive (``str.casefold``, which also turns ß into ss);
- ä = ae = a, ö = oe = o, ü = ue = u (the umlaut, its two-letter spelling and the bare vowel);
- other accents dropped ("Lim-Dûl" = "Lim-Dul"), typographic quotes and dashes made plain.

`compact` additionally drops everything that is not a letter or digit, so "trampel schaden",
"Trampel-Schaden" and "Trampelschaden" meet. `umlaut_fold` keeps the umlaut apart from the bare
vowel (ä = ae, but not a), for the few words folding merges with another ("zählen": count,
"zahlen": pay); the rules lexicon keys those words by it and everything else by `fold`. All
three are pure functions of their argument.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_DIGRAPHS = re.compile(r"(?<=[aou])e")
_UMLAUT_DIGRAPHS = re.compile(r"([aou])e")
#: The diaeresis of a, o, u after NFKD (the umlaut), which `umlaut_fold` keeps.
_UMLAUT_KEEP = re.compile(r"(?<=[aou])\u0308")
_UMLAUTS = {"a": "ä", "o": "ö", "u": "ü"}
_SPACE = re.compile(r"\s+")
_NON_WORD = re.compile(r"[\W_]+")
_PLAIN = str.maketrans({"’": "'", "‘": "'", "´": "'", "“": '"', "”": '"', "„": '"', "–": "-", "—": "-"})


class _Marks(dict[int, str]):
    """A `str.translate` table deleting combining marks, filled in per character on first use
    (``unicodedata.combining`` per character of every folded string was most of `fold`'s time)."""

    def __missing__(self, code: int) -> str:
        value = "" if unicodedata.combining(chr(code)) else chr(code)
        self[code] = value
        return value


_MARKS = _Marks()


def fold(text: str) -> str:
    """Lower-case, umlaut- and ß-insensitive form of `text`, with whitespace collapsed."""
    text = text.translate(_PLAIN).casefold()
    stripped = text if text.isascii() else unicodedata.normalize("NFKD", text).translate(_MARKS)
    # ae/oe/ue -> a/o/u *after* stripping accents, so "ä" (-> "a") and "ae" (-> "a") agree.
    return _SPACE.sub(" ", _DIGRAPHS.sub("", stripped)).strip()


def umlaut_fold(text: str) -> str:
    """`fold` that keeps the umlaut: "Zählen", "zaehlen" and "ZÄHLEN" give "zählen", which
    "zahlen" does not (other accents dropped and ß = ss as in `fold`).

    For the words whose umlaut spelling and bare spelling are two words ("zählt": counts,
    "zahlt": pays; "ändere": change, "andere": other): a German types "ae" only for "ä", so
    the umlaut or its two-letter spelling says which word is meant, the bare vowel says nothing
    (it is also how a keyboard without umlauts writes "zählt"). ``fold(umlaut_fold(x)) ==
    fold(x)`` for every German word `x`: it only splits what `fold` joins (not for "oee",
    which `fold` itself reads apart from "öe")."""
    text = text.translate(_PLAIN).casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        # keep the diaeresis of a, o, u (the umlaut) as the letter "e" it stands for
        text = _UMLAUT_KEEP.sub("e", text).translate(_MARKS)
    return _SPACE.sub(" ", _UMLAUT_DIGRAPHS.sub(lambda m: _UMLAUTS[m[1]], text)).strip()


@functools.lru_cache(maxsize=1 << 15)
def compact(text: str) -> str:
    """`fold` without spaces, hyphens or punctuation: for compound-insensitive comparison.

    Cached: the same names come back release after release (each keyword's rule titles in
    every one of 105 releases; an added release compacted 28,000 of them for the term
    vocabulary alone)."""
    return _NON_WORD.sub("", fold(text))
