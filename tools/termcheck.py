"""Check German term names against real German card text (MTGJSON set files).

A German keyword name is only worth shipping if German cards print it. For each English term
this finds the cards whose English ``keywords``/text use it and looks at the German printed
text *at the same place*: the German line with the same index as the English line that holds
the keyword (cards print one ability per line in both languages). The leading words of that
German line are the candidate German name ("Beharrlichkeit (Wenn ...)" -> "Beharrlichkeit").

The English text in MTGJSON is current Oracle while the German is the printed text, so a
candidate may be an older form (4ED "Verursacht Trampelschaden"); the report shows counts so
a reviewer can tell the current term from a one-off.

Usage: ``python tools/termcheck.py [--cards DIR] [--table TSV] [--all]``.
"""

from __future__ import annotations

import argparse
import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from printings import german_printings, line_pairs
from termgen import TERMS_DIR, TermRow, read_table

from regelwerk.ingest.model.fold import fold

__all__ = ["evidence", "fold", "german_forms", "load_cards", "occurs_in_german", "report"]

CARDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "cards"

#: Where a keyword line's name ends: reminder text, a cost, an ability-word dash, a number.
_NAME_END = re.compile(r"\s*(?:\(|\{|—|–| - |:|\d|\bX\b|$)")


@dataclass(frozen=True)
class CardText:
    """One printing with both languages; ``de_text`` is the printed German text."""

    set_code: str
    name_en: str
    name_de: str
    text_en: str
    text_de: str
    keywords: tuple[str, ...] = ()
    type_de: str = ""


@dataclass
class Evidence:
    """What the German cards say about one English term."""

    en: str
    cards: list[CardText] = field(default_factory=list)
    candidates: Counter[str] = field(default_factory=Counter)

    def confirms(self, german: str) -> int:
        """How many of this term's cards print ``german`` in their German text."""
        key = fold(german)
        return sum(1 for c in self.cards if key in fold(c.text_de))


def load_cards(folder: str | Path = CARDS_DIR) -> list[CardText]:
    """Every printing with German text in the MTGJSON files in ``folder``
    (`printings.german_printings`, the one reader of the tools)."""
    return [
        CardText(
            set_code=code,
            name_en=card.get("name", ""),
            name_de=german.get("name", ""),
            text_en=card.get("text", ""),
            text_de=german["text"],
            keywords=tuple(card.get("keywords", ())),
            type_de=german.get("type") or "",
        )
        for code, card, german in german_printings(folder)
        if german.get("text")
    ]


def _uses(card: CardText, en: str) -> bool:
    if any(k.casefold() == en.casefold() for k in card.keywords):
        return True
    return re.search(rf"(?<![\w-]){re.escape(en)}(?![\w-])", card.text_en, re.IGNORECASE) is not None


def _candidate(line: str) -> str:
    m = _NAME_END.search(line)
    return line[: m.start()].strip(" ,.") if m else line.strip()


def evidence(en: str, cards: Iterable[CardText]) -> Evidence:
    """Cards that use ``en`` and the German words printed where the English keyword stands."""
    ev = Evidence(en)
    pattern = re.compile(rf"(?<![\w-]){re.escape(en)}(?![\w-])", re.IGNORECASE)
    for card in cards:
        if not _uses(card, en):
            continue
        ev.cards.append(card)
        for en_line, de_line in line_pairs(card.text_en, card.text_de):
            m = pattern.search(en_line)
            if m is None:
                continue
            if m.start() == 0:  # keyword line: "Persist (...)", "Bloodrush — ..."
                ev.candidates[_candidate(de_line)] += 1
            else:  # keyword used inside a sentence ("... gains flying"): keep the whole line
                ev.candidates["…" + de_line[:60]] += 1
    return ev


def german_forms(name: str) -> tuple[str, ...]:
    """A name and, for a one-word verb ("zerstören"), its stem as cards print it ("Zerstöre").

    Cards give keyword actions as imperatives or finite forms, never as the infinitive the
    table lists, so "opfern" is confirmed by "Opfere" and "kämpfen" by "kämpft".
    """
    forms = [name]
    if " " not in name and name[:1].islower():
        if name.endswith(("ern", "eln")):
            forms.append(name[:-1])
        elif name.endswith("en") and len(name) >= 7:
            forms.append(name[:-2])
    return tuple(forms)


def occurs_in_german(german: str, cards: Iterable[CardText]) -> bool:
    """True if any German card text, name or type line prints ``german`` (umlaut-insensitive)."""
    keys = [fold(f) for f in german_forms(german)]
    return any(key in _folded_german(c) for c in cards for key in keys)


@functools.cache
def _folded_german(card: CardText) -> str:
    """A printing's German text, name and type line, folded once (a line apiece, so no key
    spans two of them): checking every term against 31,000 printings folded each one again."""
    return "\n".join(fold(part) for part in (card.text_de, card.name_de, card.type_de))


def report(rows: Sequence[TermRow], cards: Sequence[CardText], show_all: bool = False) -> str:
    """One block per term that has cards (or every term with ``show_all``)."""
    out: list[str] = []
    for row in rows:
        ev = evidence(row.en, cards)
        if not ev.cards and not show_all:
            continue
        names = ", ".join(f"{n}={ev.confirms(n)}" for n in row.german_names) or "(no German yet)"
        top = "; ".join(f"{c!r}×{n}" for c, n in ev.candidates.most_common(4))
        out.append(f"{row.en} [{row.kind} {row.number}] cards={len(ev.cards)} | {names} | {top}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cards", default=str(CARDS_DIR), help="folder of MTGJSON set files")
    parser.add_argument("--table", action="append", default=[],
                        help="term table(s) to check (default: keywords.tsv and core.tsv)")
    parser.add_argument("--all", action="store_true", help="also list terms with no cards")
    args = parser.parse_args(argv)
    tables = args.table or [str(TERMS_DIR / "keywords.tsv"), str(TERMS_DIR / "core.tsv")]
    rows = [row for table in tables for row in read_table(table)]
    cards = load_cards(args.cards)
    if not cards:
        print(f"no German card text under {args.cards}")
        return 1
    print(report(rows, cards, args.all))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
