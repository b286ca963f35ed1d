"""Query syntax (quotes, parentheses, AND/OR/NOT, wildcards): is it there, and is it well formed?

whoosh's parser accepts much that it then reads strangely or rejects late ("AND OR x", a
leading wildcard); checking first lets search drop malformed syntax to plain words with a note
saying why, instead of an exception or a surprising query.
"""

from __future__ import annotations

import re

_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
_SYNTAX = re.compile(r'["()*?]|(?:^|\s)(?:AND|OR|NOT|ANDNOT|ANDMAYBE)(?:\s|$)')


#: A question's "?" (or a Spanish-style "¿"): at a word's end, before a closing quote or bracket,
#: or standing alone. A "?" inside a word ("fl?ing") is still whoosh's one-letter wildcard.
_QUESTION_MARK = re.compile(r"(?<=\S)\?+(?=[\s\"')\]]|$)|(?<![^\s(\"'])[?¿]+(?=[\s)\"']|$)|¿")


def without_question_marks(query: str) -> str:
    """`query` with its question marks read as punctuation, not as wildcards.

    People type questions the way they write them: "Wann darf ich eine Hexerei wirken?". Read as
    whoosh syntax, "wirken?" is a wildcard for a seven-letter word, and the whole question turns
    into one syntax query that misses every rule; a trailing one-letter wildcard is almost never
    meant, so a "?" that ends a word (or stands alone) is dropped before the syntax check.
    """
    return _QUESTION_MARK.sub("", query) if "?" in query or "¿" in query else query


def uses_syntax(query: str) -> bool:
    """Does `query` hold anything whoosh's parser reads as syntax rather than words?"""
    return bool(_SYNTAX.search(query))


def syntax_problem(query: str) -> str | None:
    """Why `query`'s syntax is malformed, or None if it is fine (or has no syntax at all)."""
    if query.count('"') % 2:
        return "unbalanced quotes"
    depth = 0
    for ch in query:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
    if depth:
        return "unbalanced parentheses"
    tokens = query.replace("(", " ( ").replace(")", " ) ").split()
    words = [t for t in tokens if t not in "()"]
    if not words or all(t in _OPERATORS for t in words):
        return "no words besides operators"
    for prev, tok in zip(["(", *tokens], [*tokens, ")"], strict=True):
        if tok in _OPERATORS and (prev in _OPERATORS or prev == "("):
            return f"operator {tok!r} without a word before it"
        if prev in _OPERATORS and (tok == ")" or tok in _OPERATORS - {"NOT"}):
            return f"operator {prev!r} without a word after it"
    if re.search(r"(?:^|[\s(])[*?]+(?=$|[\s)])", query):
        return "a wildcard without letters"
    if re.search(r"(?:^|[\s(])[*?]", query):
        return "a leading wildcard"
    if re.search(r"\(\s*\)", query):
        return "empty parentheses"
    return None
