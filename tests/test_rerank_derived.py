"""`rerank.derived_factor`: a title word sharing a query term's stem names something else unless
it is a regular inflection of a word the query said."""

from __future__ import annotations

from regelwerk.index.search import rerank


def _stem(lang: str, word: str) -> frozenset[str]:
    """A toy analyzer: the first five letters, as a stemmer joins "resolving" and "resolve"."""
    return frozenset({word.lower()[:5]})


def test_a_regular_inflection_is_not_a_derived_word() -> None:
    """ "Resolving Spells" is the rule about resolving, not a derived name; "Abilities" the
    plural of "ability"; "Enchant" is another thing than the "enchantment" the query said."""
    said = {"resolve", "ability", "enchantment"}
    wanted = {"resol", "abili", "encha"}

    def factor(title: str) -> float:
        return rerank.derived_factor({"title": title, "language": "en"}, wanted, said, _stem)

    assert factor("Resolving Spells and Abilities") == 1.0
    assert factor("Abilities") == 1.0
    assert factor("Enchant") == rerank.DERIVED
    assert factor("Enchantments") == 1.0
