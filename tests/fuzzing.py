"""Hypothesis strategies for the hardening campaigns, shared by the CI tests and bench/fuzz.py.

One strategy per entry point: the arguments of every command, ingest bytes (text and HTML),
scenario files (mutated as data, or edited as text), and damage done to a store. The CI tests
run a bounded number of examples; `bench/fuzz.py` runs thousands and counts internal errors
and slow cases.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import random
import shutil
import tomllib
import types
from importlib import resources
from pathlib import Path
from typing import Any

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
    "history": ["--full", "--json", "banding", "702.22", "502.10", "Bündnisfähigkeit"],
    "diff": ["--section", "--json", "latest", "2026-04-17", "7", "702", "cr-en-2026-04-17"],
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


# -- scenario files ----------------------------------------------------------------------------
@functools.cache
def scenario_docs() -> dict[str, dict[str, Any]]:
    """The packaged scenarios, parsed: what a mutation starts from."""
    folder = resources.files("regelwerk.data").joinpath("scenarios")
    names = sorted(f.name for f in folder.iterdir() if f.name.endswith(".toml"))
    return {name: tomllib.loads(folder.joinpath(name).read_text(encoding="utf-8")) for name in names}


def scenario_text(name: str) -> list[str]:
    """The lines of a packaged scenario file, as written."""
    entry = resources.files("regelwerk.data").joinpath("scenarios", name)
    return entry.read_text(encoding="utf-8").splitlines()


def _ids(doc: dict[str, Any]) -> list[str]:
    found = [str(p.get("id")) for p in doc.get("players", [])] + [
        str(c.get("id")) for c in doc.get("cards", [])
    ]
    return [*found, "soldier-1", "monk-9", "self", "target", "flying", "702.22j"]


def _deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


def scenario_values(doc: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a mutation puts in: of every TOML type, ids from the file, arrays nested deep."""
    return st.one_of(
        st.integers(-(10**9), 10**9),
        st.text(max_size=12),
        st.booleans(),
        st.floats(allow_nan=False),
        st.sampled_from(_ids(doc)),
        st.lists(st.sampled_from(_ids(doc)), max_size=3),
        st.dictionaries(st.sampled_from(_ids(doc)), st.integers(-3, 30), max_size=3),
        st.dictionaries(st.text(max_size=6), st.text(max_size=6), max_size=2),
        st.integers(1, 400).map(_deep),
    )


def mutate_scenario(data: Any, doc: dict[str, Any], values: st.SearchStrategy[Any]) -> dict[str, Any]:
    """Walk to a random place in the document and replace, remove or wrap what is there
    (`data`: anything with hypothesis's ``draw``)."""
    doc = copy.deepcopy(doc)
    node: Any = doc
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return doc
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        how = data.draw(st.sampled_from(["replace", "replace", "remove", "wrap"]))
        if how == "remove":
            del node[key]
        elif how == "wrap":
            node[key] = [child]
        else:
            node[key] = data.draw(values)
        return doc


def edit_scenario_lines(data: Any, lines: list[str]) -> list[str]:
    """Line-level edits of a scenario file's text: 1-3 lines dropped, doubled, or with
    characters inserted."""
    lines = list(lines)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["drop", "double", "insert"]))
        if how == "drop":
            del lines[i]
        elif how == "double":
            lines.insert(i, lines[i])
        else:
            at = data.draw(st.integers(0, len(lines[i])))
            inserted = data.draw(st.text(alphabet='[]{}",=.x5 -#', max_size=4))
            lines[i] = lines[i][:at] + inserted + lines[i][at:]
    return lines


@st.composite
def scenario_cases(draw: Any) -> tuple[str, str, str, Any]:
    """(how, file name, language, scenario): a packaged scenario mutated 1-3 times as data
    (three cases in four), or its text edited line by line (one in four)."""
    data = types.SimpleNamespace(draw=draw)
    docs = scenario_docs()
    name = draw(st.sampled_from(sorted(docs)))
    lang = draw(st.sampled_from(["de", "en"]))
    if draw(st.integers(0, 3)) == 0:
        return "edited", name, lang, "\n".join(edit_scenario_lines(data, scenario_text(name)))
    doc = docs[name]
    for _ in range(draw(st.integers(1, 3))):
        doc = mutate_scenario(data, doc, scenario_values(docs[name]))
    return "mutated", name, lang, doc


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
    "committed mark": "derived/.committed",
    "lineage seal": "lineage/*.seal.json",
    "linking seal": "linking/*.seal.json",
    "cards seal": "cards/*.seal.json",
    "cards account": "store/cards.json",
    "cards account 2": "derived/.cards.json",
    "ready marker": "derived/.ready",
}
#: SQLite databases whose values a damage changes in place (the file stays a valid database:
#: only a hash recorded when it was built can tell).
SQL_ARTEFACTS = {
    "lineage.sqlite": "lineage/*.sqlite",
    "linking lookups": "linking/*.sqlite",
    "cards.sqlite": "cards/cards.sqlite",
    "rules.sqlite": "derived/*/rules/rules.sqlite",
    "search members": "derived/*/search/members.sqlite",
}
SQL_KINDS = ("change a value", "delete a row")
#: A release's entry in the store's own accounts (with a record damage in the same case, a
#: release can lose every account but the derived data built from it).
ACCOUNT_KINDS = ("drop manifest entry", "drop journal lines")
RELEASES = ("cr-en-2026-01-16", "cr-en-2026-04-17")
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
    sql = st.tuples(st.sampled_from(sorted(SQL_ARTEFACTS)).map(lambda a: f"sql {a}"),
                    st.sampled_from(SQL_KINDS), st.just(-1), seed)
    account = st.tuples(st.sampled_from(RELEASES).map(lambda r: f"account {r}"),
                        st.sampled_from(ACCOUNT_KINDS), st.just(-1), seed)
    return st.one_of(files, files, files, dirs, left, sql, account).map(
        lambda d: d if d[1] in OFFSET_KINDS else (d[0], d[1], -1, d[3])
    )


def store_damage() -> st.SearchStrategy[list[Damage]]:
    """1-3 damages to one home: which artefact, what damage, where in it."""
    return st.lists(_one_damage(), min_size=1, max_size=3, unique_by=lambda d: d[:3])


def random_damage(rng: random.Random) -> Damage:
    """One damage drawn uniformly within its group (the campaign's fresh cases: hypothesis's
    draws repeat small values, so a long run meets the same cases again)."""
    seed = rng.randrange(2**31)
    group = rng.choice(("file", "file", "file", "dir", "leftover", "sql", "account"))
    if group == "file":
        kind = rng.choice(FILE_KINDS)
        bucket = rng.randrange(BUCKETS) if kind in OFFSET_KINDS else -1
        return (rng.choice(sorted(FILE_ARTEFACTS)), kind, bucket, seed)
    if group == "dir":
        return (rng.choice(sorted(DIR_ARTEFACTS)), rng.choice(DIR_KINDS), -1, seed)
    if group == "sql":
        return (f"sql {rng.choice(sorted(SQL_ARTEFACTS))}", rng.choice(SQL_KINDS), -1, seed)
    if group == "account":
        return (f"account {rng.choice(RELEASES)}", rng.choice(ACCOUNT_KINDS), -1, seed)
    return ("leftover", rng.choice(LEFTOVER_KINDS), -1, seed)


def fresh_case(rng: random.Random, seen: set[tuple[tuple[str, str, int], ...]]) -> list[Damage]:
    """A case of 1-3 damages whose key is not in `seen` (the space is far larger than a run)."""
    while True:
        case: list[Damage] = []
        for _ in range(rng.randint(1, 3)):
            hit = random_damage(rng)
            if all(hit[:3] != d[:3] for d in case):
                case.append(hit)
        if case_key(case) not in seen:
            return case


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
        if artefact.startswith("sql "):
            _damage_values(home, SQL_ARTEFACTS[artefact[4:]], kind, seed)
            return
        if artefact.startswith("account "):
            _drop_account(home, artefact[len("account "):], kind)
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


def _damage_values(home: Path, pattern: str, kind: str, seed: int) -> None:
    """Change one value (or delete one row) of a table in place: the file stays a valid
    SQLite database, so only the hash recorded when it was written can tell."""
    import sqlite3

    found = sorted(p for p in home.glob(pattern) if p.is_file() and not p.is_symlink())
    if not found:
        return
    rng = random.Random(seed)
    with contextlib.suppress(sqlite3.Error, UnicodeDecodeError), \
            contextlib.closing(sqlite3.connect(found[seed % len(found)])) as con, con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT "
                                            "LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%\\_%' ESCAPE '\\'")]
        tables = [t for t in tables if con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]]
        if not tables:
            return
        table = rng.choice(sorted(tables))
        n = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        columns = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
        row = con.execute(f'SELECT * FROM "{table}" LIMIT 1 OFFSET {rng.randrange(n)}').fetchone()
        where = " AND ".join(f'"{c}" IS ?' for c in columns)
        if kind == "delete a row":
            con.execute(f'DELETE FROM "{table}" WHERE {where}', row)
            return
        i = rng.randrange(len(columns))
        value = row[i]
        changed = (value + 1 if isinstance(value, (int, float)) else value + "x" if isinstance(value, str)
                   else bytes(value) + b"x" if isinstance(value, bytes) else "x")
        con.execute(f'UPDATE OR IGNORE "{table}" SET "{columns[i]}" = ? WHERE {where}', (changed, *row))


def _drop_account(home: Path, doc_id: str, kind: str) -> None:
    """Remove one release from the store's manifest, or its lines from the journal (both stay
    well-formed: the loss of an entry, not damage a parser sees)."""
    import json

    if kind == "drop manifest entry":
        path = home / "store" / "manifest.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return
        if isinstance(data, dict) and isinstance(data.get("documents"), dict):
            data["documents"].pop(doc_id, None)
            path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    else:
        path = home / "store" / "journal.jsonl"
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(x for x in lines if doc_id.encode() not in x))


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


def values(home: Path) -> dict[str, object]:
    """What a healthy home answers (a rule of each release, a history, a card): after the
    repair of a damaged copy, the same answers, so a value changed in place is never left."""
    from regelwerk.index.facade import Library

    library = Library(home)
    return {"rule 2026-01-16": library.rule("100.1a", version="2026-01-16"), "rule": library.rule("100.1a"),
            "history": library.history("100.1"), "card": library.card("Craw Wurm")}


def survive(home: Path, new_release: Path | None, reference: dict[str, object] | None = None) -> None:
    """What a damaged `home` must do: every read answers or fails with a RegelwerkError (the
    one-line error), an ingest of `new_release` too; then `doctor --repair` heals it and both
    CR releases read again (or the repair names a release it could not bring back, which
    happens only when its record and the manifest were both damaged), with the `reference`
    answers of the healthy home (`values`) where nothing was ingested or lost. Anything else
    raises (an internal error, or Unhealed)."""
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
    said = " ".join(report["problems"] + report["repaired"] + report["lost"])
    named = " ".join(after.docs()["lost"])
    for lost in set(RELEASES) - ids:  # only with its source gone too
        if lost not in said or lost not in named:
            raise Unhealed(f"{lost} was lost without a word: {report['repaired']}, docs: {named!r}")
    after.rule("100.1a", version="2026-01-16" if "cr-en-2026-01-16" in ids else None)
    after.search("trample")
    after.term("trample")
    if reference is not None and new_release is None and set(RELEASES) <= ids:
        _same_values(home, reference, report)


def _same_values(home: Path, reference: dict[str, object], report: dict[str, list[str]]) -> None:
    now = values(home) if (home / "cards" / "cards.sqlite").exists() else None
    if now is None:  # the card database was removed and its files gone: the repair says so
        if not any("cards.sqlite: removed" in r or "card files gone" in r for r in report["repaired"]):
            raise Unhealed("the card database is gone without a word")
        return
    for key, value in reference.items():
        if now[key] != value:
            raise Unhealed(f"after the repair, {key} answers differently: a value changed in place was left")


def new_release(folder: Path) -> Path:
    """A third small CR release, for an ingest into a damaged home."""
    path = folder / "cr-2026-Mar.txt"
    body = "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\n"
    tail = "Glossary\n\nCredits\n\nPeople.\n"
    path.write_text(CR_HEAD.replace("April 17, 2026", "March 13, 2026") + body + tail, encoding="utf-8")
    return path
