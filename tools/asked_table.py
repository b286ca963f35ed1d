"""Assemble ``data/lexicon/asked.tsv.xz`` from written phrasing files and the CR they were written for.

usage: python tools/asked_table.py CR.txt WRITTEN.tsv...   (writes data/lexicon/asked.tsv.xz)

Each WRITTEN file has the header ``rule<TAB>lang<TAB>asked`` and rows of a rule number, de or
en, and one phrasing. The output adds each rule's ``starts`` (a hash of its text's first
words, folded, as ``regelwerk.index.search.asked.fingerprint`` makes it, from the CR parsed
by regelwerk's own ingest; no words of the CR), so the index gives a rule its phrasings only
while its text still begins that way.
Rows naming a rule the CR lacks are reported on stderr and left out.
"""

from __future__ import annotations

import lzma
import sys
from pathlib import Path

from regelwerk.index.search.asked import FILE, fingerprint
from regelwerk.ingest import parse_path

TABLE = Path(__file__).resolve().parents[1] / "data" / "lexicon" / FILE
HEADER = """\
# How players ask for each rule: document expansion for questions (regelwerk.index.search.asked).
# Written for the 2026-04-17 CR by helpers from each rule's own text (never from the question
# sets of tests/relevance), session 28: for every rule two German phrasings (a question about a
# situation, a short search-box query) and one English question; for the rules outside 701 and
# 702 a second round of as many from another angle (other situations, slang, a forum style);
# session 29, a third round for every rule: two German (a situation at the table, and a search-box
# query or a slangy forum question) and two English (the same two kinds), each unlike the rule's
# earlier lines.
# Assembled by tools/asked_table.py; starts: a hash of the rule text's first words, folded.
rule\tstarts\tlang\tasked
"""


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    parsed = parse_path(argv[0])
    texts = {s.number: s.text for s in parsed.sections if s.kind in ("rule", "subrule") and s.number}
    out = [HEADER]
    for name in argv[1:]:
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        if not lines or lines[0] != "rule\tlang\tasked":
            print(f"{name}: line 1: expected the header rule<TAB>lang<TAB>asked", file=sys.stderr)
            return 1
        for n, line in enumerate(lines[1:], 2):
            number, lang, text = line.split("\t")
            if number not in texts:
                print(f"{name}: line {n}: no rule {number} in {argv[0]}; left out", file=sys.stderr)
                continue
            out.append(f"{number}\t{fingerprint(texts[number])}\t{lang}\t{text.strip()}\n")
    TABLE.write_bytes(lzma.compress("".join(out).encode("utf-8"), preset=9))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
