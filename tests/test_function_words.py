"""The one function-word table (data/terms/function_words.tsv) and the places that read it."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest
from whoosh.analysis import StopFilter
from whoosh.lang import stopwords_for_language

from regelwerk.index.search.analysis import DE_STOP, EN_STOP, terms
from regelwerk.index.search.question import ENGLISH_MARKERS, GERMAN_MARKERS, language
from regelwerk.index.terms.function_words import FILE, LANGS, USES, _rows, function_words
from regelwerk.ingest.model.fold import fold


def test_each_word_is_written_once_with_known_uses() -> None:
    rows = _rows()
    assert len(rows) > 300
    seen = Counter((word, lang) for word, lang, _ in rows)
    assert [key for key, n in seen.items() if n > 1] == []
    for word, lang, uses in rows:
        assert lang in LANGS and uses and uses <= set(USES), word
        assert word == word.strip().lower(), word
    text = (resources.files("regelwerk.data") / "terms" / FILE).read_text(encoding="utf-8")
    assert text.endswith("\n") and "\r" not in text


def test_the_analyzers_drop_whooshs_stop_words_and_question_words() -> None:
    assert frozenset(StopFilter().stops) <= EN_STOP
    assert frozenset(fold(w) for w in stopwords_for_language("de")) <= DE_STOP
    assert {"what", "whether", "which"} <= EN_STOP
    assert {"wann", "warum", "konnen"} <= DE_STOP  # folded, like the index
    assert terms("en", "what") == [] and terms("de", "Wann") == []


@pytest.mark.parametrize(
    ("lang", "use", "folded", "present", "absent"),
    [
        ("de", "marker", True, {"durfen", "fur", "der"}, {"dürfen", "für"}),
        ("de", "boundary", False, {"für", "der", "falls"}, {"fur", "kann"}),  # "Kann fliegen"
        ("en", "marker", False, {"the", "would", "those"}, set()),
    ],
)
def test_each_use_reads_its_words(
    lang: str, use: str, folded: bool, present: set[str], absent: set[str]
) -> None:
    words = function_words(lang, use, folded=folded)
    assert present <= words
    assert not absent & words


def test_the_question_reader_uses_the_markers() -> None:
    assert function_words("de", "marker", folded=True) == GERMAN_MARKERS
    assert function_words("en", "marker") == ENGLISH_MARKERS
    # a marker is folded like the query word it meets ("zuerst" folds to "zurst")
    assert language(["zuerst"], None, lambda w: False) == "de"
    assert language(["those"], None, lambda w: False) == "en"


def test_unknown_language_or_use_is_refused() -> None:
    with pytest.raises(ValueError, match="no function words"):
        function_words("fr", "stop")
    with pytest.raises(ValueError, match="no function words"):
        function_words("de", "filler")
