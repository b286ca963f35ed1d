"""Words people say reach their term: aliases.tsv, every sense of an ambiguous word, both names."""

from __future__ import annotations

import pytest

from regelwerk.index.linking.keyword_index import keyword_index
from regelwerk.index.store.corpus import Corpus
from regelwerk.index.terms.aliases import STATUSES, load_aliases, parse_aliases, senses, target
from regelwerk.index.terms.lookup import lookup
from regelwerk.index.terms.names import both_names, german_name, glossed, other_name
from regelwerk.index.terms.shipped import load_terms
from regelwerk.index.terms.table import TermTableError
from regelwerk.ingest.model.fold import compact


def test_every_alias_reaches_a_row_and_is_not_already_its_name() -> None:
    aliases = load_aliases()
    assert len(aliases) >= 15
    for alias in aliases:
        row = target(alias)
        assert row is not None, alias
        assert alias.status in STATUSES and alias.note, alias
        # in its own language: German players' "Stack" is the English name, but no German one
        own = {compact(n) for n in ((row.en,) if alias.lang == "en" else row.german_names)}
        assert compact(alias.word) not in own, f"{alias.word!r} is already a name of {row.en!r}"


def test_a_malformed_alias_row_names_its_line() -> None:
    bad = "word\tlang\ten\tkind\tstatus\tnote\nSpielfeld\tde\tBattlefield\tcore\tslang\tx\n"
    with pytest.raises(TermTableError, match=r"aliases.tsv:2: status 'slang'"):
        parse_aliases(bad)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("counter", [("Counter", "name"), ("Counters", "sense")]),
        ("Spielfeld", [("Battlefield", "player")]),
        ("im Spiel", [("Battlefield", "name")]),
        ("Priorität", [("Priority", "player")]),
        ("Spielstein", [("Token", "name")]),
        ("Mahlen", [("Mill", "player")]),
        ("Trampelschaden", [("Trample", "name")]),
        ("Buendnis", [("Banding", "name")]),
        ("Zugendesegment", [("End Step", "old_official")]),
    ],
)
def test_senses(word: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.row.en, s.how) for s in senses(word)] == expected


def test_mill_has_its_printed_german_name() -> None:
    mill = next(r for r in load_terms() if r.en == "Mill")
    assert mill.de == "millen" and mill.source == "official"


def test_term_lookup_gives_every_sense_and_whose_word_it_is(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = keyword_index(Corpus(tmp_path_factory.mktemp("home")))
    counter = lookup(index, "counter")
    assert [(m.keyword.en if m.keyword else None, m.how, m.score) for m in counter[:2]] == [
        ("Counter", "exact", 100.0), ("Counters", "sense", 100.0)
    ]
    field = lookup(index, "Spielfeld")[0].to_dict()
    assert field["en"] == "Battlefield" and field["alias"]["status"] == "player"
    assert lookup(index, "Zählmarken")[0].to_dict()["en"] == "Counters"  # inflected fan word


@pytest.mark.parametrize(
    ("title", "lang", "names"),
    [
        ("Lifelink", "en", {"en": "Lifelink", "de": "Lebensverknüpfung"}),
        ("Bündnisfähigkeit", "de", {"en": "Banding", "de": "Bündnisfähigkeit"}),
        ("Counter", "en", {"en": "Counter", "de": "neutralisieren"}),
        ("Casting Spells", "en", {"en": "Casting Spells", "de": None}),
        ("Mana", "en", {"en": "Mana", "de": None}),  # the same word in both
    ],
)
def test_both_names(title: str, lang: str, names: dict[str, str | None]) -> None:
    assert both_names(title, lang) == names


def test_other_and_german_name() -> None:
    assert german_name("Combat Damage Step") == "Kampfschadensegment"
    assert other_name("Trampelschaden", "de") == "Trample"
    assert german_name("No Such Term") is None


def test_glossed_prefers_the_longest_term_and_skips_identical_words() -> None:
    text = "Combat damage dealt by a creature with deathtouch to another zone; the creatures die."
    pairs = glossed(text)
    assert pairs[0] == ("Combat Damage", "Kampfschaden")
    assert ("Deathtouch", "Todesberührung") in pairs and ("Creature", "Kreatur") in pairs
    assert ("Damage", "Schaden") not in pairs and all(en != "Zone" for en, _ in pairs)


def test_search_translates_the_words_people_say(tmp_path_factory: pytest.TempPathFactory) -> None:
    index = keyword_index(Corpus(tmp_path_factory.mktemp("home")))
    assert index.translate("Spielfeld", "de") == ["battlefield"]
    assert index.translate("Priorität", "de") == ["priority"]
    assert {"neutralisieren", "marke"} <= set(index.translate("counter", "en"))  # both senses


@pytest.mark.parametrize(
    ("word", "names"),
    [
        ("SBA", ["state-based actions"]),
        ("SBAs", ["state-based actions"]),
        ("etbs", ["enters the battlefield"]),
        ("LTB", ["leaves the battlefield"]),
        ("P/T", ["power", "toughness"]),
        ("scoops", ["concede"]),  # a plural or third person "s" is tried off
        ("counter", []),  # an ambiguous word's other sense is not read into it
        ("Spielfeld", []),  # German aliases reach English through the lexicon
        ("library", []),  # a name, not a players' word
    ],
)
def test_an_english_players_word_gives_the_crs_english_name(
    tmp_path_factory: pytest.TempPathFactory, word: str, names: list[str]
) -> None:
    index = keyword_index(Corpus(tmp_path_factory.mktemp("home")))
    assert index.names.aliased(word) == names
