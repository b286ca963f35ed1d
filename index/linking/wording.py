"""What a rule says, as lineage compares it and ``history``/``diff`` show its changes: its
title (when a heading's title is not its whole text), its text and its examples, one per line.

Two releases' wordings are compared by `key`: quotes and apostrophes, straight or typographic,
are left out there, and so is a "?" (the 2008-05-01 release has "?" wherever a quote or an
apostrophe stood: ``can?t``, ``?Destroy``, an encoding loss in Wizards' own file), so neither
that noise, nor a straight -> curly quote edit, nor quotes put around a name that had none
(2008's ``Bands with other`` -> 2010's ``"Bands with other"``) counts as a change. A real "?"
never comes or goes in a real edit of a rule's words, so leaving it out costs nothing.

Kept apart from ``lineage`` (which needs the record types) so that ``history`` can compose a
stored rule's text from the rules table without loading them: a cold ``history`` is mostly
imports.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Every quote, apostrophe and "?", left out (see the module docstring).
_QUOTES = str.maketrans(
    dict.fromkeys("\"'?`\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2032\u2033")
)


def key(text: str) -> str:
    """`text` as two releases' wordings are compared: quotes, apostrophes and "?" left out."""
    return text.translate(_QUOTES)


def same(a: str, b: str) -> bool:
    """Whether two wordings differ by nothing but quote characters (or not at all)."""
    return a == b or key(a) == key(b)


def rule_text(title: str | None, text: str, examples: Iterable[str]) -> str:
    """A rule's title, text and examples, one per line (the title only where it is more
    than the text: a heading's text is its title)."""
    parts = [title] if title and title != text else []
    parts.append(text)
    parts.extend(examples)
    return "\n".join(p for p in parts if p)


__all__ = ["key", "rule_text", "same"]
