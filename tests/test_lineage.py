"""Rule lineage, ``history`` and ``diff``: small inline releases for each kind of change, and
the real archive for the cases the issue names (banding 502.10 -> 702.22, 722 -> 723, 702.22
as Flanking in 2011)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from regelwerk.index.facade import Library
from regelwerk.index.linking.lineage import link_pair, summarize
from regelwerk.index.rules.changes import word_diff
from regelwerk.ingest import cr_text
from regelwerk.ingest.model.records import ParsedDocument
from tests.conftest import CORPUS, NEEDS_SHARED

HEAD = """Magic: The Gathering Comprehensive Rules

These rules are effective as of {date}.

Contents

7. Additional Rules
Glossary
Credits

7. Additional Rules

702. Keyword Abilities

{rules}

Glossary

Banding
A keyword ability. See rule 702.10.

Credits

Somebody
"""

OLD = """702.9. Flying

702.9a Flying is an evasion ability.

702.9b A creature with flying can't be blocked except by creatures with flying and/or reach.

702.10. Banding

702.10a Banding is a static ability that modifies the rules for combat damage and declaring attackers.

702.11. Flanking

702.11a Flanking is a triggered ability that triggers during the declare blockers step. See rule 702.9a.

702.12. Horsemanship

702.12a Horsemanship is an evasion ability that nobody uses any more, so it was removed."""

NEW = """702.9. Flying

702.9a Flying is an evasion ability.

702.9b A creature with flying can't be blocked except by creatures with flying or reach.

702.10. Shroud

702.10a Shroud is a static ability. "Shroud" means "This permanent can't be the target of spells."

702.11. Banding

702.11a Banding is a static ability that modifies the rules for combat damage and declaring attackers.

702.12. Flanking

702.12a Flanking is a triggered ability that triggers during the declare blockers step. See rule 702.9a."""


def release(date: str, rules: str) -> ParsedDocument:
    text = HEAD.format(date=date, rules=rules)
    return cr_text.parse(text.encode(), f"cr-{date}.txt")


def test_pair_links_every_kind_of_change() -> None:
    steps = link_pair(release("June 1, 2020", OLD), release("July 1, 2020", NEW))
    by_old = {s.old_number: s for s in steps if s.old_number}
    assert by_old["702.9a"].change == "same"
    assert by_old["702.9b"].change == "text"
    assert (by_old["702.10"].change, by_old["702.10"].new_number) == ("renumbered", "702.11")
    assert (by_old["702.10a"].change, by_old["702.10a"].new_number) == ("renumbered", "702.11a")
    # the number 702.11 now means Banding; Flanking moved on, its cross-reference unchanged
    assert (by_old["702.11a"].change, by_old["702.11a"].new_number) == ("renumbered", "702.12a")
    assert by_old["702.12a"].change == "removed"
    new = {s.new_number for s in steps if s.change == "new"}
    assert new == {"702.10", "702.10a"}
    counts = summarize(steps)
    assert sum(counts.values()) == len(steps)


def test_split_and_merge() -> None:
    whole = (
        "702.9a Flying is an evasion ability. "
        "A creature with flying can't be blocked except by creatures with flying and/or reach."
    )
    parts = (
        "702.9a Flying is an evasion ability.\n\n"
        "702.9b A creature with flying can't be blocked except by creatures with flying and/or reach."
    )
    older = release("June 1, 2020", f"702.9. Flying\n\n{whole}")
    newer = release("July 1, 2020", f"702.9. Flying\n\n{parts}")
    steps = link_pair(older, newer)
    assert any(s.change == "split" and s.old_number == "702.9a" and s.new_number == "702.9b" for s in steps)
    back = link_pair(newer, older)
    assert any(s.change == "merged" and s.old_number == "702.9b" and s.new_number == "702.9a" for s in back)


def test_word_diff() -> None:
    assert word_diff("a b c d", "a x c d e") == [["=", "a"], ["-", "b"], ["+", "x"], ["=", "c d"], ["+", "e"]]
    assert word_diff("same", "same") == [["=", "same"]]
    # quotes and a "?" standing for one are no change; the new text's quotes are shown
    assert word_diff('It can?t be "blocked."', "It can’t be “blocked.” or killed") == [
        ["=", "It can’t be “blocked.”"], ["+", "or killed"]]


# Three releases of one rule: 2008-05-01's file has "?" for its quotes and apostrophes, a later
# one curly quotes; only the last has a real edit.
QUOTES = (
    ("June 1, 2020", "702.9a A creature with flying can't be blocked, \"for now.\""),
    ("July 1, 2020", "702.9a A creature with flying can?t be blocked, ?for now.?"),
    ("August 1, 2020", "702.9a A creature with flying can’t be blocked, “for now.”"),
    ("September 1, 2020", "702.9a A creature with flying can’t be blocked, “for ever.”"),
)


def test_quote_only_edits_are_no_change() -> None:
    docs = [release(date, f"702.9. Flying\n\n{rule}") for date, rule in QUOTES]
    steps = [{s.old_number: s.change for s in link_pair(a, b)} for a, b in itertools.pairwise(docs)]
    changes = [by_old["702.9a"] for by_old in steps]
    assert changes == ["same", "same", "text"]


def test_quotes_put_around_a_name_are_no_change_in_the_word_diff() -> None:
    """2008's 502.10b says Bands with other, 2010's 702.19b "Bands with other": only the words
    that changed are marked (found by a new-user trial in ``history 702.22b``)."""
    from regelwerk.index.rules.changes import word_diff

    old = "Bands with other is a special form of banding."
    new = "\u201cBands with other\u201d is a special kind of banding."
    assert word_diff(old, new) == [
        ["=", "\u201cBands with other\u201d is a special"], ["-", "form"], ["+", "kind"],
        ["=", "of banding."]]
    assert word_diff("can?t be ?blocked.?", "can\u2019t be blocked.") == [["=", "can\u2019t be blocked."]]


def test_history_and_diff_skip_quote_only_edits(tmp_path: Path) -> None:
    paths = []
    for i, (date, rule) in enumerate(QUOTES):
        path = tmp_path / f"cr-{i}.txt"
        path.write_text(HEAD.format(date=date, rules=f"702.9. Flying\n\n{rule}"), encoding="utf-8")
        paths.append(path)
    lib = Library(tmp_path / "home")
    lib.ingest(paths)
    runs = lib.history("702.9a")["runs"]
    assert [(r["from"], r["to"], r["change"]) for r in runs] == [
        ("2020-06-01", "2020-08-01", "new"), ("2020-09-01", "2020-09-01", "text")]
    assert ["-", "now.”"] in runs[1]["diff"]
    assert ["=", "A creature with flying can’t be blocked, “for"] in runs[1]["diff"]
    assert lib.diff("2020-06-01", "2020-08-01")["changes"] == []
    assert lib.diff("2020-06-01", "2020-09-01")["counts"]["changed"] == 1


# -- the real archive ---------------------------------------------------------------------------

RELEASES = (
    CORPUS / "archive" / "MagicCompRules-20030315.txt",
    CORPUS / "archive" / "MagicCompRules-20090711.txt",
    CORPUS / "en" / "MagicCompRules-20110204.txt",
    CORPUS / "en" / "MagicCompRules-20260116.txt",
    CORPUS / "en" / "MagicCompRules-20260417.txt",
)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    lib = Library(Path(tmp_path_factory.mktemp("lineage-home")))
    lib.ingest(RELEASES)
    return lib


@NEEDS_SHARED
def test_history_of_banding_across_the_2003_numbering(library: Library) -> None:
    for query in ("banding", "Bündnisfähigkeit", "702.22"):
        data = library.history(query)
        steps = [(e["version"], e["number"], e["change"]) for e in data["lineage"]]
        assert steps == [
            ("2003-03-15", "502.10", "new"),
            ("2009-07-11", "702.19", "renumbered"),
            ("2011-02-04", "702.19", steps[2][2]),
            ("2026-01-16", "702.22", "renumbered"),
            ("2026-04-17", "702.22", "same"),
        ], query
        assert {e["title"] for e in data["lineage"]} == {"Banding"}
    runs = library.history("banding")["runs"]
    assert (runs[0]["number"], runs[0]["from"], runs[0]["to"]) == ("502.10", "2003-03-15", "2003-03-15")


@NEEDS_SHARED
def test_history_command_imports_neither_records_nor_rich_s_console(library: Library) -> None:
    """A cold ``history`` is mostly imports: in a pipe it reads the rules and lineage tables
    and prints plain text, without the record types (``lineage``'s dataclasses) or rich's
    console (issue 10: cold ``history banding`` <= 1.5x the typer floor)."""
    from tests.helpers import cli_imports

    heavy = ("regelwerk.ingest.model.records", "regelwerk.index.linking.lineage", "rich.console",
             "whoosh", "rapidfuzz")
    stdout, loaded = cli_imports(library.home, ["history", "banding"], heavy)
    assert "502.10" in stdout
    assert loaded == ["regelwerk.index.linking.lineage_table"]  # the prefix's table reader only


@NEEDS_SHARED
def test_old_numbers_say_where_they_live_today(library: Library) -> None:
    r = library.rule("722", version="2026-01-16")["rule"]
    assert (r["title"], r["today"]) == ("Controlling Another Player", "723")
    flanking = library.rule("702.22", version="2011-02-04")["rule"]
    assert flanking["title"] == "Flanking"
    assert flanking["today"] == library.history("flanking")["lineage"][-1]["number"] != "702.22"
    assert library.rule("502.10", version="2003-03-15")["rule"]["today"] == "702.22"


@NEEDS_SHARED
def test_diff_of_the_newest_releases(library: Library) -> None:
    data = library.diff("2026-01-16", "latest")
    assert (data["from"], data["to"]) == ("2026-01-16", "2026-04-17")
    moved = {(c["old"], c["new"]) for c in data["changes"] if c["change"] == "renumbered"}
    assert ("722", "723") in moved
    assert any(c["change"] == "added" and c["new"] == "722" for c in data["changes"])
    assert data["counts"]["renumbered"] == len(moved)
    seven = library.diff("cr-en-2026-01-16", "2026-04-17", section="7")
    assert seven["changes"] and all((c["old"] or c["new"]).startswith("7") for c in seven["changes"])
    long_range = library.diff("2003-03-15", "latest", section="702")
    assert any(c["old"] == "502.10" and c["new"] == "702.22" for c in long_range["changes"])


def test_a_writer_killed_mid_transaction_leaves_a_table_readers_can_open(tmp_path: Path) -> None:
    """A hot journal (an ingest killed while storing a pair) is rolled back, not an error."""
    import sqlite3
    import subprocess
    import sys

    from regelwerk.index.linking.lineage_table import read_only

    path = tmp_path / "lineage.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(1000)])
    con.commit()
    con.close()
    code = (
        "import os, sqlite3\n"
        f"c = sqlite3.connect({str(path)!r}); c.execute('PRAGMA cache_size=1'); c.execute('BEGIN')\n"
        "c.executemany('INSERT INTO t VALUES (?)', [(i,) for i in range(20000)])\n"
        "os._exit(1)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=False)
    assert path.with_name(path.name + "-journal").exists()
    with pytest.raises(sqlite3.OperationalError):  # what a plain read-only open met
        sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("SELECT count(*) FROM t").fetchone()
    assert read_only(path).execute("SELECT count(*) FROM t").fetchone() == (1000,)


# A keyword's subrules follow their keyword: banding moves to 702.11 and the new intimidate
# takes 702.10 with a "redundant" line nearly banding's words; banding's band rules merge.
BANDING_OLD = "\n\n".join((
    "702.10. Banding",
    "702.10a Banding is a static ability that modifies the rules for combat.",
    "702.10b As a player declares attackers, he or she may declare that any number of those creatures with "
    'banding, and up to one of those creatures without banding, are all in a "band."',
    "702.10c A player may declare as many attacking bands as he or she wants, but each creature may be a "
    "member of only one of them.",
    "702.10d Multiple instances of banding on the same creature are redundant.",
))

BANDING_NEW = "\n\n".join((
    "702.10. Intimidate",
    "702.10a Intimidate is an evasion ability.",
    "702.10b Multiple instances of intimidate on the same creature are redundant.",
    "702.11. Banding",
    "702.11a Banding is a static ability that modifies the rules for combat.",
    "702.11b As a player declares attackers, they may declare that one or more attacking creatures with "
    'banding and up to one attacking creature without banding are all in a "band." A player may declare as '
    "many attacking bands as they want, but each creature may be a member of only one of them.",
    "702.11c Multiple instances of banding on the same creature are redundant. Multiple instances of "
    '"bands with other" of the same kind on the same creature are redundant.',
))


def test_a_keyword_s_subrules_follow_their_keyword() -> None:
    steps = link_pair(release("June 1, 2020", BANDING_OLD), release("July 1, 2020", BANDING_NEW))
    by_old = {s.old_number: (s.change, s.new_number) for s in steps if s.old_number}
    assert by_old["702.10"] == ("renumbered", "702.11")
    assert by_old["702.10a"] == ("renumbered", "702.11a")
    assert by_old["702.10b"] == ("renumbered", "702.11b")  # rewritten, still banding's band rule
    assert by_old["702.10c"] == ("merged", "702.11b")
    assert by_old["702.10d"] == ("renumbered", "702.11c")  # not intimidate's 702.10b
    assert {s.new_number for s in steps if s.change == "new"} == {"702.10", "702.10a", "702.10b"}


@NEEDS_SHARED
@pytest.mark.parametrize(
    ("older", "newer", "links"),
    [
        # the 2009 renumbering 502 -> 702: banding's rules stay banding's
        (
            "20090501",
            "20090711",
            {
                "502.10b": ("renumbered", "702.19c"),
                "502.10c": ("merged", "702.19c"),
                "502.10i": ("renumbered", "702.19m"),
            },
        ),
        # embalm 702.127 -> 702.128, eternalize 702.128 -> 702.129: near-twins, each its own
        (
            "20210224",
            "20210419",
            {"702.127a": ("renumbered", "702.128a"), "702.128a": ("renumbered", "702.129a")},
        ),
    ],
)
def test_archive_renumberings_follow_their_keyword(
    older: str, newer: str, links: dict[str, tuple[str, str]]
) -> None:
    files = (CORPUS / "archive" / f"MagicCompRules-{d}.txt" for d in (older, newer))
    a, b = (cr_text.parse(f.read_bytes(), f.name) for f in files)
    by_old = {s.old_number: (s.change, s.new_number) for s in link_pair(a, b) if s.old_number}
    assert {n: by_old[n] for n in links} == links
