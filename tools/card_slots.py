"""German names of rules concepts read slot by slot from the cards (``build_lexicon``'s
``cards`` entries, and the gold names of ``bench/coverage.py``).

A German printing's type line and keyword lines say exactly which German word names which
English concept, without any word aligner, where both sides have the same shape:

- **type lines** (`type_slots`): "Legendäre Kreatur — Elf, Krieger" beside MTGJSON's
  ``supertypes`` + ``types`` (Legendary, Creature) and ``subtypes`` (Elf, Warrior). The
  German words before the dash pair with the English supertypes and card types in order when
  there are as many ("Artefaktkreatur" is one word for two, and is left out); the German
  subtypes, comma-separated after the dash, pair with the English subtypes in order when
  there are as many. Old type lines ("Beschwörung eines Elfen") have no dash and give nothing.
- **keyword lines** (`keyword_slots`): a line of the English text that is only keywords of the
  card (MTGJSON ``keywords``), comma-separated, each perhaps with a cost or number ("Flying,
  vigilance", "Equip {2}", "Bushido 1"), beside the German line at the same place with as many
  comma-separated parts, the same cost cut off ("Fliegend, Wachsamkeit", "Ausrüsten {2}");
  reminder text in parentheses is cut from both; a line that is one keyword action and its
  full stop ("Scry 2." / "Hellsicht 2.", "Investigate." / "Stelle Nachforschungen an.") too.
- **counters** (`counter_slots`): an English line naming exactly one kind of counter
  ("put a +1/+1 counter", "two charge counters") beside a German line with exactly one
  compound of "Marke" ("+1/+1-Marke", "Ladungsmarken").

Each slot gives a (German form, English name) pair per printing; `slot_names` keeps a pair
seen on at least MIN_SLOT printings that holds at least SLOT_SHARE of its German form's
slots (a German form names one concept) and of its English name's (leaves out one-off
mistranslations and Oracle's later retyping: "Kreatur — Zauberer" beside today's "Human
Wizard" has two English subtypes to one German and pairs nothing).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

from printings import german_printings, line_pairs

#: A pair is kept when seen on at least this many printings ...
MIN_SLOT = 2
#: ... and it is at least this share of its German form's slots and of its English name's.
SLOT_SHARE = 0.05
#: ... and of its German form's slots at least this share (a German form names one concept).
FORM_SHARE = 0.6

#: A keyword's German name has at most this many words (longer is a sentence: "Die
#: Nachtstahl-Zitadelle ist unzerstörbar.").
MAX_WORDS = 3

_DASH = re.compile(r"\s+[—–-]\s+")
_REMINDER = re.compile(r"\s*\([^)]*\)")
#: A keyword's parameter: costs, numbers, X, a dash and what follows ("Ward—Pay 3 life").
_PARAM = re.compile(r"(?:\s*(?:\{[^}]*\}|\d+|X)(?=\s|$|\{))+\s*$")
_COUNTER = re.compile(r"(?:^|[\s\"“])((?:first |double )?[A-Za-z][\w-]*|[+-]?\d+/[+-]?\d+) counters?\b")
#: English words before "counter" that name no kind of counter.
NO_KIND = frozenset({
    "a", "an", "the", "that", "this", "those", "these", "each", "of", "no", "any", "one", "two",
    "three", "four", "five", "six", "seven", "eight", "nine", "ten", "x", "all", "its", "his",
    "her", "their", "your", "another", "additional", "more", "many", "much", "number", "same",
    "put", "remove", "with", "without", "kind",
})
_MARKE = re.compile(r"(?<![\w+/-])([+-]?\d+/[+-]?\d+-|[^\W\d_][\w-]*?)(marken?|Marken?)\b")


def type_slots(card: dict[str, object], german: dict[str, object]) -> Iterator[tuple[str, str, str]]:
    """``(kind, German, English)`` slots of one printing's type lines: kind ``supertype``,
    ``type`` or ``subtype``."""
    de = str(german.get("type") or "")
    if not de or not card.get("type"):
        return
    parts = _DASH.split(de, maxsplit=1)
    left = parts[0].split()
    supers = [str(s) for s in card.get("supertypes") or ()]  # type: ignore[attr-defined]
    types = [str(s) for s in card.get("types") or ()]  # type: ignore[attr-defined]
    subs = [str(s) for s in card.get("subtypes") or ()]  # type: ignore[attr-defined]
    if " // " in str(card["type"]) or " // " in de:
        return
    if len(parts) == 1 and subs:
        return  # "Beschwörung eines Elfen": no dash, no slots
    if len(left) == len(supers) + len(types):
        for g, e in zip(left, supers + types, strict=True):
            yield ("supertype" if e in supers else "type"), g, e
    if len(parts) == 2 and subs and "Plane" not in types:  # planes' subtypes are places' names
        right = parts[1].strip()
        words = [w.strip() for w in right.split(",")] if "," in right else (
            [right] if len(subs) == 1 else right.split())
        if len(words) == len(subs):
            for g, e in zip(words, subs, strict=True):
                if g:
                    yield "subtype", g, e


def _keyword_parts(line: str) -> list[str]:
    return [p.strip() for p in _REMINDER.sub("", line).split(",") if p.strip()]


def keyword_slots(card: dict[str, object], german: dict[str, object]) -> Iterator[tuple[str, str, str]]:
    """``("keyword", German, English keyword)`` slots of one printing's keyword lines."""
    keywords = {str(k).casefold(): str(k) for k in card.get("keywords") or ()}  # type: ignore[attr-defined]
    if not keywords:
        return
    for en_line, de_line in line_pairs(str(card.get("text") or ""), str(german.get("text") or "")):
        en_parts, de_parts = _keyword_parts(en_line), _keyword_parts(de_line)
        if len(en_parts) == 1 == len(de_parts) and en_parts[0].endswith(".") and de_parts[0].endswith("."):
            en_parts, de_parts = [en_parts[0][:-1]], [de_parts[0][:-1]]  # a keyword action: "Scry 2."
        if not en_parts or len(en_parts) != len(de_parts):
            continue
        pairs = []
        for e, g in zip(en_parts, de_parts, strict=True):
            param = _PARAM.search(e)
            tail = param.group(0).strip() if param else ""
            name = e[: param.start()].strip() if param else e
            if name.casefold() not in keywords:
                break
            if tail:
                if not g.endswith(tail):
                    break
                g = g[: -len(tail)].strip()
            g = g.rstrip(":")
            if not g or len(g.split()) > MAX_WORDS or any(c.isdigit() or c in "{}.:" for c in g):
                break
            pairs.append((g, keywords[name.casefold()]))
        else:
            for g, e in pairs:
                yield "keyword", g[:1].upper() + g[1:], e


def counter_slots(card: dict[str, object], german: dict[str, object]) -> Iterator[tuple[str, str, str]]:
    """``("counter", German, English "X counter")`` slots: a line naming one kind of counter
    beside a German line with one compound of "Marke"."""
    for en_line, de_line in line_pairs(str(card.get("text") or ""), str(german.get("text") or "")):
        kinds = {k for k in _COUNTER.findall(_REMINDER.sub("", en_line)) if k.lower() not in NO_KIND}
        marks = {m[0] + m[1].rstrip("n") for m in _MARKE.findall(_REMINDER.sub("", de_line))}
        marks = {m[:1].upper() + m[1:] for m in marks}
        if len(kinds) == 1 and len(marks) == 1:
            kind = kinds.pop()
            yield "counter", marks.pop(), f"{kind.lower() if not kind[0].isdigit() else kind} counter"


def slots(folder: Path) -> Iterator[tuple[str, str, str]]:
    """Every slot of every German printing, one per printing and pair (a card reprinted in
    many sets counts once per printing)."""
    for _, card, german in german_printings(folder):
        found = {*type_slots(card, german), *keyword_slots(card, german), *counter_slots(card, german)}
        yield from found


def slot_names(found: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
    """``(kind, German form, English name) -> printings`` of the pairs the evidence holds
    (`MIN_SLOT`, `SLOT_SHARE`, `FORM_SHARE`), the German form as printed."""
    n: Counter[tuple[str, str, str]] = Counter(found)
    by_de: Counter[tuple[str, str]] = Counter()
    by_en: Counter[tuple[str, str]] = Counter()
    for (kind, de, en), c in n.items():
        by_de[(kind, de.casefold())] += c
        by_en[(kind, en)] += c
    return {
        (kind, de, en): c
        for (kind, de, en), c in n.items()
        if c >= MIN_SLOT
        and c >= FORM_SHARE * by_de[(kind, de.casefold())]
        and c >= SLOT_SHARE * by_en[(kind, en)]
    }


def names_by_concept(kept: dict[tuple[str, str, str], int]) -> dict[tuple[str, str], list[tuple[str, int]]]:
    """``(kind, English name) -> [(German form, printings), ...]``, most printed first."""
    out: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    for (kind, de, en), c in kept.items():
        out[(kind, en)].append((de, c))
    return {k: sorted(v, key=lambda x: (-x[1], x[0])) for k, v in out.items()}


__all__ = [
    "counter_slots", "keyword_slots", "names_by_concept", "slot_names", "slots",
    "type_slots",
]
