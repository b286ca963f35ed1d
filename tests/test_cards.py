"""The card database: ingest of MTGJSON files, ``card`` lookups and card answers in ``term``."""

from __future__ import annotations

import gzip
import json
import lzma
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regelwerk.index.facade import Library
from regelwerk.ingest.model.errors import IngestError, InvalidQuery, UnknownCard
from tests.conftest import CORPUS, NEEDS_SHARED
from tests.helpers import cli_imports
from tests.test_mtgjson import META, SET_A, _card, _json, _set

SET_C = _set(
    "CCC",
    "2008-05-02",
    [
        _card("Kitchen Finks", "CCC", "229", "Küchenhutzel", keywords=["Persist"], text="Beharrlichkeit"),
        _card("Insectile Aberration", "CCC", "51", "Insekten-Scheußlichkeit", keywords=["Flying"]),
        _card("Mesa Pegasus", "CCC", "30", "Mesapegasus", text="Flugfähigkeit", keywords=["Flying"]),
    ],
)
CARD_KEYS = {
    "name_en",
    "names_de",
    "type_en",
    "type_de",
    "mana_cost",
    "pt",
    "keywords",
    "oracle_text",
    "printings",
    "score",
}
PRINTING_KEYS = {"set", "number", "year", "name_de", "text_de"}


@pytest.fixture
def library(tmp_path: Path) -> Library:
    (tmp_path / "AAA.json.gz").write_bytes(gzip.compress(_json({"data": SET_A, "meta": META})))
    (tmp_path / "CCC.json.xz").write_bytes(lzma.compress(_json({"data": SET_C, "meta": META})))
    lib = Library()
    lib.ingest([tmp_path])
    return lib


def _names(data: dict[str, Any]) -> list[str]:
    return [c["name_en"] for c in data["cards"]]


def test_card_by_german_name_answers_the_contract(library: Library) -> None:
    data = library.card("Tatzelwurm")
    assert data["query"] == "Tatzelwurm" and _names(data) == ["Craw Wurm"]
    card = data["cards"][0]
    assert set(card) >= CARD_KEYS
    assert (card["type_en"], card["type_de"], card["pt"], card["mana_cost"]) == (
        "Creature — Wurm",
        "Kreatur — Wurm",
        "6/4",
        "{4}{G}{G}",
    )
    assert card["score"] == 100.0 and card["match"] == "exact"
    assert [set(p) >= PRINTING_KEYS for p in card["printings"]] == [True]
    assert card["printings"][0] | {} == {
        **card["printings"][0],
        "set": "AAA",
        "year": 1995,
        "name_de": "Tatzelwurm",
    }


@pytest.mark.parametrize(
    ("query", "expected", "how"),
    [
        ("craw wurm", "Craw Wurm", "exact"),
        ("TATZELWURM", "Craw Wurm", "exact"),
        ("Kuechenhutzel", "Kitchen Finks", "exact"),
        ("Kuchenhutzel", "Kitchen Finks", "exact"),
        ("Insekten-Scheusslichkeit", "Insectile Aberration", "exact"),
        ("Insekten Scheußlichkeit", "Insectile Aberration", "exact"),
        ("Tatzel", "Craw Wurm", "prefix"),
        ("Küchenhu", "Kitchen Finks", "prefix"),
        ("Tatzelwrum", "Craw Wurm", "fuzzy"),
        ("Kitchen Fink", "Kitchen Finks", "prefix"),
    ],
)
def test_lookup_levels(library: Library, query: str, expected: str, how: str) -> None:
    best = library.card(query)["cards"][0]
    assert (best["name_en"], best["match"]) == (expected, how)


def test_spellings_of_one_german_name_are_one_answer(library: Library) -> None:
    for query in ("Mesa-Pegasus", "Mesapegasus", "mesa pegasus"):
        data = library.card(query)
        assert _names(data) == ["Mesa Pegasus"], query
        assert data["cards"][0]["names_de"] == ["Mesapegasus", "Mesa-Pegasus"]  # newest first
        assert [p["set"] for p in data["cards"][0]["printings"]] == ["AAA", "CCC"]


def test_keywords_link_to_their_rules(library: Library) -> None:
    keywords = library.card("Küchenhutzel")["cards"][0]["keywords"]
    assert keywords == [{"name": "Persist", "rule": "702.79", "de": keywords[0]["de"]}]


def test_unknown_and_bad_queries(library: Library) -> None:
    with pytest.raises(UnknownCard, match="no card matches 'Xylophon'; nearest: "):
        library.card("Xylophon")
    with pytest.raises(InvalidQuery):
        library.card("  ")


def test_no_cards_yet_says_how_to_add_them() -> None:
    with pytest.raises(UnknownCard, match=r"no cards ingested yet; .*regelwerk ingest"):
        Library().card("Tatzelwurm")


def test_reingest_is_a_no_op_and_a_changed_file_replaces_its_printings(
    library: Library, tmp_path: Path
) -> None:
    before = library.cards.count()
    again = library.ingest([tmp_path / "AAA.json.gz"])
    assert again["unchanged"] == ["mtgjson-aaa"] and library.cards.count() == before
    smaller = _set("AAA", "1995-04-01", [_card("Craw Wurm", "AAA", "238", "Tatzelwurm")])
    (tmp_path / "AAA.json.gz").write_bytes(gzip.compress(_json({"data": smaller, "meta": META})))
    library.ingest([tmp_path / "AAA.json.gz"])
    pegasus = library.card("Mesa Pegasus")["cards"][0]
    assert [p["set"] for p in pegasus["printings"]] == ["CCC"]  # AAA's printing went with the old file


def test_a_broken_file_changes_nothing(library: Library, tmp_path: Path) -> None:
    before = library.card("Tatzelwurm")
    bigger = _set("DDD", "2020-01-01", [_card(f"Card {i}", "DDD", str(i), f"Karte {i}") for i in range(300)])
    packed = lzma.compress(_json({"data": bigger, "meta": META}))
    (tmp_path / "DDD.json.xz").write_bytes(packed[: len(packed) // 2])
    with pytest.raises(IngestError, match=r"DDD\.json\.xz"):
        library.ingest([tmp_path / "DDD.json.xz"])
    with pytest.raises(UnknownCard):
        library.card("Karte 1")
    assert library.card("Tatzelwurm") == before


def test_docs_lists_card_files(library: Library) -> None:
    docs = {d["id"]: d for d in library.docs()["documents"]}
    assert docs["mtgjson-ccc"]["kind"] == "mtgjson" and docs["mtgjson-ccc"]["german_printings"] == 3


def test_term_answers_card_names_after_keywords(library: Library) -> None:
    matches = library.term("Tatzelwurm")["matches"]
    assert (matches[0]["kind"], matches[0]["en"], matches[0]["de"]) == ("card", "Craw Wurm", "Tatzelwurm")
    assert matches[0]["card"]["pt"] == "6/4"
    flying = library.term("Flying")["matches"]
    assert flying[0]["kind"] != "card" and flying[0]["en"] == "Flying"


#: What ``card`` and a card answer of ``term`` must not load, piped: search (whoosh), rich's
#: console (``cli.plain`` prints the same bytes), the engine, the ingest parsers.
NOT_ON_CARDS = ("whoosh", "rich.console", "rich.table", "msgspec", "bs4", "regelwerk.engine",
                "regelwerk.index.search")


#: ... nor, for a card, any keyword record: ``term`` reads the names of the keyword links
#: (their vocabulary in derived data), and the records only for a keyword or example card hit.
#: (The records' dataclasses stand for ``linking.keyword`` too, which is made of them.)
NOT_FOR_A_CARD = ("regelwerk.index.linking.link", "regelwerk.ingest.model.records", "regelwerk.index.rules")


@pytest.mark.parametrize("command", ["card", "term"])
def test_card_answers_import_nothing_heavy(library: Library, command: str) -> None:
    library.term("Tatzelwurm")  # the keyword links exist, as after any ingest of rules
    stdout, loaded = cli_imports(library.home, [command, "Tatzelwurm"], (*NOT_ON_CARDS, *NOT_FOR_A_CARD))
    assert "Craw Wurm / Tatzelwurm" in stdout
    assert loaded == []


def test_term_reads_keyword_records_for_a_keyword_hit(library: Library) -> None:
    """The other side of the above: a keyword's answer loads its records (the test above
    would pass for a `term` that never loaded them)."""
    stdout, loaded = cli_imports(library.home, ["term", "Trampelschaden"], NOT_FOR_A_CARD)
    assert "Trample" in stdout
    assert "regelwerk.index.linking.link" in loaded


def test_card_command_json_and_text(library: Library) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "regelwerk", "card", "Küchenhutzel", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["ok"] is True and data["cards"][0]["name_en"] == "Kitchen Finks"
    proc = subprocess.run(
        [sys.executable, "-m", "regelwerk", "card", "Kitchen", "Finks", "--lang", "de"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Kitchen Finks / Küchenhutzel" in proc.stdout and "702.79" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "regelwerk", "card", "Xylophon", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and json.loads(proc.stdout)["ok"] is False


@NEEDS_SHARED
def test_real_cards_from_a_plain_and_a_compressed_set() -> None:
    lib = Library()
    lib.ingest([CORPUS / "cards" / "4ED.json", CORPUS / "cards" / "mtgjson" / "5ED.json.xz"])
    pegasus = lib.card("Mesapegasus")["cards"]
    assert _names({"cards": pegasus}) == ["Mesa Pegasus"]
    assert {"Mesa-Pegasus", "Mesapegasus"} <= set(pegasus[0]["names_de"])
    texts = {(p["set"], p["text_de"]) for p in pegasus[0]["printings"]}
    assert ("4ED", "Kann fliegen, Bündnisfähigkeit") in texts
    assert {k["rule"] for k in pegasus[0]["keywords"]} == {"702.22", "702.9"}
    wurm = lib.card("Tatzelwurm")["cards"][0]
    assert wurm["name_en"] == "Craw Wurm" and [p["year"] for p in wurm["printings"]] == [1995, 1997]


def test_card_text_search_in_both_languages(library: Library) -> None:
    german = library.search_cards("Beharrlichkeit")["cards"]
    assert [c["name_en"] for c in german] == ["Kitchen Finks"]
    assert german[0]["text_de"] == "Beharrlichkeit" and german[0]["printing"] == {"set": "CCC", "year": 2008}
    assert [c["name_en"] for c in library.search_cards("flugfahigkeit")["cards"]] == ["Mesa Pegasus"]
    assert library.search_cards("Kann fliegen Xylophon")["cards"] == []


def test_rules_search_offers_the_cards_it_names(library: Library) -> None:
    data = library.search("Mesa Pegasus Bündnis", limit=3)
    assert [c["name_en"] for c in data["cards"]] == ["Mesa Pegasus"]
    assert library.search("banding", limit=3)["cards"] == []


def test_search_cards_command(library: Library) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "regelwerk", "search", "--cards", "Kann", "fliegen", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert [c["name_en"] for c in json.loads(proc.stdout)["cards"]] == ["Mesa Pegasus"]


@NEEDS_SHARED
def test_search_cards_schaden_verhindern() -> None:
    lib = Library()
    lib.ingest([CORPUS / "cards" / "4ED.json"])
    hits = lib.search_cards("Schaden verhindern", limit=5)["cards"]
    assert hits and all("verhinder" in (h["text_de"] or "").lower() for h in hits)
    english = lib.search_cards("prevent damage", limit=5)["cards"]
    assert english and all("prevent" in (h["oracle_text"] or "").lower() for h in english)
