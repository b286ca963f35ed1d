"""Identity: a content hash for documents, and the slug that turns a name into an id."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

_SLUG = re.compile(r"[^a-z0-9]+")


def sha256(data: bytes) -> str:
    """Hex sha256 of `data`: a document is the same document exactly when its bytes are."""
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str | Path) -> str:
    """`sha256` of a file's bytes, read in chunks (an AllPrintings archive need not fit in memory)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def slug(text: str) -> str:
    """Lower-case ASCII words joined by "-" ("Bündnis" -> "bundnis"), for ids and file names."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _SLUG.sub("-", ascii_text.lower()).strip("-") or "document"
