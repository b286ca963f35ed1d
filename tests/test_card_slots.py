"""The cards' slot-by-slot names of rules concepts (tools/card_slots.py) and the lexicon entries
the builder makes of them (build_lexicon.add_slot_entries)."""

from __future__ import annotations

from card_slots import counter_slots, keyword_slots, slot_names, type_slots


def card(**fields: object) -> dict[str, object]:
    return {"supertypes": [], "types": [], "subtypes": [], "keywords": None, "text": "", **fields}


def test_type_lines_pair_slot_by_slot() -> None:
    elf = card(type="Legendary Creature — Elf Warrior", supertypes=["Legendary"], types=["Creature"],
               subtypes=["Elf", "Warrior"])
    assert list(type_slots(elf, {"type": "Legendäre Kreatur — Elf, Krieger"})) == [
        ("supertype", "Legendäre", "Legendary"),
        ("type", "Kreatur", "Creature"),
        ("subtype", "Elf", "Elf"),
        ("subtype", "Krieger", "Warrior"),
    ]
    # one German word for two English types pairs nothing on the left; one subtype to two does not pair
    wizard = card(type="Artifact Creature — Human Wizard", types=["Artifact", "Creature"],
                  subtypes=["Human", "Wizard"])
    assert list(type_slots(wizard, {"type": "Artefaktkreatur — Zauberer"})) == []
    # an old type line without a dash gives nothing
    assert list(type_slots(elf, {"type": "Beschwörung eines Elfen"})) == []
    plane = card(type="Plane — Alara", types=["Plane"], subtypes=["Alara"])
    assert list(type_slots(plane, {"type": "Welt — Alara"})) == [("type", "Welt", "Plane")]


def test_keyword_lines_pair_each_keyword_with_its_cost_cut_off() -> None:
    knight = card(keywords=["Flying", "Vigilance", "Equip"],
                  text="Flying, vigilance\nEquip {2} ({2}: Attach to target creature.)\nDraw a card.")
    german = {"text": "Fliegend, Wachsamkeit\nAusrüsten {2} ({2}: Lege sie an.)\nZiehe eine Karte."}
    assert list(keyword_slots(knight, german)) == [
        ("keyword", "Fliegend", "Flying"),
        ("keyword", "Wachsamkeit", "Vigilance"),
        ("keyword", "Ausrüsten", "Equip"),
    ]
    # a keyword action alone on its line, with its full stop
    seer = card(keywords=["Scry", "Investigate"], text="Scry 2.\nInvestigate.")
    assert list(keyword_slots(seer, {"text": "Hellsicht 2.\nStelle Nachforschungen an."})) == [
        ("keyword", "Hellsicht", "Scry"),
        ("keyword", "Stelle Nachforschungen an", "Investigate"),
    ]
    # a line that is not only keywords, or a German line with another shape, pairs nothing
    assert list(keyword_slots(card(keywords=["Flying"], text="Flying\nDraw a card."),
                              {"text": "Fliegend und noch etwas, sonst\nZiehe eine Karte."})) == []
    assert list(keyword_slots(card(keywords=["Shroud"], text="Shroud"),
                              {"text": "Killerinsekten können nicht Ziel von Zaubersprüchen sein."})) == []


def test_counter_lines_pair_one_kind_with_one_marke() -> None:
    bomb = card(text="Put a charge counter on this artifact.\nPut two +1/+1 counters on target creature.")
    german = {"text": "Lege eine Ladungsmarke auf dieses Artefakt.\nLege zwei +1/+1-Marken auf eine Kreatur."}
    assert list(counter_slots(bomb, german)) == [
        ("counter", "Ladungsmarke", "charge counter"),
        ("counter", "+1/+1-Marke", "+1/+1 counter"),
    ]
    two = card(text="Remove a time counter and put a charge counter on it.")
    german = {"text": "Entferne eine Zeitmarke und lege eine Ladungsmarke darauf."}
    assert list(counter_slots(two, german)) == []


def test_slot_names_keep_what_the_printings_agree_on() -> None:
    found = [("subtype", "Krieger", "Warrior")] * 40 + [("subtype", "Kämpfer", "Warrior")] * 3
    found += [("subtype", "Soldat", "Warrior")] * 2 + [("subtype", "Soldat", "Soldier")] * 60
    found += [("subtype", "Räuber", "Rogue")] * 3 + [("subtype", "Räuber", "Pirate")] * 3
    found += [("keyword", "Fliegend", "Flying")]
    kept = slot_names(found)
    # a rarer name of Warrior (3 of 45, an older printing's) is kept; Soldat is Soldier, not
    # also Warrior (2 of its 62); Räuber names two concepts half and half: neither; once: no
    assert kept == {
        ("subtype", "Krieger", "Warrior"): 40,
        ("subtype", "Kämpfer", "Warrior"): 3,
        ("subtype", "Soldat", "Soldier"): 60,
    }


def test_slot_entries_are_curated_where_no_term_table_speaks() -> None:
    from build_lexicon import add_slot_entries

    entries = {
        ("welt", "world"): (1.0, "terms", None),
        ("krieger", "warrior"): (0.98, "mtgjson", 0.98),
        ("sage", "historic"): (0.09, "mtgjson", 0.09),
    }
    added, promoted = add_slot_entries(entries, [("welt", "plane"), ("krieger", "warrior"), ("sage", "saga")])
    assert (added, promoted) == (1, 1)
    assert ("welt", "plane") not in entries  # the term tables' word keeps its senses
    assert entries[("krieger", "warrior")] == (1.0, "cards", 0.98)
    assert entries[("sage", "saga")] == (1.0, "cards", None)
    assert entries[("sage", "historic")] == (0.09, "mtgjson", 0.09)
