"""The command line as a user meets it: help everywhere, one error envelope, seeds on first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from regelwerk.cli.app import app

runner = CliRunner()


Path_ = tuple[str, ...]


def _commands(group: Any, prefix: Path_ = ()) -> list[tuple[Path_, Any]]:
    """Every command and sub-command (typer may vendor click, so no isinstance checks)."""
    out = []
    for name, cmd in getattr(group, "commands", {}).items():
        out.append(((*prefix, name), cmd))
        out.extend(_commands(cmd, (*prefix, name)))
    return out


def test_every_command_has_help_text() -> None:
    root = typer.main.get_command(app)
    commands = _commands(root)
    assert {"ingest", "docs"} <= {path[0] for path, _ in commands}
    for path, cmd in commands:
        assert (cmd.help or "").strip(), f"`regelwerk {' '.join(path)}` has no help text"
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, result.output


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real entry point, as a user would, so main()'s error mapping is exercised."""
    return subprocess.run(
        [sys.executable, "-m", "regelwerk", *args], capture_output=True, text=True, timeout=120
    )


def test_docs_lists_the_seeds_on_first_use() -> None:
    proc = _run("docs", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["ok"] is True
    docs = data["documents"]
    assert len(docs) == 4
    assert sum(d["cards"] for d in docs) == 27
    for d in docs:
        assert set(d) >= {
            "id", "language", "version", "kind", "sections", "rules", "glossary", "cards", "issues"
        }


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "empty"),
        (b"\x00\x01\x02\x03binary\x00" * 50, "binary"),
        (b"Just a shopping list.\nMilk\nBread\n", "not a rules document"),
    ],
)
def test_bad_file_gives_one_line_error(tmp_path: Path, content: bytes, why: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    proc = _run("ingest", str(bad))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: {bad}: ")
    assert why in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr

    proc = _run("ingest", str(bad), "--json")
    assert proc.returncode == 1
    envelope = json.loads(proc.stdout)
    assert envelope["ok"] is False and str(bad) in envelope["error"]


def test_missing_file_and_bad_format_option(tmp_path: Path) -> None:
    proc = _run("ingest", str(tmp_path / "nope.txt"))
    assert proc.returncode == 1 and "no such file" in proc.stderr
    seed = Path(__file__).resolve().parents[1] / "data" / "seeds" / "rule-702.19-banding-de-en.txt"
    proc = _run("ingest", str(seed), "--format", "pdf", "--json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {
        "ok": False,
        "error": "--format: 'pdf' is not a format; expected one of cr-text, cr-html, bilingual-dump, "
        "glossary-de, excerpt, mtgjson",
    }


def test_usage_error_uses_the_envelope() -> None:
    proc = _run("docs", "--json", "--no-such-option")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["ok"] is False
    proc = _run("docs", "--no-such-option")
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


def test_directory_ingest_goes_on_past_a_bad_file(tmp_path: Path) -> None:
    seeds = Path(__file__).resolve().parents[1] / "data" / "seeds"
    (tmp_path / "a-bad.txt").write_bytes(b"")
    (tmp_path / "b-good.txt").write_bytes((seeds / "rule-702.19-banding-de-en.txt").read_bytes())
    proc = _run("ingest", str(tmp_path), "--json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["ok"] is False
    assert [d["kind"] for d in data["documents"]] == ["bilingual-dump"]
    assert len(data["errors"]) == 1 and "a-bad.txt" in data["errors"][0]
    # the earlier documents are intact
    listed = json.loads(_run("docs", "--json").stdout)["documents"]
    assert len(listed) == 4


def test_ingest_progress_stays_off_a_stderr_that_is_no_terminal(tmp_path: Path) -> None:
    """The progress (now on for one file too: its build may embed for a minute) is for a
    terminal only; piped, stderr stays empty, with --json or without."""
    seeds = Path(__file__).resolve().parents[1] / "data" / "seeds"
    (tmp_path / "one.txt").write_bytes((seeds / "rule-702.19-banding-de-en.txt").read_bytes())
    for extra in ((), ("--json",)):
        proc = _run("ingest", str(tmp_path / "one.txt"), *extra)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_reingest_same_bytes_is_a_no_op() -> None:
    seed = Path(__file__).resolve().parents[1] / "data" / "seeds" / "rule-702.19-banding-de-en.txt"
    first = json.loads(_run("ingest", str(seed), "--json").stdout)
    assert first["ok"] is True and first["unchanged"] == [first["documents"][0]["id"]]


def test_unusable_home_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    proc = subprocess.run(
        [sys.executable, "-m", "regelwerk", "docs"], capture_output=True, text=True, timeout=60,
        env={**os.environ, "REGELWERK_HOME": str(blocker / "home")},
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "REGELWERK_HOME" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


_ODD_CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n100.1. These rules apply.\n\n100.1a A subrule.\n\n"
    "100.1l Bad letter.\n\n100.1b Another.\n\nGlossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)


def test_lenient_ingest_notes_problems_and_strict_refuses(tmp_path: Path) -> None:
    odd = tmp_path / "odd.txt"
    odd.write_text(_ODD_CR)
    proc = _run("ingest", str(odd))
    assert proc.returncode == 0, proc.stderr
    assert f"note: {odd}:13: '100.1l' is not a rule number" in proc.stdout

    proc = _run("ingest", str(odd), "--strict", "--json")
    assert proc.returncode == 1
    error = json.loads(proc.stdout)["error"]
    assert error.startswith(f"{odd}: 1 problem (--strict); first: {odd}:13:")


def test_free_text_may_start_with_a_minus_but_options_are_still_checked() -> None:
    proc = _run("search", "-1/-1 Marke", "--limit", "2", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["query"] == "-1/-1 Marke"
    proc = _run("term", "-1/-1 Marke", "--json")
    assert json.loads(proc.stdout)["query"] == "-1/-1 Marke"
    proc = _run("search", "banding", "--limitt", "3")
    assert proc.returncode == 2 and proc.stderr == "error: no such option: --limitt (see --help)\n"
