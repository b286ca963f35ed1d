"""Bytes to text: encodings and line endings of every CR release.

Releases differ: ASCII (2011), cp1252 (2015), UTF-8 with BOM (2020s), UTF-16 with a BOM in
either byte order (2013-05, 2016-08, 2022-11), Mac Roman (2004, 2006-2007 and the Word HTML),
a DOS code page (2006-07, 2007-05, 2013, 2019-01); line endings CRLF, LF, bare CR or a mix.

A BOM decides first. Then strict UTF-8 (an 8-bit file almost never decodes as UTF-8 by
accident). An 8-bit file carries no label, so we decode it with each candidate code page and
keep the one under which the text reads best: the card names the rules quote (Dandân, Ghazbán,
Junún, Juzám, Khabál, El-Hajjâj, Ma'rûf, Æther) and typographic marks (™ – — ’ “ ”) come out
right under exactly one of them, as Academy Ruins decides it. We report which encoding and
newline we used so a document record can say how it was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from regelwerk.ingest.model.errors import IngestError
from regelwerk.ingest.model.message import N_, msg

#: Why a file is no document at all (ingest/__init__ and cr_html say it too).
EMPTY = N_("the file is empty")
BINARY = N_("the file is binary, not a text or HTML document")

#: Bytes that never occur in a text file; a few of them mean "binary".
_BINARY_BYTES = frozenset(range(0, 9)) | frozenset(range(14, 27)) | frozenset(range(28, 32))

#: Byte-order marks, longest first, and the codec that reads the rest of the bytes.
BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)

#: 8-bit code pages an unlabelled release may use, in order of preference on a tie.
CODE_PAGES = ("cp1252", "mac_roman", "cp437", "cp850")

#: Words with non-ASCII letters that CR releases contain (card names in the rules' examples
#: and lists); each one found under a candidate encoding is strong evidence for it.
KNOWN_WORDS = ("Dandân", "Ghazbán", "Junún", "Juzám", "Khabál", "Hajjâj", "Ma'rûf", "Æther", "Lim-Dûl")
#: Typographic marks that ordinary English prose uses; weak evidence each.
_TYPOGRAPHY = frozenset("™–—’‘“”®©…•éèêáâàúûüöäñçÆæ")
#: Marks no CR prose uses: C1 controls, box drawing, math symbols of DOS code pages.
_IMPLAUSIBLE = re.compile(r"[\x80-\x9f\u2500-\u257f\u2320\u2321\u2310\u00ac\u0192\u2030\u00d0\u00aa\u00f7]")


@dataclass(frozen=True)
class DecodedText:
    text: str  # newlines normalised to "\n", BOM removed
    encoding: str
    newline: str


def bom_codec(data: bytes) -> tuple[str, int] | None:
    """The codec a byte-order mark names and the BOM's length, or None without a BOM."""
    for bom, codec in BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    return None


def looks_binary(data: bytes) -> bool:
    """True for bytes that are not text; UTF-16 with a BOM is judged on its decoded text."""
    found = bom_codec(data)
    if found is not None and found[0].startswith("utf-16"):
        codec, skip = found
        sample_text = data[skip : skip + 16384].decode(codec, errors="replace")
        sample = sample_text.encode("utf-8", errors="replace")
        if "\x00" in sample_text:
            return True
    else:
        sample = data[:8192]
        if b"\x00" in sample:
            return True
    odd = sum(1 for b in sample if b in _BINARY_BYTES)
    return odd > max(8, len(sample) // 100)


def detect_newline(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    best = max((crlf, "\r\n"), (cr, "\r"), (lf, "\n"))
    return best[1] if best[0] else "\n"


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def plausibility(text: str) -> int:
    """How well `text` reads as CR prose: known words count ten, typographic marks one each,
    characters no CR uses (C1 controls, box drawing) cost two each."""
    score = sum(10 * text.count(word) for word in KNOWN_WORDS)
    odd = {ch for ch in set(text) if ord(ch) > 127}
    score += sum(text.count(ch) for ch in odd & _TYPOGRAPHY)
    score -= 2 * len(_IMPLAUSIBLE.findall(text))
    return score


#: The non-ASCII bytes of a file with a little ASCII context: all the evidence a code page
#: guess needs, a few kilobytes instead of the whole release.
_HIGH = re.compile(rb"[\x80-\xff]+")
_CONTEXT = 8
_MAX_SNIPPETS = 600


def guess_code_page(data: bytes, candidates: tuple[str, ...] = CODE_PAGES) -> tuple[str, str]:
    """(text, codec) under the candidate code page that reads best; ties keep the earlier one."""
    snippets: dict[bytes, None] = {}
    for m in _HIGH.finditer(data):
        snippets[data[max(0, m.start() - _CONTEXT) : m.end() + _CONTEXT]] = None
        if len(snippets) >= _MAX_SNIPPETS:
            break
    evidence = b"\n".join(snippets)
    best: tuple[int, int, str] | None = None
    for rank, codec in enumerate(candidates):
        try:
            sample = evidence.decode(codec)
        except UnicodeDecodeError:
            continue
        key = (plausibility(sample), -rank, codec)
        if best is None or key[:2] > best[:2]:
            best = key
    codec = "latin-1" if best is None else best[2]  # latin-1 decodes every byte
    return data.decode(codec), codec


def decode(data: bytes, path: str, fallback: tuple[str, ...] = CODE_PAGES) -> DecodedText:
    """Decode document bytes; raise IngestError for empty or binary input."""
    if not data.strip():
        raise IngestError(path, msg(EMPTY))
    if looks_binary(data):
        raise IngestError(path, msg(BINARY))
    found = bom_codec(data)
    if found is not None:
        encoding, skip = found
        text = data[skip:].decode(encoding.removesuffix("-sig"), errors="replace")
    else:
        try:
            text = data.decode("utf-8")
            encoding = "ascii" if data.isascii() else "utf-8"
        except UnicodeDecodeError:
            text, encoding = guess_code_page(data, fallback)
    if not text.strip():
        raise IngestError(path, msg(EMPTY))
    newline = detect_newline(text)
    return DecodedText(normalize_newlines(text), encoding, newline)
