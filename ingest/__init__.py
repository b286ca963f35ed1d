"""Document bytes in, records out: one module per format plus detection.

The format modules are imported lazily so that commands which only read the store (``rule``,
``search``) never pay for BeautifulSoup.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from regelwerk.ingest.model.errors import IngestError, UnknownFormat

if TYPE_CHECKING:
    from regelwerk.ingest.model.format import Format
    from regelwerk.ingest.model.records import ParsedDocument

__all__ = ["expand_paths", "parse_bytes", "parse_path", "read_document"]

#: Format value -> the module that parses it (imported only when a document of it arrives).
_MODULES: dict[str, str] = {
    "cr-text": "regelwerk.ingest.cr_text",
    "cr-html": "regelwerk.ingest.cr_html",
    "bilingual-dump": "regelwerk.ingest.bilingual",
    "glossary-de": "regelwerk.ingest.glossary_de",
    "excerpt": "regelwerk.ingest.excerpt",
}

#: File endings a directory ingest picks up; anything else in a folder is skipped, not an error.
DOCUMENT_SUFFIXES = frozenset({".txt", ".htm", ".html"})


def parse_bytes(data: bytes, source: str, fmt: Format | str | None = None) -> ParsedDocument:
    """Parse one document. Raises IngestError if it is empty, binary or unrecognised."""
    from regelwerk.ingest.decode import decode, looks_binary
    from regelwerk.ingest.detect import detect
    from regelwerk.ingest.model.format import Format

    if not data.strip():
        raise IngestError(source, "the file is empty")
    if looks_binary(data):
        raise IngestError(source, "the file is binary, not a text or HTML document")
    if fmt is None:
        text = decode(data, source).text
        found = detect(data, text)
        if found is None:
            raise UnknownFormat(
                source,
                "not a rules document regelwerk recognises (expected a Comprehensive Rules "
                ".txt or .htm, a bilingual rule dump, a German keyword glossary page or a "
                "CR excerpt); use --format to force one",
            )
        fmt = found[0]
    try:
        fmt = Format(fmt)
    except ValueError:
        choices = ", ".join(f.value for f in Format)
        raise IngestError(source, f"unknown format {fmt!r}; expected one of {choices}") from None
    module = importlib.import_module(_MODULES[fmt.value])
    result: ParsedDocument = module.parse(data, source)
    return result


def read_document(path: str | Path) -> bytes:
    """A document's bytes; an unreadable path is an IngestError naming it."""
    p = Path(path)
    try:
        return p.read_bytes()
    except IsADirectoryError:
        raise IngestError(str(p), "is a directory; pass it as a directory ingest") from None
    except OSError as exc:
        raise IngestError(str(p), f"cannot be read ({exc.strerror or exc})") from None


def parse_path(path: str | Path, fmt: Format | str | None = None) -> ParsedDocument:
    return parse_bytes(read_document(path), str(path), fmt)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, directories expanded (sorted) to the document files inside them."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(
                sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in DOCUMENT_SUFFIXES)
            )
        else:
            out.append(p)
    return out
