"""The layout every official Comprehensive Rules release shares, independent of file format.

A release is: front matter (title, effective date, Introduction, Contents), the numbered
rules (chapters "1.", sections "100.", rules "100.1.", subrules "100.1a"), the Glossary
(term line, definition lines, blank line) and the Credits with a legal trailer. The .txt and
the Word HTML exports differ only in how they spell a line, so both ingestors turn their input
into numbered logical lines and hand them to ``parse_structure``; the HTML one passes each
paragraph's source line.

The Contents list "Glossary" and "Credits" too, so the real Glossary is the first one *after*
the rules start, and the rules start where the first numbered rule's heading block begins
(walking back over its chapter and section headings), not at the first "1. Game Concepts",
which is a Contents entry.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from regelwerk.ingest.common import Line, new_document, strip_italics
from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.numbers import RuleNumber, find_references
from regelwerk.ingest.model.records import GlossaryEntry, IngestIssue, ParsedDocument, Section

_CHAPTER = re.compile(r"^([1-9])\.\s+(\S.*)$")
_SECTION = re.compile(r"^([1-9]\d{2})\.\s+(\S.*)$")
#: Same shape as the count oracle ``^\d{3}\.\d+[a-z]?\.? ``; the optional period also absorbs
#: stray periods after subrule letters ("119.1d.").
_RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.? (.*)$")
_EXAMPLE = re.compile(r"^Example:")
#: The release date line: "effective as of" since July 2009, "current as of" before.
DATE_PHRASE = r"These rules are (?:effective|current) as of"
_EFFECTIVE = re.compile(DATE_PHRASE + r"\s+([A-Z][a-z]+\s+\d{1,2},\s+\d{4})")
#: Text that ends a sentence; a rule line without it is a heading ("702.22. Banding").
_SENTENCE_END = re.compile(r"[.:;!?\"”’)\]]$")
_HEADING_MAX = 80
#: Sections whose rule headings are keyword names: "Keyword Actions" and "Keyword Abilities",
#: 701/702 today and 501/502 before July 2009, so they are found by their titles.
_KEYWORD_SECTION_TITLE = re.compile(r"^Keyword (?:Abilities|Actions)$")
#: Glossary heads whose comma is part of the name, not a list of alternatives: the CR calls
#: this concept "active player, nonactive player (APNAP) order" (rule 101.4).
_SINGLE_TERMS = frozenset({"Active Player, Nonactive Player Order"})
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$")
_QUOTED = re.compile(r"“([^”]*)”|\"([^\"]*)\"")
_ALL_QUOTED = re.compile(r"(?:\s*(?:“[^”]*”|\"[^\"]*\"))+\s*")
_FRONT_HEADINGS = frozenset({"Introduction", "Contents"})


@dataclass(frozen=True)
class Structure:
    sections: tuple[Section, ...]
    glossary: tuple[GlossaryEntry, ...]
    issues: tuple[IngestIssue, ...]


@dataclass
class _Draft:
    """A section being built; rules collect continuation lines and examples as they come."""

    number: str | None
    parent: str | None
    kind: str
    title: str
    text: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


def effective_date(text: str) -> tuple[str, str] | None:
    """The ISO date and the date as written, from "These rules are effective (current) as of ..."."""
    m = _EFFECTIVE.search(text)
    if not m:
        return None
    written = re.sub(r"\s+", " ", m.group(1))
    try:
        day = datetime.datetime.strptime(written, "%B %d, %Y").date()
    except ValueError:
        return None
    return day.isoformat(), written


def split_terms(head: str) -> tuple[str, ...]:
    """Split a glossary head listing alternatives ("Banding, “Bands with Other”").

    Only commas outside quotes separate alternatives ('Intervening “If” Clause' is one term),
    and a part made only of quoted names is a list of names ('“Partner—[text],” “Partner with
    [name]”').
    """
    if head in _SINGLE_TERMS:
        return (head,)
    terms: list[str] = []
    for part in _top_level_parts(head):
        if _ALL_QUOTED.fullmatch(part):
            names = (q.group(1) or q.group(2) or "" for q in _QUOTED.finditer(part))
            terms.extend(n.strip().rstrip(",").strip() for n in names)
        elif part:
            terms.append(part)
    return tuple(t for t in terms if t) or (head,)


def _top_level_parts(head: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    curly = 0
    straight = False
    for ch in head:
        if ch == "“":
            curly += 1
        elif ch == "”":
            curly = max(0, curly - 1)
        elif ch == '"':
            straight = not straight
        elif ch == "," and not curly and not straight:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def _clean(text: str) -> str:
    return strip_italics(text).strip()


class _Builder:
    """Accumulates records and issues in document order."""

    def __init__(self, document: str, file: str) -> None:
        self.document = document
        self.file = file
        self.sections: list[Section] = []
        self.glossary: list[GlossaryEntry] = []
        self.issues: list[IngestIssue] = []
        self.keyword_sections: set[str] = set()

    def issue(self, line: Line, message: str) -> None:
        no, text = line
        self.issues.append(IngestIssue(self.file, no, message, text, lines=(no,)))

    def note(self, line_no: int | None, message: str) -> None:
        """An issue about something already placed in a record: it claims no lines."""
        self.issues.append(IngestIssue(self.file, line_no, message))

    def add(self, draft: _Draft) -> None:
        text = "\n".join(draft.text)
        refs = find_references("\n".join([text, *draft.examples]))
        keyword = None
        if draft.kind == "section" and draft.number and _KEYWORD_SECTION_TITLE.match(draft.title):
            self.keyword_sections.add(draft.number)
        if draft.kind == "rule" and draft.parent in self.keyword_sections and draft.title:
            keyword = draft.title
        self.sections.append(
            Section(
                document=self.document,
                number=draft.number,
                parent=draft.parent,
                title=draft.title,
                text=text,
                language="en",
                position=len(self.sections),
                kind=draft.kind,
                examples=tuple(draft.examples),
                references=refs,
                keyword=keyword,
                lines=tuple(dict.fromkeys(draft.lines)),  # HTML: one line, many segments
            )
        )


def _find_body_start(lines: Sequence[Line]) -> int:
    """Index of the first line of the rules proper (see the module docstring)."""
    first_rule = next((i for i, (_, t) in enumerate(lines) if _RULE.match(t)), None)
    if first_rule is None:
        return len(lines)
    # The Contents name the first chapter too; where the same line comes back, the rules begin.
    chapters = [i for i in range(first_rule) if _CHAPTER.match(lines[i][1])]
    if chapters:
        first = lines[chapters[0]][1].strip()
        again = [i for i in chapters[1:] if lines[i][1].strip() == first]
        if again:
            return again[0]
    start = first_rule
    i = first_rule - 1
    while i >= 0:
        text = lines[i][1]
        if not text.strip():
            i -= 1
            continue
        if _SECTION.match(text) or _CHAPTER.match(text):
            start = i
            i -= 1
            continue
        break
    return start


def _find_heading(lines: Sequence[Line], name: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i][1].strip() == name), None)


def _blocks(lines: Sequence[Line]) -> list[list[Line]]:
    """Runs of non-blank lines."""
    out: list[list[Line]] = []
    current: list[Line] = []
    for line in lines:
        if line[1].strip():
            current.append(line)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def _titled_section(b: _Builder, lines: Sequence[Line], kind: str) -> None:
    """Front matter and credits: the first line is the title, the rest the text."""
    content = [line for line in lines if line[1].strip()]
    if not content:
        return
    draft = _Draft(None, None, kind, _clean(content[0][1]))
    draft.text = [_clean(t) for _, t in content[1:]]
    draft.lines = [n for n, _ in content]
    b.add(draft)


def _parse_front(b: _Builder, lines: Sequence[Line]) -> None:
    group: list[Line] = []
    for line in lines:
        if line[1].strip() in _FRONT_HEADINGS and group:
            _titled_section(b, group, "front")
            group = []
        group.append(line)
    _titled_section(b, group, "front")


#: A subrule number broken by a stray space ("606. 8b Players win ...", 2005-2007;
#: "702. 37a Storm ...", 2009-07-11). Read as "606.8b" when its rule "606.8" came before.
_SPLIT_NUMBER = re.compile(r"^([1-9]\d{2})\. (\d+[a-z])\.? (.*)$")
#: A hard-wrapped release (2003-10 to 2004-02) can wrap a cross-reference ("... See rule" /
#: "103.4. If a player ..."); a numbered line right after such a line continues that rule.
_WRAPPED_REFERENCE = re.compile(r"\b(?:rules?|see|and|or)\s*$", re.IGNORECASE)


def _parse_rules(b: _Builder, lines: Sequence[Line]) -> None:
    seen: dict[str, int] = {}
    current: _Draft | None = None
    previous = ""  # the source line right before this one ("" when it was blank)

    def flush() -> None:
        nonlocal current
        if current is not None:
            b.add(current)
            current = None

    def start(draft: _Draft, line: Line) -> None:
        """Begin a numbered record. A number the release already used is kept as written (the
        text is real rules text; 2009-09-04 has 702.30d twice) and reported."""
        nonlocal current
        assert draft.number is not None
        flush()
        if draft.number in seen:
            first = seen[draft.number]
            b.note(line[0], f"duplicate number {draft.number!r} (first on line {first}); kept as written")
        else:
            seen[draft.number] = line[0]
        draft.lines.append(line[0])
        current = draft

    def start_rule(number: str, body_text: str, line: Line) -> None:
        try:
            rn = RuleNumber.parse(number)
        except InvalidRuleNumber as exc:
            b.issue(line, str(exc))
            return
        body = _clean(body_text)
        draft = _Draft(str(rn), str(rn.parent), rn.kind, "", [body] if body else [])
        start(draft, line)
        if rn.kind == "rule":
            draft.title = body if _looks_like_heading(body) else ""

    for line in lines:
        no, raw = line
        before, previous = previous, raw
        if not raw.strip():
            continue
        wrapped = bool(before.strip()) and _WRAPPED_REFERENCE.search(before) is not None
        if (m := _SPLIT_NUMBER.match(raw)) and f"{m.group(1)}.{m.group(2)[:-1]}" in seen:
            number = f"{m.group(1)}.{m.group(2)}"
            b.note(no, f"number written {raw[: m.end(2)]!r}; read as {number!r}")
            start_rule(number, m.group(3), line)
        elif (m := _RULE.match(raw)) and not (wrapped and current is not None):
            start_rule(m.group(1), m.group(2), line)
        elif not wrapped and (m := _SECTION.match(raw)):
            section = int(m.group(1))
            start(_Draft(str(section), str(section // 100), "section", _clean(m.group(2))), line)
        elif not wrapped and (m := _CHAPTER.match(raw)):
            start(_Draft(m.group(1), None, "chapter", _clean(m.group(2))), line)
        else:
            _attach(b, current, line)
    flush()


def _attach(b: _Builder, current: _Draft | None, line: Line) -> None:
    """An unnumbered line: an example or a continuation of the current rule, else an issue."""
    no, raw = line
    if current is None or current.kind not in ("rule", "subrule"):
        where = "with no rule to attach to" if current is None else (f"under heading {current.number!r}")
        b.issue(line, f"unnumbered line {where}; expected a numbered rule")
    elif _EXAMPLE.match(raw.strip()):
        current.examples.append(_clean(raw))
        current.lines.append(no)
    else:
        # Indented continuation paragraphs ("     Of that list, ...") and hard-wrapped lines
        # belong to the rule or, after an example has started, to that example.
        if current.examples:
            current.examples[-1] += "\n" + _clean(raw)
        else:
            current.text.append(_clean(raw))
            current.title = ""
        current.lines.append(no)


def _looks_like_heading(text: str) -> bool:
    """Short and unpunctuated; a few keyword names end in "!" or ")" ("For Mirrodin!",
    "∞ (Infinity)"), so a very short line ending in those still counts as a heading."""
    if not 0 < len(text) <= _HEADING_MAX:
        return False
    if not _SENTENCE_END.search(text):
        return True
    return text[-1] in "!)" and len(text.split()) <= 3


def _check_parents(b: _Builder) -> None:
    numbers = {s.number for s in b.sections if s.number is not None}
    for s in b.sections:
        if s.kind in ("section", "rule", "subrule") and s.parent not in numbers:
            b.note(s.lines[0] if s.lines else None, f"{s.number!r} has no parent {s.parent!r}")


def _parse_glossary(b: _Builder, lines: Sequence[Line], *, complete: bool) -> None:
    """Glossary entries: a head line, definition lines, a blank line.

    A block without a definition continues the entry before it (2003: the list of expansion
    symbols under "Expansion Symbol", one set per paragraph). At the end of a release that
    stops inside the glossary (`complete` False: no Credits follow; 2013-02-01 ends at
    "Attack Multiple Players") the last head is kept as an entry without text and reported.
    """
    blocks = _blocks(lines)
    for i, block in enumerate(blocks):
        head_line, *body = block
        if not body:
            if not complete and i == len(blocks) - 1:
                head = head_line[1].strip()
                b.note(head_line[0], f"the file ends inside the glossary: {head!r} has no definition")
            elif b.glossary:
                prev = b.glossary[-1]
                extra = "\n".join(_clean(t) for _, t in block)
                b.glossary[-1] = dataclasses.replace(
                    prev, text=f"{prev.text}\n{extra}", lines=(*prev.lines, *(n for n, _ in block))
                )
                continue
            else:
                b.issue(head_line, "glossary term without a definition")
                continue
        head = _clean(head_line[1])
        obsolete = bool(_OBSOLETE.search(head))
        head = _OBSOLETE.sub("", head)
        text = "\n".join(_clean(t) for _, t in body)
        b.glossary.append(
            GlossaryEntry(
                document=b.document,
                terms=split_terms(head),
                text=text,
                language="en",
                position=len(b.glossary),
                obsolete=obsolete,
                references=find_references(text),
                lines=tuple(dict.fromkeys(n for n, _ in block)),
            )
        )


def parse_structure(lines: Sequence[Line], document: str, file: str) -> Structure:
    """Turn a release's logical lines into sections, glossary entries and issues."""
    b = _Builder(document, file)
    body = _find_body_start(lines)
    glossary = _find_heading(lines, "Glossary", body)
    credits = _find_heading(lines, "Credits", body if glossary is None else glossary + 1)
    rules_end = min(x for x in (glossary, credits, len(lines)) if x is not None)
    if body == len(lines):
        b.note(None, "no numbered rules found; is this a Comprehensive Rules document?")
    _parse_front(b, lines[:body])
    _parse_rules(b, lines[body:rules_end])
    _check_parents(b)
    if glossary is None:
        b.note(None, "no Glossary heading after the rules")
    else:
        b.sections.append(_heading_only(b, lines[glossary], "Glossary"))
        end = credits if credits is not None else len(lines)
        _parse_glossary(b, lines[glossary + 1 : end], complete=credits is not None)
    if glossary is not None and credits is None:
        b.note(None, "no Credits after the Glossary: the file appears to be truncated")
    if credits is not None:
        _titled_section(b, lines[credits:], "credits")
    return Structure(tuple(b.sections), tuple(b.glossary), tuple(b.issues))


def _heading_only(b: _Builder, line: Line, title: str) -> Section:
    """The "Glossary" heading line itself, kept (as a "paragraph") so the line is accounted for."""
    return Section(
        document=b.document,
        number=None,
        parent=None,
        title=title,
        text="",
        language="en",
        position=len(b.sections),
        kind="paragraph",
        lines=(line[0],),
    )


def parse_release(
    kind: Format,
    data: bytes,
    source: str,
    lines: list[Line],
    *,
    encoding: str,
    newline: str,
    issues: Sequence[IngestIssue] = (),
) -> ParsedDocument:
    """What the .txt and the .htm ingestors share once they have numbered lines: date the
    release, build its Document, parse the layout. `issues` are the format's own findings."""
    text = "\n".join(t for _, t in lines)
    dated = effective_date(text)
    version = dated[0] if dated else None
    doc = new_document(
        kind,
        data,
        source,
        title=f"Magic: The Gathering Comprehensive Rules ({version or 'undated'})",
        language="en",
        encoding=encoding,
        newline=newline,
        version=version,
    )
    found = list(issues)
    if dated is None:
        expected = "no 'These rules are effective as of <date>.' (or 'current as of') line found"
        found.append(IngestIssue(source, None, expected))
    structure = parse_structure(lines, doc.id, source)
    return ParsedDocument(
        document=doc,
        sections=structure.sections,
        glossary=structure.glossary,
        issues=(*found, *structure.issues),
    )
