"""The lexicon tool's aligner: IBM Model 1 learns word translations from sentence pairs."""

from __future__ import annotations

from build_lexicon import ibm1


def test_ibm1_aligns_words_that_keep_company() -> None:
    pairs = [
        (["friedhof", "karte"], ["graveyard", "card"]),
        (["friedhof", "kreatur"], ["graveyard", "creature"]),
        (["bibliothek", "karte"], ["library", "card"]),
        (["kreatur", "bibliothek"], ["creature", "library"]),
    ]
    t = ibm1(pairs, iterations=10)
    for de, en in [
        ("friedhof", "graveyard"),
        ("karte", "card"),
        ("bibliothek", "library"),
        ("kreatur", "creature"),
    ]:
        best = max(t[de].items(), key=lambda x: x[1])
        assert best[0] == en, (de, t[de])
        assert 0 < best[1] <= 1
    assert abs(sum(t["friedhof"].values()) - 1) < 1e-9  # a distribution per source word
