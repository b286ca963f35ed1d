"""``card = "..."`` entries take their printed fields from an injected card lookup (the card
database of a later issue); without one they are refused with a clear message."""

from __future__ import annotations

import pytest
from engine_helpers import PLAYERS, attack

from regelwerk.engine.errors import ScenarioError
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import parse_scenario

HEAD = 'id = "x"\nsource = "s"\ntitle = { de = "T", en = "T" }\n' + PLAYERS.format(life=20, poison=0)
WURM = '[[cards]]\nid = "wurm"\ncard = "Craw Wurm"\nowner = "a"\n'


class Cards:
    """A stand-in for the card database: printed fields by English name."""

    def card_fields(self, name: str) -> dict[str, object] | None:
        if name != "Craw Wurm":
            return None
        return {"name_en": "Craw Wurm", "name_de": "Tatzelwurm", "types": ["Creature"], "pt": "6/4"}


def _text(card: str = WURM) -> bytes:
    return f'{HEAD}{card}{attack("wurm")}[[actions]]\ndo = "damage"\n[expect]\nlife = {{ b = 14 }}\n'.encode()


def test_printed_fields_come_from_the_lookup() -> None:
    result = run_scenario(parse_scenario(_text(), "t.toml", Cards()), "de")
    assert result.passed, result.mismatches
    assert result.steps[0].text == "Anna greift Bernd mit dem Tatzelwurm an."


def test_fields_written_in_the_file_win() -> None:
    s = parse_scenario(_text(WURM + 'pt = "3/3"\n'), "t.toml", Cards())
    assert s.cards[0].pt == "3/3"


def test_unknown_card_or_no_lookup_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(_text(WURM.replace("Craw Wurm", "Craw Wrum")), "t.toml", Cards())
    assert err.value.where == "cards[0].card" and "'Craw Wrum'" in str(err.value)
    with pytest.raises(ScenarioError) as err:
        parse_scenario(_text(), "t.toml")
    assert "a card lookup" in err.value.expected
