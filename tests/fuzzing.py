"""Hypothesis strategies for the hardening campaigns, shared by the CI tests and bench/fuzz.py.

One strategy per entry point: the arguments of every command, ingest bytes (text and HTML),
and damage done to a store. The CI tests run a bounded number of examples; `bench/fuzz.py`
runs thousands and counts internal errors and slow cases.
"""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path

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


# -- store damage ------------------------------------------------------------------------------
#: Each stored artefact of a home (`damage_home`), as a glob under the home: what a damage hits.
FILE_ARTEFACTS = {
    "manifest": "store/manifest.json",
    "journal": "store/journal.jsonl",
    "record cr 2026-04": "store/docs/cr-en-2026-04-17.json",
    "record cr 2026-01": "store/docs/cr-en-2026-01-16.json",
    "record seed excerpt": "store/docs/cr-excerpt-en-*.json",
    "record seed glossary 1": "store/docs/glossary-de-banding-*.json",
    "record seed glossary 2": "store/docs/glossary-de-persist-*.json",
    "record seed bilingual": "store/docs/rule-702-19-*.json",
    "rules.sqlite": "derived/*/rules/rules.sqlite",
    "rules checksums": "derived/*/rules/.checksums.json",
    "search toc": "derived/*/search/*.toc",
    "search segment": "derived/*/search/*.seg",
    "search vocabulary": "derived/*/search/vocabulary.json",
    "search members": "derived/*/search/members.sqlite",
    "search checksums": "derived/*/search/.checksums.json",
    "search writelock": "derived/*/search/MAIN_WRITELOCK",
    "keywords.json": "derived/*/keywords/keywords.json",
    "keywords checksums": "derived/*/keywords/.checksums.json",
    "lineage.sqlite": "lineage/*.sqlite",
    "linking lookups": "linking/*.sqlite",
    "cards.sqlite": "cards/cards.sqlite",
    "writer lock": "lock",
    "build lock": "build.lock",
    "lease": "derived/.leases/*",
}
DIR_ARTEFACTS = {
    "records dir": "store/docs",
    "rules dir": "derived/*/rules",
    "search dir": "derived/*/search",
    "keywords dir": "derived/*/keywords",
    "a derived version": "derived/*-*",
    "derived": "derived",
    "lineage dir": "lineage",
    "linking dir": "linking",
    "cards dir": "cards",
    "leases dir": "derived/.leases",
}
#: Damage placed at an offset: which of BUCKETS equal slices of the file it starts in counts.
OFFSET_KINDS = ("truncate", "flip bit", "flip 8 bytes", "zero-fill", "garbage-fill")
FILE_KINDS = (*OFFSET_KINDS, "append garbage", "empty", "delete", "directory", "symlink loop",
              "json list", "json null", "json number", "json string", "json {}", "json wrong types",
              "another file's bytes")
DIR_KINDS = ("delete", "empty", "file", "symlink loop", "foreign file", "abandoned temp dir")
#: Things left behind rather than damaged (a killed writer's temp files, strangers' files).
LEFTOVER_KINDS = ("build temp dir", "build temp file", "manifest temp", "record temp", "stray json record",
                  "stray derived file", "stray derived dir", "stray lease dir")
BUCKETS = 32

#: One damage: (artefact, kind, offset bucket or -1, seed). A case is 1-3 of them.
Damage = tuple[str, str, int, int]


def _one_damage() -> st.SearchStrategy[Damage]:
    seed = st.integers(0, 2**31 - 1)
    files = st.tuples(st.sampled_from(sorted(FILE_ARTEFACTS)), st.sampled_from(FILE_KINDS),
                      st.integers(0, BUCKETS - 1), seed)
    dirs = st.tuples(st.sampled_from(sorted(DIR_ARTEFACTS)), st.sampled_from(DIR_KINDS), st.just(-1), seed)
    left = st.tuples(st.just("leftover"), st.sampled_from(LEFTOVER_KINDS), st.just(-1), seed)
    return st.one_of(files, files, files, dirs, left).map(
        lambda d: d if d[1] in OFFSET_KINDS else (d[0], d[1], -1, d[3])
    )


def store_damage() -> st.SearchStrategy[list[Damage]]:
    """1-3 damages to one home: which artefact, what damage, where in it."""
    return st.lists(_one_damage(), min_size=1, max_size=3, unique_by=lambda d: d[:3])


def case_key(case: list[Damage]) -> tuple[tuple[str, str, int], ...]:
    """What makes two cases the same: their (artefact, kind, offset bucket) damages."""
    return tuple(sorted(d[:3] for d in case))


def damage_home(folder: Path) -> Path:
    """A home holding every kind of artefact: the seeds, two CR releases (so rule lineage), a
    card file, every derived artefact built; the sources stay beside it for doctor to re-read.
    Returns the home."""
    import json

    from regelwerk.index.facade import Library
    from tests.test_mtgjson import META, SET_A

    base = folder
    sources = base / "sources"
    sources.mkdir(parents=True)
    for date, extra in (("January 16, 2026", ""), ("April 17, 2026", "\n\n100.2. Banding is new.")):
        text = (f"{CR_HEAD.replace('April 17, 2026', date)}1. Game Concepts\n\n100. General\n\n"
                f"100.1. These rules apply to trample.\n\n100.1a A subrule.{extra}\n\n"
                "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n")
        (sources / f"cr-{date[-4:]}-{date[:3]}.txt").write_text(text, encoding="utf-8")
    (sources / "AAA.json").write_text(json.dumps({"data": SET_A, "meta": META}), encoding="utf-8")
    home = base / "home"
    library = Library(home)
    library.ingest([sources])
    library.rule("100.1")
    library.search("trample")
    library.term("trample")
    library.history("100.1")
    return home


def _targets(home: Path, artefact: str, seed: int) -> list[Path]:
    pattern = FILE_ARTEFACTS.get(artefact) or DIR_ARTEFACTS.get(artefact)
    found = sorted(home.glob(pattern)) if pattern else []
    return [found[seed % len(found)]] if found else []


def damage(home: Path, hit: Damage) -> None:
    """Do one damage to `home`; a damage whose target is already gone does nothing."""
    artefact, kind, bucket, seed = hit
    with contextlib.suppress(OSError):  # an earlier damage of the case took its place away
        if artefact == "leftover":
            _leave(home, kind, seed)
            return
        for path in _targets(home, artefact, seed):
            if path.is_symlink() or not path.exists():
                continue
            if artefact in DIR_ARTEFACTS:
                _damage_dir(path, kind, seed)
            else:
                _damage_file(home, path, kind, bucket, seed)


def _damage_file(home: Path, p: Path, kind: str, bucket: int, seed: int) -> None:
    if not p.is_file():
        return
    data = p.read_bytes()
    n, rng = len(data), random.Random(seed)
    at = min(max(n - 1, 0), bucket * n // BUCKETS + rng.randrange(max(1, n // BUCKETS))) if bucket >= 0 else 0
    width = max(1, n // BUCKETS)
    if kind == "truncate":
        p.write_bytes(data[:at])
    elif kind in ("flip bit", "flip 8 bytes"):
        out = bytearray(data)
        for i in range(at, min(n, at + (1 if kind == "flip bit" else 8))):
            out[i] ^= (1 << rng.randrange(8)) if kind == "flip bit" else rng.randrange(1, 256)
        p.write_bytes(bytes(out))
    elif kind in ("zero-fill", "garbage-fill"):
        fill = bytes(width) if kind == "zero-fill" else rng.randbytes(width)
        p.write_bytes(data[:at] + fill[: max(0, n - at)] + data[at + width:])
    elif kind == "append garbage":
        p.write_bytes(data + rng.randbytes(rng.randrange(1, 65)))
    elif kind == "empty":
        p.write_bytes(b"")
    elif kind == "delete":
        p.unlink()
    elif kind == "directory":
        p.unlink()
        p.mkdir()
    elif kind == "symlink loop":
        p.unlink()
        p.symlink_to(p.name)
    elif kind == "another file's bytes":
        others = sorted(q for q in home.rglob("*.json") if q.is_file() and q != p)
        p.write_bytes(others[seed % len(others)].read_bytes() if others else b"{}")
    else:
        p.write_text(JSON_SHAPES[kind], encoding="utf-8")


JSON_SHAPES = {
    "json list": "[1, 2, 3]", "json null": "null", "json number": "5", "json string": '"x"', "json {}": "{}",
    "json wrong types": '{"version": 2, "documents": {"x": {"sha256": 5, "summary": []}}, "meta": []}',
}


def _damage_dir(p: Path, kind: str, seed: int) -> None:
    if kind in ("delete", "file", "symlink loop"):
        shutil.rmtree(p)
        if kind == "file":
            p.write_bytes(b"not a directory")
        elif kind == "symlink loop":
            p.symlink_to(p.name)
    elif kind == "empty":
        for child in p.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    elif kind == "foreign file":
        (p / f"stranger-{seed % 97}.json").write_bytes(b'{"who": "a stranger"}')
    elif kind == "abandoned temp dir":
        (p / f".tmp-{seed % 97}").mkdir(exist_ok=True)


def _leave(h: Path, kind: str, seed: int) -> None:
    """Leave what a killed process or a stranger leaves: temp files and dirs, stray files."""
    versions = sorted(p for p in (h / "derived").glob("*-*") if p.is_dir())
    version = versions[seed % len(versions)] if versions else h / "derived" / "0-x"
    version.mkdir(parents=True, exist_ok=True)
    if kind == "build temp dir":
        (version / f".tmp-search.{seed}").mkdir()
        (version / f".tmp-search.{seed}" / "_MAIN_0.toc").write_bytes(b"half")
    elif kind == "build temp file":
        (version / f".tmp-rules.{seed}").write_bytes(b"half")
    elif kind == "manifest temp":
        (h / "store" / f".manifest.json.{seed}.tmp").write_text('{"version": 2, "docu', encoding="utf-8")
    elif kind == "record temp":
        (h / "store" / "docs" / f".cr-en-2026-04-17.json.{seed}.tmp").write_text('{"doc', encoding="utf-8")
    elif kind == "stray json record":
        (h / "store" / "docs" / f"stray-{seed % 101}.json").write_text('{"document": 5}', encoding="utf-8")
    elif kind == "stray derived file":
        (h / "derived" / f"stray-{seed % 101}").write_bytes(b"x")
    elif kind == "stray derived dir":
        (h / "derived" / f"ffffffffffffffff-stray{seed % 101}" / "search").mkdir(parents=True, exist_ok=True)
    elif kind == "stray lease dir":
        (h / "derived" / ".leases" / f"stray-{seed % 101}").mkdir(parents=True, exist_ok=True)


class Unhealed(Exception):
    """doctor --repair left a damaged home unhealthy, or a document lost after it."""


def survive(home: Path, new_release: Path | None) -> None:
    """What a damaged `home` must do: every read answers or fails with a RegelwerkError (the
    one-line error), an ingest of `new_release` too; then `doctor --repair` heals it and both
    CR releases read again (or the repair names a release it could not bring back, which
    happens only when its record and the manifest were both damaged). Anything else raises
    (an internal error, or Unhealed)."""
    from regelwerk.index.facade import Library
    from regelwerk.ingest.model.errors import RegelwerkError

    library = Library(home)
    reads = (library.docs, lambda: library.rule("100.1"), lambda: library.rule("100.1", version="2026-01-16"),
             lambda: library.search("trample"), lambda: library.term("trample"),
             lambda: library.card("Craw Wurm"), lambda: library.history("100.1"), library.doctor)
    for call in reads:
        with contextlib.suppress(RegelwerkError):
            call()
    if new_release is not None:
        with contextlib.suppress(RegelwerkError):
            Library(home).ingest([new_release])
    report = Library(home).doctor(repair=True)
    if not report["healthy"]:
        raise Unhealed(f"doctor --repair left it unhealthy: {report['problems'][:2]}")
    after = Library(home)
    ids = {d["id"] for d in after.docs()["documents"]}
    said = " ".join(report["problems"] + report["repaired"])
    named = " ".join(after.docs()["lost"])
    for lost in {"cr-en-2026-01-16", "cr-en-2026-04-17"} - ids:  # only with its source gone too
        if lost not in said or lost not in named:
            raise Unhealed(f"{lost} was lost without a word: {report['repaired']}, docs: {named!r}")
    after.rule("100.1a", version="2026-01-16" if "cr-en-2026-01-16" in ids else None)
    after.search("trample")
    after.term("trample")


def new_release(folder: Path) -> Path:
    """A third small CR release, for an ingest into a damaged home."""
    path = folder / "cr-2026-Mar.txt"
    body = "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\n"
    tail = "Glossary\n\nCredits\n\nPeople.\n"
    path.write_text(CR_HEAD.replace("April 17, 2026", "March 13, 2026") + body + tail, encoding="utf-8")
    return path
