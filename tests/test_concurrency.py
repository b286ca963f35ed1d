"""Concurrent and killed processes (issue 14 items 5-6), with real processes.

Bounded loops and short timeouts: each scenario starts a handful of `regelwerk` processes and
waits for them with a timeout, so a hang fails the test instead of stalling the suite.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
    "1. Game Concepts\n\n100. General\n\n{rules}\n\n"
    "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)
DATES = ("January 16, 2026", "February 13, 2026", "March 13, 2026", "April 17, 2026")


def _cr(folder: Path, i: int, rules: int = 400) -> Path:
    body = "\n\n".join(
        f"100.{n}. Rule {n} of release {i}: trample banding damage {n * i}." for n in range(1, rules)
    )
    path = folder / f"cr-{i}.txt"
    path.write_text(CR.format(date=DATES[i % len(DATES)], rules=body), encoding="utf-8")
    return path


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "REGELWERK_HOME": str(home), "REGELWERK_LOCK_TIMEOUT": "90"}


def _start(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "regelwerk", *args], env=_env(home), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _run(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regelwerk", *args], env=_env(home), text=True,
                          capture_output=True, timeout=timeout)


def _finish(proc: subprocess.Popen[str], timeout: float = 150) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"{proc.args} hung for over {timeout} s")
    return proc.returncode, out, err


def _children(pid: int) -> set[int]:
    """Every live descendant of `pid` (from /proc), so a kill can be checked for leftovers."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _leftovers(home: Path) -> list[Path]:
    return list((home / "derived").glob("*/.*")) if (home / "derived").exists() else []


def test_four_first_searches_share_one_build(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    procs = [_start(home, "search", "trample", "--json") for _ in range(4)]
    results = [_finish(p) for p in procs]
    for code, out, err in results:
        assert code == 0, err
        assert json.loads(out)["hits"]
    assert len(list((home / "derived").glob("*/search"))) == 1
    assert not _leftovers(home)


def test_eight_readers_during_an_ingest_all_answer(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 0))).returncode == 0
    assert _run(home, "search", "banding").returncode == 0  # the index of the first state
    more = tmp_path / "more"
    more.mkdir()
    for i in (1, 2, 3):
        _cr(more, i, rules=1500)
    ingest = _start(home, "ingest", str(more), "--json")
    asks = [("search", "trample damage"), ("rule", "100.2"), ("docs",), ("term", "banding")] * 2
    readers = [_start(home, *args, "--json") for args in asks]
    for proc in readers:  # with --json an error is on stdout: show both, so a failure says why
        code, out, err = _finish(proc)
        assert code == 0, (proc.args, out[-2000:], err[-2000:])
        assert json.loads(out)["ok"] is True
        assert "internal error" not in err and "Traceback" not in err
    code, out, err = _finish(ingest)
    assert code == 0, (out[-2000:], err[-2000:])
    assert len(json.loads(out)["documents"]) == 3


def test_two_ingests_at_once_both_land(tmp_path: Path) -> None:
    home = tmp_path / "home"
    a, b = _start(home, "ingest", str(_cr(tmp_path, 1))), _start(home, "ingest", str(_cr(tmp_path, 2)))
    assert _finish(a)[0] == 0 and _finish(b)[0] == 0
    versions = {d["version"] for d in json.loads(_run(home, "docs", "--json").stdout)["documents"]}
    assert {"2026-02-13", "2026-03-13"} <= versions


def test_an_ingest_timed_out_on_the_builder_stores_nothing_and_readers_never_wait(tmp_path: Path) -> None:
    """The documents of an ingest become visible only with their build: one that cannot get
    the builder lock leaves the store as it was, so readers serve the last complete build at
    once instead of building (and waiting on the lock) themselves."""
    from filelock import FileLock

    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    built = sorted(p.parent.name for p in (home / "derived").glob("*/search"))
    quick = {**_env(home), "REGELWERK_LOCK_TIMEOUT": "1"}
    with FileLock(str(home / "build.lock")):
        proc = subprocess.run([sys.executable, "-m", "regelwerk", "ingest", str(_cr(tmp_path, 2))], env=quick,
                              text=True, capture_output=True, timeout=60)
        assert proc.returncode == 1
        assert "another regelwerk process is building the indexes (waited 1 s)" in proc.stderr
        assert "nothing was stored" in proc.stderr
        for args in (("docs",), ("search", "trample"), ("rule", "100.2"), ("term", "banding")):
            read = subprocess.run([sys.executable, "-m", "regelwerk", *args, "--json"], env=quick, text=True,
                                  capture_output=True, timeout=60)
            assert read.returncode == 0, (args, read.stderr)  # a reader that needed the lock would time out
            if args == ("docs",):
                versions = {d["version"] for d in json.loads(read.stdout)["documents"]}
                assert "2026-03-13" not in versions and "2026-02-13" in versions
    assert sorted(p.parent.name for p in (home / "derived").glob("*/search")) == built
    assert not list((home / "store" / "docs").glob("*2026-03-13*"))
    assert _run(home, "ingest", str(_cr(tmp_path, 2))).returncode == 0  # once the builder is free, it lands
    versions = {d["version"] for d in json.loads(_run(home, "docs", "--json").stdout)["documents"]}
    assert {"2026-02-13", "2026-03-13"} <= versions


READER = """
import json, sys
from regelwerk.index.facade import Library
from regelwerk.index.search.whoosh_index import index_dir
lib = Library()
lib.rule("100.2")
print(json.dumps([len(lib.search("trample")["hits"]), str(index_dir(lib.corpus))]), flush=True)
sys.stdin.readline()
again = lib.search("banding damage")["hits"]
print(json.dumps([len(again), lib.rule("100.3")["rule"]["version"]]), flush=True)
"""


def test_a_slow_reader_keeps_its_version_while_a_new_build_lands(tmp_path: Path) -> None:
    """Old index versions are pruned only when no reader holds them (no grace period)."""
    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    reader = subprocess.Popen([sys.executable, "-c", READER], env=_env(home), text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert reader.stdout is not None and reader.stdin is not None
        hits, folder = json.loads(reader.stdout.readline())
        assert hits and Path(folder).is_dir()
        assert _run(home, "ingest", str(_cr(tmp_path, 2))).returncode == 0  # a new build lands
        assert Path(folder).is_dir(), "the builder removed a version a live reader holds"
        assert len(list((home / "derived").glob("*/search"))) == 2
        reader.stdin.write("go\n")
        reader.stdin.flush()
        hits, version = json.loads(reader.stdout.readline())
        assert hits and version == "2026-02-13"  # the reader's consistent, older state
    finally:
        _, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    assert _run(home, "ingest", str(_cr(tmp_path, 3))).returncode == 0
    assert not Path(folder).exists(), "a version no reader holds outlived the next build"
    assert len(list((home / "derived").glob("*/search"))) == 1


@pytest.mark.parametrize("command", ["search", "ingest"])
def test_kill_9_at_random_points_loses_nothing_and_leaves_nothing(tmp_path: Path, command: str) -> None:
    rng = random.Random(14)
    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 0))).returncode == 0
    for trial in range(3):
        new = _cr(tmp_path, trial + 1, rules=1500)
        args = ("search", "trample") if command == "search" else ("ingest", str(new))
        if command == "search":
            assert _run(home, "ingest", str(new)).returncode == 0  # the next search must build
        proc = _start(home, *args)
        time.sleep(rng.uniform(0.3, 2.5))
        descendants = _children(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
        time.sleep(0.5)
        alive = {p for p in descendants if Path(f"/proc/{p}").exists()}
        assert not alive, f"trial {trial}: worker processes outlived their parent: {alive}"
        built = sorted(p.parent.name for p in (home / "derived").glob("*/search"))
        check = _run(home, "search", "trample", "--json")
        assert check.returncode == 0, check.stderr
        if command == "ingest":  # whatever the killed ingest did, the reader found a whole build
            assert sorted(p.parent.name for p in (home / "derived").glob("*/search")) == built
        assert not _leftovers(home), f"trial {trial}: temp dirs left: {_leftovers(home)}"
        docs = json.loads(_run(home, "docs", "--json").stdout)["documents"]
        assert "2026-01-16" in {d["version"] for d in docs}  # nothing stored before is lost
        for d in docs:
            if d["kind"] == "cr-text":  # every listed release is readable, not half-written
                assert _run(home, "rule", "100.1", "--version", d["version"]).returncode == 0


def test_a_reader_that_finds_no_build_waits_for_the_writer_and_reads_its_state(tmp_path: Path) -> None:
    """A reader that finds its state's search index gone runs the writer step, so it waits for
    the writer lock; a writer that commits meanwhile built its own state whole, and the reader
    reads that state: it builds nothing (no second version, no rebuild of the replaced one)."""
    import shutil

    from filelock import FileLock

    from regelwerk.index.facade import Library

    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    for folder in (home / "derived").glob("*/search"):
        shutil.rmtree(folder)
    with FileLock(str(home / "lock"), is_singleton=True):  # the store's own lock object: re-entrant
        reader = _start(home, "search", "trample", "--json")
        time.sleep(3)  # the reader finds no index and waits for the writer lock
        assert not list((home / "derived").glob("*/.tmp-*")), "a reader began to build"
        Library(home).ingest([_cr(tmp_path, 2)])  # a writer (this process) commits a new state
    code, out, err = _finish(reader)
    assert code == 0, (out, err)
    assert json.loads(out)["hits"]
    searches = list((home / "derived").glob("*/search"))
    assert len(searches) == 1, f"the reader rebuilt a replaced state: {searches}"


def _versions(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "derived").iterdir() if not p.name.startswith("."))


def test_a_new_home_is_set_up_by_one_writer_step_while_readers_wait(tmp_path: Path) -> None:
    """Readers never build: on a new home the first command runs the writer step (seeds stored
    and every artefact built under the writer lock). While another writer holds that lock, a
    first command waits a bounded time and fails with a clear message, having built nothing;
    four first commands at once store the seeds once and build one set of artefacts."""
    from filelock import FileLock

    home = tmp_path / "home"
    quick = {**_env(home), "REGELWERK_LOCK_TIMEOUT": "1"}
    with FileLock(str(home / "lock")):
        proc = subprocess.run([sys.executable, "-m", "regelwerk", "search", "trample"], env=quick, text=True,
                              capture_output=True, timeout=60)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert "another regelwerk ingest is writing to this store (waited 1 s)" in proc.stderr
        assert not (home / "derived").exists() and not (home / "store").exists()
    procs = [_start(home, *args, "--json") for args in (("search", "trample"), ("rule", "702.19"),
                                                         ("term", "banding"), ("docs",))]
    for proc in procs:
        code, out, err = _finish(proc)
        assert code == 0, (proc.args, out[-1000:], err[-1000:])
    # one build of each artefact kind (their schema numbers change with their formats)
    assert [v.split("-")[1].rstrip("0123456789") for v in _versions(home)] == ["kw", "rules", "search"]
    journal = (home / "store" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    puts = [json.loads(line)["id"] for line in journal if json.loads(line)["op"] == "put"]
    assert len(puts) == len(set(puts)) == 4, puts  # the seeds, stored once


def test_an_upgrade_that_changes_an_index_format_is_a_writer_step(tmp_path: Path) -> None:
    """A package whose artefact formats changed (another salt) finds none of its artefacts: the
    first read runs the writer step, which builds every artefact (not only what that read
    needs); while a writer holds the lock the read waits, fails clearly, and builds nothing."""
    from filelock import FileLock

    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    for version in (home / "derived").iterdir():  # as an older package's salts would name them
        if not version.name.startswith("."):
            version.rename(version.with_name(version.name.replace("-", "-old", 1)))
    before = _versions(home)
    quick = {**_env(home), "REGELWERK_LOCK_TIMEOUT": "1"}
    with FileLock(str(home / "lock")):
        proc = subprocess.run([sys.executable, "-m", "regelwerk", "rule", "100.2"], env=quick, text=True,
                              capture_output=True, timeout=60)
        assert proc.returncode == 1 and "waited 1 s" in proc.stderr and "Traceback" not in proc.stderr
        assert _versions(home) == before and not list((home / "derived").glob("*/.tmp-*"))
    proc = _run(home, "rule", "100.2", "--json")
    assert proc.returncode == 0, proc.stderr
    new = [v for v in _versions(home) if "-old" not in v]
    assert len(new) == 3, new  # keyword links, rules table and search index: the whole build


def test_damaged_derived_data_is_rebuilt_by_a_writer_step(tmp_path: Path) -> None:
    """A read that meets damaged derived data does not rebuild it as a reader: it runs the
    writer step (or, while a writer holds the lock, says so and changes nothing)."""
    from filelock import FileLock

    home = tmp_path / "home"
    assert _run(home, "ingest", str(_cr(tmp_path, 1))).returncode == 0
    table = next((home / "derived").glob("*/rules/rules.sqlite"))
    table.write_bytes(table.read_bytes()[:4096])
    quick = {**_env(home), "REGELWERK_LOCK_TIMEOUT": "1"}
    with FileLock(str(home / "lock")):
        proc = subprocess.run([sys.executable, "-m", "regelwerk", "rule", "100.2"], env=quick, text=True,
                              capture_output=True, timeout=60)
        assert proc.returncode == 1 and "waited 1 s" in proc.stderr and "Traceback" not in proc.stderr
        assert table.stat().st_size == 4096
    proc = _run(home, "rule", "100.2", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def _card_home(tmp_path: Path) -> tuple[Path, Path]:
    """A home with one card file ingested; its card database."""
    from tests.test_mtgjson import META, SET_A, _json

    home = tmp_path / "home"
    (tmp_path / "AAA.json").write_bytes(_json({"data": SET_A, "meta": META}))
    assert _run(home, "ingest", str(tmp_path / "AAA.json")).returncode == 0
    return home, home / "cards" / "cards.sqlite"


def _card_schema(db: Path, version: int, *, reseal: bool) -> None:
    """Make the card database look written by another regelwerk (its schema version), sealed by
    that writer (`reseal`) or changed behind the seal's back."""
    import contextlib
    import sqlite3

    from regelwerk.index.cards.store import CardStore

    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as con:
        con.execute(f"PRAGMA user_version={version}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if reseal:
        cards = CardStore(db.parent.parent)
        cards.seal(cards.sources())


def _user_version(db: Path) -> int:
    import contextlib
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        return int(con.execute("PRAGMA user_version").fetchone()[0])


def test_an_older_card_database_is_upgraded_by_a_writer_step_never_by_a_reader(tmp_path: Path) -> None:
    """A card database an older regelwerk wrote is brought up to this schema only in the writer
    step (writer lock held, sealed again after): while another writer holds the lock, a read
    waits, fails with one line and leaves the file byte for byte as it was."""
    from filelock import FileLock

    home, db = _card_home(tmp_path)
    _card_schema(db, 0, reseal=True)
    before = db.read_bytes()
    quick = {**_env(home), "REGELWERK_LOCK_TIMEOUT": "1"}
    with FileLock(str(home / "lock")):
        for args in (("card", "Tatzelwurm"), ("docs",), ("search", "--cards", "Wurm")):
            proc = subprocess.run([sys.executable, "-m", "regelwerk", *args], env=quick, text=True,
                                  capture_output=True, timeout=60)
            assert proc.returncode == 1 and "waited 1 s" in proc.stderr and "Traceback" not in proc.stderr
            assert db.read_bytes() == before and _user_version(db) == 0, args
    proc = _run(home, "card", "Tatzelwurm", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["cards"][0]["name_en"] == "Craw Wurm"
    assert _user_version(db) == 1
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []  # sealed again


@pytest.mark.parametrize("case", ["changed behind its seal", "newer schema"])
def test_a_card_schema_the_writer_step_must_not_upgrade_names_its_fix(tmp_path: Path, case: str) -> None:
    """A schema version changed since the seal (damage) is not sealed by an upgrade, and a
    newer regelwerk's database is not touched: reads name `doctor --repair`, which reads the
    card files again."""
    home, db = _card_home(tmp_path)
    _card_schema(db, 0 if case == "changed behind its seal" else 7, reseal=case == "newer schema")
    proc = _run(home, "card", "Tatzelwurm")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "regelwerk doctor --repair" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    if case == "newer schema":
        assert "written by a newer regelwerk (card schema 7, this one reads 1)" in proc.stderr
    assert _user_version(db) == (0 if case == "changed behind its seal" else 7)
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"]
    assert _run(home, "doctor", "--repair").returncode == 0
    proc = _run(home, "card", "Tatzelwurm", "--json")
    assert proc.returncode == 0 and _user_version(db) == 1, proc.stderr
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []
