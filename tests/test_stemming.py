"""The one stemmer: Snowball stems per language, and the lookups built on it."""

from __future__ import annotations

import pickle

import pytest

from regelwerk.ingest.model import mentions, stem
from regelwerk.ingest.model.stemming import StemIndex, stem_de, stem_en


@pytest.mark.parametrize(
    ("word", "lang", "expected"),
    [
        ("Banding", "en", "band"),
        ("creatures", "en", "creatur"),
        ("Trample", "en", "trampl"),
        ("Kreaturen", "de", "kreatur"),
        ("Spielern", "de", "spiel"),
        ("giftmarken", "de", "giftmark"),
        ("giftmarke", "de", "giftmark"),
    ],
)
def test_stem(word: str, lang: str, expected: str) -> None:
    assert stem(word, lang) == expected


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        stem("word", "fr")


def test_the_analyzers_stem_functions_pickle_by_name() -> None:
    assert pickle.loads(pickle.dumps(stem_de)) is stem_de
    assert pickle.loads(pickle.dumps(stem_en)) is stem_en


def test_mentions_compares_words_by_stem() -> None:
    assert mentions("A band attacks; bands are formed", "Banding")
    assert mentions("Phasing: it phases out", "phasing")
    assert not mentions("her husband", "Banding")
    assert mentions("bands with other creatures", "Bands with Other")
    assert not mentions("anything", "")


def test_stem_index_finds_inflected_forms_in_order() -> None:
    index = StemIndex(["giftmarke", "giftmarker", "trampelschaden", "gift"], "de")
    assert index.find("giftmarken") == ["giftmarke", "giftmarker"]  # Snowball: -e, -er, -en alike
    assert index.find("trampelschadens") == ["trampelschaden"]
    assert index.find("flugfahigkeit") == []
