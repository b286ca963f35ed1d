"""A bilingual rule dump: one CR rule in German, then the same rule in English.

The dump is a copy-and-paste of a fan translation next to the official text, so the only thing
that tells the two halves apart is how rules are numbered: the German block writes
``702.19a Text`` (no period after the number), the English block ``702.19a. Text``. Each block
ends with "• " bullet-point rulings that explain the rule as a whole, so they are attached to
the block's top rule (``rulings``), not to the last subrule they happen to follow.
"Beispiel:"/"Example:" paragraphs belong to the rule right above them.

The dump is undated: ``version`` stays None. Which CR release its numbering comes from
(702.19 was banding until 2015, 702.21 and then 702.22 later) is for the linking step to infer
from the text, not for this module to guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from regelwerk.ingest.common import document_id, new_document
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.numbers import RuleNumber, find_references
from regelwerk.ingest.model.records import IngestIssue, KeywordMention, ParsedDocument, Section

KIND = Format.BILINGUAL_DUMP

#: "702.19 Bündnisfähigkeit" (German) or "702.19a. Banding is ..." (English): group 2 is the
#: period that tells the languages apart.
_RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)(\.?)\s+(\S.*)$")
_EXAMPLE = re.compile(r"^(?:Beispiel|Example)\s*:")
_BULLET = re.compile(r"^[•·]\s*")


@dataclass
class _Draft:
    number: str
    language: str
    text: list[str]  # one item; a list so continuation lines can extend it in place
    lines: list[int]
    examples: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)


@dataclass
class _Block:
    """All rules of one language, top rule first."""

    language: str
    drafts: list[_Draft] = field(default_factory=list)

    @property
    def top(self) -> _Draft:
        return self.drafts[0]


def _language(period: str) -> str:
    return "en" if period else "de"


def _blocks(lines: list[str], source: str) -> tuple[list[_Block], list[IngestIssue]]:
    blocks: list[_Block] = []
    issues: list[IngestIssue] = []
    # Where a hard-wrapped continuation line goes: the list it extends, and whose lines it joins.
    tail: tuple[list[str], _Draft] | None = None
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        m = _RULE.match(line)
        if m:
            language = _language(m.group(2))
            try:
                rule = RuleNumber.parse(m.group(1))
            except InvalidRuleNumber as exc:
                issues.append(IngestIssue(source, lineno, str(exc), line, (lineno,)))
                continue
            # A new block starts when the language flips or a rule (not subrule) appears.
            if not blocks or blocks[-1].language != language or rule.letter is None:
                blocks.append(_Block(language))
            draft = _Draft(m.group(1), language, [m.group(3)], [lineno])
            blocks[-1].drafts.append(draft)
            tail = (draft.text, draft)
            continue
        if not blocks:
            issues.append(IngestIssue(source, lineno, "text before the first rule number", line, (lineno,)))
            continue
        block = blocks[-1]
        if _BULLET.match(line):
            target, owner = block.top.rulings, block.top
            target.append(_BULLET.sub("", line, count=1))
        elif _EXAMPLE.match(line):
            target, owner = block.drafts[-1].examples, block.drafts[-1]
            target.append(line)
        elif tail is not None:
            target, owner = tail
            target[-1] += "\n" + line
        else:  # pragma: no cover - tail is set with the first rule
            continue
        owner.lines.append(lineno)
        tail = (target, owner)
    return blocks, issues


def parse(data: bytes, source: str) -> ParsedDocument:
    """Parse a German+English rule dump; lines that fit nowhere become IngestIssues."""
    decoded = decode(data, source)
    lines = decoded.text.split("\n")
    blocks, issues = _blocks(lines, source)
    doc_id = document_id(KIND, None, source)

    sections: list[Section] = []
    mentions: list[KeywordMention] = []
    for block in blocks:
        top = RuleNumber.parse(block.top.number)
        for draft in block.drafts:
            number = RuleNumber.parse(draft.number)
            is_top = draft is block.top and number.letter is None
            text = draft.text[0]
            title = text if is_top else ""
            position = len(sections)
            sections.append(
                Section(
                    document=doc_id,
                    number=str(number),
                    parent=str(number.parent) if number.parent is not None else None,
                    title=title,
                    text="" if is_top else text,
                    language=draft.language,
                    position=position,
                    kind=number.kind,
                    examples=tuple(draft.examples),
                    rulings=tuple(draft.rulings),
                    references=find_references("\n".join([text, *draft.examples, *draft.rulings])),
                    keyword=title or None,
                    lines=tuple(draft.lines),
                )
            )
            if is_top:
                mentions.append(KeywordMention(doc_id, title, draft.language, str(top), position))

    titles = [m.name for m in mentions]
    document = new_document(
        KIND,
        data,
        source,
        title=" / ".join(titles) if titles else "bilingual rule dump",
        language="de+en",
        encoding=decoded.encoding,
        newline=decoded.newline,
    )
    return ParsedDocument(
        document=document,
        sections=tuple(sections),
        mentions=tuple(mentions),
        issues=tuple(issues),
    )
