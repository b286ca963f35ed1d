"""Narration: German grammar (articles, cases, plural verbs) and English, from the same events."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from narration_case_names import NAMES as CASE_NAMES
from narration_case_names import decode

from regelwerk.engine.catalog import catalog
from regelwerk.engine.events import Event, Label, Ref, Share
from regelwerk.engine.keyword_names import counters_label, keyword_de
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
    "finks": Name("Küchenhutzel", "Kitchen Finks", "pl"),
    "tajic": Name("Tajic, Schwert der Legion", "Tajic, Blade of the Legion"),
    "efreet": Name("Regenbogen-Ifrit", "Rainbow Efreet", "m"),
    "monk": Name("Mönch", "Monk", "m", suffix=" 1"),
    "konda": Name("Kondas Hatamoto", "Konda's Hatamoto"),
    "dromoka": Name("Dromoka die Ewige", "Dromoka, the Eternal", forms_de=(("dat", "Dromoka der Ewigen"),)),
    "bolt": Name("Blitzschlag", "Lightning Bolt", "name", genitive="m"),
    "soldier": Name(
        "Soldat", "Soldier", "m", (("acc", "Soldaten"), ("dat", "Soldaten"), ("gen", "Soldaten")), suffix=" 2"
    ),
}

# (event key, params, German, English): sentences a judge had to correct before.
FIXED = [
    # a permanent spell is cast with its article, an instant or sorcery bare
    (
        "cast",
        {"player": Ref("robert"), "card": Ref("finks")},
        "Robert wirkt die Küchenhutzel.",
        "Robert casts Kitchen Finks.",
    ),
    (
        "cast",
        {"player": Ref("robert"), "card": Ref("herald")},
        "Robert wirkt den Herold der Qualen.",
        "Robert casts Herald of Torment.",
    ),
    (
        "cast_target",
        {"player": Ref("susanne"), "card": Ref("bolt"), "target": Ref("bears")},
        "Susanne wirkt Blitzschlag mit den Grizzlybären als Ziel.",
        "Susanne casts Lightning Bolt, targeting Grizzly Bears.",
    ),
    # a proper name with a declined part: "mit Dromoka der Ewigen", not "mit Dromoka die Ewige"
    (
        "declare_attackers",
        {"player": Ref("robert"), "defender": Ref("susanne"), "cards": [Ref("dromoka")]},
        "Robert greift Susanne mit Dromoka der Ewigen an.",
        "Robert attacks Susanne with Dromoka, the Eternal.",
    ),
    (
        "trigger",
        {"ability": Label("Kräftigung 2", "bolster 2"), "source": Ref("dromoka")},
        "Die Fähigkeit „Kräftigung 2“ von Dromoka der Ewigen löst aus.",
        "Dromoka, the Eternal’s ability “bolster 2” triggers.",
    ),
    (
        "spell_enters",
        {"card": Ref("finks"), "player": Ref("robert")},
        "Die Küchenhutzel werden verrechnet und kommen unter Roberts Kontrolle ins Spiel.",
        "Kitchen Finks resolves and enters the battlefield under Robert’s control.",
    ),
    (
        "trigger",
        {"source": Ref("finks"), "ability": Label("Beharrlichkeit", "persist", keyword=True)},
        "Die Fähigkeit „Beharrlichkeit“ der Küchenhutzel löst aus.",
        "Kitchen Finks’ persist ability triggers.",
    ),
    (
        "trigger",
        {"source": Ref("finks"), "ability": Label("2 Lebenspunkte", "gain 2 life")},
        "Die Fähigkeit „2 Lebenspunkte“ der Küchenhutzel löst aus.",
        "Kitchen Finks’ ability “gain 2 life” triggers.",
    ),
    (
        "dies_damage",
        {"card": Ref("bears"), "damage": 2, "toughness": 2},
        "Die Grizzlybären haben tödlichen Schaden (2 Schadenspunkte bei Widerstandskraft 2) "
        "und werden zerstört.",
        "Grizzly Bears has lethal damage marked (2 damage, toughness 2) and is destroyed.",
    ),
    (
        "combat_damage_player",
        {"source": Ref("tajic"), "player": Ref("susanne"), "n": 1, "life": 1},
        "Tajic, Schwert der Legion, fügt Susanne 1 Punkt Kampfschaden zu; Susanne hat jetzt 1 Lebenspunkt.",
        "Tajic, Blade of the Legion, deals 1 combat damage to Susanne; Susanne is at 1 life.",
    ),
    (
        "phases_out",
        {"card": Ref("efreet")},
        "Der Regenbogen-Ifrit phast aus: Er bleibt im Spiel, wird aber so behandelt, als gäbe es ihn nicht.",
        "Rainbow Efreet phases out: it stays on the battlefield but is treated as though it doesn’t exist.",
    ),
    (
        "resolves_trigger",
        {"source": Ref("monk"), "ability": Label("Bravour", "prowess", keyword=True)},
        "Die Fähigkeit „Bravour“ des Mönchs 1 wird verrechnet.",
        "Monk 1’s prowess ability resolves.",
    ),
    (
        "token_created",
        {"card": Ref("soldier"), "player": Ref("robert"), "pt": "1/1"},
        "Ein 1/1 Soldat-Spielstein (Soldat 2) kommt unter Roberts Kontrolle ins Spiel.",
        "Robert creates a 1/1 Soldier token (Soldier 2).",
    ),
    (
        "phases_in",
        {"card": Ref("efreet")},
        "Der Regenbogen-Ifrit phast ein.",
        "Rainbow Efreet phases in.",
    ),
    (
        "assign_trample",
        {
            "chooser": Ref("robert"),
            "card": Ref("wurm"),
            "player": Ref("susanne"),
            "blockers": [Ref("boar")],
            "split": [Share("boar", 4), Share("susanne", 2)],
        },
        "Robert weist dem Blocker des Tatzelwurms tödlichen Schaden zu und den Rest wegen Trampelschaden "
        "Susanne: 4 auf den Düsterwaldkeiler (A) und 2 auf Susanne.",
        "Robert assigns lethal damage to Craw Wurm’s blocker and, because of trample, the rest to Susanne: "
        "4 to Durkwood Boars (A) and 2 to Susanne.",
    ),
    (
        "wins",
        {"player": [Ref("robert")]},
        "Robert gewinnt das Spiel.",
        "Robert wins the game.",
    ),
    (
        "attackers_tap",
        {"player": Ref("robert"), "cards": [Ref("bears")]},
        "Robert tappt die Grizzlybären als Angreifer.",
        "Robert taps Grizzly Bears as an attacker.",
    ),
    (
        "second_damage_step",
        {"cards": [Ref("bears")]},
        "Zweites Kampfschadensegment: Die Grizzlybären fügen Kampfschaden zu.",
        "Second combat damage step: Grizzly Bears deals combat damage.",
    ),
    (
        "too_many_blockers",
        {"card": Ref("konda"), "n": 1},
        "Kondas Hatamoto kann nicht von mehr als einer Kreatur geblockt werden.",
        "Konda’s Hatamoto can’t be blocked by more than one creature.",
    ),
    (
        "cleanup_effects",
        {"cards": [], "n": 1},
        "Aufräumen: Es endet ein Effekt „bis zum Ende des Zuges“.",
        "Cleanup: 1 “until end of turn” effect ends.",
    ),
    (
        "destroyed",
        {"card": Ref("wurm"), "owner": Ref("robert")},
        "Der Tatzelwurm wird zerstört und auf Roberts Friedhof gelegt.",
        "Craw Wurm is destroyed and put into Robert’s graveyard.",
    ),
    (
        "battle_cry",
        {"source": Ref("herald"), "cards": [Ref("soldier"), Ref("tajic")]},
        "Schlachtruf des Herolds der Qualen: Jede andere angreifende Kreatur erhält +1/+0 bis zum Ende des "
        "Zuges (der Soldat 2 und Tajic, Schwert der Legion).",
        "Herald of Torment’s battle cry: each other attacking creature gets +1/+0 until end of turn "
        "(Soldier 2 and Tajic, Blade of the Legion).",
    ),
    (
        "bloodthirst_yes",
        {"card": Ref("bears"), "n": 2},
        "Ein Gegner hat in diesem Zug Schaden erlitten, daher kommen die Grizzlybären mit zwei +1/+1-Marken "
        "ins Spiel (Blutdurst).",
        "An opponent was dealt damage this turn, so Grizzly Bears enters with two +1/+1 counters "
        "(bloodthirst).",
    ),
]


@pytest.mark.parametrize(
    ("key", "params", "de", "en"), FIXED, ids=[f"{row[0]}-{i}" for i, row in enumerate(FIXED)]
)
def test_fixed_sentences(key: str, params: dict[str, object], de: str, en: str) -> None:
    e = Event("0", key, dict(params))
    assert render(e, "de", NAMES) == de
    assert render(e, "en", NAMES) == en


@pytest.mark.parametrize(
    ("kind", "n", "de", "en"),
    [
        ("flying", 1, "eine Fliegend-Marke", "a flying counter"),  # as Luminous Broodmoth (IKO) prints it
        ("first strike", 2, "zwei Erstschlag-Marken", "two first strike counters"),
        ("+1/+1", 5, "fünf +1/+1-Marken", "five +1/+1 counters"),
        ("+1/+1", 12, "12 +1/+1-Marken", "12 +1/+1 counters"),
        ("-1/-1", 1, "eine -1/-1-Marke", "a -1/-1 counter"),
    ],
)
def test_counters_are_named_as_german_cards_print_them(kind: str, n: int, de: str, en: str) -> None:
    label = counters_label(kind, n)
    assert (label.de, label.en) == (de, en)


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
        == "Die Grizzlybären fügen dem Tatzelwurm 1 Punkt Kampfschaden zu (markierter Schaden insgesamt: 1)."
    )
    e2 = Event(
        "608.2",
        "resolves_trigger",
        {"source": Ref("herald"), "ability": Label("Flug", "flying", keyword=True)},
    )
    assert render(e2, "de", NAMES) == "Die Fähigkeit „Flug“ des Herolds der Qualen wird verrechnet."
    assert render(e2, "en", NAMES) == "Herald of Torment’s flying ability resolves."


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


# --- every sentence form, in both languages -------------------------------------------------------

CASES_FILE = Path(__file__).with_name("narration_cases.toml")
CASES = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["key"] for c in CASES])
def test_every_sentence_form(case: dict[str, Any]) -> None:
    """narration_cases.toml holds one reviewed sentence per event key, German and English."""
    params = {k: decode(v) for k, v in case["params"].items()}
    event = Event("0", case["key"], params)
    assert render(event, "de", CASE_NAMES) == case["de"]
    assert render(event, "en", CASE_NAMES) == case["en"]


def test_the_table_covers_every_key_of_the_catalogs() -> None:
    assert sorted(c["key"] for c in CASES) == sorted(catalog("de")["messages"])


def test_spells_are_named_without_article_in_german() -> None:
    trace = [s.text for s in run_scenario(resolve_scenario("buyback-capsize"), "de").steps]
    assert "Robert wirkt Kentern mit dem Serra-Engel als Ziel." in trace
    assert "Kentern wird verrechnet." in trace
    assert not any("das kentern" in t.lower() for t in trace)
    assert "Robert bezahlt beim Wirken von Kentern die Rückkaufkosten." in trace
    visions = [
        s.text for s in run_scenario(resolve_scenario("basic-landcycling-traumatic-visions"), "de").steps
    ]
    assert "Robert aktiviert die Fähigkeit der Traumatischen Visionen." in visions


def test_no_developer_words_in_german_traces() -> None:
    from regelwerk.engine.scenario import load_packaged

    for s in load_packaged():
        for step in run_scenario(s, "de").steps:
            assert "Seed" not in step.text and "seed" not in step.text, (s.id, step.text)
