"""``regelwerk search``: numbers, keywords in both languages, typos, scope and bad syntax."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from regelwerk.cli.app import app
from regelwerk.index.search.query import SearchEngine
from regelwerk.index.search.syntax import syntax_problem, without_question_marks
from regelwerk.index.store.corpus import Corpus
from regelwerk.index.terms.words import translate_word
from regelwerk.ingest.model.errors import InvalidQuery, UnknownVersion
from tests.conftest import NEEDS_SHARED
from tests.helpers import cli_imports
from tests.search_home import NEWEST, OLDEST, library_with, use_home

pytestmark = NEEDS_SHARED
runner = CliRunner()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return library_with(tmp_path_factory, NEWEST, OLDEST)


@pytest.fixture(scope="module")
def engine(library: Corpus) -> Iterator[SearchEngine]:
    eng = SearchEngine(library)
    yield eng
    eng.close()


def currents(engine: SearchEngine, query: str, n: int = 3, **kw: object) -> list[str | None]:
    return [h.current for h in engine.search(query, **kw).hits[:n]]  # type: ignore[arg-type]


def test_german_words_find_the_english_rule(engine: SearchEngine) -> None:
    assert "702.22j" in currents(engine, "Bündnis Schaden verteilen")


def test_german_question_finds_both_languages(engine: SearchEngine) -> None:
    hits = engine.search("wer verteilt den Kampfschaden wenn ein Blocker Bündnisfähigkeit hat", limit=10).hits
    found = {(h.language, h.number) for h in hits}
    assert ("en", "702.22j") in found
    assert ("de", "702.19j") in found
    german = next(h for h in hits if h.number == "702.19j")
    assert german.current == "702.22j"


def test_number_query_includes_moved_rules(engine: SearchEngine) -> None:
    hits = engine.search("702.22", limit=5).hits
    assert (hits[0].number, hits[0].version) == ("702.22", "2026-04-17")
    assert any(h.language == "de" and h.number == "702.19" and h.current == "702.22" for h in hits)


def test_default_scope_is_newest_release(engine: SearchEngine) -> None:
    assert {h.version for h in engine.search("flanking", limit=20).hits} <= {"2026-04-17", None}
    versions = {h.version for h in engine.search("flanking", limit=50, all_versions=True).hits}
    assert "2011-02-04" in versions
    old = engine.search("702.19", version="2011-02-04").hits[0]
    assert (old.title, old.current) == ("Banding", "702.22")


def test_a_units_place_is_kept_per_scope(engine: SearchEngine) -> None:
    """An engine remembers where each unit was placed, per scope: a unit unchanged since 2011
    (deathtouch's 702.2) is placed in the newest release by a default search, in 2011 by a
    search of 2011 and in the newest again by the next default search."""
    new, old = "2026-04-17", "2011-02-04"
    for _ in range(2):
        for version, want, other in ((None, new, old), (old, old, new)):
            hits = engine.search("deathtouch", version=version, lang="en").hits
            versions = {h.version for h in hits if h.current == "702.2"}
            assert want in versions and other not in versions, version


def test_typo_is_corrected_and_said(engine: SearchEngine) -> None:
    result = engine.search("tramle")
    assert result.hits[0].current == "702.19"
    assert any("trample" in n for n in result.notes)


def test_lang_filter(engine: SearchEngine) -> None:
    assert {h.language for h in engine.search("banding", lang="de").hits} == {"de"}


def test_snippet_highlights_query_words(engine: SearchEngine) -> None:
    hit = engine.search("poison counters").hits[0]
    assert "«" in hit.snippet and "»" in hit.snippet


@pytest.mark.parametrize(
    "query",
    ['"combat damage', "(banding", "banding)", "AND", "OR banding", "banding NOT", "a:b:"],
)
def test_malformed_syntax_never_raises(engine: SearchEngine, query: str) -> None:
    result = engine.search(query)
    assert isinstance(result.hits, tuple)
    assert result.notes or result.hits


@pytest.mark.parametrize("query", ["*", "", "  ", "?", '"()"'])
def test_nothing_to_search_for_is_invalid_input(engine: SearchEngine, query: str) -> None:
    says = "empty query" if not query.strip() else "has no word to search for"
    with pytest.raises(InvalidQuery, match=says):
        engine.search(query)


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ('"a', "quotes"),
        ("(a", "parentheses"),
        ("a)", "parentheses"),
        ("AND a", "operator"),
        ("a OR", "operator"),
        ("*", "wildcard"),
        ("a b", None),
        ('"a b" OR c', None),
    ],
)
def test_syntax_problem(query: str, problem: str | None) -> None:
    found = syntax_problem(query)
    assert (found is None) if problem is None else (found is not None and problem in found)


@pytest.mark.parametrize(
    ("query", "read"),
    [
        ("Wann darf ich eine Hexerei wirken?", "Wann darf ich eine Hexerei wirken"),
        ("what happens?? now", "what happens now"),
        ("¿Qué pasa?", "Qué pasa"),
        ('"first strike?" OR (trample?)', '"first strike" OR (trample)'),
        ("?", ""),
        ("d?athtouch", "d?athtouch"),  # inside a word it is still whoosh's one-letter wildcard
        ("702.2?", "702.2"),
    ],
)
def test_a_question_mark_is_punctuation_not_a_wildcard(query: str, read: str) -> None:
    assert without_question_marks(query) == read


def test_the_issue_s_german_question_with_its_question_mark(engine: SearchEngine) -> None:
    asked = engine.search("Wann darf ich eine Hexerei wirken?", limit=3)
    plain = engine.search("Wann darf ich eine Hexerei wirken", limit=3)
    assert [h.number for h in asked.hits] == [h.number for h in plain.hits]
    assert asked.hits[0].number == "307.1" and not asked.notes
    assert engine.search("d?athtouch", limit=3).hits[0].number == "702.2"  # inside a word: a wildcard


def test_valid_syntax_is_used(engine: SearchEngine) -> None:
    result = engine.search('"combat damage step" AND banding')
    assert not result.notes
    assert result.hits and all("702.22" in (h.current or "") or h.term for h in result.hits[:2])


def test_cli_json_contract(library: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, library)
    result = runner.invoke(app, ["search", "Bündnis", "Schaden", "verteilen", "--json", "--limit", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["query"] == "Bündnis Schaden verteilen"
    keys = {"number", "current", "title", "term", "language", "version", "document", "snippet", "score"}
    assert len(data["hits"]) == 3 and all(keys <= set(h) for h in data["hits"])
    assert "702.22j" in [h["current"] for h in data["hits"]]


def test_cli_malformed_query_exits_0_with_note(library: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, library)
    result = runner.invoke(app, ["search", '"banding'])
    assert result.exit_code == 0, result.output
    assert "syntax ignored" in result.stdout


def test_ordinary_german_words_have_english_words() -> None:
    assert "loses" in translate_word("verliert")
    assert translate_word("Zehn") == ("ten",)
    assert "player" in translate_word("Spielern")  # an inflection of a listed form
    assert translate_word("Quatsch") == ()


def test_question_ranks_a_rule_before_the_glossary_entry_citing_it(engine: SearchEngine) -> None:
    hits = engine.search("can a creature with flying be blocked").hits
    assert hits[0].current == "702.9b"
    ranks = {h.term: i for i, h in enumerate(hits) if h.term}
    assert ranks.get("Flying", 99) > 0


def test_glossary_entry_naming_the_whole_query_stays_first(engine: SearchEngine) -> None:
    assert engine.search("combat damage step").hits[0].term == "Combat Damage Step"


def test_compound_named_as_a_whole_is_not_read_as_its_parts(engine: SearchEngine) -> None:
    # "Spielstein" is Token; its part "Spiel" alone would be Battlefield.
    hits = engine.search("Spielstein").hits[:3]
    assert any("token" in (h.term or h.title).lower() for h in hits)
    assert not any("battlefield" in (h.term or h.title).lower() for h in hits)


def test_short_query_prefers_the_phrase(engine: SearchEngine) -> None:
    assert engine.search("poison counter").hits[0].term == "Poison Counter"


def test_german_term_is_not_taken_for_a_typo(engine: SearchEngine) -> None:
    result = engine.search("Eile")
    assert not any("instead of" in n for n in result.notes)
    assert result.hits[0].current == "702.10" or result.hits[0].term == "Haste"


def test_digits_also_search_the_number_words_the_cr_uses() -> None:
    from regelwerk.index.terms.words import synonym_table

    assert synonym_table()["10"] == ("ten",)


def test_what_happens_prefers_the_rule_that_says_what_follows(engine: SearchEngine) -> None:
    hits = engine.search("was passiert mit zehn Giftmarken").hits[:3]
    assert any(h.current in ("704.5c", "104.3d") for h in hits)
    assert all(h.title != "Poisonous" for h in hits[:1])


def test_question_ranks_the_cited_rule_before_the_rule_restating_it(engine: SearchEngine) -> None:
    # 122.1f says what 704.5c says, then "See rule 704."; the state-based action is the answer.
    hits = [h.current for h in engine.search("what happens when a player has ten poison counters").hits]
    assert hits.index("704.5c") < hits.index("122.1f")


def test_a_stop_word_is_not_taken_for_a_typo(engine: SearchEngine) -> None:
    # "darf" is a German stop word; within edit distance 1 of the indexed "dark".
    result = engine.search("wie viele Länder darf man pro Zug spielen")
    assert not any("instead of" in n for n in result.notes)


@pytest.mark.parametrize(
    ("query", "word"),
    [("wieviel Schaden geht durch wenn ein Trampler geblockt wird", "geht"),  # "get"
     ("wohin legt man eine abgeworfene Karte", "legt")],  # "left"
)
def test_a_german_query_s_verb_is_not_corrected_into_english(
        engine: SearchEngine, query: str, word: str) -> None:
    # One edit from an English word of the index, but the query is German: not a typo.
    result = engine.search(query)
    assert not any(repr(word) in n for n in result.notes), result.notes


def test_a_german_query_still_corrects_a_misspelt_german_or_keyword_word(engine: SearchEngine) -> None:
    assert any("trampelschaden" in n for n in engine.search("wie funktioniert Trampelschadn").notes)
    assert any("deathtouch" in n for n in engine.search("was macht Deathtuch").notes)


def test_the_verb_spielen_is_play_not_game() -> None:
    assert "play" in translate_word("spielen")
    assert translate_word("Spiel") == ("game",)


def test_leaves_also_searches_the_past_tense_the_cr_uses(engine: SearchEngine) -> None:
    # 111.8: "A token that has left the battlefield ..." ("left" is not a stem of "leaves").
    hits = engine.search("what happens to a token when it leaves the battlefield").hits[:3]
    assert any(h.current in ("111.7", "111.8", "704.5d") for h in hits)


def test_german_sentence_reads_a_german_term_as_german(engine: SearchEngine) -> None:
    """ "Gift" is German for poison and also the name of a 2024 English keyword: in a German
    sentence the German reading wins, on its own the English keyword still comes first."""
    german = engine.search("wann verliert ein Spieler durch Gift").hits[:3]
    # the German seed's poison section is titled "Gift" too, and answers it
    assert all(h.title != "Gift" or h.language == "de" for h in german)
    # the poison rules answer it (104.3d, 122.1f, ... are titled by their sections, not "Poison")
    assert all("oison" in f"{h.title} {h.snippet}" for h in german if h.language == "en")
    assert engine.search("Gift").hits[0].title == "Gift"


def test_a_german_term_that_stems_like_an_english_word_is_read_as_german(engine: SearchEngine) -> None:
    """ "Marke" (Counters, 122) stems to the English "mark" (damage marked): on its own it is
    the German term, not the English stem; "Mark" as typed stays English."""
    assert "122" in currents(engine, "Marke", 5)
    assert "122" not in currents(engine, "Mark", 10)


def test_one_word_names_its_own_rule_before_a_stem_sharing_keyword(engine: SearchEngine) -> None:
    """ "Enchantment" and "Enchant" share a stem; the card type's rules come before the keyword's
    (the derived-word factor applies to one-word lookups too)."""
    assert "303" in currents(engine, "Enchantment", 5)
    assert "303" in currents(engine, "Verzauberung", 5)


def test_a_sections_german_name_finds_the_section_first(engine: SearchEngine) -> None:
    """A section that is a term's heading carries the term's names as a keyword rule carries
    its own (the ``name`` fields): "Marke" (Counters, 122) is no longer behind 701.6 Counter
    ("neutralisieren"), named in its context, nor "Verzauberung" (Enchantment, 303) behind
    702.5 Enchant; a release older than the newest changes neither (the 2011 CR is here too)."""
    marke = [h for h in engine.search("Marke", limit=5).hits if h.number]
    assert marke[0].current == "122"
    verzauberung = [h for h in engine.search("Verzauberung", limit=5).hits if h.number]
    assert verzauberung[0].current == "303"



def test_unknown_version_is_refused_not_ignored(engine: SearchEngine) -> None:
    """An empty whoosh filter means "no filter": a version nobody has searched every release."""
    with pytest.raises(UnknownVersion, match="'1999-01-01'; versions: 2026-04-17"):
        engine.search("lifelink", version="1999-01-01")


def test_version_and_language_with_no_document_give_no_hits(engine: SearchEngine) -> None:
    result = engine.search("lifelink", version="2011-02-04", lang="de")
    assert result.hits == () and "version 2011-02-04" in result.notes[0]
    assert not engine.search("702.15", version="2011-02-04", lang="de").hits


def test_cli_unknown_version_is_an_error_envelope(library: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    use_home(monkeypatch, library)
    result = runner.invoke(app, ["search", "lifelink", "--version", "1999-01-01", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and "1999-01-01" in data["error"]


def test_plain_search_imports_no_query_parser_or_fuzzy_matcher(library: Corpus) -> None:
    """A plain-word ``regelwerk search`` in a fresh process loads neither whoosh's query parser
    (only queries with syntax need it) nor rapidfuzz (only misspelt words do), nor what only
    building the index needs (the records' dataclasses, rule lookup), nor keyword linking (a
    word the index knows needs no translation), nor what whoosh imports for nothing
    (``ingest.model.lean_whoosh``)."""
    SearchEngine(library).close()  # the index exists, as after any first search
    heavy = ("whoosh.qparser", "rapidfuzz", "msgspec", "regelwerk.engine", "bs4",
             "regelwerk.ingest.model.records", "regelwerk.index.rules", "regelwerk.index.linking",
             "asyncio", "urllib.request", "ssl")
    stdout, loaded = cli_imports(library.home, ["search", "banding"], heavy)
    assert "702.22" in stdout
    assert loaded == []


def test_examples_are_a_field_of_their_own(engine: SearchEngine) -> None:
    # 702.19c's example has the defending player; its rule text does not. The example is
    # searchable (ex_en) but weighed apart from the rule's own words (text_en).
    from whoosh import query as wq

    searcher = engine.searcher
    doc = next(
        d
        for d in searcher.document_numbers(number="702.19c")
        if "trample over planeswalkers" in str(searcher.stored_fields(d)["text"])
    )
    (term,) = engine._analyze("en", "defending")
    assert doc not in set(searcher.docs_for_query(wq.Term("text_en", term)))
    assert doc in set(searcher.docs_for_query(wq.Term("ex_en", term)))
    assert "defending player" in searcher.stored_fields(doc)["text"]  # the hit still shows it


def test_multiplayer_and_variant_rules_carry_their_chapter_title(engine: SearchEngine) -> None:
    """800.4a never says "multiplayer": its chapter's title ("Multiplayer Rules") is in its
    ``sect`` field, while a chapter title that most rules' words repeat ("Turn Structure")
    is not in its rules'."""
    from whoosh import query as wq

    searcher = engine.searcher

    def sect_docs(word: str) -> set[str]:
        (term,) = engine._analyze("en", word)
        found = searcher.docs_for_query(wq.Term("sect_en", term))
        return {str(searcher.stored_fields(d)["number"]) for d in found}

    assert {"800.4a", "901.1"} <= sect_docs("multiplayer") | sect_docs("variants")
    assert "800.4a" in sect_docs("multiplayer")
    assert "502.3" not in sect_docs("structure")


def test_a_tapped_question_finds_the_rule_about_untapped_creatures(engine: SearchEngine) -> None:
    assert "509.1a" in currents(engine, "can a tapped creature block", n=3)


def test_a_phrase_of_negated_words_is_compared_word_by_word() -> None:
    """"untapped" is two terms (untap, tap) at one place: the phrase "untapped creature"
    still holds in a text saying it, and "tapped creature" still does not."""
    from regelwerk.index.search import rerank
    from regelwerk.index.search.analysis import terms

    def analyze(lang: str, word: str) -> frozenset[str]:
        return frozenset(terms(lang, word))

    def phrase(query: str) -> list[frozenset[str]]:
        return [t for t in (analyze("en", w) for w in query.split()) if t]

    boosts = {"title": 4.0, "text": 1.0}
    hit = {"language": "en", "title": "", "text": "Each untapped creature the player controls"}
    assert rerank.phrase_factor(hit, phrase("untapped creature"), analyze, boosts) > 1.0
    assert rerank.phrase_factor(hit, phrase("tapped creature"), analyze, boosts) == 1.0


def test_a_rule_s_glossary_term_is_searchable_for_questions() -> None:
    """A glossary entry's term joins the ``sect`` field of the rule it cites (a heading's
    first subrule for a heading), so "dies" and "summoning sickness" reach 700.4 and 302.6."""
    from regelwerk.index.search.whoosh_index import _glossed
    from regelwerk.ingest.model.records import GlossaryEntry, Section

    def sec(number: str, title: str, text: str) -> Section:
        parent = number.rstrip("abcdefghijkmnpqrstuvwxyz") if number[-1].isalpha() else None
        return Section("cr", number, parent, title, text, "en", 0, "subrule" if parent else "rule")

    sections = [
        sec("700.4", "", "The term dies means ..."),
        sec("701.21", "Sacrifice", "Sacrifice"),
        sec("701.21a", "", "To sacrifice a permanent, ..."),
    ]
    titles = {(s.number, s.language): s for s in sections}
    glossary = [
        GlossaryEntry("cr", ("Dies",), "A creature dies if ... See rule 700.4.", "en", 1),
        GlossaryEntry("cr", ("Sacrifice",), "To move a permanent ... See rule 701.21.", "en", 2),
        GlossaryEntry("cr", ("Nothing",), "Cites no rule of these: see rule 999.1.", "en", 3),
    ]
    assert _glossed(glossary, titles) == {("700.4", "en"): ["Dies"], ("701.21a", "en"): ["Sacrifice"]}


def test_a_question_prefers_a_rule_s_first_subrules() -> None:
    """Later subrules are a rule's corners, unless the rule lists peers (704.5's state-based
    actions, its text ending in a colon); outside the keyword sections less so (OTHER_SUBRULE)."""
    from regelwerk.index.search import rerank

    def lists(number: str) -> bool:
        return number == "704.5"

    def factor(number: str, kind: str = "subrule") -> float:
        return rerank.generality_factor({"kind": kind, "number": number}, lists)

    assert factor("702.19a") == 1.0 and factor("702.19", "rule") == 1.0
    assert factor("702.19z", "glossary") == 1.0
    assert 1.0 > factor("702.19b") > factor("702.19e") > 0.5
    assert factor("704.5j") == 1.0
    # outside the keyword sections a later subrule is as often a peer: it loses less
    assert factor("702.19e") < factor("903.12e") < 1.0


def test_a_how_many_question_counts_numbers_not_the_rules_a_hit_cites() -> None:
    """"wie viele zusätzliche Kosten": 118.8a's "Any number of" and 903.12d's "60 cards" speak to
    a count; 118.8's "as described in rule 601.2b" or "See section 8" does not."""
    from regelwerk.index.search import rerank

    def factor(text: str) -> float:
        return rerank.intent_factor({"language": "en", "number": "118.8", "text": text}, ("count",))

    assert factor("A player's deck must contain exactly 60 cards.") == rerank.INTENT
    assert factor("Any number of additional costs may be applied.") == rerank.INTENT
    assert factor("Such costs are paid as described in rule 601.2b.") == 1.0
    assert factor("See rules 601.2a–h and section 8, “Multiplayer Rules.”") == 1.0
    assert factor("See rule 702 and pay {2}.") == rerank.INTENT  # {2} is a number


def test_an_english_question_lifts_rules_titled_by_its_rarest_word() -> None:
    """"when can I cast a spell with flash": Flash's rules (702.8a) are about it, the casting
    rules that say "as though it had flash" (601.3b) only use the word; a title with a common
    word of the question ("Casting Spells": cast, spell) is not enough."""
    from regelwerk.index.search import rerank

    def analyze(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.lower().rstrip("s")})

    rarity = {"flash": 6.0, "cast": 2.0, "spell": 1.5}
    wanted = {"en": {"flash", "cast", "spell"}, "de": set()}

    def factor(title: str, language: str = "en", asked: dict[str, set[str]] = wanted) -> float:
        hit = {"language": language, "number": "702.8a", "title": title}
        return rerank.titled_factor(hit, rerank.rarest(asked, lambda lang, t: rarity.get(t, 1.0)), analyze)

    assert factor("Flash") == rerank.TITLED > 1.0
    assert factor("Casting Spells") == 1.0
    assert factor("Aufblitzen", "de") == 1.0  # a German hit is measured by the German terms
    assert factor("Flash", asked={"en": set(), "de": set()}) == 1.0


def test_a_question_demotes_rules_about_a_named_thing_it_does_not_name() -> None:
    """+1/+1 and -1/-1 counters: Graft (702.58a) goes down, 704.5q (state-based actions, no
    named thing) and 122.3 keep their score; a question naming graft keeps Graft's rules. A
    title names its thing by its rarest word: "turns" does not name the Shared Team Turns Option."""
    from regelwerk.index.search import rerank

    def analyze(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.lower().rstrip("s")})

    rarity = {"graft": 6.0, "shared": 5.0, "team": 4.0, "giant": 5.0, "headed": 6.0, "disguise": 7.0}

    def factor(number: str, title: str, wanted: set[str], **more: str) -> float:
        hit = {"language": "en", "number": number, "title": title, **more}
        return rerank.topic_factor(hit, wanted, analyze, lambda t: rarity.get(t, 1.0))

    asked = {"counter", "creature"}
    assert factor("702.58a", "Graft", asked) == rerank.TOPIC < 1.0
    assert factor("702.58a", "Graft", {*asked, "graft"}) == 1.0
    assert factor("810.7", "Two-Headed Giant Variant", asked) == rerank.TOPIC
    assert factor("810.7", "Two-Headed Giant Variant", {"headed", "giant"}) == 1.0
    assert factor("805.4c", "Shared Team Turns Option", {"land", "turn"}) == rerank.TOPIC
    assert factor("805.4c", "Shared Team Turns Option", {"shared", "turn"}) == 1.0
    assert factor("704.5q", "State-Based Actions", asked) == 1.0
    assert factor("122.3", "Counters", asked) == 1.0
    assert factor("800.4a", "General", asked) == 1.0  # 800 names no topic
    assert factor("702.58a", "Graft", asked, kind="glossary") == 1.0
    assert factor("702.19b", "Bündnisfähigkeit", asked, language="de") == 1.0
    # a seed without a number of its own is placed by today's number
    assert factor("", "Disguise", asked, current="702.168b") == rerank.TOPIC


def test_a_keyword_rule_s_template_masks_its_name_and_numbers() -> None:
    from regelwerk.index.search import rerank

    redundant = "Multiple instances of {} on the same creature are redundant."
    flying = rerank.template(redundant.format("flying"), "Flying")
    assert flying == rerank.template(redundant.format("Reach"), "Reach")
    assert flying != rerank.template("Reach allows a creature to block flyers.", "Reach")
    afflict = rerank.template("Afflict 2 means ...\nExample: Afflict 2 ...", "Afflict")
    assert afflict == rerank.template("Bushido 1 means ...", "Bushido") == "X N means ..."


def test_a_question_knows_the_keyword_rules_every_keyword_repeats(engine: SearchEngine) -> None:
    """702.2d (deathtouch) says what 702.15d (lifelink) says; 702.2b is deathtouch's own."""
    templated = engine._templated(engine._scope(None, False, None))

    def rule(number: str, text: str) -> dict[str, str]:
        return {"kind": "subrule", "current": number, "language": "en", "title": "Deathtouch", "text": text}

    zone = "The deathtouch rules function no matter what zone an object with deathtouch deals damage from."
    assert templated(rule("702.2d", zone))
    assert not templated(rule("702.2b", "A creature with toughness greater than 0 that’s been dealt ..."))
    assert not templated(rule("704.5g", zone))  # only keyword rules


def test_the_index_stores_each_keyword_rule_s_template_as_a_question_computes_it(
    engine: SearchEngine,
) -> None:
    """The build stores the template of every 701/702 unit (so a first question reads no
    stored fields); each is what `rerank.template` makes of the unit's stored text and title
    (a template changed without INDEX_SALT bumped would fail here), and no other unit has one."""
    from regelwerk.index.search import rerank

    stored = {docnum: (language, template) for docnum, language, template in engine.members.templates()}
    keyword_rules = {
        d for section in ("701", "702") for d in engine.searcher.document_numbers(numpath=section)
    }
    assert len(stored) > 300 and set(stored) == keyword_rules
    for d in keyword_rules:
        f = engine.searcher.stored_fields(d)
        assert stored[d] == (f["language"], rerank.template(f.get("text") or "", f.get("title") or ""))


def test_a_german_sentence_lifts_only_the_german_sections_it_names() -> None:
    """The best German section goes to GERMAN_SHARE of the best English hit; with a test,
    only the sections it accepts are lifted (in their order), the others keep their score."""
    from regelwerk.index.search import rerank

    found = [
        ({"language": "en", "title": "Drawing a Card"}, 10.0),
        ({"language": "de", "title": "Beutezug"}, 2.0),
        ({"language": "de", "title": "Trampelschaden"}, 1.0),
    ]
    lifted = rerank.interleave_language(found, "de", 0.75)
    assert [(f["title"], sc) for f, sc in lifted][1:] == [("Beutezug", 7.5), ("Trampelschaden", 3.75)]
    named = rerank.interleave_language(found, "de", 0.75, lambda f: f["title"] == "Trampelschaden")
    assert [(f["title"], sc) for f, sc in named] == [
        ("Drawing a Card", 10.0),
        ("Trampelschaden", 7.5),
        ("Beutezug", 2.0),
    ]
    assert rerank.interleave_language(found, "de", 0.75, lambda f: False) == found


def test_a_derived_form_covers_a_question_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who owns a token? 111.2's "its owner" covers "own" (DERIVED_COVER of its weight), so
    it beats a rule with "token" alone; below 1 it still loses to one that says "own" itself."""
    from regelwerk.index.search import rerank

    def analyze(lang: str, word: str) -> frozenset[str]:
        w = word.lower()
        return frozenset() if w in ("the", "a", "its", "who", "is") else frozenset({w.rstrip("s")})

    def hit(text: str) -> dict[str, str]:
        return {"language": "en", "title": "", "text": text}

    known = {"en": {"own", "token"}, "de": set()}
    weight = {"en": {"own": 2.0, "token": 2.0}, "de": {}}
    texts = ("A token is ...", "who creates a token is its owner", "own token")
    hits = [(hit(t), 1.0) for t in texts]
    derived = {"own": frozenset({"owner"})}

    def scores(cover: float, d: dict[str, frozenset[str]] | None) -> list[float]:
        monkeypatch.setattr(rerank, "DERIVED_COVER", cover)
        return [sc for _, sc in rerank.coordinate(hits, known, weight, analyze, d)]

    plain = scores(0.5, None)
    assert plain[0] == plain[1] < plain[2]
    half = scores(0.5, derived)
    assert half[0] < half[1] < half[2] == plain[2]
    whole = scores(1.0, derived)
    assert whole[0] == plain[0] and whole[1] == whole[2] == plain[2]


def test_coordination_can_be_given_for_one_search() -> None:
    """`coordinate`'s `coordination` replaces COORDINATION: full coverage multiplies a hit's
    score by 1 + coordination, none leaves it."""
    from regelwerk.index.search import rerank

    def analyze(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.lower()})

    hits = [({"language": "en", "title": "", "text": t}, 1.0) for t in ("token owner", "nothing here")]
    known, weight = {"en": {"token", "owner"}, "de": set()}, {"en": {"token": 1.0, "owner": 1.0}, "de": {}}
    shared = [sc for _, sc in rerank.coordinate(hits, known, weight, analyze)]
    given = [sc for _, sc in rerank.coordinate(hits, known, weight, analyze, None, 8.0)]
    assert shared == [1.0 + rerank.COORDINATION, 1.0]
    assert given == [9.0, 1.0]


@NEEDS_SHARED
def test_each_question_language_takes_its_own_coordination(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An English question coordinates at ENGLISH_COORDINATION, a German one at
    GERMAN_COORDINATION, a keyword lookup at COORDINATION (no argument)."""
    from regelwerk.index.search import rerank

    seen: list[float | None] = []
    coordinate = rerank.coordinate

    def recorded(*args: Any) -> Any:
        seen.append(args[5] if len(args) > 5 else None)
        return coordinate(*args)

    monkeypatch.setattr(rerank, "coordinate", recorded)
    engine.search("when can a player play a land during the turn")
    engine.search("Wann darf ich in meinem Zug ein Land spielen")
    engine.search("first strike damage")
    assert seen == [rerank.ENGLISH_COORDINATION, rerank.GERMAN_COORDINATION, None]


@NEEDS_SHARED
def test_derived_forms_come_from_the_rule_text(engine: SearchEngine) -> None:
    found = engine._derived(["own", "tap", "block", "zz"])
    assert {"owner"} <= found["own"] and "blocker" in found["block"]
    # a negated word is no derived form: the analyzer gives "untapped" the term "tap" itself
    assert "untap" not in found.get("tap", frozenset())
    assert "zz" not in found and all(len(w) <= len("own") + 3 for w in found["own"])


def test_a_question_translates_from_the_names_file_without_the_keyword_records(library: Corpus) -> None:
    """A question's words are translated through the keyword names stored beside linking's
    records (``names.json``), so a cold question decodes neither the records nor imports the
    record types or linking itself; only that names module is loaded."""
    SearchEngine(library).close()
    heavy = ("regelwerk.ingest.model.records", "regelwerk.index.rules", "regelwerk.index.linking.link",
             "regelwerk.index.linking.keyword", "msgspec")
    stdout, loaded = cli_imports(library.home, ["search", "Wann darf ich eine Hexerei wirken?"], heavy)
    assert "307.1" in stdout
    assert [m for m in loaded if m != "regelwerk.index.linking.keyword_index"] == []


def test_the_names_file_translates_as_the_keyword_records_do(library: Corpus) -> None:
    from regelwerk.index.linking.keyword_index import keyword_index, keyword_names
    from regelwerk.index.terms.aliases import load_aliases

    index, names = keyword_index(library), keyword_names(library)
    words = {w for k in index.keywords() for w in (k.en, *k.german_names)}
    words |= {a.word for a in load_aliases()} | {"Giftmarken", "Bündnisfähigkeiten", "Kampfschadensschritt"}
    assert len(words) > 300
    for word in sorted(words):
        for src in ("de", "en"):
            assert names.translate(word, src) == index.translate(word, src), (word, src)


def rank_of(engine: SearchEngine, query: str, number: str) -> int:
    hits = engine.search(query, limit=40).hits
    return next((i for i, h in enumerate(hits) if h.current == number), len(hits))


def test_a_question_naming_a_glossary_term_also_searches_its_definition(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The glossary says of 'Instead': "Effects that use the word 'instead' are replacement
    effects"; the rule defining replacement effects by that word (614.1a) rises when the
    definition's words join the question. (How players ask for each rule, `asked`, puts it first
    on its own: switched off here, to see the definition's part.)"""
    from regelwerk.index.search import feedback, fusion

    monkeypatch.setitem(fusion.ASKED, "weight", 0.0)
    question = "what does instead mean on a card"
    with_definition = rank_of(engine, question, "614.1a")
    monkeypatch.setattr(feedback, "GLOSS", 0.0)
    assert with_definition < rank_of(engine, question, "614.1a")


def test_a_texts_terms_are_cached_per_analyzer_function_not_per_engine() -> None:
    """Re-ranking's term sets of hit texts are cached by text, language and the analyzer's
    function: two analyzers never share an entry, and an engine's bound analyzer is not kept
    (the cache would keep the engine and its searcher alive)."""
    from regelwerk.index.search import rerank

    class Engine:
        def analyze(self, lang: str, word: str) -> frozenset[str]:
            return frozenset({word.lower()})

    def upper(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.upper()})

    engine = Engine()
    text = "Trample damage goes through"
    assert rerank.text_terms(text, "en", engine.analyze) == {"trample", "damage", "goes", "through"}
    assert rerank.text_terms(text, "en", upper) == {"TRAMPLE", "DAMAGE", "GOES", "THROUGH"}
    assert rerank.text_terms(text, "en", Engine().analyze) == {"trample", "damage", "goes", "through"}
    assert not any(getattr(key[2], "__self__", None) is engine for key in rerank._TEXT_TERMS)


def test_a_texts_word_sequence_is_cached_per_analyzer_function() -> None:
    """The phrase lift reads a hit text's terms word by word through a cache keyed like
    `rerank.text_terms`: stop words left out, two analyzers never sharing an entry, and no
    engine kept; the lift finds the phrase in the cached sequence."""
    from regelwerk.index.search import rerank

    class Engine:
        def analyze(self, lang: str, word: str) -> frozenset[str]:
            return frozenset() if word == "the" else frozenset({word.lower()})

    def upper(lang: str, word: str) -> frozenset[str]:
        return frozenset({word.upper()})

    engine = Engine()
    text = "Trample damage goes through the blocker"
    want = [{"trample"}, {"damage"}, {"goes"}, {"through"}, {"blocker"}]
    assert rerank.text_sequence(text, "en", engine.analyze) == want
    assert rerank.text_sequence(text, "en", upper)[4] == {"THE"}
    assert not any(getattr(key[2], "__self__", None) is engine for key in rerank._TEXT_SEQUENCES)
    hit = {"language": "en", "title": "Trample", "text": text}
    boosts = {"title": 4.0, "text": 1.0}
    through = [frozenset({"through"}), frozenset({"blocker"})]
    assert rerank.phrase_factor(hit, through, Engine().analyze, boosts) == 1 + rerank.PHRASE / 4
    assert rerank.phrase_factor(hit, through[::-1], Engine().analyze, boosts) == 1.0


def test_english_players_words_search_the_crs_words(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """aliases.tsv's English players' words and abbreviations reach the CR's English words, not
    only the German names of their term, and are never corrected as typos ("scoops" is no
    misspelt "stops"). (FTS5's second opinion, `fusion`, knows no players' words: with it 704.3
    is fourth for "SBAs"; searching it with the CR's words for them too moved as many dev
    questions down as up, 3 and 3, so the engine's own ranking is asked here.)"""
    from regelwerk.index.search import fusion

    monkeypatch.setattr(fusion, "ENGLISH", {**fusion.ENGLISH, "weight": 0.0})
    assert "704.3" in currents(engine, "when are SBAs checked", n=3)
    assert "603.6c" in currents(engine, "LTB trigger", n=5)
    found = engine.search("what happens when a player scoops")
    assert not any("stops" in str(n) for n in found.notes)
    assert "104.3a" in [h.current for h in found.hits[:3]]
