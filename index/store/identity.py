"""Which stored document a newly parsed one is, by what it says rather than what it is called.

A document's identity is its kind, language and effective date (a CR release), plus its bytes'
sha256. Ids are derived from names only for documents without a date, so two different files
can arrive under one id (a glossary page named ``cr-en-2026-04-17.txt``). Storing the second
would silently replace the first: here that case is recognised and described, so the store
can refuse it unless the user asks for ``--replace``.
"""

from __future__ import annotations

from typing import Any

#: Kinds whose identity is their release date: new bytes of the same release replace the old.
DATED_KINDS = frozenset({"cr-text", "cr-html"})


def describe(summary: dict[str, Any]) -> str:
    """One phrase naming a stored or parsed document: kind, language, date, size, source."""
    version = summary.get("version") or "undated"
    return (
        f"{summary.get('kind')} {summary.get('language')} {version}, "
        f"{summary.get('sections', 0)} sections, from {summary.get('source') or '?'}"
    )


def conflict(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Why storing `new` under `old`'s id would lose a different document, or None if `new`
    is the same document (same bytes; a new printing of the same dated release; the same
    undated file re-read from the same path after an edit)."""
    if old.get("sha256") == new.get("sha256"):
        return None
    same = all(old.get(k) == new.get(k) for k in ("kind", "language", "version"))
    if same and (new.get("kind") in DATED_KINDS or old.get("source") == new.get("source")):
        return None
    return (
        f"would replace the stored document {old.get('id')!r} ({describe(old)}) with a different "
        f"document ({describe(new)}); pass --replace to replace it, or rename the file"
    )
