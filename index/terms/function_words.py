"""The one table of German and English function words (``data/terms/function_words.tsv``).

Each word is written once, in its own spelling ("für", "dürfen"), with what it is used for:

- ``stop``: the search analyzers drop it (``index.search.analysis``: ``EN_STOP``, ``DE_STOP``),
  and the lexicon builder (``tools/build_lexicon.py``) never pairs it;
- ``marker``: it says a query is in its language (``index.search.question.language``);
- ``boundary``: a German card-text chunk never begins or ends with it
  (``tools/cardterms.py``, finding how German cards print a keyword: "Kann fliegen" must stay a
  form, so "kann" is a stop word but no boundary);
- ``particle``, ``clause``, ``negation`` (German): how `index.search.question` reads a German
  sentence: a separable verb's particle at the end of its clause belongs to the verb ("löst
  ... aus": auslösen), a clause word begins a new clause, and "mehr" after a negation in its
  clause is "no longer";
- ``meaning`` (German stop words): a rules question still means something by it ("während":
  during, "jeder": each, "ohne": without, whose English words the English analyzer keeps), so
  `index.search.question` reads it through the ordinary-word table (``words.tsv``) at a
  lower weight instead of dropping it.

The uses differ on purpose (an analyzer drops more than a chunk boundary may, a marker must
say one language), but the words are one vocabulary, kept in one place.
"""

from __future__ import annotations

import functools
from importlib import resources

from regelwerk.index.terms.table import TermTableError
from regelwerk.ingest.model.fold import fold

FILE = "function_words.tsv"
HEADER = ("word", "lang", "uses")
LANGS = ("de", "en")
USES = ("stop", "marker", "boundary", "particle", "clause", "negation", "meaning")


@functools.cache
def _rows() -> tuple[tuple[str, str, frozenset[str]], ...]:
    """(word, language, uses) of every row, the file's shape checked."""
    text = (resources.files("regelwerk.data") / "terms" / FILE).read_text(encoding="utf-8")
    lines = text.split("\n")
    if tuple(lines[0].split("\t")) != HEADER:
        raise TermTableError(f"{FILE}: header is {lines[0]!r}; expected {chr(9).join(HEADER)!r}")
    rows = []
    for lineno, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        cells = line.split("\t")
        uses = frozenset(cells[-1].split("|"))
        if len(cells) != len(HEADER) or cells[1] not in LANGS or not uses <= set(USES):
            raise TermTableError(
                f"{FILE}:{lineno}: {line!r}; expected a word, one of {LANGS} and uses from {USES}"
            )
        rows.append((cells[0], cells[1], uses))
    return tuple(rows)


@functools.cache
def function_words(lang: str, use: str, folded: bool = False) -> frozenset[str]:
    """The words of `lang` with `use`, as written or (`folded`) umlaut-folded like the index."""
    if lang not in LANGS or use not in USES:
        raise ValueError(f"no function words for {lang!r}/{use!r}; expected {LANGS} and {USES}")
    words = [w for w, lg, uses in _rows() if lg == lang and use in uses]
    return frozenset(fold(w) for w in words) if folded else frozenset(words)
