"""Hypothesis campaigns per entry point (issue 14), bounded for CI: command arguments, ingest
bytes and HTML, store damage. Any input ends in an answer or a RegelwerkError (the one-line
error), never an internal error. bench/fuzz.py runs the same strategies thousands of times."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from regelwerk.cli.app import app
from regelwerk.index.facade import Library
from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest import cr_html, parse_bytes
from regelwerk.ingest.model.errors import RegelwerkError
from tests.fuzzing import (
    Damage,
    case_key,
    command_args,
    damage,
    damage_home,
    fresh_case,
    html_bytes,
    ingest_bytes,
    new_release,
    store_damage,
    survive,
    values,
)

CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\n100.1a A subrule.\n\n"
    "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def built_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the seeds and a small CR, every derived artefact built."""
    home = tmp_path_factory.mktemp("fuzz-home")
    src = home.parent / f"{home.name}-cr.txt"
    src.write_text(CR, encoding="utf-8")
    library = Library(home)
    library.ingest([src])
    library.rule("100.1")
    library.search("trample")
    library.term("trample")
    return home


@FUZZ
@given(args=command_args())
def test_any_command_arguments(built_home: Path, args: list[str]) -> None:
    result = CliRunner().invoke(app, args, env={"REGELWERK_HOME": str(built_home)})
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert "internal error" not in result.output, (args, result.output)


@settings(max_examples=60, deadline=None)
@given(data=ingest_bytes())
def test_any_ingest_bytes(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    try:
        parsed = parse_bytes(data, "fuzz.txt")
    except RegelwerkError:
        return
    Corpus(tmp_path_factory.mktemp("h"), seed=False).store.put(parsed)


@settings(max_examples=60, deadline=None)
@given(data=html_bytes())
def test_any_html(data: bytes) -> None:
    with contextlib.suppress(RegelwerkError):
        cr_html.parse(data, "fuzz.htm")


@pytest.fixture(scope="module")
def damage_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with every kind of artefact (see `tests.fuzzing.damage_home`) and a release to add."""
    base = tmp_path_factory.mktemp("damage")
    damage_home(base)
    new_release(base)
    return base


@pytest.fixture(scope="module")
def reference(damage_base: Path) -> dict[str, object]:
    """The healthy home's answers, which a repaired copy must give again."""
    return values(damage_base / "home")


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=store_damage())
def test_any_store_damage(damage_base: Path, reference: dict[str, object],
                          tmp_path_factory: pytest.TempPathFactory, case: list[Damage]) -> None:
    home = tmp_path_factory.mktemp("damaged") / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    for hit in case:
        damage(home, hit)
    survive(home, damage_base / "cr-2026-Mar.txt", reference)


def test_the_damage_strategy_is_varied() -> None:
    """The campaign counts distinct (artefact, kind, offset bucket) cases: the strategy must
    give many, not a handful (last time: 16). Derandomized, so the count is the same on every
    run (random draws gave 180-210 of 300 and made a floor of 250 flaky); 197 today."""
    seen: set[tuple[tuple[str, str, int], ...]] = set()

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)
    @given(case=store_damage())
    def draw(case: list[Damage]) -> None:
        seen.add(case_key(case))

    draw()
    assert len(seen) >= 180
    artefacts = {hit[0] for key in seen for hit in key}
    assert len(artefacts) >= 25


def test_fresh_cases_are_distinct_and_reach_every_kind_of_damage() -> None:
    """The long campaign replaces a case hypothesis drew before by a fresh one: every case of a
    run is then distinct, and the fresh draws reach values changed in place and releases
    dropped from the store's accounts."""
    import random

    from tests.fuzzing import ACCOUNT_KINDS, SQL_KINDS

    rng, seen = random.Random(14), set()
    for _ in range(2000):
        seen.add(case_key(fresh_case(rng, seen)))
    assert len(seen) == 2000
    kinds = {hit[1] for key in seen for hit in key}
    assert set(SQL_KINDS) | set(ACCOUNT_KINDS) <= kinds


@pytest.mark.parametrize("case", [
    [("account cr-en-2026-01-16", "drop manifest entry", -1, 1), ("record cr 2026-01", "delete", -1, 1),
     ("account cr-en-2026-01-16", "drop journal lines", -1, 1)],
    [("sql lineage.sqlite", "delete a row", -1, 51461159), ("search members", "json null", -1, 38233350)],
    [("sql cards.sqlite", "change a value", -1, 7)],
    [("cards.sqlite", "symlink loop", -1, 370)],
    [("leftover", "record temp", -1, 57253822), ("cards.sqlite", "flip bit", 1, 384)],
    [("journal", "json {}", -1, 1198472765), ("cards dir", "empty", -1, 1919193048)],
    [("account cr-en-2026-01-16", "drop manifest entry", -1, 140288),
     ("record cr 2026-01", "zero-fill", 23, 8),
     ("account cr-en-2026-01-16", "drop journal lines", -1, 105155)],
    [("account cr-en-2026-01-16", "drop journal lines", -1, 3858491),
     ("records dir", "symlink loop", -1, 133), ("account cr-en-2026-01-16", "drop manifest entry", -1, 5156)],
], ids=["every-account-of-a-release", "lineage-row-then-a-rebuild", "card-value", "card-db-link-loop",
        "card-schema-column-renamed", "card-folder-and-journal", "every-account-and-a-damaged-record",
        "every-account-and-a-records-folder-loop"])
def test_the_campaign_s_silent_cases(damage_base: Path, reference: dict[str, object], tmp_path: Path,
                                     case: list[Damage]) -> None:
    """Found by the campaign (or the issue): a release whose manifest entry, record and journal
    line are destroyed is named (its file is kept here, so the repair cannot read it again by
    its name alone: it is recorded lost); a lineage row deleted in place, then a rebuild that
    must not seal the change; a card's value changed in place; the card database a link loop
    (the repair read the card files again into it: an internal error); the card folder emptied
    and the journal damaged (the card files were forgotten without a word)."""
    home = tmp_path / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    for hit in case:
        damage(home, hit)
    with_ingest = case[0][3] % 8 == 0  # as the campaign does
    survive(home, damage_base / "cr-2026-Mar.txt" if with_ingest else None, reference)


#: Every SQLite database a home holds (the campaign found each class in one of them).
DATABASES = {"cards": "cards/cards.sqlite", "lineage": "lineage/*.sqlite", "linking": "linking/*.sqlite",
             "rules": "derived/*/rules/rules.sqlite", "members": "derived/*/search/members.sqlite"}


@pytest.mark.parametrize("flip", [0x80, 0x01], ids=["not-utf8", "another-letter"])
@pytest.mark.parametrize("database", sorted(DATABASES))
def test_a_flipped_byte_in_a_databases_schema_text_is_found(damage_base: Path, tmp_path: Path, database: str,
                                                            flip: int) -> None:
    """The schema text (SQLite's `CREATE` statements) damaged: SQLite's quick check passes some
    of it (a view's text is parsed only when used), and a byte that is no longer UTF-8 made
    Python raise UnicodeDecodeError from SQLite's error message. Every read must answer or
    name the damage; repair heals it."""
    import re

    home = tmp_path / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    path = sorted(home.glob(DATABASES[database]))[0]
    data = bytearray(path.read_bytes())
    for i, found in enumerate(re.finditer(rb"CREATE ", bytes(data))):
        data[found.start() + (20, 60, 120)[i % 3]] ^= flip
    path.write_bytes(bytes(data))
    survive(home, None)


def test_a_release_whose_record_and_manifest_are_destroyed_is_read_again_or_named(tmp_path: Path) -> None:
    """Manifest and records destroyed together: the journal still knows the releases. Doctor
    re-reads them from their files; a release whose file is gone too is named as lost by the
    repair, by `docs` and by every lookup of it, until it is ingested again."""
    from regelwerk.ingest.model.errors import StoreError

    sources = []
    for date in ("January 16, 2026", "April 17, 2026"):
        sources.append(tmp_path / f"cr-{date[:3]}.txt")
        sources[-1].write_text(CR.replace("April 17, 2026", date), encoding="utf-8")
    home = tmp_path / "home"
    Library(home).ingest(sources)

    def destroy() -> None:
        shutil.rmtree(home / "store" / "docs")
        (home / "store" / "manifest.json").unlink()

    destroy()
    with pytest.raises(StoreError, match="doctor --repair"):
        Library(home).docs()  # not an empty store that the next ingest would make permanent
    report = Library(home).doctor(repair=True)
    assert any("cr-en-2026-01-16: re-read from" in r for r in report["repaired"]), report
    assert {"cr-en-2026-01-16", "cr-en-2026-04-17"} <= {d["id"] for d in Library(home).docs()["documents"]}

    destroy()
    kept = sources[0].read_bytes()
    sources[0].unlink()
    report = Library(home).doctor(repair=True)
    assert any("cr-en-2026-01-16" in p and "journal" in p for p in report["problems"]), report
    assert any("cr-en-2026-01-16: dropped" in r for r in report["repaired"]), report
    lost = Library(home).docs()["lost"]
    assert len(lost) == 1 and "cr-en-2026-01-16" in lost[0] and f"regelwerk ingest {sources[0]}" in lost[0]
    with pytest.raises(StoreError, match=r"cr-en-2026-01-16 \(version 2026-01-16\) was lost"):
        Library(home).rule("100.1", version="2026-01-16")
    assert Library(home).rule("100.1")["rule"]["version"] == "2026-04-17"  # the rest reads as before
    assert Library(home).doctor()["healthy"]
    sources[0].write_bytes(kept)
    Library(home).ingest([sources[0]])
    assert Library(home).docs()["lost"] == []
    assert Library(home).rule("100.1", version="2026-01-16")["rule"]["version"] == "2026-01-16"


@pytest.mark.parametrize(("update", "read"), [("UPDATE files SET summary = substr(summary, 2)", "docs"),
                                             ("UPDATE cards SET keywords = '5'", "card"),
                                             ("DELETE FROM cards WHERE name = 'Craw Wurm'", "card")])
def test_card_database_text_damaged_but_still_utf8_is_named(damage_base: Path, tmp_path: Path, update: str,
                                                            read: str) -> None:
    """Damage SQLite cannot see (a stored JSON text changed, a name left without its card):
    card reads name the damage and its fix; doctor finds it; repair removes the database."""
    import sqlite3

    from regelwerk.ingest.model.errors import StoreError

    home = tmp_path / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    with contextlib.closing(sqlite3.connect(home / "cards" / "cards.sqlite")) as con, con:
        con.execute(update)
    with pytest.raises(StoreError, match=r"cards\.sqlite: damaged .* card files again"):
        Library(home).docs() if read == "docs" else Library(home).card("Craw Wurm")
    problems = Library(home).doctor()["problems"]  # SQLite's own check passes all three
    assert any("cards.sqlite: damaged" in p for p in problems)
    survive(home, None)
    assert Library(home).docs()["documents"] and not Library(home).doctor()["problems"]


@pytest.mark.parametrize(("old", "new"), [('"version": "2026-01-16"', '"versinn": "2026-01-16"'),
                                          ('"title": "Magic', '"title": "Mbgic')])
def test_a_flipped_byte_in_the_manifests_copy_of_a_summary_is_found(damage_base: Path, tmp_path: Path,
                                                                     old: str, new: str) -> None:
    """The campaign: a flipped bit turned a summary's key into another; `docs` failed with a
    KeyError even after a repair that called the store healthy. A key of the wrong shape is
    now named damage on every read; any difference from the record is found by doctor and
    the entry written again from the record."""
    from regelwerk.ingest.model.errors import StoreError

    home = tmp_path / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    manifest = home / "store" / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    if "version" in old:
        with pytest.raises(StoreError, match="not a regelwerk manifest"):
            Library(home).docs()
    else:
        assert any("manifest's summary of" in p for p in Library(home).doctor()["problems"])
    survive(home, None)
    assert not Library(home).doctor()["problems"]
    assert "Mbgic" not in manifest.read_text(encoding="utf-8")


def test_a_directory_where_a_seed_record_belongs_is_set_aside(damage_base: Path, tmp_path: Path) -> None:
    """The campaign (seed 36): the manifest nulled and a seed record replaced by a directory.
    The next command seeds again, and writing the record over the directory raised
    IsADirectoryError. The directory now goes to ``store/damaged/`` and the seed is written."""
    home = tmp_path / "home"
    shutil.copytree(damage_base / "home", home, symlinks=True)
    case: list[Damage] = [("manifest", "json null", -1, 376),
                          ("record seed glossary 1", "directory", -1, 721)]
    for hit in case:
        damage(home, hit)
    assert any(p.is_dir() for p in (home / "store" / "docs").glob("*.json"))
    survive(home, None)
    assert not any(p.is_dir() for p in (home / "store" / "docs").glob("*.json"))
    assert any((home / "store" / "damaged").iterdir())
