"""Snippets: the few words of a hit's text that show why it was found, query terms marked «so».

A rule can run to a paragraph; the user wants the part that matched. Words are marked by
what they analyze to, so "Trampling" is marked for a query that searched "trample".
"""

from __future__ import annotations

import re
from collections.abc import Callable

HIGHLIGHT = ("«", "»")

_WORD = re.compile(r"\w+")


def snippet(
    text: str,
    lang: str,
    wanted: set[str],
    analyze: Callable[[str, str], frozenset[str]],
    width: int = 32,
) -> str:
    """About `width` words of `text` around the densest run of query terms, marked «so».

    `analyze(lang, word)` gives a word's index terms; the engine passes its cached analyzer,
    as the same words come back hit after hit.
    """
    spans = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    if not spans:
        return text.strip()
    key = "de" if lang == "de" else "en"
    marks = [bool(wanted) and not analyze(key, w).isdisjoint(wanted) for _, _, w in spans]
    # the first window with the most marks, its count kept as it slides (not summed anew)
    best, best_count = 0, -1
    count = sum(marks[:width])
    for start in range(0, max(1, len(spans) - width + 1)):
        if start:
            count += marks[start + width - 1] - marks[start - 1]
        if count > best_count:
            best, best_count = start, count
    window = range(best, min(len(spans), best + width))
    out: list[str] = []
    cursor = spans[window[0]][0]
    for i in window:
        s, e, w = spans[i]
        out.append(text[cursor:s])
        out.append(f"{HIGHLIGHT[0]}{w}{HIGHLIGHT[1]}" if marks[i] else w)
        cursor = e
    last_end = spans[window[-1]][1]
    tail = text[cursor:last_end] if cursor < last_end else ""
    trailing = text[last_end:] if window[-1] == len(spans) - 1 else ""
    body = "".join(out) + tail + trailing
    prefix = "…" if best > 0 else ""
    suffix = "…" if window[-1] < len(spans) - 1 else ""
    return " ".join(f"{prefix}{body}{suffix}".split())
