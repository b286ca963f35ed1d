"""Assertions several test modules share (ingestors, and what a command imports)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from regelwerk.ingest.decode import decode, looks_binary
from regelwerk.ingest.model.records import ParsedDocument


def claimed_lines(parsed: ParsedDocument) -> Counter[int]:
    """How often each source line is claimed by a section, glossary entry, card or issue."""
    counts: Counter[int] = Counter()
    for group in (parsed.sections, parsed.glossary, parsed.cards, parsed.issues):
        for record in group:
            counts.update(record.lines)
    return counts


def assert_lines_covered(parsed: ParsedDocument, text: str) -> None:
    """Every non-blank line of ``text`` (newline-normalised) is in exactly one record or issue.

    Line numbers are 1-based, as the records keep them. Reports the first few offenders with
    their text so a failure says which lines went missing or were taken twice.
    """
    lines = text.split("\n")
    expected = {i for i, line in enumerate(lines, start=1) if line.strip()}
    counts = claimed_lines(parsed)
    claimed = set(counts)

    def show(numbers: set[int]) -> str:
        return "; ".join(
            f"{n}: {lines[n - 1][:60]!r}" if 0 < n <= len(lines) else f"{n}: <no such line>"
            for n in sorted(numbers)[:5]
        )

    missing = expected - claimed
    extra = claimed - expected
    twice = {n for n, c in counts.items() if c > 1}
    assert not missing, f"{len(missing)} non-blank line(s) in no record or issue: {show(missing)}"
    assert not extra, f"{len(extra)} blank or non-existent line(s) claimed: {show(extra)}"
    assert not twice, f"{len(twice)} line(s) claimed more than once: {show(twice)}"


def parse_random_lines(
    parse: Callable[[bytes, str], ParsedDocument], lines: list[str]
) -> ParsedDocument | None:
    """Property-test body shared by the ingestors: join `lines`, parse, check every line lands.

    Returns None for input that is not a document at all (blank or binary-looking).
    """
    text = "\n".join(lines)
    if not text.strip() or looks_binary(text.encode()):
        return None
    parsed = parse(text.encode(), "random.txt")
    assert_lines_covered(parsed, decode(text.encode(), "random.txt").text)
    return parsed


def cli_imports(home: Path, args: list[str], prefixes: tuple[str, ...]) -> tuple[str, list[str]]:
    """(stdout, loaded modules starting with one of `prefixes`) of ``regelwerk ARGS`` run in a
    fresh process on `home`: the only honest way to see what a command imports."""
    code = (
        "import json, sys\nfrom regelwerk.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({prefixes!r}))), file=sys.stderr)"
    )
    env = {**os.environ, "REGELWERK_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout, json.loads(out.stderr.strip().splitlines()[-1])
