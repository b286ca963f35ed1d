"""Query understanding: the lexicon, language detection, intents and German->English reading."""

from __future__ import annotations

import re

import pytest

from regelwerk.index.search.analysis import DE_STOP
from regelwerk.index.search.lexicon import Lexicon, lexicon
from regelwerk.index.search.question import cognate, intents, language, read
from tests.conftest import CORPUS, NEEDS_SHARED


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    found = lexicon()
    assert found is not None, "data/lexicon/*.tsv ship with the package"
    return found


ENGLISH_WORDS = {"creature", "block", "tapped", "graveyard", "land", "mulligan", "can", "cast", "sorcery"}


def english_word(word: str) -> bool:
    return word.lower() in ENGLISH_WORDS


def test_the_lexicon_says_where_it_comes_from(lex: Lexicon) -> None:
    meta = lex.meta()
    assert int(meta["model_entries"]) > 1000
    assert int(meta["line_pairs"]) > 30000


@pytest.mark.parametrize(
    ("word", "lemma"),
    [
        ("Bibliotheken", "bibliothek"),
        ("Friedhöfe", "friedhof"),
        ("Friedhoefe", "friedhof"),
        ("Kreaturen", "kreatur"),
    ],
)
def test_forms_find_their_lemma(lex: Lexicon, word: str, lemma: str) -> None:
    assert lex.lemma(word) == lemma


@pytest.mark.parametrize(
    ("lemma", "english"),
    [
        ("bibliothek", "library"),
        ("friedhof", "graveyard"),
        ("verrechnen", "resolve"),
        ("stapel", "stack"),
        ("spielstein", "token"),
        ("getappt", "tap"),
        ("verteidigend", "defend"),  # learned from the cards only
    ],
)
def test_rules_words_translate(lex: Lexicon, lemma: str, english: str) -> None:
    assert english in [t.en for t in lex.translations(lemma)]


def test_learned_translations_carry_probabilities(lex: Lexicon) -> None:
    learned = [t for t in lex.translations("lebenspunkt") if t.source == "mtgjson"]
    assert learned and all(0 < t.p <= 1 for t in learned)
    assert learned[0].en == "life"


def test_compounds_split_against_the_lexicon(lex: Lexicon) -> None:
    assert lex.split("Kampfschadensschritt") == ("kampfschaden", "schritt")
    assert lex.split("Bibliothek") == ()  # known whole: not split


def test_a_compound_head_may_drop_its_final_e(lex: Lexicon) -> None:
    # "Farb-paar", "Münz-werfen": the first part is "Farbe", "Münze" without its e
    assert lex.split("Farbpaar") == ("farbe", "paar")
    assert lex.split("Münzwerfen") == ("munze", "werfen")
    # a last part keeps its e ("zugleich" is no "Zug-Leiche"), and a head without its e
    # before a part that starts with e is a participle ("dröhnende": no "Drohne-Ende")
    assert lex.split("zugleich") == ()
    assert lex.split("Dröhnende") == ()


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("Wann darf ich ein Land spielen", "de"),
        ("Friedhof", "de"),
        ("legendare kreatur zweimal im spiel", "de"),
        ("can a tapped creature block", "en"),
        ("graveyard", "en"),
    ],
)
def test_the_language_is_decided_by_the_whole_query(lex: Lexicon, query: str, lang: str) -> None:
    assert language(query.split(), lex, english_word) == lang


@pytest.mark.parametrize(
    ("query", "lang"),
    [("was bedeutet stirbt", "de"), ("wo kommt die Karte hin", "de"), ("what was the rule", "en")],
)
def test_a_function_word_of_both_languages_says_neither(lex: Lexicon, query: str, lang: str) -> None:
    """"was" is a German and an English function word, and the English index knows it: it once
    counted as an English word, and "was bedeutet stirbt" (one German content word) tied and
    went to English; "bedeutet" and "wo" are German question words (markers) now."""
    index_knows = {"was", "what", "the", "rule", "die", "hin"}
    assert language(query.split(), lex, lambda w: english_word(w) or w.lower() in index_knows) == lang


def test_question_words_are_intents_not_terms() -> None:
    found, rest = intents(
        ["Was", "passiert", "wenn", "ich", "aus", "einer", "leeren", "Bibliothek", "ziehen", "muss"]
    )
    assert found == ("consequence", "must")
    assert "Was" not in rest and "muss" not in rest and "Bibliothek" in rest
    assert intents(["how", "many", "lands", "can", "I", "play"])[0] == ("count", "may")


def test_a_german_question_becomes_a_weighted_english_query(lex: Lexicon) -> None:
    reading = read("Wann darf ich ein Land spielen", english_word, DE_STOP, lex)
    assert reading.lang == "de"
    assert set(reading.intents) == {"time", "may"}
    assert reading.english["land"] == 1.0
    assert "play" in reading.english
    assert all(0 < w <= 1 for w in reading.english.values())


def test_german_function_words_never_reach_english(lex: Lexicon) -> None:
    reading = read("Was passiert wenn die Kreatur den Friedhof verlässt", english_word, DE_STOP, lex)
    assert not {"die", "dies", "den", "was"} & set(reading.english)
    assert {"creature", "graveyard"} <= set(reading.english)


def test_german_stop_words_with_a_rules_meaning_are_read_not_dropped(lex: Lexicon) -> None:
    # the English analyzer keeps "during", "until", "each", "without": so does the German reading
    query = "Was passiert während jeder Spieler bis zum Ende ohne Karten zieht"
    reading = read(query, english_word, DE_STOP, lex)
    assert {"during", "each", "until", "without"} <= set(reading.english)
    assert not {"the", "what", "when"} & set(reading.english)
    # "andern" typed without its umlaut is the stop word "others", not "ändern" (change)
    assert "change" not in read("die andern Karten ziehen", english_word, DE_STOP, lex).english
    assert "change" in read("die Reihenfolge ändern", english_word, DE_STOP, lex).english


@pytest.mark.parametrize(
    ("word", "english"),
    [
        ("aktionen", "action"),
        ("statische", "static"),
        ("prioritat", "priority"),
        ("ignoriert", "ignore"),
        ("effekt", "effect"),
        ("instruktion", "instruction"),
        ("worden", None),  # "been": a stem of four letters is no loanword ("word")
        ("spieler", None),
    ],
)
def test_loanwords_are_read_as_the_english_word_they_are_spelt_as(word: str, english: str | None) -> None:
    known = {"action", "static", "priority", "ignore", "effect", "instruction", "word", "player"}
    assert cognate(word, lambda w: w in known) == english


@pytest.mark.parametrize(
    ("word", "english"),
    [
        ("proliferiere", "proliferate"),  # "ich proliferiere": the first person of a loanword in -ieren
        ("proliferiert", "proliferate"),
        ("gekickt", "kick"),  # a participle of an English verb
        ("ausphast", "phase"),  # behind a separable verb's particle ("phast aus")
        ("ausgephast", "phase"),
        ("kickt", None),  # no mark of a German verb: a bare stem is no loan verb
        ("gerest", None),  # "ge" and "t" around a stem of three letters
        ("gemillte", "mill"),  # a participle as an adjective ("die gemillte Karte")
        ("ausgephasten", "phase"),
        ("geplottete", "plot"),  # German doubles the consonant after a short vowel
        ("getappt", "tap"),
        ("gesetzte", None),  # no English verb "setz"
    ],
)
def test_english_verbs_the_lexicon_lacks_read_through_german_forms(word: str, english: str | None) -> None:
    from regelwerk.index.search.question import cognate, loan_verb

    known = {"proliferate", "kick", "phase", "rest", "mill", "plot", "tap", "set"}
    assert (cognate(word, lambda w: w in known) or loan_verb(word, lambda w: w in known)) == english


def test_an_english_word_compounded_with_german_is_read_in_its_parts(lex: Lexicon) -> None:
    from regelwerk.index.search.question import english_head

    assert not lex.knows("Kickerkosten") and not lex.split("Kickerkosten")
    known = {"kicker", "kick"}
    head = english_head(lex, "kickerkosten", lambda w: w in known)
    assert head is not None and head[0] == "kicker" and ("cost", 1.0) in head[1]
    reading = read("Kann ein Zauber mit Kickerkosten", lambda w: w.lower() in known, DE_STOP, lex)
    assert "kicker" in reading.untranslated and reading.english["cost"] == 1.0
    # a first part no English word, or a rest the lexicon does not translate: not split
    assert english_head(lex, "kickerkosten", lambda w: False) is None
    assert english_head(lex, "kickerxyzq", lambda w: w in known) is None


def test_punctuation_ends_the_clause_a_separable_verb_s_particle_ends(lex: Lexicon) -> None:
    from regelwerk.index.search.question import clause_breaks

    assert clause_breaks("legt den Namen fest: hat sie, und dann") == frozenset({3, 5})
    # "schlägt ... vor, darf ich": the comma ends "vorschlagen"'s clause ("vor" is no "before")
    reading = read("der Gegner schlägt eine Abkürzung vor, darf ich sie kürzen", english_word, DE_STOP, lex)
    assert "propose" in reading.english and "before" not in reading.english, reading.english
    # a relative clause between the verb and its particle does not end the verb's clause
    query = "Löst eine Fähigkeit, die auf Hellsicht reagiert, auch aus, wenn ich"
    reading = read(query, english_word, DE_STOP, lex)
    assert reading.english.get("trigger") == 1.0, reading.english
    # without the comma "vor" is followed by more of its clause: a preposition, as ever
    reading = read("der Gegner schlägt eine Abkürzung vor darf ich sie kürzen", english_word, DE_STOP, lex)
    assert "propose" not in reading.english


def test_an_untranslated_loanword_reaches_english(lex: Lexicon) -> None:
    assert not lex.knows("Duplikat")
    reading = read("Was passiert mit einem Duplikat", lambda w: w.lower() == "duplicate", DE_STOP, lex)
    assert "duplicate" in reading.english and "Duplikat" not in reading.untranslated


def test_function_words_are_no_compound_parts(lex: Lexicon) -> None:
    assert "nach" not in lex.split("Nachziehen")
    assert "zwischen" not in lex.split("Zwischenzug")


def test_an_english_query_is_not_translated(lex: Lexicon) -> None:
    reading = read("can a tapped creature block", english_word, DE_STOP, lex)
    assert reading.lang == "en" and reading.english == {}
    assert reading.intents == ("may",)


@pytest.mark.parametrize(
    ("typo", "form"),
    [("Spielstien", "spielstein"), ("Friedhoff", "friedhof"), ("Verzauberrung", "verzauberung")],
)
def test_german_typos_are_read_as_the_form_they_miss(lex: Lexicon, typo: str, form: str) -> None:
    assert lex.correct(typo) == form


@pytest.mark.parametrize("word", ["Wort", "nutzen", "behalte", "Spielstein", "Commander", "1000"])
def test_short_known_or_unrelated_words_are_no_typos(lex: Lexicon, word: str) -> None:
    # short German words lie one edit apart ("Wort"/"Wert"); known words are not typos
    assert lex.correct(word) is None


def test_a_typo_in_a_german_question_still_translates(lex: Lexicon) -> None:
    reading = read("was passiert mit einem Spielstien im Friedhoff", english_word, DE_STOP, lex)
    assert {"token", "graveyard"} <= set(reading.english)
    assert reading.untranslated == ()


@pytest.mark.parametrize(
    ("lang", "query", "cr"),
    [
        ("en", "does my spell fizzle", "doesn’t resolve"),
        ("en", "counters when a permanent changes zones", "moves from one zone to another"),
        ("en", "what happens if all players lose at the same time", "simultaneously"),
        ("de", "wann löst es aus wenn eine Kreatur ins Spiel kommt", "enters the battlefield"),
        ("de", "Einsatzverzoegerung", "continuously"),
        ("de", "eine Kreatur die ich gerade erst ausgespielt habe", "most recent turn"),
        ("en", "can my flyer be bounced back to hand", "flying"),
        ("en", "what if I loot with an empty library", "then discard a card"),
        ("de", "muss ich im Aufräumsegment auf sieben abwerfen", "maximum hand size"),
        ("de", "verpufft ein Zauber der nicht neutralisiert werden kann", "can’t be countered"),
    ],
)
def test_players_words_lead_to_the_crs_words(lex: Lexicon, lang: str, query: str, cr: str) -> None:
    from regelwerk.index.search import concepts

    assert cr in concepts.find(query.split(), lang, lex.lemma if lang == "de" else None)


@pytest.mark.parametrize(
    ("words", "cr"),
    [
        (["when", "are", "SBAs", "checked"], "state-based actions"),
        (["what", "does", "P", "T", "mean"], "power"),
        (["can", "I", "chump", "block", "with", "it"], "block"),
        (["is", "a", "clone", "a", "copy"], "copy"),
    ],
)
def test_english_aliases_are_concepts_of_english_questions(words: list[str], cr: str) -> None:
    """The English players' words of aliases.tsv ("SBA", "P/T") are written once and reach
    questions too; an ambiguous word's other sense does not ("counter" is not Counters)."""
    from regelwerk.index.search import concepts

    assert cr in concepts.find(words, "en")
    assert "counters" not in concepts.find(["can", "I", "counter", "that"], "en")
    assert concepts.find(["wann", "werden", "SBAs", "geprüft"], "de") == []  # German: the lexicon


def test_german_players_words_translate_through_the_lexicon(lex: Lexicon) -> None:
    """aliases.tsv's German players' words are term-table entries of the lexicon: an
    anglicism ("Stack", "gekillt"), a phrase ("P/T"), a German word for an English one."""
    for query, wanted in [
        ("was liegt auf dem Stack", {"stack"}),
        ("wohin kommt eine Kreatur die gekillt wird", {"destroy"}),
        ("was bedeutet P/T bei einer Kreatur", {"power", "toughness"}),
        ("Beschwörungskrankheit", {"summon", "sickness"}),
    ]:
        assert wanted <= set(read(query, english_word, DE_STOP, lex).english), query


@pytest.mark.parametrize(
    ("word", "english"),
    [("gemillt", "mill"), ("geexilt", "exile"), ("gesacct", "sacrifice"), ("gescryt", "scry"),
     ("gediscardet", "discard"), ("getargetet", "target")],
)
def test_english_verbs_conjugated_the_german_way_are_read(lex: Lexicon, word: str, english: str) -> None:
    """"gemillt" is millen (mill), not the typo "gekillt" (destroy) one letter away."""
    reading = read(f"eine Karte {word} wenn", english_word, DE_STOP, lex)
    assert english in reading.english and "destroy" not in reading.english, reading


def test_concepts_match_whole_phrases_in_their_language_only(lex: Lexicon) -> None:
    from regelwerk.index.search import concepts

    assert concepts.find(["the", "spell", "fizzles"], "de", lex.lemma) == []  # English row
    assert concepts.find(["kommt", "ins", "Haus"], "de", lex.lemma) == []  # not "ins Spiel kommt"
    # the longest phrase wins and its words are not read again ("empty library" is one idea)
    found = concepts.find(["draw", "from", "an", "empty", "library"], "en")
    assert found.count("library with no cards") == 1


def _concept_rows() -> list[list[str]]:
    from importlib import resources

    text = (resources.files("regelwerk.data") / "lexicon" / "concepts.tsv").read_text(encoding="utf-8")
    lines = text.splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith(("#", "lang\t"))]


def test_concept_rows_name_no_rule() -> None:
    """A row is players' usage, not an answer: no rule number on either side, no empty form."""
    rows = _concept_rows()
    assert len(rows) > 250
    for row in rows:
        assert len(row) == 3 and row[0] in ("de", "en"), row
        assert not re.search(r"\d{3}\.\d", row[1] + row[2]), row
        assert all(p.split() for p in row[1].split("|") + row[2].split("|")), row


@NEEDS_SHARED
def test_concepts_lead_to_words_of_the_comprehensive_rules() -> None:
    """Every CR side is written in the CR's own words (checked against the 2026-04-17 CR)."""
    text = (CORPUS / "en" / "MagicCompRules-20260417.txt").read_text(encoding="utf-8-sig").lower()
    words = set(re.findall(r"\w+", text))
    cr = {p for row in _concept_rows() for p in row[2].split("|")}
    assert not {p for p in cr if not set(re.findall(r"\w+", p.lower())) <= words}


def test_definition_questions_are_an_intent() -> None:
    assert intents(["was", "bedeutet", "sterben"])[0] == ("define",)
    found, rest = intents(["what", "does", "sacrifice", "mean"])
    assert "define" in found and rest == ["does", "sacrifice"]


@pytest.mark.parametrize(
    ("query", "english", "not_english"),
    [
        # a separable verb's particle at the end of its clause belongs to the verb
        ("wann löst eine Fähigkeit aus wenn eine Kreatur stirbt", "trigger", None),
        ("Erstschlag wer teilt zuerst Kampfschaden zu", "assign", None),
        # "mehr" after a negation in its clause is "no longer", not "more"
        ("Ausrüstung an etwas das keine Kreatur mehr ist", "longer", "more"),
        ("mehr Karten ziehen als in der Bibliothek sind", "more", "longer"),
        # "Spiel" alone is the game; "im Spiel" the battlefield
        ("verliert ein Spieler das Spiel mit 0 Lebenspunkten", "game", None),
        ("Kreatur kommt ins Spiel", "battlefield", None),
        # typed with an umlaut, "ändern" is no stop word "andern" (others)
        ("Reihenfolge der Karten im Friedhof ändern", "change", None),
    ],
)
def test_german_sentences_read_as_a_whole(
    lex: Lexicon, query: str, english: str, not_english: str | None
) -> None:
    reading = read(query, english_word, DE_STOP, lex)
    assert reading.english.get(english, 0.0) >= 0.9, reading.english
    if not_english is not None:
        assert not_english not in reading.english, reading.english


def test_a_sense_only_a_phrase_gives_counts_less_alone(lex: Lexicon) -> None:
    # "Spiel" alone: the game first, the battlefield (its sense in "im Spiel") behind it
    reading = read("wer beginnt das Spiel", english_word, DE_STOP, lex)
    assert reading.english["game"] > reading.english.get("battlefield", 0.0)
    # phrases are matched by their words' lemmas too ("das Spiel verlässt": das Spiel verlassen)
    reading = read("Spielstein der das Spiel verlässt", english_word, DE_STOP, lex)
    assert reading.english["battlefield"] == 1.0 and reading.english["leave"] == 1.0


def test_phrases_of_up_to_five_words_and_verb_first_are_read(lex: Lexicon) -> None:
    from regelwerk.index.search.question import CR_WORDS

    # a four-word name of the term tables (the old wording of exile) reads as a whole
    reading = read("darf ich die Karte aus dem Spiel entfernen", english_word, DE_STOP, lex)
    assert reading.english["exile"] == 1.0, reading.english
    assert "remove" not in reading.english and "game" not in reading.english
    # with the verb last, as a passive puts it: "entfernt" is an entry of its own (remove), not
    # read as "entfernen", so the builder keys the phrase by that form too (`inflected_phrases`)
    reading = read("wann wird eine Karte aus dem Spiel entfernt", english_word, DE_STOP, lex)
    assert reading.english["exile"] == 1.0, reading.english
    assert "remove" not in reading.english and "game" not in reading.english
    # a term phrase in a main clause's order: the verb first, matched by its lemma
    reading = read("die Kreatur kommt ins Spiel", english_word, DE_STOP, lex)
    assert reading.english["enter"] == 1.0 and reading.english["battlefield"] == 1.0
    reading = read("wann verliert man das Spiel", english_word, DE_STOP, lex)
    assert reading.english["lose"] == 1.0 and reading.english["game"] == 1.0
    # an idiom of cr_words.tsv reads as a whole, at its tier's weight: "an der Reihe" is the
    # turn, not a series; "nicht aktiv" the nonactive player, not the active one
    reading = read("wer ist an der Reihe", english_word, DE_STOP, lex)
    assert reading.english["turn"] == pytest.approx(CR_WORDS) and "series" not in reading.english
    reading = read("der nicht aktive Spieler", english_word, DE_STOP, lex)
    assert "nonactive" in reading.english and "active" not in reading.english
    # "der Reihe nach" is in turn order, not a series
    reading = read("handeln die Spieler der Reihe nach", english_word, DE_STOP, lex)
    assert reading.english["order"] == pytest.approx(CR_WORDS) and "series" not in reading.english


def test_separable_verbs_join_only_what_the_lexicon_knows(lex: Lexicon) -> None:
    from regelwerk.index.search.question import separable

    assert separable(["löst", "eine", "Fähigkeit", "aus"], lex) == ["auslosen", "eine", "Fähigkeit"]
    # a particle followed by more of its clause is a preposition
    assert separable(["kommt", "auf", "den", "Stapel"], lex) == ["kommt", "auf", "den", "Stapel"]
    # no verb the lexicon knows: left as typed
    assert separable(["Karte", "liegt", "oben", "auf"], lex) == ["Karte", "liegt", "oben", "auf"]


def test_variables_and_numbers_stay_as_typed(lex: Lexicon) -> None:
    reading = read("den Wert von X festlegen", english_word, DE_STOP, lex)
    assert "X" in reading.untranslated and reading.english.get("value") == 1.0


def test_compounds_speak_through_every_part(lex: Lexicon) -> None:
    from regelwerk.index.search.question import _translate

    # a part the lexicon knows as written is not read as a verb's stem ("Kampf": combat, not
    # "kämpfen": fight), and a compound never printed whole weighs all its parts alike
    english = dict(_translate(lex, "Kampfschritt"))
    assert english.get("combat") == 1.0 and english.get("step") == 1.0 and "fight" not in english


def test_a_german_word_the_index_knows_is_no_typo(lex: Lexicon) -> None:
    german = {"worden"}
    reading = read("ist die Kopie gewirkt worden", english_word, DE_STOP, lex, lambda w: w.lower() in german)
    assert "word" not in reading.english and "worden" in reading.untranslated


def test_the_crs_own_words_translate_at_their_weight(lex: Lexicon) -> None:
    from regelwerk.index.search.question import CR_WORDS

    reading = read("gibt es eine Ausnahme bei der Zahlung", english_word, DE_STOP, lex)
    assert reading.english["exception"] == pytest.approx(CR_WORDS)
    assert reading.english["payment"] == pytest.approx(CR_WORDS)
    # a curated pair keeps its own weight: "Regel" is words.tsv's rule, not a cr_words entry
    assert read("Regel", english_word, DE_STOP, lex).english["rule"] == pytest.approx(1.0)


def test_a_loanword_spelt_as_its_cr_translation_is_left_to_the_english_reading(lex: Lexicon) -> None:
    from regelwerk.index.search.question import _translate, spelt_alike

    assert spelt_alike("methode", "method") and spelt_alike("negative", "negative")
    assert not spelt_alike("ausnahme", "exception")
    # "Methode" and "Version" are cr_words entries spelt as their English word: read as typed
    # (the English text and the term names know them at full weight), not at CR_WORDS
    for word in ("Methode", "Version"):
        assert any(t.source == "cr" for t in lex.translations(word.lower()))
        reading = read(f"welche {word} gilt", english_word, DE_STOP, lex)
        assert word in reading.untranslated and word.lower() not in reading.english
    # inside a compound the entry still reads its part
    assert ("format", pytest.approx(0.5)) in _translate(lex, "Formatregeln")


def test_every_cr_words_entry_is_in_the_shipped_lexicon(lex: Lexicon) -> None:
    """data/terms/cr_words.tsv and data/lexicon/translations.tsv agree (rebuild the lexicon after
    editing the table; a word a curated table translates keeps its own senses), and no German
    form is a stop word (search drops those unread)."""
    from importlib import resources

    from regelwerk.index.search.question import _stop
    from regelwerk.ingest.model.fold import fold

    table = (resources.files("regelwerk.data") / "terms" / "cr_words.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in table.splitlines() if not line.startswith("#")]
    assert rows[0] == ["en", "count", "de"]
    missing, stops = [], []
    for en, count, de in rows[1:]:
        assert en.isalpha() and en.islower() and int(count) >= 1, (en, count)  # a word of the CR
        for form in de.split("|"):
            key = " ".join(fold(w.lower()) for w in form.split())
            found = lex.translations(key)
            if en not in [t.en for t in found] and not any(t.source in ("words", "terms") for t in found):
                missing.append(f"{form} -> {en}")
            if _stop(form, key, DE_STOP):  # as the reader drops them ("ändern" is no "andern")
                stops.append(form)
    assert not missing, f"not in the lexicon: {missing[:10]}"
    assert not stops, f"German stop words: {stops}"


def test_a_word_typed_with_its_umlaut_is_not_the_word_it_folds_to(lex: Lexicon) -> None:
    """"zählt" (count) folds to "zahlt" (pay): typed with its umlaut, or as "ae", it is read as
    itself; typed bare, as it always was (a keyboard without umlauts)."""
    for query in ("zählen Spielsteine als Karten", "Zaehlt ein Spielstein als Karte", "was wird gezählt"):
        reading = read(query, english_word, DE_STOP, lex)
        assert "count" in reading.english and "pay" not in reading.english, query
    assert "pay" in read("wann zahlt man die Kosten", english_word, DE_STOP, lex).english
    # "ändere" (change) folds to "andere" (other)
    assert "change" in read("ändere ich die Farbe", english_word, DE_STOP, lex).english
    assert "other" in read("eine andere Farbe", english_word, DE_STOP, lex).english
