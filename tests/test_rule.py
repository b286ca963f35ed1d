"""``regelwerk rule``: number forms, subrules, versions, German text, moved and unknown numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from regelwerk.cli.app import app
from regelwerk.index.rules.lookup import UnknownVersion, lookup, rules_table
from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest.model.errors import InvalidRuleNumber, UnknownRule
from regelwerk.ingest.model.numbers import SUBRULE_LETTERS
from tests.conftest import NEEDS_SHARED
from tests.helpers import cli_imports
from tests.search_home import NEWEST, OLDEST, library_with, use_home

runner = CliRunner()


@pytest.fixture(scope="module")
def seeds_only(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return library_with(tmp_path_factory)


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    if not NEWEST.exists():
        pytest.skip("../shared corpus not available")
    return library_with(tmp_path_factory, NEWEST, OLDEST)


@NEEDS_SHARED
@pytest.mark.parametrize(
    "query", ["702.22j", "702.22j.", "702.22 j", "rule 702.22j", "Rule 702.22 J", "CR 702.22j"]
)
def test_number_forms(full: Corpus, query: str) -> None:
    view = lookup(full, query)
    assert (view.number, view.title, view.version) == ("702.22j", "Banding", "2026-04-17")


@NEEDS_SHARED
def test_rule_with_all_subrules(full: Corpus) -> None:
    view = lookup(full, "702.22")
    letters = [s["number"][len("702.22") :] for s in view.subrules]
    assert letters == list(SUBRULE_LETTERS[: SUBRULE_LETTERS.index("m") + 1])
    assert view.current == "702.22"
    assert any(s["examples"] for s in view.subrules)  # 702.22h has an example


@NEEDS_SHARED
def test_prefix_never_matches_longer_number(full: Corpus) -> None:
    view = lookup(full, "702.6")
    assert view.number == "702.6"
    assert all(s["number"].startswith("702.6") and s["number"][5:6].isalpha() for s in view.subrules)
    assert not any(s["number"].startswith("702.60") for s in view.subrules)


@NEEDS_SHARED
def test_older_version_says_where_the_rule_lives_now(full: Corpus) -> None:
    view = lookup(full, "702.19", version="2011-02-04")
    assert view.title == "Banding"
    assert view.current == "702.22"
    # one note says what it is, its number today and what its number means today; no other
    # note says again that today's 702.19 is Trample
    assert view.notes[0].startswith("702.19 in the 2011-02-04 rules is Banding (")
    assert view.notes[0].endswith("), today 702.22; today 702.19 is Trample (Trampelschaden).")
    assert sum("Trample" in n for n in view.notes) == 1


@NEEDS_SHARED
def test_a_number_that_meant_one_rule_in_several_releases_is_said_once(full: Corpus) -> None:
    """Today's 702.22 was another rule in older releases: one note per rule it was, naming the
    run of releases, not one per release."""
    view = lookup(full, "702.22")
    runs = {(e["title"], e["current"]) for e in view.elsewhere}
    assert len(view.notes) == min(len(runs), 3)
    for title, _ in runs:
        assert sum(f" is {title}" in n for n in view.notes) <= 1


@NEEDS_SHARED
def test_newest_mentions_the_old_meaning(full: Corpus) -> None:
    view = lookup(full, "702.19")
    assert view.title == "Trample"
    assert any("2011-02-04" in n and "Banding" in n for n in view.notes)


@NEEDS_SHARED
def test_cross_references_resolve(full: Corpus) -> None:
    view = lookup(full, "702.22")
    refs = {r["number"]: r["title"] for r in view.references}
    assert refs.get("510.1c")


@NEEDS_SHARED
def test_unknown_number_offers_neighbours(full: Corpus) -> None:
    with pytest.raises(UnknownRule) as err:
        lookup(full, "702.999")
    assert "702.999" in str(err.value) and "nearest" in str(err.value)


@NEEDS_SHARED
def test_an_unknown_number_in_a_language_offers_that_languages_neighbours(full: Corpus) -> None:
    """``rule 702.999z --lang de`` offered 702.191b and 702.192a, numbers only the English
    rules have; now the German documents' nearest (the seed's 702.19), and it says so."""
    with pytest.raises(UnknownRule) as err:
        lookup(full, "702.999z", lang="de")
    text = str(err.value)
    offered = text.split("nearest in language 'de': ")[1].split(", ")
    german = {r[0] for r in rules_table(full).execute("SELECT number FROM placed WHERE language = 'de'")}
    assert offered and set(offered) <= german and all(n.startswith("702.19") for n in offered)
    with pytest.raises(UnknownRule) as err:
        lookup(full, "702.999z", lang="en")
    assert "nearest in language 'en': 702.19" in str(err.value)  # 702.191b etc.


def test_an_unknown_number_says_when_its_language_has_no_rules() -> None:
    import sqlite3

    from regelwerk.index.rules.lookup import _SCHEMA, _unknown

    con = sqlite3.connect(":memory:")
    con.executescript(_SCHEMA)
    con.executemany("INSERT INTO placed (doc, number, language) VALUES ('cr', ?, 'en')",
                    [("702.21",), ("702.22",), ("702.22a",), ("702.22b",)])
    text = str(_unknown(con, "702.22z", None, "de"))
    assert text == ("rule '702.22z' is in no ingested document for language 'de'; no ingested document "
                    "in language 'de' has rules; nearest in any language: 702.22a, 702.22b")
    assert str(_unknown(con, "702.22z", None, None)).endswith("; nearest: 702.22a, 702.22b")
    con.execute("DELETE FROM placed")
    assert str(_unknown(con, "702.22z", None, "de")).endswith("; no rules are ingested yet")


@NEEDS_SHARED
def test_unknown_version(full: Corpus) -> None:
    with pytest.raises(UnknownVersion):
        lookup(full, "702.22", version="1999-01-01")


def test_malformed_number(seeds_only: Corpus) -> None:
    with pytest.raises(InvalidRuleNumber) as err:
        lookup(seeds_only, "xyzzy")
    assert "keyword or game term" in str(err.value)


def test_a_german_keyword_finds_its_rule(seeds_only: Corpus) -> None:
    view = lookup(seeds_only, "Bündnis", lang="de")
    assert view.current == "702.22" and view.title == "Bündnisfähigkeit"
    assert view.notes[0] == "Bündnis is Banding (Bündnisfähigkeit): rule 702.22 in the newest rules."


@NEEDS_SHARED
def test_a_term_names_todays_rule_in_every_release(full: Corpus) -> None:
    assert lookup(full, "Trampelschaden").number == "702.19"
    old = lookup(full, "Trampelschaden", version="2011-02-04")
    assert (old.number, old.title) == ("702.17", "Trample")


@NEEDS_SHARED
def test_an_ambiguous_word_names_every_sense(full: Corpus) -> None:
    view = lookup(full, "counter")
    assert view.number == "701.6"
    assert "counter also means Counters (Marke): regelwerk rule 122" in view.notes


@NEEDS_SHARED
def test_german_reader_gets_english_text_glossed(full: Corpus) -> None:
    view = lookup(full, "702.2", lang="de")
    assert (view.number, view.language) == ("702.2", "en")
    assert view.notes[0].startswith("702.2 has no German text")
    assert ("Deathtouch", "Todesberührung") in view.glosses
    assert all(en != de for en, de in view.glosses)
    assert view.to_dict()["names"] == {"en": "Deathtouch", "de": "Todesberührung"}


@NEEDS_SHARED
def test_german_reader_naming_a_term_gets_english_text_glossed(full: Corpus) -> None:
    """A term names its rule as a number does, and falls back the same way: 'rule
    Lebensverknüpfung --lang de' gave an error where 'rule 702.15 --lang de' gave the English text."""
    view = lookup(full, "Lebensverknüpfung", lang="de")
    assert (view.number, view.language) == ("702.15", "en")
    assert any(n.startswith("702.15 has no German text") for n in view.notes)
    assert ("Lifelink", "Lebensverknüpfung") in view.glosses


def test_old_number_says_what_it_means_today(seeds_only: Corpus) -> None:
    view = lookup(seeds_only, "702.19", lang="de")
    assert view.notes == ("702.19 in 'rule-702-19-banding-de-en' (de+en) is Bündnisfähigkeit (Banding), "
                          "today 702.22; today 702.19 is Trample (Trampelschaden).",)


def test_german_seed_says_today_number(seeds_only: Corpus) -> None:
    view = lookup(seeds_only, "Regel 702.19", lang="de")
    assert view.language == "de" and view.title == "Bündnisfähigkeit"
    assert view.current == "702.22"
    assert [s["number"] for s in view.subrules][-1] == "702.19m"
    assert any(", today 702.22;" in n for n in view.notes)


def test_current_number_finds_the_old_one(seeds_only: Corpus) -> None:
    """With only the seeds, 702.22 exists nowhere by number but is the seed's 702.19: one note
    says so, names the rule and what 702.19 is today (the seed rule's own notes would say it again)."""
    view = lookup(seeds_only, "702.22", lang="de")
    assert view.number == "702.19"
    assert view.notes == ("702.22 is in no ingested document for language 'de'; the same rule, "
                          "Bündnisfähigkeit (Banding), is 702.19 in 'rule-702-19-banding-de-en' (de+en); "
                          "today 702.19 is Trample (Trampelschaden).",)
    where = view.to_dict()["messages"][0]["args"]["where"]
    assert where["args"]["document"] == "rule-702-19-banding-de-en"  # --json keeps the id


def test_lookup_does_not_import_whoosh_or_bs4(seeds_only: Corpus) -> None:
    """The fast path: a fresh process looking up a rule loads neither whoosh nor bs4.

    The rules table is derived once per store (its keyword linking stems, which loads whoosh's
    Snowball stemmers); every later process only reads it.
    """
    rules_table(seeds_only).close()
    code = (
        "import sys; from regelwerk.index.store.corpus import Corpus; "
        "from regelwerk.index.rules.lookup import lookup; lookup(Corpus(), '702.19'); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'whoosh', 'bs4'}))"
    )
    env = {**os.environ, "REGELWERK_HOME": str(seeds_only.home)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


#: What ``regelwerk rule`` must not load: search (whoosh, its query code, typo correction),
#: the ingest parsers (bs4), the engine and its scenario model (msgspec), the card store and
#: the web server's stack; piped, not even rich's console (``cli.plain`` prints the same bytes),
#: nor the records' dataclasses or the stemmer (``ingest.model`` exports load lazily). A fresh
#: process is the only honest way to see it.
NOT_ON_RULE = (
    *("whoosh", "bs4", "rapidfuzz", "msgspec", "ijson", "simplemma", "babel", "jinja2", "fastapi"),
    *("regelwerk.engine", "regelwerk.index.search", "regelwerk.index.cards", "regelwerk.cli.web"),
    *("regelwerk.ingest.cr_", "regelwerk.ingest.glossary_de", "regelwerk.ingest.mtgjson"),
    *("rich.console", "rich.text", "rich.markup", "rich.table"),
    *("regelwerk.ingest.model.records", "regelwerk.ingest.model.stemming"),
)


def test_rule_command_imports_nothing_heavy(seeds_only: Corpus) -> None:
    """The whole ``regelwerk rule`` command, rendered with rich, in a fresh process."""
    rules_table(seeds_only).close()  # derived once per store, see above
    stdout, loaded = cli_imports(seeds_only.home, ["rule", "702.19"], NOT_ON_RULE)
    assert "702.19" in stdout
    assert loaded == []


def test_cli_json_contract(seeds_only: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, seeds_only)
    result = runner.invoke(app, ["rule", "702.19", "--lang", "de", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ok"] is True
    rule = data["rule"]
    keys = {"number", "title", "text", "subrules", "examples", "language", "version", "document", "current"}
    assert keys <= set(rule)
    assert rule["current"] == "702.22"


def test_cli_unknown_rule_exits_1(seeds_only: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, seeds_only)
    result = runner.invoke(app, ["rule", "999.1", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and "999.1" in data["error"]


def test_cli_text_output(seeds_only: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, seeds_only)
    result = runner.invoke(app, ["rule", "702.19", "j", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "702.19j" in result.stdout and "702.22j" in result.stdout


@NEEDS_SHARED
@pytest.mark.parametrize(
    ("query", "title"),
    [("510.1c", "Combat Damage Step"), ("704.5a", "State-Based Actions"), ("702.22j", "Banding")],
)
def test_untitled_rules_borrow_the_nearest_titled_ancestor(full: Corpus, query: str, title: str) -> None:
    assert lookup(full, query).title == title
