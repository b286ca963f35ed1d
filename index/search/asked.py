"""How players ask for each rule (``data/lexicon/asked.tsv.xz``): document expansion for questions.

A question rarely uses the words of the rule that answers it ("Wie viele Länder darf ich pro
Zug spielen?" for 305.2, whose text says "play a land ... once during each of their turns"),
and a German one has no German rules text to match at all: it reaches the English rules only
through the word-by-word lexicon. So every rule of the 2026-04-17 CR has a few questions
players ask when it is the answer, written from the rule's own text alone (never from the
question sets of ``tests/relevance``), as doc2query (Nogueira et al. 2019) writes them with a
model: two German (a question about a situation and a short search-box query) and one English
for each rule, for the 2,090 rules outside 701 and 702 a second round of as many from
another angle (other situations, players' slang, a sloppy forum style), and (session 29) a
third round for every rule, two German and two English, each unlike the rule's earlier lines.

The build puts a rule's phrasings into its unit's record (``ask_de``, ``ask_en``: `fields_for`),
where the rule's number today is the table's and its text still begins as the table's did
(``starts``: a hash of its first words, folded), so a renumbered or rewritten rule of another release
gets none; the default scope's are written, as the index analyzers' terms, to SQLite FTS5
tables beside the whoosh index (``members.write_asked``). A question searches the table of its
own language with its own words, and that ranking is fused into its hits
(``query.SearchEngine._asked_opinion``).
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from importlib.resources.abc import Traversable

from regelwerk.ingest.model.fold import fold

#: xz-compressed: 28,236 phrasings are 2.4 MB of text, 0.5 MB compressed (read at index build only).
FILE = "asked.tsv.xz"
LANGUAGES = ("de", "en")
#: How many of a rule text's first words the table keeps to recognise the rule (``starts``).
STARTS = 5
_WORD = re.compile(r"\w+")

#: number -> (starts, language, phrasing) rows, in the table's order.
Table = dict[str, tuple[tuple[str, str, str], ...]]


def _entry() -> Traversable:
    return resources.files("regelwerk.data") / "lexicon" / FILE


def starts(text: str) -> str:
    """The first `STARTS` words of a rule's text, folded and lower-cased: how the table knows
    a rule (punctuation, case and umlaut spelling do not matter)."""
    return " ".join(_WORD.findall(fold(text).lower())[:STARTS])


def fingerprint(text: str) -> str:
    """The table's ``starts`` column for a rule's text: a short hash of `starts`, so the
    repository holds no words of the CR."""
    import hashlib

    return hashlib.sha256(starts(text).encode()).hexdigest()[:10]


def parse(text: str) -> Table:
    """The table's rows by rule number. Comment lines (``#``) and the header are skipped; a
    row that is not ``number<TAB>starts<TAB>lang<TAB>phrasing`` raises `ValueError` naming
    its line (the file ships with the package: a broken row is a packaging error)."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line.startswith("rule\t"):
            continue
        cols = line.split("\t")
        if len(cols) != 4 or cols[2] not in LANGUAGES or not cols[3].strip():
            raise ValueError(f"{FILE} line {n}: expected rule, starts, de|en and a phrasing: {line!r}")
        out.setdefault(cols[0], []).append((cols[1], cols[2], cols[3]))
    return {k: tuple(v) for k, v in out.items()}


@functools.cache
def table() -> Table:
    """The shipped table (empty without the file)."""
    import lzma

    entry = _entry()
    return parse(lzma.decompress(entry.read_bytes()).decode("utf-8")) if entry.is_file() else {}


@functools.cache
def stamp() -> str:
    """A short hash of the shipped table, for the index's build key: an edited row rebuilds
    the index that holds it. Taken from the store's ready marker when the table is the file it
    was computed from, as the term tables' (`regelwerk.index.terms.shipped.stamp`): every
    search opens the index, and hashing the table's 1.6 MB cost each cold command about 45
    million instructions (``bench/bench.py --instructions``: ``search banding`` 1.58x -> 1.65x
    the floor)."""
    from regelwerk.index.store import ready

    entry = _entry()

    def compute() -> str:
        import hashlib

        return hashlib.sha256(entry.read_bytes() if entry.is_file() else b"").hexdigest()[:12]

    return ready.stamp("asked", [entry] if entry.is_file() else [], compute)


def fields_for(number: str | None, text: str) -> dict[str, str]:
    """The ``ask_de`` and ``ask_en`` record values of the rule numbered `number` today whose
    text is `text`, or {} when the table has none for it or the text no longer starts as the
    table's does."""
    rows = table().get(number or "")
    if not rows:
        return {}
    begin = fingerprint(text)
    said = {lang: [p for s, row_lang, p in rows if row_lang == lang and s == begin] for lang in LANGUAGES}
    return {f"ask_{lang}": "\n".join(ps) for lang, ps in said.items() if ps}


__all__ = ["FILE", "STARTS", "Table", "fields_for", "fingerprint", "parse", "stamp", "starts", "table"]
