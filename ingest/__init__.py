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
    from regelwerk.ingest.mtgjson import MtgjsonReader

__all__ = ["card_reader", "expand_paths", "parse_bytes", "parse_path", "read_document"]

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
#: Endings of MTGJSON card files (plain or packed); in a directory they are taken only when their
#: content is MTGJSON, so other JSON lying next to the rules (a third-party parse) is skipped.
CARD_SUFFIXES = frozenset({".json", ".gz", ".xz", ".bz2", ".zip"})


def parse_bytes(data: bytes, source: str, fmt: Format | str | None = None) -> ParsedDocument:
    """Parse one document. Raises IngestError if it is empty, binary or unrecognised."""
    from regelwerk.ingest.decode import decode, looks_binary
    from regelwerk.ingest.detect import compression, detect
    from regelwerk.ingest.model.format import Format

    if not data.strip():
        raise IngestError(source, "the file is empty")
    if fmt == "mtgjson" or _card_reason(data, source) is not None:
        raise IngestError(
            source, "is an MTGJSON card file; it holds cards, not a rules document (use card_reader)"
        )
    packed = compression(data[:8])
    if packed is not None:
        raise IngestError(source, f"is {packed}-compressed but holds no MTGJSON card file")
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


def _card_reason(data: bytes, source: str) -> str | None:
    import io

    from regelwerk.ingest.detect import compression, mtgjson_reason

    if compression(data[:8]) is None:
        return mtgjson_reason(data[:65536])
    from regelwerk.ingest.mtgjson import sniff

    return sniff(io.BytesIO(data), source)


def card_reader(path: str | Path) -> MtgjsonReader | None:
    """A streaming reader if `path` is an MTGJSON card file (by content, any container), else None.

    Card files take their own road because an AllPrintings file is far too big to read into
    memory as bytes the way rules documents are.
    """
    from regelwerk.ingest.mtgjson import MtgjsonReader, sniff

    try:
        with open(path, "rb") as fh:
            reason = sniff(fh, str(path))
    except OSError:
        return None  # read_document reports the unreadable path
    return None if reason is None else MtgjsonReader(str(path))


def _wanted(path: Path) -> bool:
    """Whether a directory ingest takes this file (a broken zip is taken, to be reported)."""
    suffix = path.suffix.lower()
    if suffix in DOCUMENT_SUFFIXES:
        return True
    if suffix not in CARD_SUFFIXES:
        return False
    try:
        return card_reader(path) is not None
    except IngestError:
        return True


def parse_path(path: str | Path, fmt: Format | str | None = None) -> ParsedDocument:
    return parse_bytes(read_document(path), str(path), fmt)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, directories expanded (sorted) to the document files inside them."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and _wanted(f)))
        else:
            out.append(p)
    return out
