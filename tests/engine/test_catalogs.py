"""The narration catalogs (data/narration/*.toml): both languages say everything, with the same
placeholders; German keyword names come from the term table."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from regelwerk.engine.catalog import LANGS, catalog
from regelwerk.engine.keyword_names import german, keyword_de
from regelwerk.engine.keywords import FLAGS, NUMBERED

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_table_and_key_exists_in_both_languages() -> None:
    de, en = catalog("de"), catalog("en")
    assert set(de) == set(en)
    for table in de:
        assert set(de[table]) == set(en[table]), table


def test_templates_have_the_same_placeholders() -> None:
    de, en = catalog("de")["messages"], catalog("en")["messages"]
    for key in de:
        assert _fields(en[key]) <= _fields(de[key]) | {"reason"}, key
        assert de[key] != en[key], key


def test_every_event_key_the_engine_says_is_in_the_catalog() -> None:
    """Keys written in the code ("say(game, rule, 'key'", illegal(...)) all have templates."""
    import re

    used: set[str] = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\(\s*\w+,\s*[^,]+,\s*"([a-z_]+)"', text))
        used |= set(re.findall(r'illegal\(\s*\w+,\s*[^,]+,\s*"([a-z_]+)"', text))
    assert used, "the pattern found the engine's event keys"
    missing = used - set(catalog("en")["messages"])
    assert not missing


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        catalog("fr")


@pytest.mark.parametrize("name", sorted([*FLAGS, *NUMBERED]))
def test_every_keyword_the_engine_implements_has_a_german_name_in_the_term_table(name: str) -> None:
    found = german(name)
    assert found is not None, f"{name} has no German name in data/terms/keywords.tsv"
    assert keyword_de(name) in (found.de, *found.variants)


def test_german_keyword_forms_come_from_the_table() -> None:
    assert keyword_de("flying") == "Flugfähigkeit"  # the table's noun variant for running text
    assert keyword_de("trample") == "Trampelschaden"
    assert keyword_de("protection from red") == "Schutz vor Rot"
    assert keyword_de("bands with other Wolves") == "Bündnis mit anderen Wolves"
    assert keyword_de("islandwalk") == "Inseltarnung"


def test_no_german_keyword_name_is_written_in_engine_code() -> None:
    """German keyword names live in data/terms/keywords.tsv, not in Python (docstrings aside)."""
    import ast

    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
            and n.body
            and isinstance(n.body[0], ast.Expr)
        }
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docs]
        for word in ("Flugfähigkeit", "Todesberührung", "Beharrlichkeit", "Trampelschaden", "Bündnis"):
            assert not any(isinstance(v, str) and word in v for v in strings), f"{path.name} spells {word!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_tables_are_shaped(lang: str) -> None:
    c = catalog(lang)
    assert all(isinstance(v, str) for v in c["messages"].values())
    assert len(c["words"]["numbers"]) == 11
