"""The concept lexicon: players' words and the CR's words for the same thing (``data/lexicon/concepts.tsv``).

A player asks whether a spell "fizzles", when a creature "changes zones" or whether a German
"Spielstein" that "ins Spiel kommt" triggers; the rule answers with "doesn't resolve", "moves
from one zone to another", "enters the battlefield". Neither stemming nor the word-by-word
lexicon bridges such phrases, so a small hand-written table does, in both languages, always
towards the English CR words (German rules text is mostly missing: German questions are
answered from the English rules). Its rows are players' usage, not answers to questions:
no row names a rule.

`find` returns the CR phrases whose said form occurs in the query as a run of words, longest
first; a German word also matches by its lemma ("gewirkt" -> "wirken"). The table is read on
the first question that asks for it, a few kilobytes of text; the English one also holds the
English players' words of ``data/terms/aliases.tsv`` ("SBA", "P/T"), written once there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from regelwerk.ingest.model.fold import fold

FILE = "concepts.tsv"
Table = dict[tuple[str, ...], tuple[str, ...]]


@functools.cache
def table(lang: str) -> Table:
    """Said phrase (folded words) -> CR phrases, for queries in `lang`; empty without the file."""
    from importlib import resources  # not at import: only questions read the table

    entry = resources.files("regelwerk.data") / "lexicon" / FILE
    if not entry.is_file():
        return {}
    out: Table = {}
    for line in entry.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("lang\t"):
            continue
        row_lang, said, cr = line.split("\t")
        if row_lang != lang:
            continue
        for phrase in said.split("|"):
            key = tuple(fold(phrase).split())  # one fold per phrase: it lower-cases and spaces alike
            out[key] = (*out.get(key, ()), *cr.split("|"))
    return _with_aliases(out) if lang == "en" else out


def _with_aliases(out: Table) -> Table:
    """`out` with the English players' words of ``data/terms/aliases.tsv`` ("SBA", "P/T",
    "chump block") standing for their term's English name, a single word also in its plural:
    the aliases are written once, for ``term`` and ``rule`` as for questions. (German aliases
    reach German questions through the lexicon, which learns them as term-table entries.)"""
    from regelwerk.index.terms.aliases import load_aliases

    for alias in load_aliases():
        if alias.lang != "en" or alias.status == "sense":  # "counter" is not always Counters
            continue
        key = tuple(fold(w) for w in re.findall(r"\w+", alias.word.lower()))
        for form in (key, (f"{key[0]}s",)) if len(key) == 1 else (key,):
            if alias.en.lower() not in out.get(form, ()):
                out[form] = (*out.get(form, ()), alias.en.lower())
    return out


@functools.cache
def said_words() -> frozenset[str]:
    """Every word of a said phrase in either language (folded): a players' word ("geblinkt",
    "klaut") that the index lacks is no typo of one it holds ("geblockt", "kauft")."""
    return frozenset(w for lang in ("de", "en") for said in table(lang) for w in said)


def find(words: Sequence[str], lang: str, lemma: Callable[[str], str] | None = None) -> list[str]:
    """The CR phrases the said phrases in `words` stand for, in query order, each once.

    A run of words matches a said phrase word for word, by folded form or (with `lemma`) by
    lemma; longer phrases are tried first and their words are not matched again.
    """
    rows = table(lang)
    if not rows:
        return []
    longest = max(len(k) for k in rows)
    forms = [fold(w.lower()) for w in words]
    lemmas = [lemma(w) for w in words] if lemma is not None else forms
    found: list[str] = []
    i = 0
    while i < len(forms):
        for n in range(min(longest, len(forms) - i), 0, -1):
            hit = rows.get(tuple(forms[i : i + n])) or rows.get(tuple(lemmas[i : i + n]))
            if hit:
                found.extend(hit)
                i += n
                break
        else:
            i += 1
    return list(dict.fromkeys(found))


__all__ = ["find", "said_words", "table"]
