"""Bytes to text: encodings and line endings of every CR release.

Releases differ: ASCII (2011), cp1252 (2015), UTF-8 with BOM (2020s), Mac Roman (Word HTML);
line endings CRLF, LF or bare CR. We try strict UTF-8 first (a cp1252 file almost never
decodes as UTF-8 by accident), then fall back, and report which encoding and newline we used
so a document record can say how it was read.
"""

from __future__ import annotations

from dataclasses import dataclass

from regelwerk.ingest.model.errors import IngestError

#: Bytes that never occur in a text file; a few of them mean "binary".
_BINARY_BYTES = frozenset(range(0, 9)) | frozenset(range(14, 27)) | frozenset(range(28, 32))


@dataclass(frozen=True)
class DecodedText:
    text: str  # newlines normalised to "\n", BOM removed
    encoding: str
    newline: str


def looks_binary(data: bytes) -> bool:
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


def decode(data: bytes, path: str, fallback: tuple[str, ...] = ("cp1252", "latin-1")) -> DecodedText:
    """Decode document bytes; raise IngestError for empty or binary input."""
    if not data.strip():
        raise IngestError(path, "the file is empty")
    if looks_binary(data):
        raise IngestError(path, "the file is binary, not a text or HTML document")
    if data.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
        text = data.decode("utf-8-sig", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
            encoding = "ascii" if data.isascii() else "utf-8"
        except UnicodeDecodeError:
            for candidate in fallback:
                try:
                    text = data.decode(candidate)
                    encoding = candidate
                    break
                except UnicodeDecodeError:
                    continue
            else:  # pragma: no cover - latin-1 decodes everything
                raise IngestError(path, "the file is in no encoding we know") from None
    newline = detect_newline(text)
    return DecodedText(normalize_newlines(text), encoding, newline)
