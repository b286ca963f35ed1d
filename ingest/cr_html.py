"""Comprehensive Rules as Word "filtered HTML" (the 2014 .htm exports) to records.

Word gives every rule, example and glossary part its own ``<p>`` with a style class, but the
classes are not reliable enough to drive parsing (the Contents use ``CR1001``, the rules' class,
for section titles), so we classify by text exactly like the .txt ingestor: each paragraph
becomes one logical line (hard wraps joined, ``<br>`` splitting a glossary definition into
its numbered senses), numbered with the paragraph's source line, and goes through the shared
``parse_structure``. Spacer paragraphs (``&nbsp;``) become the blank lines that separate
glossary entries; a paragraph end is not a blank line, because a glossary term and its
definition are two paragraphs of one entry.

The bytes are decoded with the charset the page's ``<meta>`` names (``macintosh`` = Mac Roman
for the known export), not a guess.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator

from regelwerk.ingest.common import Line
from regelwerk.ingest.cr_structure import parse_release
from regelwerk.ingest.decode import BINARY, EMPTY, decode, detect_newline, looks_binary, normalize_newlines
from regelwerk.ingest.model.errors import IngestError
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.message import msg
from regelwerk.ingest.model.records import IngestIssue, ParsedDocument

KIND = Format.CR_HTML
_CHARSET = re.compile(rb"<meta[^>]*charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def _decode(data: bytes, source: str) -> tuple[str, str, list[IngestIssue]]:
    """Text, encoding name and problems, honouring the <meta> charset when there is one."""
    if not data.strip():
        raise IngestError(source, msg(EMPTY))
    if looks_binary(data):
        raise IngestError(source, msg(BINARY))
    m = _CHARSET.search(data[:8192])
    if m:
        declared = m.group(1).decode("ascii")
        codec = _text_codec(declared)
        text = _decoded(data, codec) if codec is not None else None
        if codec is None or text is None:
            why = f"<meta> charset {declared!r} is not a text encoding for web pages; guessed instead"
            issue = IngestIssue(source, None, why)
        else:
            issues = []
            if "\ufffd" in text:
                issues.append(IngestIssue(source, None, f"bytes not valid in charset {declared!r}"))
            return text, codec, issues
    else:
        issue = IngestIssue(source, None, "no <meta> charset; guessed the encoding")
    decoded = decode(data, source)
    return decoded.text, decoded.encoding, [issue]


#: Charsets that do read ASCII as ASCII, yet are no way to write a rules page: UTF-7 hides
#: markup in "+ADw-" runs (a classic filter bypass); the others are Python's escape and
#: domain-name codecs, not charsets.
_REFUSED_CHARSETS = frozenset({"utf-7", "idna", "punycode", "unicode-escape", "raw-unicode-escape"})


def _text_codec(declared: str) -> str | None:
    """The codec name for a <meta> charset, if it decodes bytes to text and reads the ASCII
    the page's own markup is written in as ASCII; None for "base64", "zlib", "utf-16" and
    the like, which would fail or misread the page."""
    try:
        info = codecs.lookup(declared)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _REFUSED_CHARSETS:
        return None
    probe = b"<p class=x>Rules 100.1a</p>"
    try:
        if probe.decode(info.name) != probe.decode("ascii"):
            return None
    except (UnicodeDecodeError, ValueError):
        return None
    return info.name


def _decoded(data: bytes, codec: str) -> str | None:
    """`data` in `codec`, bad bytes as U+FFFD, or None if the codec fails outright. Lone
    surrogates (which some codecs produce) are replaced too: no UTF-8 writer stores them."""
    try:
        text = data.decode(codec, errors="replace")
    except (UnicodeError, LookupError, ValueError, TypeError):
        return None
    return text.encode("utf-8", errors="replace").decode("utf-8")


def paragraphs(html: str) -> list[Line]:
    """One logical line per <p> (more for <br>), each numbered with the <p>'s source line.

    One walk over the tree with an explicit stack, so the work is linear however the page
    nests: 20,000 unclosed ``<p>`` tags nest 20,000 deep, and asking each for its text (or
    its ``<br>``s) would read the rest of the page once per paragraph. A paragraph's text is
    its own, not that of paragraphs nested in it.
    """
    import bs4  # only HTML ingest pays for BeautifulSoup
    from bs4.element import CData, NavigableString, PageElement

    soup = bs4.BeautifulSoup(html, "html.parser")
    found: list[tuple[int, list[list[str]]]] = []  # (source line, segments split at <br>)
    Para = tuple[int, list[list[str]]] | None
    stack: list[tuple[Iterator[PageElement], Para]] = [(iter(soup.children), None)]
    while stack:
        children, para = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
        elif isinstance(child, bs4.Tag):
            if child.name == "p":
                para = (child.sourceline or 0, [[]])
                found.append(para)
            elif child.name == "br" and para is not None:
                para[1].append([])
            stack.append((iter(child.children), para))
        elif para is not None and type(child) in (NavigableString, CData):
            para[1][-1].append(str(child))
    return [(line, " ".join("".join(seg).split())) for line, segments in found for seg in segments]


def parse(data: bytes, source: str) -> ParsedDocument:
    """Parse one Word-exported CR .htm; raises IngestError only for empty or binary input."""
    html, encoding, issues = _decode(data, source)
    lines = _drop_spacer_runs(paragraphs(normalize_newlines(html)))
    if "Comprehensive Rules" not in "\n".join(t for _, t in lines)[:5000]:
        issues.append(IngestIssue(source, None, "the page lacks 'Comprehensive Rules'; is it a CR export?"))
    return parse_release(
        KIND, data, source, lines, encoding=encoding, newline=detect_newline(html[:100000]), issues=issues
    )


def _drop_spacer_runs(lines: list[Line]) -> list[Line]:
    """Collapse runs of &nbsp; spacer paragraphs into one blank line."""
    out: list[Line] = []
    for line in lines:
        if not line[1] and out and not out[-1][1]:
            continue
        out.append(line)
    return out
