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

from regelwerk.ingest.common import Line
from regelwerk.ingest.cr_structure import parse_release
from regelwerk.ingest.decode import decode, detect_newline, looks_binary, normalize_newlines
from regelwerk.ingest.model.errors import IngestError
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.records import IngestIssue, ParsedDocument

KIND = Format.CR_HTML
_CHARSET = re.compile(rb"<meta[^>]*charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
#: Stands in for <br> while BeautifulSoup flattens a paragraph; never occurs in CR text.
_BREAK = "\u2028"


def _decode(data: bytes, source: str) -> tuple[str, str, list[IngestIssue]]:
    """Text, encoding name and problems, honouring the <meta> charset when there is one."""
    if not data.strip():
        raise IngestError(source, "the file is empty")
    if looks_binary(data):
        raise IngestError(source, "the file is binary, not a text or HTML document")
    m = _CHARSET.search(data[:8192])
    if m:
        declared = m.group(1).decode("ascii")
        try:
            codec = codecs.lookup(declared)
        except LookupError:
            issue = IngestIssue(source, None, f"unknown <meta> charset {declared!r}; guessed instead")
        else:
            text = data.decode(codec.name, errors="replace")
            issues = []
            if "\ufffd" in text:
                issues.append(IngestIssue(source, None, f"bytes not valid in charset {declared!r}"))
            return text, codec.name, issues
    else:
        issue = IngestIssue(source, None, "no <meta> charset; guessed the encoding")
    decoded = decode(data, source)
    return decoded.text, decoded.encoding, [issue]


def paragraphs(html: str) -> list[Line]:
    """One logical line per <p> (more for <br>), each numbered with the <p>'s source line."""
    import bs4  # only HTML ingest pays for BeautifulSoup

    soup = bs4.BeautifulSoup(html, "html.parser")
    out: list[Line] = []
    for p in soup.find_all("p"):
        for br in p.find_all("br"):
            br.replace_with(_BREAK)
        line = p.sourceline or 0
        for segment in p.get_text().split(_BREAK):
            out.append((line, " ".join(segment.split())))
    return out


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
