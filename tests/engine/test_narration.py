"""Narration: German grammar (articles, cases, plural verbs) and English, from the same events."""

from __future__ import annotations

from regelwerk.engine.events import Event, Label, Ref, Share
from regelwerk.engine.messages import MESSAGES, keyword_de
from regelwerk.engine.narration import Name, render
from regelwerk.engine.rulebook import NullRuleBook, TextRuleBook
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import resolve_scenario

NAMES = {
    "robert": Name("Robert", "Robert", pronoun_de="er", pronoun_en="he"),
    "susanne": Name("Susanne", "Susanne", pronoun_de="sie", pronoun_en="she"),
    "wurm": Name("Tatzelwurm", "Craw Wurm", "m"),
    "boar": Name("Düsterwaldkeiler (A)", "Durkwood Boars (A)", "m"),
    "bears": Name("Grizzlybären", "Grizzly Bears", "pl"),
    "herald": Name("Herold der Qualen", "Herald of Torment", "m"),
}


def test_the_banding_sentence_reads_like_a_judge() -> None:
    e = Event(
        "702.22j",
        "assign_banding_defender",
        {
            "chooser": Ref("susanne"),
            "controller": Ref("robert"),
            "card": Ref("wurm"),
            "split": [Share("boar", 3), Share("robert", 0)][:1],
        },
    )
    assert render(e, "de", NAMES) == (
        "Susanne kontrolliert einen Blocker mit Bündnisfähigkeit, daher verteilt sie – nicht Robert – "
        "den Kampfschaden des Tatzelwurms: 3 auf den Düsterwaldkeiler (A)."
    )
    assert render(e, "en", NAMES) == (
        "Susanne controls a blocker with banding, so she – not Robert – divides Craw Wurm’s combat "
        "damage: 3 to Durkwood Boars (A)."
    )


def test_cases_genitive_and_plural_verbs() -> None:
    e = Event(
        "510.2", "combat_damage_creature", {"source": Ref("bears"), "card": Ref("wurm"), "n": 1, "total": 1}
    )
    assert (
        render(e, "de", NAMES)
        == "Die Grizzlybären fügen dem Tatzelwurm 1 Kampfschadenspunkt zu (insgesamt 1 Schaden markiert)."
    )
    e2 = Event("608.2", "resolves_trigger", {"source": Ref("herald"), "ability": Label("Flug", "flight")})
    assert render(e2, "de", NAMES) == "Die Fähigkeit „Flug“ des Herolds der Qualen wird verrechnet."
    assert render(e2, "en", NAMES) == "Herald of Torment’s flight ability resolves."


def test_every_template_has_both_languages_with_the_same_placeholders() -> None:
    import string

    for key, (de, en) in MESSAGES.items():
        fields_de = {f for _, f, _, _ in string.Formatter().parse(de) if f}
        fields_en = {f for _, f, _, _ in string.Formatter().parse(en) if f}
        assert fields_en <= fields_de | {"reason"}, key
        assert de != en, key


def test_keyword_names_in_german() -> None:
    assert keyword_de("protection from red") == "Schutz vor Rot"
    assert keyword_de("bushido 2") == "Bushido 2"
    assert keyword_de("swampwalk") == "Sumpftarnung"


def test_trace_renders_in_both_languages_with_titles(rulebook) -> None:  # type: ignore[no-untyped-def]
    s = resolve_scenario("banding-tatzelwurm")
    de = run_scenario(s, "de", rulebook)
    en = run_scenario(s, "en", rulebook)
    assert [x.rule for x in de.steps] == [x.rule for x in en.steps]
    assert de.steps[0].text == "Robert greift Susanne mit dem Tatzelwurm an."
    assert en.steps[0].text == "Robert attacks Susanne with Craw Wurm."
    if isinstance(rulebook, TextRuleBook):
        assert de.steps[0].title == "Declare Attackers Step"  # German falls back to English
        assert next(x.title for x in en.steps if x.rule == "702.22j") == "Banding"
    assert run_scenario(s, "de", NullRuleBook()).steps[0].title is None
