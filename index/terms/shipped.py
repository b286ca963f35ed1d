"""The shipped German/English term tables (``regelwerk.data/terms/*.tsv``) as TermRow records.

Read through importlib.resources so an installed wheel finds them; the row type and the file
format belong to ``regelwerk.index.terms.table`` (which both this loader and the generator
``tools/termgen.py`` use), this module only loads the shipped tables once per process.
``stamp`` hashes the raw bytes so cached keyword links are rebuilt when a reviewer edits a
German cell, not only when documents change.
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable

from regelwerk.index.terms.table import TermRow, read_table

#: Table files in load order: keyword rows first, so a core term never shadows a keyword.
TABLES = ("keywords.tsv", "core.tsv")


def _folder() -> Traversable:
    return resources.files("regelwerk.data") / "terms"


@functools.cache
def load_terms() -> tuple[TermRow, ...]:
    """Every row of the shipped tables (missing tables count as empty)."""
    rows: list[TermRow] = []
    for name in TABLES:
        entry = _folder() / name
        if not entry.is_file():
            continue
        with resources.as_file(entry) as path:
            rows.extend(read_table(path))
    return tuple(rows)


@functools.cache
def stamp() -> str:
    """A short hash of the tables' bytes, for cache keys; taken from the store's ready marker
    when the tables are the files it was computed from (a `rule` hashes nothing)."""
    from regelwerk.index.store import ready

    entries = [_folder() / name for name in TABLES]

    def compute() -> str:
        import hashlib

        h = hashlib.sha256()
        for name, entry in zip(TABLES, entries, strict=True):
            if entry.is_file():
                h.update(name.encode() + b"\0" + entry.read_bytes())
        return h.hexdigest()[:12]

    return ready.stamp("terms", [e for e in entries if e.is_file()], compute)
