"""The two hand-made word tables search reads besides the keyword tables.

``words.tsv`` puts ordinary German rules words ("zehn", "verliert", "Spieler") into English,
``synonyms.tsv`` puts the English words users type into the words the CR uses. Both are plain
two-column files in ``data/terms``, read once and only when a query needs them.
"""

from __future__ import annotations

import functools

from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.stemming import StemIndex

#: Ordinary German rules words ("zehn", "verliert", "Spieler") the keyword tables do not name.
WORDS_FILE = "words.tsv"


#: English words users type -> the words the CR uses for them ("empty" library: "no cards").
SYNONYMS_FILE = "synonyms.tsv"


@functools.cache
def synonym_table() -> dict[str, tuple[str, ...]]:
    """Folded English query word or phrase -> CR words, from ``data/terms/synonyms.tsv``.

    Users ask in their words ("draw from an empty library"), the rule answers in its own
    ("a library with no cards in it"); neither stemming nor the term tables bridge that.
    """
    return _table(SYNONYMS_FILE, "query\t")


@functools.cache
def word_table() -> dict[str, tuple[str, ...]]:
    """Folded German form -> English words, from ``data/terms/words.tsv``.

    The keyword tables translate rules *terms*; a German question also needs its ordinary
    words ("Spieler mit zehn Giftmarken verliert") in English, or the English rule that
    answers it matches only on the term. Missing file: no ordinary-word translation.
    """
    return _table(WORDS_FILE, "de\t")


def _table(filename: str, header: str) -> dict[str, tuple[str, ...]]:
    """A two-column ``forms -> words`` table of ``data/terms``; missing file: empty."""
    from importlib import resources

    entry = resources.files("regelwerk.data") / "terms" / filename
    if not entry.is_file():
        return {}
    out: dict[str, tuple[str, ...]] = {}
    lines = entry.read_text(encoding="utf-8").splitlines()
    for line in lines:
        if not line.strip() or line.startswith("#") or line.startswith(header):
            continue
        de, _, en = line.partition("\t")
        english = tuple(w.strip() for w in en.split("|") if w.strip())
        for form in de.split("|"):
            if form.strip():
                out[fold(form.strip().lower())] = english
    return out


def translate_word(word: str) -> tuple[str, ...]:
    """English words for an ordinary German word, or () (its folded form, then its stem)."""
    key = fold(word.lower())
    found = word_table().get(key)
    if found is None and len(key) >= 5:
        forms = _stemmed_word_table().find(key)  # the first form of a stem wins, as in the file
        found = word_table()[forms[0]] if forms else None
    return found or ()


@functools.cache
def _stemmed_word_table() -> StemIndex:
    """`word_table`'s German forms by stem."""
    return StemIndex(word_table(), "de")
