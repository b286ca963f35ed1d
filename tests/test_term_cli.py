"""``regelwerk term``: both languages find each other, with every rule number; bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from regelwerk.cli.app import app
from regelwerk.index.store.corpus import Corpus

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus" / "en"
BILINGUAL = "rule-702-19-banding-de-en"

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REGELWERK_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="module")
def cr_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS.exists():
        pytest.skip("../shared corpus not available")
    path = tmp_path_factory.mktemp("cr-home")
    report = Corpus(path).ingest(sorted(CORPUS.glob("*.txt")))
    assert not report.errors
    return path


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["term", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["ok"] is True
    return data


def _first(*args: str) -> dict[str, Any]:
    first: dict[str, Any] = _json(*args)["matches"][0]
    return first


def test_seeds_only_german_and_english_find_each_other(home: Path) -> None:
    german = _first("Bündnisfähigkeit")
    english = _first("banding")
    assert german["en"] == english["en"] == "Banding"
    assert english["de"] == "Bündnisfähigkeit"  # as the cards print it; "Bündnis" is the band
    assert "Bündnis" in english["de_variants"]
    assert german["rules"] == english["rules"]
    assert german["rules"][BILINGUAL] == "702.19"
    text = runner.invoke(app, ["term", "banding"]).output
    assert "Bündnisfähigkeit" in text and "702.19" in text
    text = runner.invoke(app, ["term", "Bündnisfähigkeit"]).output
    assert "Banding" in text


def test_with_cr_releases_every_rule_number_is_shown(cr_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_HOME", str(cr_home))
    for query in ("Bündnisfähigkeit", "banding", "BUENDNISFAEHIGKEIT"):
        rules = _first(query)["rules"]
        assert {k: rules[k] for k in ("2026-04-17", "2026-01-16", "2015-11-13", "2011-02-04", BILINGUAL)} == {
            "2026-04-17": "702.22", "2026-01-16": "702.22", "2015-11-13": "702.21",
            "2011-02-04": "702.19", BILINGUAL: "702.19",
        }
    eras = _json("banding")["eras"]
    assert eras[BILINGUAL]["versions"] == ["2011-02-04"]
    text = runner.invoke(app, ["term", "Bündnisfähigkeit"], terminal_width=200).output
    for number in ("702.22", "702.21", "702.19"):
        assert number in text
    assert "Banding" in text  # the CR glossary entry's text is shown too


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bandng", "Banding"),
        ("Beharlichkeit", "Persist"),
        ("trampel schaden", "Trample"),
        ("Prowess", "Prowess"),
        ("bravour", "Prowess"),
        ("goettergabe", "Bestow"),
    ],
)
def test_fuzzy_and_folded_queries_land(home: Path, query: str, expected: str) -> None:
    assert _first(query)["en"] == expected


def test_card_names_are_found_and_marked(home: Path) -> None:
    for query in ("Küchenhutzel", "kitchen finks"):
        card = _first(query)
        assert card["kind"] == "card" and card["en"] == "Kitchen Finks"
        assert card["de"] == "Küchenhutzel" and card["keyword"]["en"] == "Persist"


def test_ambiguous_query_lists_ranked_candidates(home: Path) -> None:
    # German "Gift" is Poisonous; English "Gift" is a keyword of its own.
    matches = _json("Gift")["matches"]
    assert {m["en"] for m in matches[:2]} == {"Poisonous", "Gift"}
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)


def test_lang_picks_the_label_language(home: Path) -> None:
    german = runner.invoke(app, ["term", "banding", "--lang", "de"], terminal_width=200).output
    english = runner.invoke(app, ["term", "banding", "--lang", "en"], terminal_width=200).output
    assert "Deutsche Varianten" in german and "German variants" in english
    bad = runner.invoke(app, ["term", "banding", "--lang", "fr"])
    assert bad.exit_code == 2 and "'fr'" in bad.output


@pytest.mark.parametrize(
    ("query", "needle"),
    [
        ("", "empty query"),
        ("   \t ", "control characters"),
        ("    ", "empty query"),
        ("x" * 10_000, "limit is 200"),
        ("band\x00ing", "control characters"),
        ("Zzyzxqwv", "no keyword or card matches 'Zzyzxqwv'; nearest:"),
    ],
)
def test_bad_input_gets_one_clear_line(home: Path, query: str, needle: str) -> None:
    result = runner.invoke(app, ["term", query])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert len(lines[0]) < 300
    envelope = json.loads(runner.invoke(app, ["term", query, "--json"]).stdout)
    assert envelope["ok"] is False and needle in envelope["error"]


def test_era_notes_follow_the_output_language(home: Path) -> None:
    """How an undated document was dated is explained in the language the user asked for."""
    german = _json("Bündnisfähigkeit", "--lang", "de")["eras"]["rule-702-19-banding-de-en"]["reason"]
    english = _json("Bündnisfähigkeit", "--lang", "en")["eras"]["rule-702-19-banding-de-en"]["reason"]
    assert "weicht von der aktuellen Nummerierung" in german and "ältere" in german
    assert "differs from the term table's current numbering" in english
    assert "702.19" in german and "702.22" in german


def test_documents_are_shown_by_their_titles(home: Path) -> None:
    """The table of documents says what a reader can read, the seed's title, and `term Bündnis`
    heads the entry with the name German cards print; ``--json`` keeps the ids."""
    text = runner.invoke(app, ["term", "Bündnis"], env={"COLUMNS": "160"}).output
    assert text.startswith("Banding / Bündnisfähigkeit  (keyword ability)")
    assert "Bündnisfähigkeit / Banding" in text
    assert "Comprehensive Rules (excerpt without rule numbers)" in text
    assert BILINGUAL not in text and "cr-excerpt-en-keywords-unnumbered" not in text
    docs = _first("Bündnis")["documents"]
    assert {d["key"] for d in docs} == {BILINGUAL, "cr-excerpt-en-keywords-unnumbered"}
