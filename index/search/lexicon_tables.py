"""The lexicon's text tables (``data/lexicon/*.tsv``) and their compiled SQLite under the home.

The lexicon ships as three sorted UTF-8 tables, so a rebuild changes the lines it changes and
git stores no binary: ``meta.tsv`` (the build's counts and provenance), ``translations.tsv``
(one row per German lemma or phrase and English lemma: ``de en p source learned count``,
``learned`` empty where the cards gave no probability) and ``forms.tsv`` (one row per lemma:
``lemma forms``, its German forms ``|``-separated). Floats are written as Python's `repr`, which
reads back as the same double, so the compiled values are the ones the builder computed.

A search reads the lexicon by indexed lookups, so the first use compiles the tables into an
SQLite file under ``REGELWERK_HOME`` (`compiled`): ``lexicon/de-en-<key>.sqlite``, `key` a hash
of the tables' bytes and `FORMAT`, so changed tables (a rebuild, an upgrade) get a new file and
every later process opens that one read-only. The file is written whole and renamed into place
(`disk.write_atomic`: a reader never sees half of it; two processes compiling at once write the
same bytes) and sealed (`disk.seal`: size and sha256); one whose seal does not match (truncated,
a byte changed) is compiled again, not trusted, and ``doctor`` checks it with the other
derived databases. Where the home cannot be written the process compiles into memory
(a few tens of milliseconds) and goes on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3
    from importlib.resources.abc import Traversable

#: The tables, in the order they are hashed.
TABLES = ("meta.tsv", "translations.tsv", "forms.tsv")
#: Each table's header row (after its ``#`` comment lines).
COLUMNS = {
    "meta.tsv": ("key", "value"),
    "translations.tsv": ("de", "en", "p", "source", "learned", "count"),
    "forms.tsv": ("lemma", "forms"),
}
COMMENTS = {
    "meta.tsv": "The rules lexicon's build: counts, date and aligner (tools/build_lexicon.py; "
                "data/lexicon/README.md).",
    "translations.tsv": "German lemma or phrase -> English lemma with p, source, the probability "
                        "learned from the cards (empty: none) and the German lemma's count in them; "
                        "sorted (tools/build_lexicon.py).",
    "forms.tsv": "German lemma -> its forms (|-separated), each looked up as that lemma; sorted "
                 "(tools/build_lexicon.py).",
}
#: Under the home: the compiled lexicons (derived data, made again whenever needed).
FOLDER = "lexicon"
#: The compiled file's format: raise it when `SCHEMA` or the compiling changes, so no older
#: compiled file is opened.
FORMAT = 1
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE translation (de TEXT, en TEXT, p REAL, source TEXT, learned REAL, count INTEGER,
                          PRIMARY KEY (de, en)) WITHOUT ROWID;
CREATE TABLE form (form TEXT PRIMARY KEY, lemma TEXT) WITHOUT ROWID;
"""
#: A translation row: (de, en, p, source, learned, count).
Row = tuple[str, str, float, str, float | None, int]


class TableError(ValueError):
    """A lexicon table that does not read as its columns (a bad hand edit, a damaged file)."""


def format_tables(
    meta: Mapping[str, str], translations: Iterable[Row], forms: Mapping[str, str]
) -> dict[str, str]:
    """The text of each table: `meta` key -> value, the translation rows, `forms` form -> lemma."""
    def table(name: str, rows: Iterable[tuple[str, ...]]) -> str:
        lines = [f"# {COMMENTS[name]}", "\t".join(COLUMNS[name]), *("\t".join(row) for row in sorted(rows))]
        return "\n".join(lines) + "\n"

    by_lemma: dict[str, list[str]] = {}
    for form, lemma in forms.items():
        by_lemma.setdefault(lemma, []).append(form)
    return {
        "meta.tsv": table("meta.tsv", ((k, v) for k, v in meta.items())),
        "translations.tsv": table("translations.tsv", (
            (de, en, repr(float(p)), source, "" if learned is None else repr(float(learned)), str(count))
            for de, en, p, source, learned, count in translations)),
        "forms.tsv": table("forms.tsv", ((lemma, "|".join(sorted(f))) for lemma, f in by_lemma.items())),
    }


def write_tables(folder: Path, meta: Mapping[str, str], translations: Iterable[Row],
                 forms: Mapping[str, str]) -> None:
    """Write the three tables into `folder` (each replaced whole, `disk.write_atomic`: the
    builder's output)."""
    from regelwerk.index.store.disk import write_atomic

    for name, text in format_tables(meta, translations, forms).items():
        write_atomic(folder / name, text)


def _rows(name: str, data: bytes) -> Iterable[list[str]]:
    """The cells of each row of table `name` (after its ``#`` lines and its header row)."""
    lines = data.decode("utf-8").split("\n")
    at = 0
    while at < len(lines) and lines[at].startswith("#"):
        at += 1
    if at == len(lines) or tuple(lines[at].split("\t")) != COLUMNS[name]:
        raise TableError(f"{name}: the header row is not {' '.join(COLUMNS[name])!r}")
    for n, line in enumerate(lines[at + 1:], at + 2):
        if not line:
            continue
        cells = line.split("\t")
        if len(cells) != len(COLUMNS[name]):
            raise TableError(f"{name}, line {n}: {len(cells)} cells, expected {len(COLUMNS[name])}: {line!r}")
        yield cells


def parse_tables(data: Mapping[str, bytes]) -> tuple[list[tuple[str, str]], list[Row], list[tuple[str, str]]]:
    """(meta rows, translation rows, (form, lemma) rows) of the tables' bytes."""
    meta = [(k, v) for k, v in _rows("meta.tsv", data["meta.tsv"])]
    translations: list[Row] = []
    try:
        for de, en, p, source, learned, count in _rows("translations.tsv", data["translations.tsv"]):
            translations.append((de, en, float(p), source, float(learned) if learned else None, int(count)))
    except ValueError as exc:
        if isinstance(exc, TableError):
            raise
        raise TableError(f"translations.tsv: {exc}") from None
    forms = [(form, lemma) for lemma, joined in _rows("forms.tsv", data["forms.tsv"])
             for form in joined.split("|")]
    return meta, translations, forms


def compile_tables(data: Mapping[str, bytes]) -> sqlite3.Connection:
    """The tables as an SQLite database in memory (the lexicon's schema, `SCHEMA`)."""
    import sqlite3

    meta, translations, forms = parse_tables(data)
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.executescript(SCHEMA)
    try:
        db.executemany("INSERT INTO meta VALUES (?, ?)", meta)
        db.executemany("INSERT INTO translation VALUES (?, ?, ?, ?, ?, ?)", translations)
        db.executemany("INSERT INTO form VALUES (?, ?)", sorted(forms))
    except sqlite3.IntegrityError as exc:  # a key twice: a pair, a form under two lemmas
        raise TableError(f"a row given twice ({exc})") from None
    db.commit()
    return db


def tables_key(data: Mapping[str, bytes]) -> str:
    """The compiled file's key: a hash of `FORMAT` and every table's name and bytes."""
    import hashlib

    h = hashlib.sha256(f"{FORMAT}\n".encode())
    for name in TABLES:
        h.update(f"{name}\0{len(data[name])}\0".encode())
        h.update(data[name])
    return h.hexdigest()[:16]


def read_tables(folder: Traversable | Path) -> dict[str, bytes] | None:
    """The tables' bytes, or None if one is missing."""
    try:
        return {name: (folder / name).read_bytes() for name in TABLES}
    except FileNotFoundError:
        return None


def compiled_path(home: Path, data: Mapping[str, bytes]) -> Path:
    return home / FOLDER / f"de-en-{tables_key(data)}.sqlite"


def compiled(data: Mapping[str, bytes], home: Path) -> str | sqlite3.Connection:
    """Where the lexicon of tables `data` is read from, compiling it first if needed: the path of
    its sealed SQLite file under `home`, or, where that cannot be written, a database in memory."""
    from regelwerk.index.store.disk import seal_problem
    from regelwerk.ingest.model.errors import StoreError

    path = compiled_path(home, data)
    if path.is_file() and seal_problem(path) is None:
        return str(path)
    db = compile_tables(data)
    try:
        _publish(path, db.serialize())
    except (OSError, StoreError):  # a read-only home, or one whose folders are damaged
        return db
    db.close()
    return str(path)


def _publish(path: Path, image: bytes) -> None:
    """Write a compiled lexicon whole, seal it, and drop the other compiled lexicons (those of
    tables that are no longer these; a process still reading one keeps its open file)."""
    from regelwerk.index.store.disk import discard, real_dir, seal, seal_path, write_atomic

    real_dir(path.parent)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        discard(path)
    write_atomic(path, image)
    seal(path)
    for other in path.parent.glob("de-en-*.sqlite"):
        if other != path:
            with contextlib.suppress(OSError):
                discard(other)
                discard(seal_path(other))


__all__ = [
    "FOLDER",
    "TABLES",
    "TableError",
    "compile_tables",
    "compiled",
    "compiled_path",
    "format_tables",
    "parse_tables",
    "read_tables",
    "tables_key",
    "write_tables",
]
