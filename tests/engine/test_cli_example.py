"""The `example` commands: human trace, --json contract, exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from regelwerk.cli import example
from regelwerk.engine.rulebook import NullRuleBook
from regelwerk.index.facade import Library

runner = CliRunner()


def _no_library(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(Library, "rulebook", lambda self: NullRuleBook())


def test_list_json(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(example.app, ["list", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ok"] is True and len(data["scenarios"]) >= 15


def test_run_all_json_contract(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _no_library(monkeypatch)
    result = runner.invoke(example.app, ["run", "--all", "--json", "--lang", "en"])
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["ok"] is True
    for s in data["scenarios"]:
        assert {"id", "title", "passed", "steps", "mismatches"} <= set(s)
        assert s["passed"] is True
        assert all({"text", "rule"} <= set(step) for step in s["steps"])


def test_run_one_in_german(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _no_library(monkeypatch)
    result = runner.invoke(example.app, ["run", "banding-tatzelwurm", "--lang", "de"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert "verteilt sie – nicht Robert – den Kampfschaden des Tatzelwurms" in result.stdout


def test_failing_user_file_exits_1_with_diff(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _no_library(monkeypatch)
    src = (Path(__file__).resolve().parents[2] / "data" / "scenarios" / "banding-tatzelwurm.toml").read_text(
        "utf-8"
    )
    f = tmp_path / "mine.toml"
    f.write_text(src.replace('died = ["wurm"]', "died = []"), encoding="utf-8")
    result = runner.invoke(example.app, ["run", str(f), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["scenarios"][0]["passed"] is False
    assert "creatures that died: expected [], got ['wurm']" in data["scenarios"][0]["mismatches"][0]


def test_malformed_file_is_one_line_error(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _no_library(monkeypatch)
    f = tmp_path / "bad.toml"
    f.write_text('id = "x"\ntitle = {\n', encoding="utf-8")
    result = runner.invoke(example.app, ["run", str(f), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and "bad.toml" in data["error"] and "line" in data["error"]


def test_an_unknown_card_is_one_line_error(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _no_library(monkeypatch)
    monkeypatch.setenv("REGELWERK_HOME", str(tmp_path / "home"))
    f = tmp_path / "card.toml"
    text = (Path(__file__).parents[2] / "data" / "scenarios" / "banding-tatzelwurm.toml").read_text("utf-8")
    f.write_text(text.replace('card = "Tatzelwurm"', 'card = "Tatzelwrum"'), encoding="utf-8")
    result = runner.invoke(example.app, ["run", str(f)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {f}: cards[0].card: got 'Tatzelwrum'; expected a card name (English or German) of the "
        "shipped card table (51 cards; ingest MTGJSON card files for others); nearest: Tatzelwurm, "
    )


def test_needs_id_or_all() -> None:
    result = runner.invoke(example.app, ["run"])
    assert result.exit_code == 2
