"""The narration catalogs: every sentence and phrase the engine says, one data file per language.

``data/narration/de.toml`` and ``en.toml`` hold the templates (``[messages]``, one per event
key) and the small phrase tables the templates need (colors, lands, counters, what a search
finds). They are data, not code: a translator edits a catalog without reading Python, and
``tests/engine/test_catalogs.py`` checks that both catalogs have the same keys and placeholders.
This is the engine's narration; the CLI's interface texts are gettext catalogs of their own.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

LANGS = ("de", "en")


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The whole catalog of ``lang`` ("de" or "en")."""
    if lang not in LANGS:
        raise ValueError(f"no narration catalog for {lang!r}; expected one of {', '.join(LANGS)}")
    data = resources.files("regelwerk.data").joinpath("narration", f"{lang}.toml").read_bytes()
    return tomllib.loads(data.decode("utf-8"))


def message(key: str, lang: str) -> str:
    """The template of one event key; an unknown key is a bug and raises KeyError."""
    return str(catalog(lang)["messages"][key])


def phrase(table: str, key: str, lang: str) -> Any:
    """One entry of a phrase table (``qualities``, ``lands``, ``find``, ``counters``, ``words``...)."""
    return catalog(lang)[table][key]


def has_phrase(table: str, key: str) -> bool:
    return key in catalog("en").get(table, {})


@cache
def title_glosses() -> dict[str, str]:
    """English CR titles with no official German name attested here -> a German gloss
    (``data/narration/glosses.tsv``, each row with its basis). German traces show the English
    title with the gloss marked as one ("Casting Spells, dt. etwa „Zaubersprüche wirken“"),
    never the gloss as if it were an official title."""
    text = resources.files("regelwerk.data").joinpath("narration", "glosses.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines()[1:] if line.strip()]
    return {row[0]: row[1] for row in rows}
