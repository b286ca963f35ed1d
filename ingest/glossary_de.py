"""German keyword glossary pages: prose entries, each followed by "Kartenbeispiel:" cards.

The pages (copied from an old German fan site) have no headings. An entry is one or more
paragraphs of German prose that name the keyword somewhere in their first paragraph
("Kreaturen mit der Fähigkeit ´´Blutrausch´´ ...", "Um Wucherung durchzuführen ..."), then a
"Kartenbeispiel:" line, then example cards. A card starts with a set code in parentheses:

* a full card: ``(GTC) Firemane Avenger / Feuerschweif-Rächerin``, then "Manakosten: 2RW"
  (or a bare cost such as "RG"), a type line ("Kreatur - Engel, 3/3", "1/1 Kreatur",
  "Kreatur-Buboh, 3/2"), then rules text, which may go on after blank lines;
* a one-line reference: ``(RV) ´´Benalish Hero´´ Banding`` (English name, then the keyword as
  the card prints it) or ``(CK)Kondas Hatamoto 1/2 Kreatur`` followed by its text.

Every line that starts with a parenthesised set code is one card; the two seed pages hold
15 + 12 = 27 of them (5 of which are one-line ``´´Name´´`` references).

The hard part is where a card ends: Celestial Archon's "Die verzauberte Kreatur ..." after a
blank line is still the card, while "Wenn du eine Kreatur mit Blutdurst ins Spiel bringst ..."
after a blank line is the next entry. A paragraph after a full card starts a new entry when it
reads like explanation, not card text (see ``_reads_like_entry``): it talks *about* an ability
("Fähigkeit", "Eigenschaft", "Kreaturen mit X", "Es gibt"), addresses the reader with the
page's capitalised "Du/Dir/Deine" (printed cards say "du"), or runs to three sentences or more.
Reminder text in parentheses is ignored for that test, because it says "Kreatur mit" too.
A one-line reference never continues, so whatever follows it starts a new entry.

Keyword names are kept as the page writes them (``Battalion`` in the prose, ``Bataillon`` on
the card, ``Prowess/Bravour``), except that all-caps emphasis (´´SCHUTZ´´) is title-cased.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from regelwerk.ingest.common import Line, document_id, new_document, normalize_quotes
from regelwerk.ingest.decode import decode
from regelwerk.ingest.model.format import Format
from regelwerk.ingest.model.numbers import find_references
from regelwerk.ingest.model.records import (
    Card,
    IngestIssue,
    KeywordMention,
    ParsedDocument,
    Section,
)

KIND = Format.GLOSSARY_DE


_CARDS_LABEL = re.compile(r"^Kartenbeispiele?\s*:\s*$")
_EXAMPLE = re.compile(r"^Beispiel\s*:")
_CARD_HEADER = re.compile(r"^\(([A-Z0-9]{2,4})\)\s*(\S.*)$")
_REFERENCE = re.compile(r'^"([^"]+)"\s*(.*)$')
_MANA_LABEL = re.compile(r"^Manakosten\s*:\s*(\S.*)$")
_BARE_MANA = re.compile(r"^(?:\d+|[WUBRGCXYZ]|\([WUBRG2]/[WUBRGP]\)|\{[^}]+\})+$")
_PT = r"[\dX*+]+/[\dX*+]+"
_TYPE = re.compile(
    rf"^(?:{_PT}\s+)?(?:legendäre?s?\s+)?"
    r"(?:\w*kreatur|artefakt\w*|verzauberung\w*|spontanzauber|hexerei|land|planeswalker)\b",
    re.IGNORECASE,
)
_PT_FIRST = re.compile(rf"^({_PT})\s+(.+)$")
_PT_LAST = re.compile(rf"^(.*?)[,\s]\s*({_PT})$")
_PT_IN_HEADER = re.compile(rf"\s({_PT})(?:\s+(\S.*))?$")
_PT_SPLIT = re.compile(r"^([\dX*+]+)/([\dX*+]+)$")
_ABILITY_WORD = re.compile(r"^([A-ZÄÖÜ][\wäöüß]+) - ")

_ENTRY_MARKERS = re.compile(
    r"\b(?:Fähigkeit(?:en)?|Eigenschaft(?:en)?|Es gibt|Du|Dir|Dich|Deine?[mnrs]?)\b"
    r"|\b(?:Karten?|Kreatur(?:en)?) mit\b"
)
_PARENS = re.compile(r"\([^()]*\)")
_SENTENCE_END = re.compile(r"[.!?](?=\s|[A-ZÄÖÜ]|$)")

_NAME = r'"?([A-ZÄÖÜ][\wäöüß-]*(?:/[A-ZÄÖÜ][\wäöüß-]*)?)"?'
#: How the prose introduces its keyword, tried in this order on the entry's first paragraph.
_NAME_PATTERNS = (
    re.compile(rf"^{_NAME} ist eine (?:\w+ )?Fähigkeit"),
    re.compile(rf"\b(?:Fähigkeit|Eigenschaft)(?: namens)? {_NAME}"),
    re.compile(rf"\b(?:Karten?|Kreatur(?:en)?) mit {_NAME}"),
    re.compile(r'"([^"]+)"'),
)
_WORD = re.compile(r"[A-ZÄÖÜ][\wäöüß-]{3,}")


@dataclass
class _CardDraft:
    set_code: str
    header: str
    header_line: int
    lines: list[Line]
    reference: bool  # a one-line ´´Name´´ reference: never continues past its line


@dataclass
class _EntryDraft:
    paragraphs: list[list[Line]] = field(default_factory=list)
    examples: list[list[Line]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)  # "Kartenbeispiel:" lines
    cards: list[_CardDraft] = field(default_factory=list)

    @property
    def lines(self) -> tuple[int, ...]:
        nums = [n for group in (*self.paragraphs, *self.examples) for n, _ in group]
        return tuple(sorted([*nums, *self.labels]))


def _paragraphs(text: str) -> list[list[Line]]:
    """Runs of non-blank lines; a card header or "Kartenbeispiel:" always starts a new one."""
    out: list[list[Line]] = [[]]
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            out.append([])
            continue
        label = bool(_CARDS_LABEL.match(line))
        if label or _CARD_HEADER.match(line) or (out[-1] and _CARDS_LABEL.match(out[-1][-1][1])):
            out.append([])
        out[-1].append((lineno, line))
    return [p for p in out if p]


def _join(lines: list[Line]) -> str:
    return "\n".join(normalize_quotes(t) for _, t in lines)


def _reads_like_entry(paragraph: list[Line]) -> bool:
    """True if a paragraph after a card explains a keyword rather than continuing the card."""
    prose = _PARENS.sub("", " ".join(t for _, t in paragraph))
    return bool(_ENTRY_MARKERS.search(prose)) or len(_SENTENCE_END.findall(prose)) >= 3


def _card_header(paragraph: list[Line]) -> re.Match[str] | None:
    return _CARD_HEADER.match(paragraph[0][1])


def _split(paragraphs: list[list[Line]], source: str) -> tuple[list[_EntryDraft], list[IngestIssue]]:
    entries: list[_EntryDraft] = []
    issues: list[IngestIssue] = []
    in_cards = False
    for paragraph in paragraphs:
        header = _card_header(paragraph)
        if header:
            if not entries:
                entries.append(_EntryDraft())
            reference = bool(_REFERENCE.match(normalize_quotes(header.group(2))))
            entries[-1].cards.append(
                _CardDraft(header.group(1), header.group(2), paragraph[0][0], paragraph[1:], reference)
            )
            in_cards = True
            continue
        first = paragraph[0][1]
        if _CARDS_LABEL.match(first):
            if not entries:
                lineno = paragraph[0][0]
                issues.append(IngestIssue(source, lineno, "card examples before any entry", first, (lineno,)))
                continue
            entries[-1].labels.append(paragraph[0][0])
            in_cards = True
            continue
        card = entries[-1].cards[-1] if entries and entries[-1].cards else None
        if in_cards and card is not None and not card.reference and not _reads_like_entry(paragraph):
            card.lines.extend(paragraph)
            continue
        if in_cards or not entries:
            entries.append(_EntryDraft())
            in_cards = False
        if _EXAMPLE.match(first):
            entries[-1].examples.append(paragraph)
        else:
            entries[-1].paragraphs.append(paragraph)
    return entries, issues


def _clean_name(name: str) -> str:
    name = name.strip(" .,:;")
    return name.capitalize() if name.isupper() and len(name) > 1 else name


def _card_words(entry: _EntryDraft) -> set[str]:
    words: set[str] = set()
    for card in entry.cards:
        texts = [card.header, *(t for _, t in card.lines)]
        for text in texts:
            words.update(_WORD.findall(normalize_quotes(text)))
    return words


def _reference_keyword(card: _CardDraft) -> str | None:
    m = _REFERENCE.match(normalize_quotes(card.header))
    if not m or not m.group(2):
        return None
    return m.group(2).split(":")[0].strip() or None


def _keyword(entry: _EntryDraft) -> str | None:
    """The keyword the entry explains, as its first paragraph (or its cards) name it."""
    first = _join(entry.paragraphs[0]).replace("\n", " ") if entry.paragraphs else ""
    for pattern in _NAME_PATTERNS:
        m = pattern.search(first)
        if m:
            return _clean_name(m.group(1))
    # No telltale phrase ("Es gibt 2 verschiedene Arten von Phasing."): take the first
    # capitalised word of the prose that the entry's own cards also use.
    card_words = _card_words(entry)
    for word in _WORD.findall(first):
        if word in card_words:
            return _clean_name(word)
    for card in entry.cards:
        name = _reference_keyword(card)
        if name:
            return _clean_name(name)
    return None


def _other_names(entry: _EntryDraft, cards: list[Card], keyword: str) -> list[str]:
    """Further names the entry's cards give the keyword ("Banding", "Bataillon - ...")."""
    names = [name for name in map(_reference_keyword, entry.cards) if name]
    for card in cards:
        names += [m.group(1) for m in map(_ABILITY_WORD.match, card.text.split("\n")) if m]
    out: list[str] = []
    for name in map(_clean_name, names):
        if not name.lower().startswith(keyword.lower()) and name not in out:
            out.append(name)
    return out


def _pt(text: str) -> tuple[str | None, str | None]:
    m = _PT_SPLIT.match(text)
    return (m.group(1), m.group(2)) if m else (None, None)


def _type_and_pt(line: str) -> tuple[str, str | None, str | None]:
    """Split "Kreatur - Engel, 3/3" or "1/1 Kreatur" into type line, power, toughness."""
    first = _PT_FIRST.match(line)
    if first:
        return (first.group(2).strip(), *_pt(first.group(1)))
    last = _PT_LAST.match(line)
    if last:
        return (last.group(1).strip().rstrip(","), *_pt(last.group(2)))
    return line, None, None


def _card(draft: _CardDraft, doc_id: str, keyword: str | None, position: int) -> Card:
    header = normalize_quotes(draft.header)
    body = [normalize_quotes(t) for _, t in draft.lines]
    lines = (draft.header_line, *(n for n, _ in draft.lines))
    ref = _REFERENCE.match(header)
    if ref:
        # (RV) ´´Benalish Hero´´ Banding: the English name, then what the card says.
        rest = [ref.group(2).strip()] if ref.group(2).strip() else []
        return Card(
            document=doc_id,
            name_en=ref.group(1).strip(),
            name_de=None,
            set_code=draft.set_code,
            mana_cost=None,
            type_line=None,
            power=None,
            toughness=None,
            text="\n".join([*rest, *body]),
            keyword=keyword,
            position=position,
            lines=lines,
        )
    type_line: str | None = None
    power: str | None = None
    toughness: str | None = None
    on_header = _PT_IN_HEADER.search(header)
    if on_header:
        # "Kondas Hatamoto 1/2 Kreatur": power/toughness and type ride on the name line.
        power, toughness = _pt(on_header.group(1))
        type_line = (on_header.group(2) or "").strip() or None
        header = header[: on_header.start()].strip()
    name_en, _, name_de = header.partition(" / ")
    mana: str | None = None
    if body:
        label = _MANA_LABEL.match(body[0])
        if label or _BARE_MANA.match(body[0]):  # "Manakosten: 2RW", or just "RG"
            mana = label.group(1).strip() if label else body[0]
            body = body[1:]
    if type_line is None and body and _TYPE.match(body[0]):
        type_line, power, toughness = _type_and_pt(body[0])
        body = body[1:]
    return Card(
        document=doc_id,
        name_en=name_en.strip(),
        name_de=name_de.strip() or None,
        set_code=draft.set_code,
        mana_cost=mana,
        type_line=type_line,
        power=power,
        toughness=toughness,
        text="\n".join(body),
        keyword=keyword,
        position=position,
        lines=lines,
    )


def parse(data: bytes, source: str) -> ParsedDocument:
    """Parse a German keyword glossary page; an entry without a findable keyword is an issue."""
    decoded = decode(data, source)
    paragraphs = _paragraphs(decoded.text)
    entries, issues = _split(paragraphs, source)
    doc_id = document_id(KIND, None, source)

    sections: list[Section] = []
    cards: list[Card] = []
    mentions: list[KeywordMention] = []
    for entry in entries:
        position = len(sections)
        keyword = _keyword(entry)
        if keyword is None and entry.paragraphs:
            issues.append(IngestIssue(source, entry.lines[0], "no keyword name found in this entry"))
        elif keyword is None and entry.cards:
            line = entry.cards[0].header_line
            issues.append(IngestIssue(source, line, "example cards with no entry explaining a keyword"))
        text = "\n\n".join(_join(p) for p in entry.paragraphs)
        examples = tuple(_join(p) for p in entry.examples)
        if entry.paragraphs or entry.examples or entry.labels:
            sections.append(
                Section(
                    document=doc_id,
                    number=None,
                    parent=None,
                    title=keyword or "",
                    text=text,
                    language="de",
                    position=position,
                    kind="keyword",
                    examples=examples,
                    references=find_references("\n".join([text, *examples])),
                    keyword=keyword,
                    lines=entry.lines,
                )
            )
        entry_cards = [_card(draft, doc_id, keyword, len(cards) + i) for i, draft in enumerate(entry.cards)]
        cards.extend(entry_cards)
        if keyword is not None:
            for name in (keyword, *_other_names(entry, entry_cards, keyword)):
                mentions.append(KeywordMention(doc_id, name, "de", None, position))

    titles = [s.title for s in sections if s.title]
    document = new_document(
        KIND,
        data,
        source,
        title="Schlüsselwörter: " + ", ".join(titles) if titles else "Schlüsselwort-Glossar",
        language="de",
        encoding=decoded.encoding,
        newline=decoded.newline,
    )
    return ParsedDocument(
        document=document,
        sections=tuple(sections),
        cards=tuple(cards),
        mentions=tuple(mentions),
        issues=tuple(issues),
    )
