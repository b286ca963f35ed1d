"""How players ask for each rule (`regelwerk.index.search.asked`): the table and its index fields."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from regelwerk.index.search import asked
from regelwerk.index.search.query import SearchEngine
from regelwerk.ingest import parse_path
from tests.conftest import NEEDS_SHARED
from tests.search_home import NEWEST, library_with

TEXT_305_2 = (
    "A player can normally play one land during their turn; "
    "however, continuous effects may increase this number."
)


def test_starts_are_the_first_words_folded() -> None:
    assert asked.starts("Normally, a Player can’t — play ÜBER (lands) here now") == "normally a player can t"
    assert asked.starts("Spielfeld über alles") == asked.starts("spielfeld ueber alles")
    assert asked.starts("") == ""


def test_the_fingerprint_is_a_short_hash_of_the_first_words() -> None:
    assert asked.fingerprint(TEXT_305_2) == asked.fingerprint("A PLAYER can normally play; nothing else")
    assert asked.fingerprint(TEXT_305_2) != asked.fingerprint("A player can normally cast")
    assert re.fullmatch(r"[0-9a-f]{10}", asked.fingerprint(TEXT_305_2))


def test_parse_groups_rows_by_rule_and_skips_comments() -> None:
    table = asked.parse(
        "# comment\nrule\tstarts\tlang\tasked\n"
        "305.2\ta player can normally play\tde\tWie viele Länder?\n"
        "305.2\ta player can normally play\ten\tHow many lands?\n"
        "\n"
    )
    assert table == {"305.2": (("a player can normally play", "de", "Wie viele Länder?"),
                               ("a player can normally play", "en", "How many lands?"))}


@pytest.mark.parametrize("line", [
    "305.2\ta player\tfr\tCombien de terrains?",  # no such language
    "305.2\ta player\tde",  # a column missing
    "305.2\ta player\tde\t  ",  # no phrasing
])
def test_a_broken_row_names_its_line(line: str) -> None:
    with pytest.raises(ValueError, match=r"asked.tsv.xz line 2: expected rule, starts, de\|en"):
        asked.parse(f"rule\tstarts\tlang\tasked\n{line}\n")


def test_fields_for_a_rule_whose_text_still_begins_as_the_table_s() -> None:
    fields = asked.fields_for("305.2", TEXT_305_2)
    assert set(fields) == {"ask_de", "ask_en"}
    assert "Länder" in fields["ask_de"] and "lands" in fields["ask_en"]
    assert fields["ask_de"].count("\n") == 5  # its six German phrasings, one per line


@pytest.mark.parametrize(("number", "text"), [
    ("305.2", "Each player may play an additional land on each of their turns."),  # rewritten
    ("305.99", TEXT_305_2),  # not in the table
    (None, TEXT_305_2),
])
def test_no_fields_for_other_rules(number: str | None, text: str) -> None:
    assert asked.fields_for(number, text) == {}


def test_the_shipped_table_covers_every_rule_in_both_languages() -> None:
    table = asked.table()
    assert len(table) > 3000
    for number, rows in table.items():
        assert re.fullmatch(r"[1-9]\d\d\.\d+[a-z]?", number), number
        langs = [lang for _, lang, _ in rows]
        # rounds one and three everywhere (2 + 2 German, 1 + 2 English), round two outside
        # the keyword sections (2 German, 1 English)
        want = (4, 3) if number[:3] in ("701", "702") else (6, 4)
        assert (langs.count("de"), langs.count("en")) == want, number
        assert len({s for s, _, _ in rows}) == 1, number
        for _, _, text in rows:
            assert not re.search(r"\b\d{3}\.\d", text), (number, text)  # never names a rule


@NEEDS_SHARED
def test_every_row_is_a_rule_of_the_cr_it_was_written_for_and_begins_as_it_does() -> None:
    texts = {s.number: s.text for s in parse_path(NEWEST).sections if s.kind in ("rule", "subrule")}
    for number, rows in asked.table().items():
        assert number in texts, number
        assert rows[0][0] == asked.fingerprint(texts[number]), number


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = SearchEngine(library_with(tmp_path_factory, NEWEST))
    yield engine
    engine.close()


@NEEDS_SHARED
def test_the_index_holds_the_phrasings_of_the_default_scope_s_rules(engine: SearchEngine) -> None:
    for lang in ("de", "en"):
        found = [str(engine._stored(d).get("number")) for d, _ in engine.members.asked(lang, ["land"], 200)]
        assert "305.2" in found, lang
        scores = [s for _, s in engine.members.asked(lang, ["land"], 200)]
        assert scores == sorted(scores, reverse=True)
    [(rows,)] = engine.members.con.execute("SELECT count(*) FROM asked_de")
    assert rows == len(asked.table())  # one row per rule of the newest CR, each unit once
    assert engine.members.asked("de", [], 5) == engine.members.asked("fr", ["land"], 5) == []


@NEEDS_SHARED
def test_a_question_s_common_words_are_left_out_of_its_asked_search(engine: SearchEngine) -> None:
    """``asked_common``: the terms in more than COMMON_SHARE of a language's rows (German
    "kart", English "card") are not searched beside rarer ones, and are when alone."""
    from regelwerk.index.search.members import COMMON_SHARE

    con = engine.members.con
    common = set(con.execute("SELECT lang, term FROM asked_common"))
    assert ("de", "kart") in common and ("en", "card") in common
    assert ("de", "land") not in common
    for lang, term in common:
        [(rows,)] = con.execute(f"SELECT count(*) FROM asked_{lang}")
        match = f"SELECT count(*) FROM asked_{lang} WHERE asked_{lang} MATCH ?"
        [(hits,)] = con.execute(match, (f'"{term}"',))
        share = hits / rows
        assert share > COMMON_SHARE, (lang, term)
    assert engine.members.asked("de", ["land", "kart"], 20) == engine.members.asked("de", ["land"], 20)
    assert engine.members.asked("de", ["kart"], 5)  # alone, a common word is still searched
