"""One stemmer for all of regelwerk: ``stem(word, lang)`` on the Snowball algorithms.

English uses Snowball's Porter2, German Snowball's German stemmer (which also folds ä/ö/ü).
The search analyzers stem with it, and every lookup that must meet an inflected word
("Giftmarken" -> "Giftmarke", "Banding" -> "band") compares stems with it instead of
stripping endings by hand, so the index, the query and every lookup agree on a word's stem.
``snowballstemmer`` is imported on first use, so ``rule`` never pays for it.
"""

from __future__ import annotations

import functools
import re
from typing import Any

#: Language code -> Snowball algorithm name.
ALGORITHMS = {"en": "english", "de": "german"}

_WORD = re.compile(r"\w+")


@functools.cache
def _stemmer(lang: str) -> Any:
    import snowballstemmer

    try:
        return snowballstemmer.stemmer(ALGORITHMS[lang])
    except KeyError:
        expected = ", ".join(ALGORITHMS)
        raise ValueError(f"no stemmer for language {lang!r}; expected one of {expected}") from None


@functools.lru_cache(maxsize=200_000)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of `word` (lower-cased first): "Banding" -> "band", "Kreaturen" -> "kreatur"."""
    return str(_stemmer(lang).stemWord(word.lower()))


def stem_en(word: str) -> str:
    """`stem` for English, as a one-argument function (whoosh's StemFilter pickles it by name)."""
    return stem(word, "en")


def stem_de(word: str) -> str:
    """`stem` for German, as a one-argument function (whoosh's StemFilter pickles it by name)."""
    return stem(word, "de")


def stems(text: str, lang: str) -> list[str]:
    """The stem of every word of `text`, in order."""
    return [stem(w, lang) for w in _WORD.findall(text)]


def mentions(text: str, name: str, lang: str = "en") -> bool:
    """Does `text` use every word of `name`, inflected or not ("bands" and "banding" mention
    "Banding"; "husband" does not)?"""
    wanted = stems(name, lang)
    return bool(wanted) and set(wanted) <= set(stems(text, lang))
