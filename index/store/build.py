"""The builder: the one function that writes derived data, run at the end of every ingest and
forget so that the first read after it finds everything ready.

Each artefact is built the way its module defines (atomic rename into ``derived/`` for the
per-fingerprint ones, committed SQLite transactions for the lineage table) and a reader keeps
seeing the previous complete state until the new one is in place. The order matters: rule
lineage first (the rules table and the search index take "today's number" from it), then the
keyword links, the rules table and the search index. It runs only in a writer step
(``Corpus.publishing``): readers that find an artefact missing (a new home, a store written by
an older version, damage) run that writer step instead of building. The SQLite tables that grow
in place (lineage, linking's per-release lookups) are sealed when it ends (``disk.seal``: their
size and sha256, which ``doctor`` checks).

What a new release costs: its parse, the lineage pair(s) it creates (older pairs are cached by
content and never recomputed), and the per-fingerprint artefacts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from regelwerk.index.store.corpus import Corpus

#: The stages in order, as a progress display names them (the last only with the optional
#: extra ``regelwerk[semantic]``, see `regelwerk.index.search.semantic`).
STAGES = ("rule lineage", "keyword links", "rules table", "search index", "sentence vectors")


def build(corpus: Corpus, stage: Callable[[str], None] | None = None) -> None:
    """Bring every derived artefact of `corpus` up to date (see the module docstring)."""
    from regelwerk.index.linking import lineage_table
    from regelwerk.index.linking.keyword_index import keyword_index
    from regelwerk.index.rules.lookup import lineage_chain, lineage_path, rules_table
    from regelwerk.index.search.whoosh_index import index_dir

    def say(text: str) -> None:
        if stage is not None:
            stage(text)

    from regelwerk.index.linking.keyword_index import LOOKUPS
    from regelwerk.index.store.disk import discard, seal, seal_changed, seal_path

    grown = (lineage_path(corpus), corpus.home / "linking" / LOOKUPS)
    for path in grown:  # a value changed since the seal: build it again, never seal the change
        if seal_changed(path):
            for suffix in ("", "-journal", "-wal", "-shm"):
                discard(path.with_name(path.name + suffix))
        discard(seal_path(path))  # unsealed while they change: a killed build leaves no false alarm
    say(STAGES[0])
    chain = lineage_chain(corpus, progress=say).releases
    lineage_table.prune(lineage_path(corpus), chain)
    say(STAGES[1])
    keyword_index(corpus)
    say(STAGES[2])
    rules_table(corpus).close()
    say(STAGES[3])
    index_dir(corpus)
    from regelwerk.index.search import semantic

    if semantic.enabled():
        say(STAGES[4])
        semantic.vectors_dir(corpus, say)
    for path in grown:
        seal(path)


__all__ = ["STAGES", "build"]
