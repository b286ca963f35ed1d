"""How many of the Comprehensive Rules' concept names the lexicon reads right in German (issue 9).

    python bench/coverage.py [LEXICON_DIR ...]      # default: the shipped data/lexicon

The concepts are the CR's own lists (2026-04-17): the card types (205.2a), supertypes
(205.4a) and subtypes (205.3g-205.3q: artifact, enchantment, land, planeswalker, spell,
creature, planar, dungeon and battle types), the keyword abilities (702.x) and keyword actions
(701.x), the kinds of counter the CR names ("charge counter"), and the glossary heads of
``data/terms/core.tsv`` (zones, steps, phases, designations, objects). Each one's German name
is the cards', not anyone's memory:

- types, supertypes, subtypes, keywords, counters: the name German printings put in the same
  slot of a type line, keyword line or counter line (`card_slots`, the form printed most
  often; MTGJSON's ``foreignData``);
- other keyword actions and glossary heads: the German name of the term tables where the card
  evidence (``data/terms/evidence.tsv``, mined from the same cards by ``tools/cardterms.py``)
  prints it as one of the term's forms; a term the cards print no such form for counts as
  "no card name".

Each German name is read as a question reads it (`question._phrase`, then `question._translate`
word by word: the lexicon alone, without the loanword and typo readings), and judged against
the English name's content lemmas E: ``first`` (the highest-weighted reading is in E and all
of E are read), ``among`` (all of E read, a wrong one first), ``partial`` (some of E),
``wrong`` (read, none of E), ``missing`` (nothing read; ``same`` of them are spelt as the
English name, "Goblin", which the search reads as typed anyway). Figures per kind.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

CR = ROOT.parent / "shared" / "corpus" / "en" / "MagicCompRules-20260417.txt"
CARDS = ROOT.parent / "shared" / "corpus" / "cards" / "mtgjson"
TERMS = ROOT / "data" / "terms"

#: 205.3 rule -> the kind of subtype its list names.
SUBTYPE_RULES = {
    "205.3g": "artifact type",
    "205.3h": "enchantment type",
    "205.3i": "land type",
    "205.3j": "planeswalker type",
    "205.3k": "spell type",
    "205.3m": "creature type",
    "205.3n": "planar type",
    "205.3p": "dungeon type",
    "205.3q": "battle type",
}
_LIST = re.compile(r"(?:The \w+ types are|That \w+ type is) (.+?)\.(?:\s|$)")
_SEE = re.compile(r"\s*\(see rules? [^)]*\)")


#: A kind of counter the CR names: a word between a determiner or number and "counter(s)".
_KIND = re.compile(
    r"\b(?:a|an|one|two|three|X|N|\d+|the|of|with|no|more|each|remove) ([a-z+-][\w/+-]*) counters?\b"
)
#: Words in that place that name no kind ("the keyword counter", "new counters").
NOT_KIND = frozenset({"states", "specifically", "new", "keyword", "can"})


def _names(text: str) -> list[str]:
    """"A (see rule 1), B, and C" -> [A, B, C]."""
    text = _SEE.sub("", text)
    parts = [p.strip() for p in text.split(",")]
    return [re.sub(r"^(?:and|or)\s+", "", p).strip() for p in parts if p.strip()]


def cr_concepts(cr: Path = CR) -> dict[str, list[str]]:
    """Kind -> the English names the CR lists."""
    rules: dict[str, str] = {}
    for line in cr.read_text(encoding="utf-8-sig").splitlines():
        m = re.match(r"^(\d{3}\.\d+[a-z]?)\.? (.*)$", line)
        if m:
            rules.setdefault(m.group(1), m.group(2))
    out: dict[str, list[str]] = defaultdict(list)
    found = re.search(r"The card types are (.+?)\. See", rules["205.2a"])
    out["card type"] = [n.capitalize() for n in _names(found.group(1))] if found else []
    found = re.search(r"The supertypes are (.+?)\.$", rules["205.4a"])
    out["supertype"] = [n.capitalize() for n in _names(found.group(1))] if found else []
    for number, kind in SUBTYPE_RULES.items():
        text = rules[number]
        if number == "205.3m":
            text = text.split("All other creature types are one word long:", 1)[1]
            out[kind] = ["Time Lord", *_names(text.rsplit(".", 1)[0])]
            continue
        found = _LIST.search(text)
        out[kind] = _names(found.group(1)) if found else []
    text = cr.read_text(encoding="utf-8-sig")
    from card_slots import NO_KIND

    kinds = Counter(re.findall(_KIND, text))
    out["counter"] = sorted(f"{k} counter" for k in kinds if k not in NO_KIND and k not in NOT_KIND)
    return dict(out)


def card_names() -> dict[tuple[str, str], str]:
    """(slot kind, English name casefolded) -> the German name printed most often in that slot."""
    from card_slots import names_by_concept, slot_names, slots

    named = names_by_concept(slot_names(slots(CARDS)))
    return {(kind, en.casefold()): v[0][0] for (kind, en), v in named.items()}


def term_names(kind: str) -> dict[str, str]:
    """English -> the term tables' German name, for the rows of `kind` whose name the cards
    print (one of its forms in ``evidence.tsv``)."""
    from regelwerk.ingest.model.fold import fold

    printed: dict[str, set[str]] = defaultdict(set)
    evidence = (TERMS / "evidence.tsv").read_text(encoding="utf-8").splitlines()
    for line in evidence[1:]:
        parts = line.split("\t")
        printed[parts[0]].add(fold(parts[2].lower()))
    out: dict[str, str] = {}
    table = "keywords.tsv" if kind.startswith("keyword") else "core.tsv"
    lines = (TERMS / table).read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    for line in lines[1:]:
        cells = dict(zip(head, line.split("\t"), strict=False))
        if cells.get("kind") != kind or not cells.get("de"):
            continue
        de = fold(cells["de"].lower())
        if any(de == p or de in p.split() for p in printed.get(cells["en"], ())):
            out[cells["en"]] = cells["de"]
    return out


def reading(lex: object, german: str) -> list[tuple[str, float]]:
    """The English lemmas a German name reads as, best first (the question reader's phrase and
    word lookups over `lex`)."""
    from regelwerk.index.search import question
    from regelwerk.index.terms.function_words import function_words
    from regelwerk.ingest.model.fold import fold

    words = [w for w in question._WORD.findall(german) if not w.isdigit()]
    folded = [fold(w) for w in words]
    english: dict[str, float] = {}
    steps: list[Any] = []
    i = 0
    while i < len(words):
        n = question._phrase(lex, words, folded, i, english, steps)  # type: ignore[arg-type]
        if n:
            i += n
            continue
        if folded[i] not in function_words("de", "stop", folded=True):
            pairs = question._translate(lex, words[i]) or question._conjugated(lex, folded[i])
            question._add(english, pairs, steps)  # type: ignore[arg-type]
        i += 1
    return sorted(english.items(), key=lambda x: (-x[1], x[0]))


def judge(lex: object, german: str, english: str) -> str:
    from build_lexicon import _stops, lemmas

    want = set(lemmas(english, "en", _stops()[1])) or {english.lower()}
    got = reading(lex, german)
    read = {en for en, _ in got}
    if not got:
        same = german.casefold().replace("-", " ") == english.casefold().replace("-", " ")
        return "same" if same else "missing"
    if want <= read:
        return "first" if got[0][0] in want else "among"
    return "partial" if want & read else "wrong"


VERDICTS = ("first", "among", "partial", "wrong", "missing", "same", "no card name")


def measure(lex: object) -> tuple[dict[str, Counter[str]], list[tuple[str, str, str, str]]]:
    concepts = cr_concepts()
    names = card_names()
    slot_kind = {"card type": "type", "supertype": "supertype", "counter": "counter"}
    out: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for kind, english in concepts.items():
        slot = slot_kind.get(kind, "subtype")
        for en in english:
            de = names.get((slot, en.casefold()))
            verdict = judge(lex, de, en) if de else "no card name"
            out[kind][verdict] += 1
            rows.append((kind, en, de or "", verdict))
    from termgen import read_cr

    for kind, section in (("keyword ability", "702"), ("keyword action", "701")):
        tables = term_names(kind.replace(" ", "_"))
        for row in read_cr(CR).keyword_rows():
            if not row.number.startswith(section + "."):
                continue
            de = names.get(("keyword", row.en.casefold())) or tables.get(row.en)
            verdict = judge(lex, de, row.en) if de else "no card name"
            out[kind][verdict] += 1
            rows.append((kind, row.en, de or "", verdict))
    for en, de in term_names("core").items():
        verdict = judge(lex, de, en)
        out["glossary head"][verdict] += 1
        rows.append(("glossary head", en, de, verdict))
    return dict(out), rows


def report(counts: dict[str, Counter[str]]) -> str:
    lines = [f"{'kind':<18}" + "".join(f"{v:>9}" for v in ("n", *VERDICTS[:-1], "no name"))]
    total: Counter[str] = Counter()
    for kind, c in counts.items():
        total.update(c)
        n = sum(c.values())
        lines.append(f"{kind:<18}{n:>9}" + "".join(f"{c[v]:>9}" for v in VERDICTS))
    lines.append(f"{'all':<18}{sum(total.values()):>9}" + "".join(f"{total[v]:>9}" for v in VERDICTS))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    import tempfile

    from regelwerk.index.search.lexicon import load

    folders = [Path(a) for a in argv] or [ROOT / "data" / "lexicon"]
    for folder in folders:
        with tempfile.TemporaryDirectory() as home:
            lex = load(folder, Path(home))
            assert lex is not None, folder
            counts, rows = measure(lex)
            print(folder)
            print(report(counts))
            out = Path(tempfile.gettempdir()) / f"coverage-{folder.name}.tsv"
            out.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
            print(f"(rows: {out})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
