"""The document formats regelwerk reads: one ingest module per value, named by ``detect``."""

from __future__ import annotations

import enum


class Format(enum.StrEnum):
    CR_TEXT = "cr-text"
    CR_HTML = "cr-html"
    BILINGUAL_DUMP = "bilingual-dump"
    GLOSSARY_DE = "glossary-de"
    EXCERPT = "excerpt"
    MTGJSON = "mtgjson"

    def __repr__(self) -> str:  # eval-able, as records' reprs are
        return f"Format({self.value!r})"


class Compression(enum.StrEnum):
    """Containers MTGJSON ships its files in, recognised by their magic bytes."""

    GZIP = "gzip"
    XZ = "xz"
    BZIP2 = "bzip2"
    ZIP = "zip"
