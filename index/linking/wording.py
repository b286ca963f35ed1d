"""What a rule says, as lineage compares it and ``history``/``diff`` show its changes: its
title (when a heading's title is not its whole text), its text and its examples, one per line.

Kept apart from ``lineage`` (which needs the record types) so that ``history`` can compose a
stored rule's text from the rules table without loading them: a cold ``history`` is mostly
imports.
"""

from __future__ import annotations

from collections.abc import Iterable


def rule_text(title: str | None, text: str, examples: Iterable[str]) -> str:
    """A rule's title, text and examples, one per line (the title only where it is more
    than the text: a heading's text is its title)."""
    parts = [title] if title and title != text else []
    parts.append(text)
    parts.extend(examples)
    return "\n".join(p for p in parts if p)


__all__ = ["rule_text"]
