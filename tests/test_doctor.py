"""A store that checks itself (issue 14 item 7): damage is named with its fix, never an
internal error; `doctor` finds it against the recorded hashes and `--repair` heals it."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\n100.1a A subrule.\n\n"
    "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)
RECORD = Path("store/docs/cr-en-2026-04-17.json")


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "REGELWERK_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "regelwerk", *args], capture_output=True, text=True,
                          timeout=120, env=env)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    src = tmp_path / "cr.txt"
    src.write_text(CR, encoding="utf-8")
    h = tmp_path / "home"
    assert _run(h, "ingest", str(src)).returncode == 0
    for args in (("rule", "100.1"), ("search", "trample"), ("term", "trample")):
        assert _run(h, *args).returncode == 0  # every derived artefact built
    return h


def _clean(proc: subprocess.CompletedProcess[str]) -> None:
    assert "internal error" not in proc.stderr + proc.stdout and "Traceback" not in proc.stderr


def test_a_healthy_store_says_so(home: Path) -> None:
    data = json.loads(_run(home, "doctor", "--json").stdout)
    assert data["problems"] == [] and data["healthy"] is True
    assert data["documents"] == 5 and data["artefacts"] >= 3


def test_half_a_manifest_is_named_not_hidden(home: Path) -> None:
    """The repro: a half-truncated manifest made `docs` list only the seeds, exit 0."""
    manifest = home / "store" / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text[: len(text) // 2], encoding="utf-8")
    proc = _run(home, "docs")
    assert proc.returncode == 1 and "manifest.json is damaged" in proc.stderr
    assert "doctor --repair" in proc.stderr
    assert _run(home, "doctor").returncode == 1
    proc = _run(home, "doctor", "--repair")
    assert proc.returncode == 0, proc.stderr
    ids = {d["id"] for d in json.loads(_run(home, "docs", "--json").stdout)["documents"]}
    assert "cr-en-2026-04-17" in ids


@pytest.mark.parametrize("shape", ['{"version": 2, "documents": [1, 2]}', "[]", '{"documents": {"x": 1}}'])
def test_a_manifest_of_the_wrong_shape_is_a_clean_error(home: Path, shape: str) -> None:
    (home / "store" / "manifest.json").write_text(shape, encoding="utf-8")
    proc = _run(home, "docs")
    _clean(proc)
    assert proc.returncode == 1 and "not a regelwerk manifest" in proc.stderr
    assert _run(home, "doctor", "--repair").returncode == 0
    assert _run(home, "rule", "100.1").returncode == 0


@pytest.mark.parametrize("damage", ["truncate", "delete"])
def test_a_damaged_record_is_named_and_reread_from_its_source(home: Path, damage: str) -> None:
    record = home / RECORD
    if damage == "truncate":
        record.write_bytes(record.read_bytes()[:200])
    else:
        record.unlink()
    for args in (("rule", "100.1", "--version", "2026-04-17"), ("docs",)):
        proc = _run(home, *args)
        _clean(proc)
    data = json.loads(_run(home, "doctor", "--json").stdout)
    assert any("cr-en-2026-04-17" in p for p in data["problems"])
    proc = _run(home, "doctor", "--repair", "--json")
    assert proc.returncode == 0 and any("re-read from" in r for r in json.loads(proc.stdout)["repaired"])
    assert "These rules apply" in _run(home, "rule", "100.1", "--version", "2026-04-17").stdout


def test_a_record_whose_source_is_gone_is_dropped_with_a_message(home: Path, tmp_path: Path) -> None:
    (tmp_path / "cr.txt").unlink()
    (home / RECORD).unlink()
    data = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("dropped" in r and "ingest it again" in r for r in data["repaired"])
    assert _run(home, "docs").returncode == 0


@pytest.mark.parametrize(
    "target", ["*/rules/rules.sqlite", "*/keywords/keywords.json", "*/search/*.trm", "*/search/*.pst"]
)
def test_truncated_derived_data_is_rebuilt_on_use(home: Path, target: str) -> None:
    files = list((home / "derived").glob(target))
    assert files, target
    for f in files:
        f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    for args in (("rule", "100.1"), ("search", "trample"), ("term", "trample")):
        proc = _run(home, *args)
        _clean(proc)
        assert proc.returncode == 0, (args, proc.stderr)


def test_doctor_finds_same_size_damage_and_leftover_temp_dirs(home: Path) -> None:
    victim = next((home / "derived").glob("*/keywords/keywords.json"))
    data = bytearray(victim.read_bytes())
    data[10:20] = b"##########"
    victim.write_bytes(bytes(data))
    (victim.parent.parent / ".tmp-search.abandoned").mkdir()
    found = json.loads(_run(home, "doctor", "--json").stdout)["problems"]
    assert any("keywords.json: its contents do not match its sha256" in p for p in found)
    assert any(".tmp-search.abandoned: left by a build that did not finish" in p for p in found)
    assert _run(home, "doctor", "--repair").returncode == 0
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def test_a_deleted_manifest_is_named_and_its_documents_restored(home: Path) -> None:
    """The fuzz campaign's find: with manifest.json deleted, the next command started a new one
    listing only the seeds and the CR's record was orphaned. Now the loss is named instead."""
    (home / "store" / "manifest.json").unlink()
    proc = _run(home, "docs")
    assert proc.returncode == 1 and "manifest.json is missing but documents are stored" in proc.stderr
    assert "doctor --repair" in proc.stderr
    assert _run(home, "doctor").returncode == 1
    assert _run(home, "doctor", "--repair").returncode == 0
    proc = _run(home, "rule", "100.1a")
    assert proc.returncode == 0, proc.stderr
    _clean(proc)


def test_orphaned_records_rejoin_the_manifest_and_unreadable_ones_are_set_aside(home: Path) -> None:
    manifest = home / "store" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["documents"]["cr-en-2026-04-17"]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (home / "store" / "docs" / "stray.json").write_text('{"document": 5}', encoding="utf-8")
    report = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("stray.json moved to" in r and "damaged" in r for r in report["repaired"])
    assert (home / "store" / "damaged" / "stray.json").exists()
    assert "These rules apply" in _run(home, "rule", "100.1").stdout
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


#: Each derived artefact, and what reads it.
ARTEFACTS = {
    "*/rules/rules.sqlite": ("rule", "100.1"),
    "*/keywords/keywords.json": ("term", "trample"),
    "*/search/*.toc": ("search", "trample"),
    "*/search/*.trm": ("search", "trample"),
    "*/search/*.pst": ("search", "trample"),
    "*/search/vocabulary.json": ("search", "trampel"),
}


@pytest.mark.parametrize("target", sorted(ARTEFACTS))
def test_same_size_damage_to_derived_data_heals_on_the_next_read(home: Path, target: str) -> None:
    """Garbage of the same size passes the cheap size check; the read that fails on it finds
    the damage by the checksums, builds the artefact again and answers. (The largest file:
    of the search index's segments, the default scope's, which a plain search reads; garbage
    in a segment no read opens is found by ``doctor``.)"""
    victim = max((home / "derived").glob(target), key=lambda p: p.stat().st_size)
    size = victim.stat().st_size
    victim.write_bytes(bytes((i * 37 + 11) % 256 for i in range(size)))
    proc = _run(home, *ARTEFACTS[target], "--json")
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def test_a_damaged_card_database_names_its_fix(home: Path, tmp_path: Path) -> None:
    from tests.test_mtgjson import META, SET_A

    cards = tmp_path / "AAA.json"
    cards.write_text(json.dumps({"data": SET_A, "meta": META}), encoding="utf-8")
    assert _run(home, "ingest", str(cards)).returncode == 0
    db = home / "cards" / "cards.sqlite"
    db.write_bytes(bytes(db.stat().st_size))
    for args in (("docs",), ("card", "Craw Wurm"), ("search", "trample")):
        proc = _run(home, *args)
        _clean(proc)
        assert proc.returncode == 1 and "cards.sqlite: damaged" in proc.stderr, (args, proc.stderr)
        assert "doctor --repair" in proc.stderr and "card files again" in proc.stderr
    report = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("card database was read again from 1 card files" in r for r in report["repaired"])
    assert _run(home, "card", "Craw Wurm").returncode == 0  # the repair read the card file again
    db.write_bytes(bytes(db.stat().st_size))
    cards.unlink()  # gone: the repair names it
    report = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("card files gone, ingest them again" in r and "AAA.json" in r for r in report["repaired"])


def test_damaged_rule_lineage_is_rebuilt_on_the_next_read(home: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.txt"
    older.write_text(CR.replace("April 17, 2026", "January 16, 2026"), encoding="utf-8")
    assert _run(home, "ingest", str(older)).returncode == 0
    lineage = next((home / "lineage").glob("*.sqlite"))
    lineage.write_bytes(bytes((i * 7) % 256 for i in range(lineage.stat().st_size)))
    proc = _run(home, "history", "100.1")
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def _two_releases(home: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.txt"
    older.write_text(CR.replace("April 17, 2026", "January 16, 2026").replace("trample.", "trample, once."),
                     encoding="utf-8")
    assert _run(home, "ingest", str(older)).returncode == 0


def test_a_release_whose_manifest_entry_record_and_journal_line_are_all_destroyed_is_named(
    home: Path, tmp_path: Path
) -> None:
    """The silent loss: nothing of the store's own accounts is left, but the derived data of the
    last committed state (rules table, search members) still name the release; `docs`, a
    lookup of it and `doctor` name it, and the repair records it as lost for good."""
    _two_releases(home, tmp_path)
    gone = "cr-en-2026-01-16"
    manifest = home / "store" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["documents"][gone]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (home / "store" / "docs" / f"{gone}.json").unlink()
    journal = home / "store" / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(x for x in lines if gone not in x), encoding="utf-8")
    (tmp_path / "older.txt").unlink()  # and its file is gone too
    docs = json.loads(_run(home, "docs", "--json").stdout)
    assert any(gone in x and "2026-01-16" in x for x in docs["lost"]), docs["lost"]
    proc = _run(home, "rule", "100.1", "--version", "2026-01-16")
    _clean(proc)
    assert proc.returncode == 1 and gone in proc.stderr and "lost" in proc.stderr, proc.stderr
    report = json.loads(_run(home, "doctor", "--json").stdout)
    assert any(gone in p for p in report["problems"] + report["lost"]), report
    repaired = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any(gone in x for x in repaired["problems"] + repaired["repaired"] + repaired["lost"])
    docs = json.loads(_run(home, "docs", "--json").stdout)
    assert any(gone in x for x in docs["lost"]) and gone not in {d["id"] for d in docs["documents"]}
    assert _run(home, "rule", "100.1").returncode == 0


def test_a_killed_ingest_s_build_is_no_witness(home: Path, tmp_path: Path) -> None:
    """A build that was never committed (an ingest killed after building, before its commit)
    names a document the store never held: it is not reported lost."""
    from regelwerk.index.store import witness

    committed = (home / "derived" / witness.COMMITTED).read_text(encoding="ascii")
    _two_releases(home, tmp_path)
    (home / "derived" / witness.COMMITTED).write_text(committed, encoding="ascii")  # as before the commit
    manifest = home / "store" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["documents"]["cr-en-2026-01-16"]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (home / "store" / "docs" / "cr-en-2026-01-16.json").unlink()
    journal = home / "store" / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(x for x in lines if "cr-en-2026-01-16" not in x), encoding="utf-8")
    assert json.loads(_run(home, "docs", "--json").stdout)["lost"] == []


def _sql(path: Path, statement: str) -> None:
    import sqlite3

    con = sqlite3.connect(path)
    with con:
        assert con.execute(statement).rowcount > 0
    con.close()


def test_a_value_changed_in_rule_lineage_is_found_by_its_seal_and_rebuilt(home: Path, tmp_path: Path) -> None:
    """A silent value change: a valid SQLite file whose one value differs passes every SQLite
    check; the seal written when the lineage was built finds it, the repair rebuilds it."""
    import sqlite3

    _two_releases(home, tmp_path)
    before = _run(home, "history", "100.1", "--json").stdout
    lineage = next((home / "lineage").glob("*.sqlite"))
    _sql(lineage, "UPDATE links SET new_number = '999.9' WHERE new_number = '100.1'")
    assert _run(home, "history", "100.1").returncode == 0  # the reads cannot tell
    report = json.loads(_run(home, "doctor", "--json").stdout)
    assert any(f"{lineage.name}: its contents do not match the sha256" in p for p in report["problems"])
    assert _run(home, "doctor", "--repair").returncode == 0
    assert _run(home, "history", "100.1", "--json").stdout == before
    con = sqlite3.connect(next((home / "lineage").glob("*.sqlite")))
    assert con.execute("SELECT count(*) FROM links WHERE new_number = '999.9'").fetchone() == (0,)
    con.close()
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def test_a_value_changed_in_the_card_database_is_found_and_read_again(home: Path, tmp_path: Path) -> None:
    from tests.test_mtgjson import META, SET_A

    cards = tmp_path / "AAA.json"
    cards.write_text(json.dumps({"data": SET_A, "meta": META}), encoding="utf-8")
    assert _run(home, "ingest", str(cards)).returncode == 0
    before = _run(home, "card", "Craw Wurm", "--json").stdout
    _sql(home / "cards" / "cards.sqlite", "UPDATE cards SET type_line = 'Wyrm' WHERE name = 'Craw Wurm'")
    report = json.loads(_run(home, "doctor", "--json").stdout)
    assert any("cards.sqlite: its contents do not match the sha256" in p for p in report["problems"]), report
    assert _run(home, "doctor", "--repair").returncode == 0
    assert _run(home, "card", "Craw Wurm", "--json").stdout == before
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []


def test_a_database_left_unsealed_by_a_killed_writer_is_built_again_by_the_repair(home: Path) -> None:
    seal = home / "linking" / "releases.sqlite.seal.json"
    before = _run(home, "term", "trample", "--json").stdout
    seal.unlink()
    report = json.loads(_run(home, "doctor", "--json").stdout)
    assert any("releases.sqlite: not sealed" in p for p in report["problems"]), report
    repaired = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("releases.sqlite: removed" in r for r in repaired["repaired"]), repaired
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []
    assert seal.exists() or not (home / "linking" / "releases.sqlite").exists()  # a cache: made at need
    assert _run(home, "term", "trample", "--json").stdout == before


def test_a_card_value_changed_with_its_seal_deleted_is_read_again(home: Path, tmp_path: Path) -> None:
    """Damage campaign seed 80 on the final code: a value changed in place in the card database
    and its seal deleted; the repair sealed the changed value as it was and `card` answered it."""
    from tests.test_mtgjson import META, SET_A

    cards = tmp_path / "AAA.json"
    cards.write_text(json.dumps({"data": SET_A, "meta": META}), encoding="utf-8")
    assert _run(home, "ingest", str(cards)).returncode == 0
    before = _run(home, "card", "Craw Wurm", "--json").stdout
    _sql(home / "cards" / "cards.sqlite", "UPDATE cards SET type_line = 'Wyrm' WHERE name = 'Craw Wurm'")
    (home / "cards" / "cards.sqlite.seal.json").unlink()
    report = json.loads(_run(home, "doctor", "--json").stdout)
    assert any("cards.sqlite: not sealed" in p for p in report["problems"]), report
    repaired = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("read again from 1 card files" in r for r in repaired["repaired"]), repaired
    assert _run(home, "card", "Craw Wurm", "--json").stdout == before
    assert json.loads(_run(home, "doctor", "--json").stdout)["problems"] == []
    cards.unlink()  # its card file gone: nothing to read again, so it is sealed as it is
    (home / "cards" / "cards.sqlite.seal.json").unlink()
    repaired = json.loads(_run(home, "doctor", "--repair", "--json").stdout)
    assert any("sealed as it is" in r for r in repaired["repaired"]), repaired
    assert _run(home, "card", "Craw Wurm", "--json").stdout == before


@pytest.mark.parametrize("damage", ["UPDATE cards SET keywords = 'not json'", "PRAGMA user_version = 99"])
def test_doctor_names_a_card_database_problem_once_without_the_readers_fix(
        home: Path, tmp_path: Path, damage: str) -> None:
    """doctor lists what is wrong and names its own fix; the fix a reader's message carries
    ("reads your MTGJSON card files again") is not repeated inside the problem."""
    from tests.test_mtgjson import META, SET_A

    cards = tmp_path / "AAA.json"
    cards.write_text(json.dumps({"data": SET_A, "meta": META}), encoding="utf-8")
    assert _run(home, "ingest", str(cards)).returncode == 0
    import sqlite3

    with contextlib.closing(sqlite3.connect(home / "cards" / "cards.sqlite")) as con, con:
        con.execute(damage)
    report = json.loads(_run(home, "doctor", "--json").stdout)
    problems = [p for p in report["problems"] if "cards.sqlite" in p]
    assert problems and not any("card files again" in p or "; run" in p for p in problems), problems
    assert any("a stored value is not the JSON written" in p or "newer regelwerk" in p for p in problems)
