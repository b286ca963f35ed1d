"""Which stored document a newly parsed one is, by what it says rather than what it is called.

A document's identity is its kind, language and effective date (a CR release), plus its bytes'
sha256. Ids are derived from names only for documents without a date, so two different files
can arrive under one id (a glossary page named ``cr-en-2026-04-17.txt``). Storing the second
would silently replace the first: here that case is recognised and described, so the store
can refuse it unless the user asks for ``--replace``.
"""

from __future__ import annotations

from typing import Any

from regelwerk.ingest.model.message import N_, Message, msg

#: Kinds whose identity is their release date: new bytes of the same release replace the old.
DATED_KINDS = frozenset({"cr-text", "cr-html"})


def describe(summary: dict[str, Any]) -> Message:
    """One phrase naming a stored or parsed document: kind, language, date, size, source."""
    return msg(N_("{kind} {language} {version}, {sections} sections, from {source}"),
               kind=str(summary.get("kind")), language=str(summary.get("language")),
               version=summary.get("version") or msg(N_("undated")),
               sections=str(summary.get("sections", 0)), source=summary.get("source") or "?")


def conflict(old: dict[str, Any], new: dict[str, Any]) -> Message | None:
    """Why storing `new` under `old`'s id would lose a different document, or None if `new`
    is the same document (same bytes; a new printing of the same dated release; the same
    undated file re-read from the same path after an edit)."""
    if old.get("sha256") == new.get("sha256"):
        return None
    same = all(old.get(k) == new.get(k) for k in ("kind", "language", "version"))
    if same and (new.get("kind") in DATED_KINDS or old.get("source") == new.get("source")):
        return None
    return msg(N_("would replace the stored document {id!r} ({old}) with a different document ({new}); "
                  "pass --replace to replace it, or rename the file"),
               id=str(old.get("id")), old=describe(old), new=describe(new))
