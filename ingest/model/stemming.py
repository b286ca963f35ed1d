"""One stemmer for all of regelwerk: ``stem(word, lang)`` on the Snowball algorithms.

English uses Snowball's Porter2, German Snowball's German stemmer (which also folds ä/ö/ü),
both as whoosh ships them (``whoosh.lang.stemmer_for_language``), so the search analyzers and
every lookup run the very same code.
The search analyzers stem with it, and every lookup that must meet an inflected word
("Giftmarken" -> "Giftmarke", "Banding" -> "band") compares stems with it instead of
stripping endings by hand, so the index, the query and every lookup agree on a word's stem.
The stemmers are imported on first use, so ``rule`` never pays for them; on the search path
whoosh is loaded anyway.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable
from typing import Any

#: The languages regelwerk stems.
LANGUAGES = ("en", "de")

_WORD = re.compile(r"\w+")
#: A generated Snowball stemmer keeps the word it works on in itself, so two threads stemming
#: with one stemmer can corrupt each other's word (seen with snowballstemmer under the web
#: server's concurrent searches). whoosh's port works on local variables, but the lock keeps
#: that a property of this module, not of the library under it; stems are cached, so it is
#: taken only for new words.
_STEMMING = threading.Lock()


@functools.cache
def _stemmer(lang: str) -> Any:
    if lang not in LANGUAGES:
        raise ValueError(f"no stemmer for language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    from regelwerk.ingest.model.lean_whoosh import prepare

    prepare()
    from whoosh.lang import stemmer_for_language

    return stemmer_for_language(lang)


@functools.lru_cache(maxsize=200_000)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of `word` (lower-cased first): "Banding" -> "band", "Kreaturen" -> "kreatur"."""
    stemmer = _stemmer(lang)
    with _STEMMING:
        return str(stemmer(word.lower()))


def stem_en(word: str) -> str:
    """`stem` for English, as a one-argument function (whoosh's StemFilter pickles it by name)."""
    return stem(word, "en")


def stem_de(word: str) -> str:
    """`stem` for German, as a one-argument function (whoosh's StemFilter pickles it by name)."""
    return stem(word, "de")


class StemIndex:
    """Words found by their stem, stemming lazily.

    Snowball only takes endings off (and folds umlauts, which callers have folded already), so
    two words with one stem share their first letters: a lookup stems only the words that
    begin like the word looked up, and a table of thousands of names costs nothing to build.
    """

    PREFIX = 3

    def __init__(self, words: Iterable[str], lang: str) -> None:
        self.lang = lang
        self._words = tuple(words)
        self._table: dict[str, list[str]] | None = None  # made on the first lookup

    @property
    def _by_prefix(self) -> dict[str, list[str]]:
        table = self._table
        if table is None:  # built whole, then published: concurrent first lookups agree
            table = {}
            for w in self._words:
                table.setdefault(w[: self.PREFIX], []).append(w)
            self._table = table
        return table

    def find(self, word: str) -> list[str]:
        """The words (in the order given) whose stem is `word`'s stem.

        No word of the table begins like `word`: nothing to compare, so nothing is stemmed (a
        card name like "Tatzelwurm" never loads the stemmer on its way to the card database)."""
        candidates = self._by_prefix.get(word[: self.PREFIX], ())
        if not candidates:
            return []
        wanted = stem(word, self.lang)
        return [w for w in candidates if stem(w, self.lang) == wanted]


def stems(text: str, lang: str) -> list[str]:
    """The stem of every word of `text`, in order."""
    return [stem(w, lang) for w in _WORD.findall(text)]


def mentions(text: str, name: str, lang: str = "en") -> bool:
    """Does `text` use every word of `name`, inflected or not ("bands" and "banding" mention
    "Banding"; "husband" does not)?"""
    wanted = stems(name, lang)
    return bool(wanted) and set(wanted) <= set(stems(text, lang))
