"""The library facade is the product: each method returns exactly the command's ``--json``
payload (without ``"ok"``), and the CLI is a thin layer over it."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from regelwerk.cli.app import app
from regelwerk.cli.options import LANG_HELP
from regelwerk.index.facade import Library
from regelwerk.ingest.model import IngestError, InvalidRuleNumber, UnknownKeyword

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _cli(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data.pop("ok") is True
    return data


@pytest.mark.parametrize(
    ("method", "args", "kwargs", "command"),
    [
        ("docs", (), {}, ("docs",)),
        ("rule", ("702.19",), {"lang": "de"}, ("rule", "702.19", "--lang", "de")),
        ("term", ("Bündnisfähigkeit",), {"lang": "de"}, ("term", "Bündnisfähigkeit", "--lang", "de")),
        ("search", ("banding",), {"limit": 3}, ("search", "banding", "--limit", "3")),
        ("examples", (), {}, ("example", "list")),
        (
            "example",
            ("banding-tatzelwurm",),
            {"lang": "en"},
            ("example", "run", "banding-tatzelwurm", "--lang", "en"),
        ),
    ],
)
def test_each_method_returns_the_commands_json_payload(
    method: str, args: tuple[str, ...], kwargs: dict[str, Any], command: tuple[str, ...]
) -> None:
    assert getattr(Library(), method)(*args, **kwargs) == _cli(*command)


def test_ingest_returns_the_ingest_payload(tmp_path: Path) -> None:
    seed = ROOT / "data" / "seeds" / "rule-702.19-banding-de-en.txt"
    data = Library().ingest([seed])
    assert data["unchanged"] == [data["documents"][0]["id"]] and data["errors"] == []
    assert data == _cli("ingest", str(seed))


def test_bad_input_raises_the_model_errors() -> None:
    library = Library()
    with pytest.raises(InvalidRuleNumber):
        library.rule("99x")
    with pytest.raises(UnknownKeyword):
        library.term("qqqqzzzz")
    with pytest.raises(IngestError, match="no such file"):
        library.ingest([ROOT / "no-such-file.txt"])


#: Commands that change the store (or serve it); they show nothing language-dependent.
WRITE_COMMANDS = frozenset({"ingest", "forget", "update", "serve", "doctor"})


def _read_commands() -> list[tuple[str, Any]]:
    root = typer.main.get_command(app)
    out = []
    for name, cmd in root.commands.items():  # type: ignore[attr-defined]
        subs = getattr(cmd, "commands", None)
        if subs:
            out.extend((f"{name} {sub}", c) for sub, c in subs.items())
        elif name not in WRITE_COMMANDS:  # they write or serve; they read nothing out
            out.append((name, cmd))
    return out


@pytest.mark.parametrize(("name", "command"), _read_commands())
def test_every_read_command_has_json_and_lang_from_the_one_helper(name: str, command: Any) -> None:
    options = {opt: p for p in command.params for opt in getattr(p, "opts", ())}
    assert {"--json", "--lang"} <= set(options), name
    # rule's --lang also takes "both" (options.LangBothOption): same meaning, one more value
    assert options["--lang"].help.startswith(LANG_HELP), name


def test_no_command_catches_errors_itself() -> None:
    """Errors are handled once, in cli/output.py; a ``try`` in a command would hide that."""
    for path in sorted((ROOT / "cli").glob("*.py")):
        if path.name == "output.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tries = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Try)]
        assert not tries, f"{path.name} catches errors at lines {tries}"


def test_a_read_that_builds_first_says_its_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Library.building` hears the writer step a read runs (the CLI sets a plain function on
    the class for a terminal's stderr): called with the step alone, not bound to the library."""
    steps: list[str] = []

    def hear(step: str) -> None:
        steps.append(step)

    import shutil

    assert Library(tmp_path / "home").search("banding", limit=1)["hits"]  # a new home: built at once
    for built in (tmp_path / "home" / "derived").glob("*/search"):
        shutil.rmtree(built)  # as an upgrade that changes the index format leaves it
    monkeypatch.setattr(Library, "building", hear)
    assert Library(tmp_path / "home").search("banding", limit=1)["hits"]
    assert "search index" in steps


def test_a_new_homes_first_read_says_its_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new home's first read stores the seeds and builds (with the optional extra it embeds
    their sentence vectors: 4 s on a terminal without a word, the newuser trial); it tells
    `Library.building` each step, as the writer step a read runs on a built home does."""
    from regelwerk.index.store.build import STAGES

    steps: list[str] = []
    monkeypatch.setattr(Library, "building", steps.append)
    assert Library(tmp_path / "home").search("banding", limit=1)["hits"]
    assert steps == list(STAGES[:4])  # tests switch sentence vectors off (conftest)
    steps.clear()
    assert Library(tmp_path / "home").search("banding", limit=1)["hits"]
    assert steps == []  # built: nothing to say


def test_a_german_only_search_without_german_rules_says_so(tmp_path: Path) -> None:
    """The seeds hold no German CR: ``--lang de`` searches their few German texts only, which
    a German judge would not guess from the hits (the newuser trial, session 19)."""
    from regelwerk.index.facade import NO_GERMAN_RULES

    library = Library(tmp_path / "home")
    german = library.search("Kreatur stirbt", lang="de", limit=3)
    assert NO_GERMAN_RULES in german["notes"]
    assert {"id": NO_GERMAN_RULES, "args": {}} in german["messages"]  # for the reader's language
    for lang in (None, "en"):
        assert NO_GERMAN_RULES not in library.search("Kreatur stirbt", lang=lang, limit=3)["notes"]
