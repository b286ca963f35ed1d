"""Small helpers the format modules share: ids, hashing, quote clean-up, line bookkeeping."""

from __future__ import annotations

import re
from pathlib import PurePath

from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.ids import sha256, slug
from regelwerk.ingest.model.records import Document
from regelwerk.ingest.model.releases import CR_KINDS

#: A logical line of a document: (1-based source line number, text). Blank text separates blocks.
Line = tuple[int, str]

__all__ = ["Line", "document_id", "new_document", "normalize_quotes", "sha256", "slug", "strip_italics"]


def document_id(kind: Format, version: str | None, source: str, language: str = "en") -> str:
    """Stable id: a CR release is identified by its date, anything else by its file name.

    Re-ingesting the same release (even from another path) replaces it; a different release is
    a separate document.
    """
    if version and kind in CR_KINDS:
        suffix = "" if kind == Format.CR_TEXT else "-html"
        return f"cr-{language}-{version}{suffix}"
    return slug(PurePath(source).stem)


#: The seeds write quotes as ´´Name´´ (two acute accents) and sometimes ``Name''.
_ODD_QUOTES = re.compile(r"´´|``|''|´")


def normalize_quotes(text: str) -> str:
    """Turn the seeds' ´´odd quotes´´ into plain double quotes."""
    return _ODD_QUOTES.sub('"', text)


_ITALICS = re.compile(r"(?<![\w])_([^_\n]+?)_(?![\w])")


def strip_italics(text: str) -> str:
    """CR .txt files mark italics as _word_; keep the words, drop the markers (most lines
    have no underscore at all: they skip the regex)."""
    return _ITALICS.sub(r"\1", text) if "_" in text else text


def new_document(
    kind: Format,
    data: bytes,
    source: str,
    *,
    title: str,
    language: str,
    encoding: str,
    newline: str,
    version: str | None = None,
) -> Document:
    """The Document record every ingestor builds: id from kind/version/source, hash of the bytes."""
    return Document(
        id=document_id(kind, version, source, language if language in ("en", "de") else "en"),
        title=title,
        language=language,
        kind=kind,
        version=version,
        source=source,
        sha256=sha256(data),
        encoding=encoding,
        newline=newline,
    )
