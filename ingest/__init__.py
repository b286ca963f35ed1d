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
from regelwerk.ingest.model.message import N_, Message, msg

CANNOT_READ = N_("cannot be read ({why})")
IS_DIRECTORY = N_("is a directory; pass it as a directory ingest")

if TYPE_CHECKING:
    from regelwerk.ingest.model.format import Format
    from regelwerk.ingest.model.records import ParsedDocument
    from regelwerk.ingest.mtgjson import MtgjsonReader

__all__ = [
    "card_reader",
    "display_path",
    "expand_paths",
    "is_card_file",
    "parse_bytes",
    "parse_path",
    "read_document",
]

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
    from regelwerk.ingest.decode import BINARY, EMPTY, decode, looks_binary
    from regelwerk.ingest.detect import compression, detect
    from regelwerk.ingest.model.format import Format

    if not data.strip():
        raise IngestError(source, msg(EMPTY))
    if fmt == "mtgjson" or _card_reason(data, source) is not None:
        raise IngestError(
            source, msg(N_("is an MTGJSON card file; it holds cards, not a rules document (use card_reader)"))
        )
    packed = compression(data[:8])
    if packed is not None:
        raise IngestError(source, msg(N_("is {packed}-compressed but holds no MTGJSON card file"),
                                      packed=str(packed)))
    if looks_binary(data):
        raise IngestError(source, msg(BINARY))
    if fmt is None:
        text = decode(data, source).text
        found = detect(data, text)
        if found is None:
            raise UnknownFormat(
                source,
                msg(N_("not a rules document regelwerk recognises (expected a Comprehensive Rules "
                       ".txt or .htm, a bilingual rule dump, a German keyword glossary page or a "
                       "CR excerpt); use --format to force one")),
            )
        fmt = found[0]
    try:
        fmt = Format(fmt)
    except ValueError:
        choices = ", ".join(f.value for f in Format)
        raise IngestError(source, msg(N_("unknown format {fmt!r}; expected one of {choices}"),
                                      fmt=str(fmt), choices=choices)) from None
    module = importlib.import_module(_MODULES[fmt.value])
    result: ParsedDocument = module.parse(data, source)
    return result


def display_path(path: str | Path) -> str:
    """`path` as text that can be stored and printed: a file name's undecodable bytes (a
    Latin-1 ``\\xff`` on a UTF-8 system) become U+FFFD instead of lone surrogates, which no
    UTF-8 writer accepts."""
    import os

    return os.fsencode(path).decode("utf-8", errors="replace")


#: The largest document regelwerk reads: every CR release is under 2 MB, the whole archive
#: of 104 releases 67 MB. Anything bigger is not a rules document, and reading it would only
#: cost memory.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


def read_document(path: str | Path, *, follow_symlinks: bool = True) -> bytes:
    """A document's bytes; an unreadable path is an IngestError naming it.

    Only regular files are read: a named pipe, a device or a socket would block or never
    end, so the file is opened without blocking and checked before a byte is read. With
    `follow_symlinks` false a symbolic link is refused (a directory ingest must not read
    what a link smuggles in, such as /etc/passwd).
    """
    import os
    import stat

    p = Path(path)
    name = display_path(p)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        if not follow_symlinks and p.is_symlink():
            raise IngestError(name, msg(N_("is a symbolic link; pass --follow-symlinks to read it")))
        fd = os.open(p, flags)
    except IngestError:
        raise
    except IsADirectoryError:
        raise IngestError(name, msg(IS_DIRECTORY)) from None
    except OSError as exc:
        raise IngestError(name, msg(CANNOT_READ, why=str(exc.strerror or exc))) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IngestError(name, msg(IS_DIRECTORY))
        if not stat.S_ISREG(info.st_mode):
            kind = _file_kind(info.st_mode)
            raise IngestError(name, msg(N_("is not a regular file ({kind}); regelwerk reads files only"),
                                        kind=kind))
        if info.st_size > MAX_DOCUMENT_BYTES:
            raise IngestError(name, msg(N_("is {size} bytes; the limit is {limit}"),
                                         size=f"{info.st_size:,}", limit=f"{MAX_DOCUMENT_BYTES:,}"))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > MAX_DOCUMENT_BYTES:  # it grew while we read it
                raise IngestError(name, msg(N_("is over the limit of {limit} bytes"),
                                            limit=f"{MAX_DOCUMENT_BYTES:,}"))
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise IngestError(name, msg(CANNOT_READ, why=str(exc.strerror or exc))) from None
    finally:
        os.close(fd)


def _file_kind(mode: int) -> Message:
    import stat

    kinds = ((stat.S_ISFIFO, N_("a named pipe")), (stat.S_ISCHR, N_("a character device")),
             (stat.S_ISBLK, N_("a block device")), (stat.S_ISSOCK, N_("a socket")))
    return msg(next((name for test, name in kinds if test(mode)), N_("not a plain file")))


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
    import os
    import stat

    from regelwerk.ingest.mtgjson import MtgjsonReader, sniff

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a named pipe would block open(); read_document refuses it by name
        with open(path, "rb") as fh:
            reason = sniff(fh, str(path))
    except OSError:
        return None  # read_document reports the unreadable path
    return None if reason is None else MtgjsonReader(str(path))


def is_card_file(path: str | Path) -> bool:
    """Whether `path` goes to the card database (a broken zip does too, to be reported there)."""
    try:
        return card_reader(path) is not None
    except IngestError:
        return True


def _wanted(path: Path) -> bool:
    """Whether a directory ingest takes this file."""
    suffix = path.suffix.lower()
    if suffix in DOCUMENT_SUFFIXES:
        return True
    return suffix in CARD_SUFFIXES and is_card_file(path)


def parse_path(path: str | Path, fmt: Format | str | None = None) -> ParsedDocument:
    return parse_bytes(read_document(path), display_path(path), fmt)


#: Why a directory ingest passes over a file of another kind (a .pdf, a .md next to the rules).
_NOT_A_DOCUMENT = N_(
    "not a rules document or card file ({suffix}; expected .txt, .htm, .html or MTGJSON), skipped"
)


def _skip(path: Path, why: str, **args: str) -> Message:
    """One skipped directory entry: "<path>: <why>" as a message, so it reads in German too."""
    return msg(N_("{path}: {why}"), path=str(path), why=msg(why, **args))


def expand_paths(
    paths: Iterable[str | Path], *, follow_symlinks: bool = False, skipped: list[Message] | None = None
) -> list[Path]:
    """Files as given, directories expanded (sorted) to the document files inside them.

    Inside a directory, symbolic links (to files or folders) are skipped unless
    `follow_symlinks`, and so is anything that is not a regular file; each skip is described
    in `skipped`, when given. A path named on its own is returned as it is: `read_document`
    decides whether it can be read.
    """
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            out.append(p)
            continue
        found: list[Path] = []
        for f in p.rglob("*"):
            if f.suffix.lower() not in DOCUMENT_SUFFIXES | CARD_SUFFIXES:
                if skipped is not None and f.is_file() and not f.is_symlink():
                    skipped.append(_skip(f, _NOT_A_DOCUMENT, suffix=f.suffix or "no suffix"))
                continue
            if f.is_symlink() and not follow_symlinks:
                if skipped is not None:
                    skipped.append(_skip(f, N_("a symbolic link, skipped (--follow-symlinks reads it)")))
            elif f.is_file():
                if _wanted(f):
                    found.append(f)
                elif skipped is not None:
                    skipped.append(_skip(f, N_("a {suffix} file that is not MTGJSON card data, skipped"),
                                         suffix=f.suffix))
            elif skipped is not None and not f.is_dir():
                skipped.append(_skip(f, N_("not a regular file, skipped")))
        out.extend(sorted(found))
    return out
