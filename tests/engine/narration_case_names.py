"""Names and parameter decoding for the table of every sentence form (narration_cases.toml)."""

from __future__ import annotations

from typing import Any

from regelwerk.engine.events import Label, Ref, Share
from regelwerk.engine.narration import Name

NAMES = {
    "robert": Name("Robert", "Robert", pronoun_de="er", pronoun_en="he"),
    "susanne": Name("Susanne", "Susanne", pronoun_de="sie", pronoun_en="she"),
    "klaus": Name("Klaus", "Klaus", pronoun_de="er", pronoun_en="he"),
    "wurm": Name("Tatzelwurm", "Craw Wurm", "m"),
    "boar": Name("Düsterwaldkeiler", "Durkwood Boars", "m"),
    "bears": Name("Grizzlybären", "Grizzly Bears", "pl"),
    "herald": Name("Herold der Qualen", "Herald of Torment", "m"),
    "efreet": Name("Regenbogen-Ifrit", "Rainbow Efreet", "m"),
    "capsize": Name("Kentern", "Capsize", "name", genitive="n"),
    "soldier": Name(
        "Soldat", "Soldier", "m", (("acc", "Soldaten"), ("dat", "Soldaten"), ("gen", "Soldaten")), suffix=" 1"
    ),
}


def decode(value: Any) -> Any:
    """ "@id" -> Ref, {de, en} -> Label, {target, n} -> Share, lists and tables element-wise."""
    if isinstance(value, str) and value.startswith("@"):
        return Ref(value[1:])
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict) and "de" in value:
        return Label(value["de"], value["en"], bool(value.get("keyword", False)))
    if isinstance(value, dict) and set(value) == {"target", "n"}:
        return Share(value["target"], int(value["n"]))
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    return value
