"""Name a document's format from its bytes, and say why.

Detection looks at content, not file names, so a renamed file still ingests; ``--format``
overrides it. Each rule returns a reason string that error messages and ``--verbose`` quote.
"""

from __future__ import annotations

import re

from regelwerk.ingest.cr_structure import DATE_PHRASE
from regelwerk.ingest.model.format import Compression, Format

#: Format and Compression live in the shared model; re-exported for callers of detect.
__all__ = ["Compression", "Format", "compression", "detect", "mtgjson_reason"]

_MAGIC: tuple[tuple[bytes, Compression], ...] = (
    (b"\x1f\x8b", Compression.GZIP),
    (b"\xfd7zXZ\x00", Compression.XZ),
    (b"BZh", Compression.BZIP2),
    (b"PK\x03\x04", Compression.ZIP),
)
#: An MTGJSON v5 file is one JSON object whose first key is "data" or "meta" (keys are sorted,
#: so "data" comes first; an unsorted or pretty-printed copy may start with "meta").
_MTGJSON_START = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:data|meta)"\s*:')
_MTGJSON_KEYS = re.compile(rb'"(?:baseSetSize|totalSetSize|keyruneCode|setCode|cards)"\s*:')


_HTML = re.compile(rb"<\s*(?:!doctype\s+html|html|body|p\s|p>|div|meta)", re.IGNORECASE)
#: 2011-era files mark italics with underscores: "_Magic: The Gathering_ Comprehensive Rules".
_CR_HEADER = re.compile(r"Magic: The Gathering_?(?:®|\(R\)|\xae)?\s+Comprehensive Rules")
_EFFECTIVE = re.compile(DATE_PHRASE, re.IGNORECASE)
_DE_RULE = re.compile(r"^\d{3}\.\d+[a-z]? \S", re.MULTILINE)
_EN_RULE = re.compile(r"^\d{3}\.\d+[a-z]?\. \S", re.MULTILINE)
_GERMAN_MARKERS = ("Kartenbeispiel", "Manakosten:", "Beispiel:")


def compression(head: bytes) -> Compression | None:
    """The container a file's first bytes announce, or None for an uncompressed file."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            if kind is Compression.BZIP2 and not head[3:4].isdigit():
                continue  # "BZh" must be followed by the block size digit
            return kind
    return None


def mtgjson_reason(head: bytes) -> str | None:
    """Why the (decompressed) first bytes of a file look like an MTGJSON v5 card file, or None."""
    if _MTGJSON_START.match(head) and _MTGJSON_KEYS.search(head):
        return "it is a JSON object with MTGJSON's data/meta keys and set or card fields"
    return None


def detect(data: bytes, text: str | None = None) -> tuple[Format, str] | None:
    """Return the format and a human reason, or None if nothing recognises the document."""
    head = data[:4096]
    mtgjson = mtgjson_reason(data[:65536])
    if mtgjson is not None:
        return Format.MTGJSON, mtgjson
    if _HTML.search(head):
        return Format.CR_HTML, "it starts like an HTML document"
    if text is None:
        text = data.decode("utf-8", errors="replace")
    sample = text[:20000]
    if _CR_HEADER.search(sample) and _EFFECTIVE.search(sample):
        return Format.CR_TEXT, "it has the Comprehensive Rules header and effective date"
    de_rules = len(_DE_RULE.findall(text))
    en_rules = len(_EN_RULE.findall(text))
    if de_rules >= 3 and en_rules >= 3:
        return Format.BILINGUAL_DUMP, (
            f"it has {de_rules} rules numbered without a trailing period (German) and "
            f"{en_rules} with one (English)"
        )
    if any(marker in text for marker in _GERMAN_MARKERS[:2]):
        return Format.GLOSSARY_DE, "it has German example-card blocks (Kartenbeispiel/Manakosten)"
    if "Comprehensive Rules" in sample and re.search(r"\bis an? (?:static|triggered|activated)", text):
        return Format.EXCERPT, "it is rules prose with keyword headings but no rule numbers"
    if en_rules >= 20:
        return Format.CR_TEXT, f"it has {en_rules} numbered rules"
    return None
