"""Hypothesis strategies for the hardening campaigns, shared by the CI tests and bench/fuzz.py.

One strategy per entry point: the arguments of every command, ingest bytes (text and HTML),
and damage done to a store. The CI tests run a bounded number of examples; `bench/fuzz.py`
runs thousands and counts internal errors and slow cases.
"""

from __future__ import annotations

from hypothesis import strategies as st

#: Words that mean something to some command, mixed with noise.
WORDS = [
    "702.22", "702.22j", "702.6", "rule 702.22 j", "CR 510.1c", "Regel 702.19", "banding", "Bündnis",
    "trample", "Trampelschaden", "a*", "b*", "[a TO z]", "(", ")", '"', "AND", "OR", "NOT", "*", "?",
    "~", "»", "«", "[/bold]", "\x1b]0;x\x07", "\x9b", "\udcff", "", " ", "-1/-1", "--", "-", "ü", "ß",
    "999.999z", "0", "1e309", "2026-04-17", "latest", "x" * 600,
]
OPTIONS = {
    "rule": ["--version", "--lang", "--json"],
    "search": ["--version", "--lang", "--limit", "--all-versions", "--json"],
    "term": ["--lang", "--limit", "--json"],
    "docs": ["--json"],
    "doctor": ["--json"],
    "card": ["--json", "--lang"],
    "example": ["list", "run", "--lang", "--all", "--json"],
}
VALUES = ["en", "de", "both", "xx", "0", "1", "200", "201", "-5", "2026-04-17", "2003-03-15", "latest", "",
          "ä"]


def command_args() -> st.SearchStrategy[list[str]]:
    """A command name followed by a jumble of its options, values and free words."""
    def build(cmd: str) -> st.SearchStrategy[list[str]]:
        token = st.one_of(
            st.sampled_from(OPTIONS[cmd]), st.sampled_from(VALUES), st.sampled_from(WORDS),
            st.text(max_size=30),
        )
        return st.lists(token, max_size=6).map(lambda rest: [cmd, *rest])

    return st.sampled_from(sorted(OPTIONS)).flatmap(build)


CR_HEAD = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
CR_LINES = ["1. Game Concepts", "100. General", "100.1. These rules apply.", "100.1a A subrule.",
            "702.22. Banding", "Example: x", "Glossary", "Ability", "Credits", "", "See rule 702.22."]


def ingest_bytes() -> st.SearchStrategy[bytes]:
    """Random bytes, and CR-like text with random lines, encodings and damage."""
    text = st.lists(st.one_of(st.sampled_from(CR_LINES), st.text(max_size=80)), max_size=40).map(
        lambda lines: CR_HEAD + "\n".join(lines)
    )
    encoded = st.tuples(text, st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "mac_roman"])).map(
        lambda te: te[0].encode(te[1], errors="replace")
    )
    return st.one_of(st.binary(max_size=2000), encoded)


HTML_PARTS = ["<p>", "</p>", "<br>", "<p class=CR1001>", "<b>", "</b>", "<!--", "-->", "<![CDATA[", "]]>",
              "&nbsp;", "&amp;", "<meta charset=utf-7>", "<meta charset=base64>", "<meta charset=macintosh>",
              "<script>", "</script>", "<table><tr><td>", "100.1. Rule", "Comprehensive Rules", "Glossary"]


def html_bytes() -> st.SearchStrategy[bytes]:
    parts = st.lists(st.one_of(st.sampled_from(HTML_PARTS), st.text(max_size=40)), max_size=80)
    return parts.map(lambda ps: ("<html><body>" + "".join(ps)).encode("utf-8", errors="replace"))


DAMAGE = ["truncate", "empty", "garbage", "flip", "delete", "json-list", "json-shape"]


def store_damage() -> st.SearchStrategy[tuple[str, int, int]]:
    """(kind of damage, which file (index into the sorted store files), a position seed)."""
    return st.tuples(st.sampled_from(DAMAGE), st.integers(0, 10_000), st.integers(0, 10_000))


def damage(path: object, kind: str, seed: int) -> None:
    """Do `kind` of damage to file `path` (a pathlib.Path)."""
    from pathlib import Path

    p = Path(str(path))
    data = p.read_bytes()
    if kind == "truncate":
        p.write_bytes(data[: seed % (len(data) + 1)])
    elif kind == "empty":
        p.write_bytes(b"")
    elif kind == "garbage":
        p.write_bytes(bytes((seed * 7 + i) % 256 for i in range(len(data))))
    elif kind == "flip" and data:
        i = seed % len(data)
        p.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:])
    elif kind == "delete":
        p.unlink()
    elif kind == "json-list":
        p.write_text("[1, 2, 3]")
    elif kind == "json-shape":
        p.write_text('{"version": 2, "documents": {"x": {"sha256": 5}}}')
