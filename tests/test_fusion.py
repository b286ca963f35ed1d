"""A German question's plain BM25 second opinion (`regelwerk.index.search.fusion`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from regelwerk.index.search import fusion, order, semantic
from regelwerk.index.search.query import RERANK, SearchEngine
from tests.search_home import NEWEST, library_with


def hits(*pairs: tuple[str, float]) -> list[tuple[dict[str, Any], float]]:
    return [({"key": key}, score) for key, score in pairs]


def keys(ranked: list[tuple[dict[str, Any], float]]) -> list[str]:
    return [f["key"] for f, _ in ranked]


@pytest.mark.parametrize(
    ("ranked", "plain", "weight", "expected"),
    [
        # no plain opinion, or no weight: the ranking as it was
        ([("a", 9.0), ("b", 5.0)], [], 0.5, ["a", "b"]),
        ([("a", 9.0), ("b", 5.0)], [("b", 3.0), ("a", 1.0)], 0.0, ["a", "b"]),
        # b: 0.5 + 0.6 * 1 beats a: 1 + 0
        ([("a", 9.0), ("b", 7.0), ("c", 5.0)], [("b", 3.0), ("a", 1.0)], 0.6, ["b", "a", "c"]),
        # ... not at 0.5 (a tie keeps the ranking's order), nor at 0.2 (0.5 + 0.2 < 1)
        ([("a", 9.0), ("b", 7.0), ("c", 5.0)], [("b", 3.0), ("a", 1.0)], 0.5, ["a", "b", "c"]),
        ([("a", 9.0), ("b", 7.0), ("c", 5.0)], [("b", 3.0), ("a", 1.0)], 0.2, ["a", "b", "c"]),
        # a hit only the plain search found joins: 0.5 * 1 ties c's 0.5 and goes behind it
        ([("a", 9.0), ("c", 7.0), ("d", 5.0)], [("x", 3.0), ("a", 1.0)], 0.5, ["a", "c", "x", "d"]),
    ],
)
def test_fuse_sums_min_max_normalised_scores(
    ranked: list[tuple[str, float]], plain: list[tuple[str, float]], weight: float, expected: list[str]
) -> None:
    assert keys(fusion.fuse(hits(*ranked), hits(*plain), weight, depth=10)) == expected


def test_the_hits_past_the_depth_follow_below_the_head() -> None:
    ranked = hits(("a", 9.0), ("b", 7.0), ("c", 5.0), ("d", 3.0))
    out = fusion.fuse(ranked, hits(("b", 2.0), ("a", 1.0)), 1.0, 3)
    assert keys(out) == ["b", "a", "c", "d"]
    assert out[-1][1] < 0 <= out[-2][1]  # d on the head's scale: under its lowest, c


def test_a_hit_the_ranking_holds_twice_gets_the_plain_score_once() -> None:
    out = fusion.fuse(hits(("a", 9.0), ("b", 7.0), ("a", 5.0)), hits(("a", 4.0), ("z", 1.0)), 0.5, 10)
    assert [(f["key"], round(s, 3)) for f, s in out] == [("a", 1.5), ("b", 0.5), ("a", 0.0), ("z", 0.0)]


@pytest.mark.parametrize(
    ("plain", "weight", "expected"),
    [
        # a: 1/6 + 0.5/7 beats b: 1/7 + 0.5/6 (k 5)
        ([("b", 1.0), ("a", 1.0)], 0.5, ["a", "b", "c"]),
        # b: 1/7 + 1/6 beats a: 1/6
        ([("b", 1.0)], 1.0, ["b", "a", "c"]),
        # a hit only FTS5 found joins: x 0.5/6 under c's 1/8; at weight 1, 1/6 over it
        ([("x", 1.0)], 0.5, ["a", "b", "c", "x"]),
        ([("x", 1.0)], 1.0, ["a", "x", "b", "c"]),
        ([("b", 1.0)], 0.0, ["a", "b", "c"]),
    ],
)
def test_reciprocal_rank_fusion(plain: list[tuple[str, float]], weight: float, expected: list[str]) -> None:
    ranked = hits(("a", 9.0), ("b", 7.0), ("c", 5.0))
    assert keys(fusion.reciprocal(ranked, hits(*plain), weight, 5.0, depth=10)) == expected


def test_reciprocal_rank_fusion_puts_the_hits_past_the_depth_last() -> None:
    out = fusion.reciprocal(hits(("a", 9.0), ("b", 7.0), ("c", 5.0)), hits(("x", 1.0)), 0.1, 5.0, 2)
    assert keys(out) == ["a", "b", "x", "c"]
    assert [s for _, s in out] == sorted((s for _, s in out), reverse=True)


def test_normalised() -> None:
    assert fusion.normalised([4.0, 3.0, 2.0]) == [1.0, 0.5, 0.0]
    assert fusion.normalised([2.0, 2.0]) == [1.0, 1.0]
    assert fusion.normalised([1.0], 2.0, 4.0) == [-0.5]
    assert fusion.normalised([]) == []


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = SearchEngine(library_with(tmp_path_factory, NEWEST))
    yield engine
    engine.close()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, Any]]:
    """Each `fusion.fuse` call's (ranked, plain, result)."""
    seen: list[tuple[Any, Any, Any]] = []
    fuse = fusion.fuse

    def spy(ranked: Any, plain: Any, weight: float, depth: int) -> Any:
        out = fuse(ranked, plain, weight, depth)
        seen.append((ranked, plain, out))
        return out

    monkeypatch.setattr(fusion, "fuse", spy)
    return seen


@pytest.fixture
def fts_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, Any]]:
    """Each `fusion.reciprocal` call's (ranked, plain, result)."""
    seen: list[tuple[Any, Any, Any]] = []
    reciprocal = fusion.reciprocal

    def spy(ranked: Any, plain: Any, weight: float, k: float, depth: int) -> Any:
        out = reciprocal(ranked, plain, weight, k, depth)
        seen.append((ranked, plain, out))
        return out

    monkeypatch.setattr(fusion, "reciprocal", spy)
    return seen


def test_the_index_keeps_the_default_scope_s_english_units_for_fts5(engine: SearchEngine) -> None:
    con = engine.members.con
    [(units,)] = con.execute("SELECT count(*) FROM units WHERE dflt = 1 AND language = 'en'")
    [(rows,)] = con.execute("SELECT count(*) FROM plain")
    assert rows == units > 1000
    found = engine.members.plain(["deathtouch"], 5)
    assert len(found) == 5 and [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert all("deathtouch" in str(engine._stored(d)["text"]).lower() for d, _ in found)
    assert engine.members.plain([], 5) == []


def test_words_in_over_half_of_the_rows_are_left_out_as_they_weigh_nothing(engine: SearchEngine) -> None:
    common = {t for (t,) in engine.members.con.execute("SELECT term FROM plain_common")}
    assert {"a", "the"} <= common and "deathtouch" not in common
    with_them = engine.members.plain(["The", "deathtouch", "a", "damage"], 40)
    assert with_them == engine.members.plain(["deathtouch", "damage"], 40)
    assert engine.members.plain(["the", "a"], 3)  # a query of nothing else keeps them


def test_an_english_question_is_fused_with_fts5_s_ranking_of_its_words(
    engine: SearchEngine, fts_calls: list[tuple[Any, Any, Any]], calls: list[tuple[Any, Any, Any]]
) -> None:
    result = engine.search("what happens when a creature with deathtouch deals damage", limit=10)
    [(_, plain, out)] = fts_calls
    [(fused, _, last)] = calls  # then how players ask (`asked`)
    assert fused == out
    assert 10 < len(plain) <= fusion.ENGLISH["depth"]
    assert all(f["language"] == "en" and f.get("key") for f, _ in plain)
    assert_ordered(engine, result, last, "en")


def test_a_german_question_is_fused_with_a_plain_search_of_its_english_reading(
    engine: SearchEngine, calls: list[tuple[Any, Any, Any]]
) -> None:
    result = engine.search("Was passiert wenn eine Kreatur mit Todesberührung Schaden zufügt?", limit=10)
    [(ranked, plain, out), (fused, _, last)] = calls  # the plain search's, then `asked`'s
    assert fused == out
    assert 0 < len(plain) <= fusion.DEPTH
    assert all(f["language"] == "en" for f, _ in plain)
    assert any("deathtouch" in str(f["text"]).lower() for f, _ in plain)  # read as English
    assert len(out) >= min(len(ranked), RERANK)
    assert_ordered(engine, result, last, "de")


def assert_ordered(engine: SearchEngine, result: Any, fused: Any, lang: str) -> None:
    """The hits are the fused list `fused` in the learned order (`order`), which saw it last."""
    assert engine.last_lists is not None
    code, asked, last, reading = engine.last_lists
    assert last == fused
    assert (not reading) == (lang == "en")  # a German question's English reading searched too
    ordered = order.reorder(code, asked, fused, reading, order.WEIGHTS[lang])
    assert [h.number for h in result.hits] == [f.get("number") for f, _ in ordered[:10]]


@pytest.mark.parametrize(("query", "lang"), [
    ("Wie viele Länder darf ich in meinem Zug spielen?", "de"),
    ("how many lands can I play in one of my turns", "en"),
])
def test_every_question_is_fused_with_how_players_ask_for_each_rule(
    engine: SearchEngine, calls: list[tuple[Any, Any, Any]], query: str, lang: str
) -> None:
    from regelwerk.index.search import asked

    result = engine.search(query, limit=10)
    _, plain, out = calls[-1]
    assert 0 < len(plain) <= fusion.ASKED["depth"]
    table = asked.table()
    # each hit is a rule whose phrasings in the question's language hold its words
    assert all(any(row[1] == lang for row in table.get(str(f.get("number")), ())) for f, _ in plain)
    assert str(plain[0][0]["number"]).startswith("305.2")  # the land play rule or a subrule of it
    assert_ordered(engine, result, out, lang)


def test_no_asked_opinion_at_weight_0(
    engine: SearchEngine, calls: list[tuple[Any, Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(fusion.ASKED, "weight", 0.0)
    assert engine.search("Wie viele Länder darf ich in meinem Zug spielen?", limit=5).hits
    assert len(calls) == 1  # the plain search's alone


@pytest.mark.parametrize("query", ["Todesberührung", "Trampelschaden", "deathtouch", "702.2"])
def test_keyword_lookups_are_not_fused(
    engine: SearchEngine, calls: list[tuple[Any, Any, Any]], fts_calls: list[tuple[Any, Any, Any]], query: str
) -> None:
    assert engine.search(query, limit=5).hits
    assert calls == fts_calls == []


@pytest.mark.parametrize("query", [
    "Was passiert wenn eine Kreatur mit Todesberührung Schaden zufügt?",
    "what happens when a creature with deathtouch deals damage",
])
def test_not_where_the_sentence_vectors_give_their_opinion(
    engine: SearchEngine, calls: list[tuple[Any, Any, Any]], fts_calls: list[tuple[Any, Any, Any]],
    monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    monkeypatch.setattr(semantic, "enabled", lambda: True)
    monkeypatch.setattr(semantic, "rerank", lambda ranked, *a: ranked)
    monkeypatch.setattr(engine, "_vectors", object())
    assert engine.search(query, limit=5).hits
    assert fts_calls == []
    assert len(calls) == 1  # how players ask (`asked`) still speaks
