"""A store shared by the rule/search/relevance tests: built once per module, read many times.

Ingesting a CR release and building the index takes a second or two, so these tests share one
home per module instead of the per-test home conftest gives everything else.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regelwerk.index.store.corpus import Corpus
from tests.conftest import CORPUS

NEWEST = CORPUS / "en" / "MagicCompRules-20260417.txt"
OLDEST = CORPUS / "en" / "MagicCompRules-20110204.txt"


def library_with(factory: pytest.TempPathFactory, *files: Path) -> Corpus:
    """A library in a fresh home with the seeds plus `files` ingested."""
    library = Corpus(factory.mktemp("search-home"))
    if files:
        report = library.ingest(files)
        assert not report.errors, report.errors
    return library


def use_home(monkeypatch: pytest.MonkeyPatch, library: Corpus) -> None:
    """Point the CLI (which opens ``Corpus()``) at `library`'s home."""
    monkeypatch.setenv("REGELWERK_HOME", str(library.home))


def semantic_library_with(factory: pytest.TempPathFactory, *files: Path) -> Corpus:
    """`library_with` with sentence vectors on (skipped without the extra regelwerk[semantic]).
    Its homes share one sentence cache per test session, so a CR is embedded once."""
    from regelwerk.index.search import semantic

    if not semantic.installed():
        pytest.skip("the optional extra regelwerk[semantic] is not installed")
    home = factory.mktemp("semantic-home")
    shared = factory.getbasetemp() / "sentence-cache"
    shared.mkdir(exist_ok=True)
    (home / "cache").symlink_to(shared, target_is_directory=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(semantic.ENV, "on")
        library = Corpus(home)
        report = library.ingest(files)  # the ingest embeds the newest CR (a minute or two)
        assert not report.errors, report.errors
    return library
