"""Bounded query cost: a wildcard, prefix, range or fuzzy term stands for a capped set of words.

whoosh expands ``a*`` or ``[a TO z]`` into every matching word of the term dictionary and ORs
their postings: ten such patterns over six fields took 17 s on the full CR. Here each pattern
is replaced by its most frequent words before the search runs, within one budget for the
whole query, and the dictionary scan per pattern is capped too, so any query costs a bounded
amount of work. The caller gets a note for every pattern that was cut, so the user knows.
"""

from __future__ import annotations

import heapq
from itertools import islice
from typing import Any

from whoosh import query as wq
from whoosh.query.terms import MultiTerm

from regelwerk.ingest.model.message import N_, Arg, msg

#: Words all patterns of one query may stand for together (summed over fields).
TERM_BUDGET = 240
#: Patterns one query may use; later ones are dropped (each costs a dictionary scan).
MAX_PATTERNS = 8
#: Words one pattern in one field may stand for, however few patterns the query has.
MAX_EXPANSION = 96
#: At least this many words per pattern and field, however many patterns the query has.
MIN_EXPANSION = 4
#: Dictionary words looked at per pattern and field (a range over the whole alphabet stops here).
MAX_SCAN = 5000


def _patterns(q: Any) -> list[MultiTerm]:
    if isinstance(q, MultiTerm):
        return [q]
    return [leaf for child in q.children() for leaf in _patterns(child)]


def _label(q: MultiTerm) -> str:
    """How the user wrote the pattern (whoosh keeps the text, or a range's ends)."""
    if isinstance(q, wq.TermRange):
        return f"[{q.start or ''} TO {q.end or ''}]"
    text = getattr(q, "text", "")
    return f"{text}*" if isinstance(q, wq.Prefix) else str(text)


MANY_WORDS = N_("patterns matching many words searched only their {share} most frequent: {shown}")


def bound_query(q: Any, reader: Any, notes: list[Arg]) -> Any:
    """`q` with every multi-term leaf replaced by an Or of at most its share of TERM_BUDGET
    most frequent matching words; one note per pattern that matched more."""
    leaves = _patterns(q)
    if not leaves:
        return q
    labels = list(dict.fromkeys(_label(leaf) for leaf in leaves))
    kept = set(labels[:MAX_PATTERNS])
    used = [leaf for leaf in leaves if _label(leaf) in kept]
    share = max(MIN_EXPANSION, min(MAX_EXPANSION, TERM_BUDGET // len(used)))
    cut: dict[str, int] = {}

    def expand(leaf: Any) -> Any:
        if not isinstance(leaf, MultiTerm):
            return leaf.apply(expand)
        field = leaf.field()
        if field not in reader.schema or _label(leaf) not in kept:
            return wq.NullQuery
        scanned = list(islice(leaf._btexts(reader), MAX_SCAN + 1))
        if len(scanned) > min(share, MAX_SCAN):
            cut[_label(leaf)] = max(cut.get(_label(leaf), 0), len(scanned))
        best = heapq.nlargest(share, scanned, key=lambda b: reader.doc_frequency(field, b))
        decode = reader.schema[field].from_bytes
        words = [wq.Term(field, decode(b), boost=leaf.boost) for b in sorted(best)]
        if not words:
            return wq.NullQuery
        return words[0] if len(words) == 1 else wq.Or(words)

    bounded = expand(q).normalize()
    if len(labels) > MAX_PATTERNS:
        dropped = ", ".join(labels[MAX_PATTERNS:])
        notes.append(msg(N_("a query may use {n} wildcard or range patterns; ignored {dropped}"),
                         n=str(MAX_PATTERNS), dropped=dropped))
    if cut:
        counts = {label: f"over {MAX_SCAN}" if n > MAX_SCAN else str(n) for label, n in cut.items()}
        shown = ", ".join(f"{label} ({n})" for label, n in counts.items())
        notes.append(msg(MANY_WORDS, share=str(share), shown=shown))
    return bounded
