"""Official Comprehensive Rules .txt releases (any year) to records.

Wizards has shipped ASCII, cp1252 and UTF-8-with-BOM files with CRLF, bare CR or (after
re-uploads) LF line endings; ``decode`` copes with all of them and we keep what it found on the
Document. Line numbers in every record are 1-based lines of the newline-normalised text, so
``tests/helpers.assert_lines_covered`` can prove that no line was dropped.
"""

from __future__ import annotations

import re

from regelwerk.ingest.common import Line
from regelwerk.ingest.cr_structure import parse_release
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.records import IngestIssue, ParsedDocument

KIND = Format.CR_TEXT
#: Strings every release contains; if a fallback decoding lost them, the guess was wrong.
_KNOWN = ("Comprehensive Rules",)
_REPLACEMENT = "\ufffd"
#: A "?" between letters ("can?t", "that?s"): an apostrophe lost before the file was published
#: (2008-05-01 has 1,671 and no apostrophe at all; the other releases of the archive at most
#: 76, beside more than 1,600 apostrophes).
_LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=[a-z])")
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])['\u2019](?=[a-z])")


def _confirm(text: str, encoding: str, source: str) -> list[IngestIssue]:
    """Check the decoding against strings every CR release contains."""
    issues: list[IngestIssue] = []
    missing = [s for s in _KNOWN if s not in text[:5000]]
    if missing:
        issues.append(
            IngestIssue(
                source,
                None,
                f"decoded as {encoding} but the text lacks {missing[0]!r}; "
                "this may not be a Comprehensive Rules file or the encoding guess is wrong",
            )
        )
    lost = len(_LOST_APOSTROPHE.findall(text))
    if lost >= 20 and lost > 10 * len(_APOSTROPHE.findall(text)):
        issues.append(
            IngestIssue(
                source,
                None,
                f"{lost} '?' stand between letters (\"can?t\") and almost no apostrophe does: the "
                "file's quotes and apostrophes were lost to '?' before it was published; the text "
                "keeps them as printed, and history and diff read such a '?' as a quote",
            )
        )
    bad = text.count(_REPLACEMENT)
    if bad:
        issues.append(IngestIssue(source, None, f"{bad} byte sequence(s) were not valid {encoding}"))
    return issues


def parse(data: bytes, source: str) -> ParsedDocument:
    """Parse one CR .txt release; raises IngestError only if the bytes are empty or binary."""
    decoded = decode(data, source)
    lines: list[Line] = list(enumerate(decoded.text.split("\n"), start=1))
    return parse_release(
        KIND,
        data,
        source,
        lines,
        encoding=decoded.encoding,
        newline=decoded.newline,
        issues=_confirm(decoded.text, decoded.encoding, source),
    )
