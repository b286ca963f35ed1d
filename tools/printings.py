"""The tools' one way into MTGJSON card files: every German printing, and its lines paired.

The files are read by the card ingest's own reader (`regelwerk.ingest.card_reader`: recognised
by content, any container, streamed), so a tool reads exactly the files ``regelwerk ingest``
would. The tools get each printing as MTGJSON gives it (the card object and its German
``foreignData`` entry), not as the ingest's records: they read what those leave out
(``supertypes``, ``types`` and ``subtypes`` beside the type line, every German entry of a card).
``cardterms`` needs no more than the records give, and reads them from the same reader.

`line_pairs` is the one pairing of an English text with the German printed in its place:
cards print one ability per line in both languages, so a line pairs with the German line of
the same index, when both texts have as many lines (`card_slots`' keyword and counter lines,
`termcheck.evidence`'s keyword lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from regelwerk.ingest import CARD_SUFFIXES, card_reader

__all__ = ["GermanPrinting", "card_files", "german_printings", "line_pairs"]


class GermanPrinting(NamedTuple):
    """One printing with German text: its set's code, MTGJSON's card object and German entry."""

    set_code: str
    card: dict[str, Any]
    german: dict[str, Any]


def card_files(folder: str | Path) -> list[Path]:
    """The card files directly in `folder` (by ending, as a directory ingest takes them), sorted."""
    return sorted(p for p in Path(folder).iterdir() if p.suffix in CARD_SUFFIXES and p.is_file())


def german_printings(folder: str | Path) -> Iterator[GermanPrinting]:
    """Every German ``foreignData`` entry of every card of the MTGJSON files in `folder`, file by
    file (sorted by name) and in each file's order; files that are not MTGJSON are passed over."""
    for path in card_files(folder):
        reader = card_reader(path)
        if reader is None:
            continue
        for data in reader.set_objects():
            code = str(data.get("code") or path.name.split(".")[0])
            for card in data.get("cards") or ():
                for german in card.get("foreignData") or ():
                    if german.get("language") == "German":
                        yield GermanPrinting(code, card, german)


def line_pairs(en_text: str, de_text: str) -> list[tuple[str, str]]:
    """``(English line, German line)`` at the same place of the two texts; none when the texts
    have different numbers of lines (a line cannot be placed) or either is empty."""
    if not en_text or not de_text:
        return []
    en_lines, de_lines = en_text.split("\n"), de_text.split("\n")
    if len(en_lines) != len(de_lines):
        return []
    return list(zip(en_lines, de_lines, strict=True))
