"""The lexicon tool: its aligners (IBM Model 1, grow-diag-final-and, link counts) and its tables."""

from __future__ import annotations

from pathlib import Path

import pytest
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


def test_grow_diag_final_and_joins_the_two_directions() -> None:
    from build_lexicon import grow_diag_final_and

    forward = {(0, 0), (1, 1), (3, 4)}
    backward = {(0, 0), (1, 1), (1, 2), (4, 4)}
    links = grow_diag_final_and(forward, backward)
    # both directions agree on two links; (1, 2) neighbours (1, 1) and aligns target word 2;
    # (3, 4) joins two words still unaligned at the end; (4, 4) does not: target 4 is taken
    assert links == {(0, 0), (1, 1), (1, 2), (3, 4)}
    assert grow_diag_final_and(set(), set()) == set()


def test_link_tables_count_links_over_occurrences() -> None:
    from build_lexicon import link_tables

    pairs = [
        (["ende", "zug"], ["end", "turn"]),
        (["ende"], ["end"]),
        (["ende"], ["finish"]),
    ]
    links = [{(0, 0), (1, 1)}, {(0, 0)}, set()]
    forward, backward = link_tables(pairs, links)
    assert forward["ende"] == {"end": 2 / 3}  # the unaligned third occurrence counts too
    assert backward["end"] == {"ende": 1.0}
    assert forward["zug"] == {"turn": 1.0}
    assert "finish" not in backward


def test_mean_of_tables_counts_a_missing_pair_as_zero() -> None:
    from build_lexicon import _mean

    mean = _mean([{"ende": {"end": 0.8, "until": 0.2}}, {"ende": {"end": 0.4}, "zug": {"turn": 1.0}}])
    assert mean == {"ende": {"end": pytest.approx(0.6), "until": pytest.approx(0.1)}, "zug": {"turn": 0.5}}


def test_learned_entries_keep_a_function_words_translation_only_when_strong_both_ways() -> None:
    from collections import Counter

    from build_lexicon import MARKER_P, MIN_P, learned_entries

    forward = {
        "gleichzeitig": {"simultaneously": 0.5},
        "beim": {"when": 0.6},
        "friedhof": {"graveyard": 0.9, "card": MIN_P / 2},
    }
    backward = {
        "simultaneously": {"gleichzeitig": 0.6},
        "when": {"beim": MARKER_P / 2},
        "graveyard": {"friedhof": 0.9},
    }
    counts = Counter({"gleichzeitig": 5, "beim": 50, "friedhof": 40})
    entries = learned_entries(forward, backward, counts, {"simultaneously", "when", "graveyard", "card"})
    assert set(entries) == {("gleichzeitig", "simultaneously"), ("friedhof", "graveyard")}
    assert entries[("friedhof", "graveyard")] == (0.9, "mtgjson", 0.9)


def test_a_built_tables_learned_side_comes_back_without_training(tmp_path: Path) -> None:
    """`learned_from` reads a built translations.tsv's ``learned`` column back into tables that
    `learned_entries` turns into the same learned entries (a curated change then rebuilds the
    lexicon without eflomal's re-roll); a curated row without a learned p adds nothing."""
    from collections import Counter

    from build_lexicon import learned_entries, learned_from

    table = tmp_path / "translations.tsv"
    table.write_text(
        "# comment\nde\ten\tp\tsource\tlearned\tcount\n"
        "friedhof\tgraveyard\t1.0\tterms\t0.9\t40\n"
        "kommen\tbattlefield\t0.2351\tmtgjson\t0.5877\t300\n"
        "kommen\tenter\t0.158\tmtgjson\t0.395\t300\n"
        "teilen\tdivide\t1.0\twords\t\t37\n",
        encoding="utf-8",
    )
    forward, backward = learned_from(table)
    counts = Counter({"friedhof": 40, "kommen": 300, "teilen": 37})
    entries = learned_entries(forward, backward, counts, {"graveyard", "battlefield", "enter", "divide"})
    assert entries == {
        ("friedhof", "graveyard"): (0.9, "mtgjson", 0.9),
        ("kommen", "battlefield"): (0.5877, "mtgjson", 0.5877),
        ("kommen", "enter"): (0.395, "mtgjson", 0.395),
    }


def test_learned_from_names_a_missing_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from build_lexicon import main

    with pytest.raises(SystemExit) as exit_info:
        main(["cards", "cr.txt", "--learned-from", str(tmp_path / "none.tsv")])
    assert exit_info.value.code == 2
    assert "none.tsv: no such file (a built translations.tsv was expected)" in capsys.readouterr().err


def test_corpus_forms_take_the_lemma_the_cards_gave_most_often() -> None:
    from build_lexicon import corpus_forms, lemma

    texts = ["Wähle eine Kreatur.", "wähle einen Spieler", "Du wählst."]
    forms = corpus_forms(texts)
    assert forms["wahle"] == lemma("wähle", "de")  # the lower-case writing, twice against once
    assert forms["kreatur"] == lemma("Kreatur", "de")


def test_cr_words_are_read_as_their_own_tier_below_the_curated_tables(tmp_path: Path) -> None:
    from build_lexicon import add_cr_entries, cr_entries

    terms = tmp_path
    (terms / "cr_words.tsv").write_text(
        "# comment\nen\tcount\tde\nexception\t60\tAusnahme|Ausnahmefall|Regel\n"
        "payment\t30\tZahlung\nrule\t9\tRegel\nbroken line\n",
        encoding="utf-8",
    )
    assert list(cr_entries(terms)) == [
        ("ausnahme", "exception"),
        ("ausnahmefall", "exception"),
        ("regel", "exception"),
        ("zahlung", "payment"),
        ("regel", "rule"),
    ]
    entries = {("regel", "rule"): (1.0, "words", None), ("zahlung", "payment"): (0.3, "mtgjson", 0.3)}
    assert add_cr_entries(entries, terms) == 3
    assert entries[("regel", "rule")] == (1.0, "words", None)  # a curated pair keeps its source
    assert ("regel", "exception") not in entries  # and a curated word gets no new sense
    assert entries[("zahlung", "payment")] == (1.0, "cr", 0.3)  # a learned one keeps its p as learned
    assert entries[("ausnahme", "exception")] == (1.0, "cr", None)


def test_a_terms_folder_without_cr_words_gives_none(tmp_path: Path) -> None:
    from build_lexicon import cr_entries

    assert list(cr_entries(tmp_path)) == []


def test_a_phrase_ending_in_a_verb_is_also_keyed_verb_first() -> None:
    from build_lexicon import german_keys

    # a main clause puts the verb first: "die Kreatur kommt ins Spiel"
    assert german_keys("ins Spiel kommen") == ["ins spiel kommen", "kommen ins spiel"]
    assert german_keys("außer Acht lassen") == ["ausser acht lassen", "lassen ausser acht"]
    # a noun (capitalised), a single word, a stop word at the end: no verb to move
    assert german_keys("Zustandsbasierte Aktionen") == ["zustandsbasierte aktionen"]
    assert german_keys("zurückgeben") == ["zuruckgeben"]
    assert german_keys("Bündnis mit anderen") == ["bundnis mit anderen"]
    assert german_keys("") == []


def test_a_word_simplemma_does_not_list_inflects_as_its_last_part(monkeypatch: pytest.MonkeyPatch) -> None:
    import build_lexicon

    dictionary = {
        "regel": ("regeln",),
        "aktiv": ("aktive", "aktiven", "aktivste"),
        "hand": ("hande", "handen"),
    }
    monkeypatch.setattr(build_lexicon, "_dictionary_forms", lambda: dictionary)
    words = {"unterregel", "nichtaktiv", "regel", "kartenhand", "ort", "an der reihe"}
    lent = build_lexicon.head_forms(words, {"regeln": "regel"})
    assert lent["unterregeln"] == "unterregel"
    assert lent["nichtaktiven"] == lent["nichtaktive"] == "nichtaktiv"
    assert "nichtaktivste" not in lent  # only regular endings are lent
    assert lent["kartenhande"] == "kartenhand"
    # a word with forms of its own, a too short word and a phrase lend nothing
    assert not any(lemma in ("regel", "ort", "an der reihe") for lemma in lent.values())


def test_a_phrase_is_keyed_by_its_verbs_forms_that_are_entries_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import build_lexicon

    dictionary = {"entfernen": ("entfernst", "entfernte"), "kommen": ("kommt", "kam")}
    monkeypatch.setattr(build_lexicon, "_dictionary_forms", lambda: dictionary)
    entries = {
        ("aus dem spiel entfernen", "exile"): (1.0, "terms", None),
        ("ins spiel kommen", "enter"): (1.0, "terms", None),
        ("an der reihe", "turn"): (1.0, "cr", None),
        ("entfernt", "remove"): (1.0, "words", None),  # the form is an entry of its own
        ("entfernte", "remove"): (0.4, "mtgjson", 0.4),
        ("kommt", "come"): (0.2, "mtgjson", 0.2),
        ("karte entfernen", "remove"): (0.5, "mtgjson", 0.5),
    }
    # the form table reads "entfernte" and "kommt" as their verbs already, "entfernt" not
    forms = {"entfernte": "entfernen", "kommt": "kommen", "kam": "kommen"}
    assert build_lexicon.inflected_phrases(entries, forms) == 1
    assert entries[("aus dem spiel entfernt", "exile")] == (1.0, "terms", None)
    assert ("aus dem spiel entfernte", "exile") not in entries  # the reader reaches it by its lemma
    assert ("ins spiel kommt", "enter") not in entries
    assert ("karte entfernt", "remove") not in entries  # a learned phrase is left alone
    # a form nothing translates on its own ("entfernst") needs no key: its lemma finds the phrase
    assert ("aus dem spiel entfernst", "exile") not in entries


def _terms(folder: Path, words: str, cr_words: str) -> Path:
    head = "en\tkind\tnumber\tde\tde_variants\tde_old\tsource\tnote\n"
    (folder / "core.tsv").write_text(head, encoding="utf-8")
    (folder / "keywords.tsv").write_text(head, encoding="utf-8")
    (folder / "aliases.tsv").write_text("word\tlang\ten\tkind\tstatus\tnote\n", encoding="utf-8")
    (folder / "words.tsv").write_text("de\ten\n" + words, encoding="utf-8")
    (folder / "cr_words.tsv").write_text("en\tcount\tde\n" + cr_words, encoding="utf-8")
    return folder


def test_a_word_folding_merges_with_another_is_keyed_by_its_umlaut_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from collections import Counter

    import build_lexicon

    # "zählen" (count) folds to "zahlen" (pay); "ändere" (change) to "andere" (other); "lösen"
    # (solve) to "losen", whose learned sense is lösen's own: the cards print no "losen"
    lemmas = {"zählen": {"zählen"}, "zählt": {"zählen"}, "zahlen": {"zahlen", "zahl"}, "zahlt": {"zahlen"},
              "ändern": {"ändern"}, "ändere": {"ändern"}, "andere": {"anderer"}, "andern": {"anderer"},
              "lösen": {"lösen"}, "löst": {"lösen"}, "losen": {"losen"}, "lost": {"losen"}}
    forms = {"zählen": ("zählt",), "ändern": ("ändere",), "lösen": ("löst",)}
    monkeypatch.setattr(build_lexicon, "_umlaut_dictionary", lambda words: (lemmas, forms))
    terms = _terms(tmp_path, "zahlen|zahlt\tpay\nandern\tchange\nandere\tother\n",
                   "count\t28\tzählen\nsolve\t24\tlösen\nchange\t231\tändern\n")
    entries: build_lexicon.Entries = {
        ("zahlen", "pay"): (1.0, "words", 0.4), ("andern", "change"): (1.0, "words", None),
        ("zahlen", "count"): (1.0, "cr", None),  # what cr_words' "zählen" gives "zahlen" folded
        ("andere", "other"): (1.0, "words", None), ("losen", "solve"): (1.0, "cr", None),
        ("losen", "unattach"): (0.4, "mtgjson", 0.4),
    }
    table = {"zahlt": "zahlen", "lost": "losen"}
    printed = Counter({"zahlt": 11, "zählt": 3, "löst": 20})
    assert build_lexicon.umlaut_keys(entries, table, terms, printed) == (1, 2)
    assert entries[("zählen", "count")] == (1.0, "cr", None)  # an entry of its own
    assert table["zählt"] == "zählen" and table["ändere"] == "andern"  # forms read as their word
    assert entries[("zahlen", "pay")] == (1.0, "words", 0.4)  # the folded rows as they were
    assert ("zahlen", "count") not in entries and table["zahlt"] == "zahlen"  # "zählen"'s alone
    # no second key where folding merges nothing the lexicon tells apart
    assert not any(de == "lösen" for de, _ in entries) and "löst" not in table
