"""CR text copied from a web page that lost its rule numbers.

The page keeps one CR paragraph per line but drops every number: "702.2a Deathtouch is a
static ability." became "Deathtouch is a static ability.", and numbers inside the text went
too ("See rules 510.1c–d." became "See rules –d.", "(See rule 510, ...)" became
"(See rule , ...)"). Some keywords keep a heading line ("Deathtouch"), others start straight
with their first paragraph ("Morph is a static ability ...").

This module does not guess numbers; linking does, by matching keyword names against a numbered
CR. To make that possible every paragraph stays its own record, in order:

* the keyword's first paragraph is a Section of kind "keyword" (``title`` and ``keyword`` are
  the heading as written, ``text`` the paragraph, ``number`` None);
* each further paragraph is a Section of kind "paragraph" with the same ``keyword``, ``parent``
  None and a larger ``position``.

So the n-th record of a keyword group (the keyword section is n = 0) is the CR subrule with
letter ``numbers.letters(n + 1)[n]`` (a, b, c, ... skipping l and o), under whatever rule number
linking finds for the keyword; ``subrule_indexes`` computes n. Where the page dropped a
paragraph (banding's example) linking will see one paragraph too few and can compare texts.

A paragraph that does not mention its group's keyword at all is a stray snippet the page pulled
in from elsewhere (the last line, "Creatures in a band can't attack different players." is CR
802.3b, shown under Disguise). It becomes a "paragraph" with ``keyword`` None, so it does not
take a subrule letter. Lines before the first keyword are "front" sections, one per line.

``references`` only hold numbers that survived; ``lost_references`` counts the "rule ,"
holes so a caller can say how many cross-references the page lost. No IngestIssue is raised for
them: the text is kept exactly as the page has it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from regelwerk.ingest.common import Line, document_id, new_document
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model import stemming
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.numbers import find_references
from regelwerk.ingest.model.records import KeywordMention, ParsedDocument, Section

KIND = Format.EXCERPT


_HEADING_MAX = 40
#: A heading ends without sentence punctuation ("For Mirrodin!" keeps its "!").
_NOT_HEADING_END = re.compile(r"[.,;:)\]”\"]$")
#: "Morph is a static ability ...": a keyword whose heading line the page dropped.
_DEFINITION = re.compile(
    r"^(?P<name>[A-Z][\w’'!-]*(?: [\w’'!-]+){0,3}?) is an? "
    r"(?:static|triggered|activated|characteristic-defining|mana|evasion|spell) ability\b"
)
#: A reference whose number the page dropped: "rule ,", "rules –d", "rule ." or "rule )".
_LOST = re.compile(r"\brules? (?=[,.;)]|[–-][a-z]\b)")


@dataclass
class _Group:
    keyword: str
    heading_line: int | None
    paragraphs: list[Line] = field(default_factory=list)


def lost_references(text: str) -> int:
    """How many "see rule ..." references in `text` lost their number."""
    return len(_LOST.findall(text))


def _is_heading(line: str, following: str | None) -> bool:
    if following is None or len(line) > _HEADING_MAX or _NOT_HEADING_END.search(line):
        return False
    return following.lower().startswith(line.lower() + " ")


def _groups(lines: list[Line]) -> tuple[list[Line], list[_Group]]:
    front: list[Line] = []
    groups: list[_Group] = []
    i = 0
    while i < len(lines):
        lineno, line = lines[i]
        following = lines[i + 1][1] if i + 1 < len(lines) else None
        if _is_heading(line, following):
            groups.append(_Group(line, lineno))
            i += 1
            continue
        m = _DEFINITION.match(line)
        if m and (not groups or m.group("name").lower() != groups[-1].keyword.lower()):
            groups.append(_Group(m.group("name"), None))
        if groups:
            groups[-1].paragraphs.append((lineno, line))
        else:
            front.append((lineno, line))
        i += 1
    return front, groups


def parse(data: bytes, source: str) -> ParsedDocument:
    """Parse a number-stripped CR excerpt; nothing in it is an error, so no IngestIssues."""
    decoded = decode(data, source)
    lines = [(n, raw.strip()) for n, raw in enumerate(decoded.text.split("\n"), start=1) if raw.strip()]
    front, groups = _groups(lines)
    doc_id = document_id(KIND, None, source)

    sections: list[Section] = []
    mentions: list[KeywordMention] = []

    def add(kind: str, title: str, text: str, keyword: str | None, line_numbers: tuple[int, ...]) -> int:
        position = len(sections)
        sections.append(
            Section(
                document=doc_id,
                number=None,
                parent=None,
                title=title,
                text=text,
                language="en",
                position=position,
                kind=kind,
                references=find_references(text),
                keyword=keyword,
                lines=line_numbers,
            )
        )
        return position

    for lineno, line in front:
        add("front", "", line, None, (lineno,))
    for group in groups:
        for i, (lineno, line) in enumerate(group.paragraphs):
            if i == 0:
                heading = (group.heading_line,) if group.heading_line is not None else ()
                position = add("keyword", group.keyword, line, group.keyword, (*heading, lineno))
                mentions.append(KeywordMention(doc_id, group.keyword, "en", None, position))
            elif stemming.mentions(line, group.keyword):
                add("paragraph", group.keyword, line, group.keyword, (lineno,))
            else:
                add("paragraph", "", line, None, (lineno,))
        if not group.paragraphs and group.heading_line is not None:  # a heading at the very end
            position = add("keyword", group.keyword, "", group.keyword, (group.heading_line,))
            mentions.append(KeywordMention(doc_id, group.keyword, "en", None, position))

    page_title = front[0][1] if front and not _NOT_HEADING_END.search(front[0][1]) else ""
    document = new_document(
        KIND,
        data,
        source,
        title=f"{page_title or 'Comprehensive Rules'} (excerpt without rule numbers)",
        language="en",
        encoding=decoded.encoding,
        newline=decoded.newline,
    )
    return ParsedDocument(document=document, sections=tuple(sections), mentions=tuple(mentions))


def subrule_indexes(sections: tuple[Section, ...] | list[Section]) -> dict[int, int]:
    """Section position -> its 0-based place in its keyword group (the keyword section is 0).

    Linking turns place n into subrule letter ``letters(n + 1)[n]``. Front matter and stray
    paragraphs (``keyword`` None) get no place.
    """
    out: dict[int, int] = {}
    current: str | None = None
    count = 0
    for s in sorted(sections, key=lambda s: s.position):
        if s.kind == "keyword":
            current, count = s.keyword, 0
        elif s.kind != "paragraph" or s.keyword is None or s.keyword != current:
            continue
        out[s.position] = count
        count += 1
    return out
