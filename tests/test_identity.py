"""Identity and trust (issue 14 item 8): a different document never silently replaces a
stored one, a damaged record is rewritten by re-ingesting its file, the home is private."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from regelwerk.index.store.corpus import Corpus
from regelwerk.index.store.identity import conflict

CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n100.1. These rules apply.\n\n100.1a A subrule.\n\n"
    "101. More\n\n101.1. Other rules.\n\n"
    "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)
EXCERPT = "Deathtouch\nDeathtouch is a static ability.\nA creature with deathtouch is deadly.\n"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regelwerk", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_file_named_like_a_stored_release_does_not_replace_it(tmp_path: Path) -> None:
    """The repro: an excerpt named cr-en-2026-04-17.txt replaced the stored CR (3,299 -> 6)."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "MagicCompRules.txt").write_text(CR, encoding="utf-8")
    assert _run("ingest", str(tmp_path / "real")).returncode == 0
    fake = tmp_path / "cr-en-2026-04-17.txt"
    fake.write_text(EXCERPT, encoding="utf-8")
    proc = _run("ingest", str(fake), "--format", "excerpt")
    # the excerpt's id is its file name's slug: the CR's id
    assert proc.returncode == 1
    assert "would replace the stored document 'cr-en-2026-04-17' (cr-text en 2026-04-17" in proc.stderr
    assert "pass --replace" in proc.stderr
    docs = {d["id"]: d for d in json.loads(_run("docs", "--json").stdout)["documents"]}
    assert docs["cr-en-2026-04-17"]["kind"] == "cr-text"
    proc = _run("ingest", str(fake), "--format", "excerpt", "--replace", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["replaced"] == ["cr-en-2026-04-17"]
    docs = {d["id"]: d for d in json.loads(_run("docs", "--json").stdout)["documents"]}
    assert docs["cr-en-2026-04-17"]["kind"] == "excerpt"


def test_same_release_new_bytes_and_same_file_edited_are_the_same_document() -> None:
    old = {"id": "x", "kind": "cr-text", "language": "en", "version": "2026-04-17", "sha256": "a",
           "source": "/a/cr.txt"}
    assert conflict(old, {**old, "sha256": "b", "source": "/b/other.txt"}) is None  # CRLF copy
    glossary = {**old, "kind": "glossary-de", "version": None}
    assert conflict(glossary, {**glossary, "sha256": "b"}) is None  # the same file, edited
    assert conflict(glossary, {**glossary, "sha256": "b", "source": "/c/cr.txt"}) is not None
    assert conflict(old, {**old, "kind": "excerpt", "sha256": "b"}) is not None


def test_reingesting_a_file_repairs_its_damaged_record(tmp_path: Path) -> None:
    src = tmp_path / "cr.txt"
    src.write_text(CR, encoding="utf-8")
    home = tmp_path / "home"
    Corpus(home).ingest([src])
    record = home / "store" / "docs" / "cr-en-2026-04-17.json"
    record.write_bytes(record.read_bytes()[:100])  # a truncated record (gzip'd JSON)
    report = Corpus(home).ingest([src])
    assert report.repaired == ["cr-en-2026-04-17"] and not report.errors
    assert len(Corpus(home).store.get("cr-en-2026-04-17").sections) > 3
    record.unlink()
    assert Corpus(home).ingest([src]).repaired == ["cr-en-2026-04-17"]
    assert Corpus(home).ingest([src]).unchanged == ["cr-en-2026-04-17"]


def test_the_home_is_created_private(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    Corpus(home)
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
