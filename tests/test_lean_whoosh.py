"""whoosh without the modules it imports for nothing (``ingest.model.lean_whoosh``): a search
loads neither ``asyncio`` nor ``urllib.request`` nor ``html`` nor whoosh's English word-form,
Porter, double metaphone and highlighting modules, and the stand-ins behave as the real
modules. Each check runs in a fresh process: what a process has imported is the thing under test."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest.model import lean_whoosh
from tests.search_home import library_with

#: What whoosh would load for nothing, and what those modules pull in.
DEFERRED = ("asyncio", "urllib.request", "ssl", "http.client", "html", "html.entities")
#: whoosh's own deferred modules, which keep their stand-ins until first use.
WAITING = ("whoosh.lang.morph_en", "whoosh.lang.porter", "whoosh.lang.dmetaphone", "whoosh.highlight",
           *(f"whoosh.lang.snowball.{m}" for m in lean_whoosh.UNUSED_STEMMERS))


@pytest.fixture(scope="module")
def seeds_only(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return library_with(tmp_path_factory)


def _fresh(code: str, home: Path | None = None) -> dict[str, object]:
    env = {**os.environ, **({"REGELWERK_HOME": str(home)} if home else {})}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_search_loads_none_of_the_deferred_modules(seeds_only: Corpus) -> None:
    from regelwerk.index.search.query import SearchEngine

    SearchEngine(seeds_only).close()  # the index exists, as after any ingest
    code = (
        "import json, sys\nfrom regelwerk.index.facade import Library\n"
        "hits = Library().search('Bündnis Schaden verteilen')['hits']\n"
        f"loaded = sorted(m for m in {DEFERRED!r} if m in sys.modules)\n"
        f"waiting = [type(sys.modules.get(m)).__name__ for m in {WAITING!r}]\n"
        "print(json.dumps({'hits': len(hits), 'loaded': loaded, 'waiting': waiting}))"
    )
    found = _fresh(code, seeds_only.home)
    assert found["hits"], found
    assert found["loaded"] == []
    assert found["waiting"] == ["_StandIn"] * len(WAITING)  # still waiting for their first use


def test_the_stand_ins_answer_as_the_real_modules(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_text("whoosh", encoding="utf-8")
    code = (
        "import json, sys\nfrom regelwerk.ingest.model.lean_whoosh import prepare\nprepare()\n"
        "import whoosh.compat, whoosh.query.terms, cached_property\n"
        "waiting = [m for m in ('asyncio', 'urllib.request') if m in sys.modules]\n"
        "class A:\n    calls = 0\n    @cached_property.cached_property\n"
        "    def x(self):\n        A.calls += 1\n        return 42\n"
        "a = A()\ncached = [a.x, a.x, A.calls]\n"
        "forms = sorted(whoosh.query.terms.variations('pull'))\n"
        "import whoosh.lang.morph_en as real_morph\n"
        "same = forms == sorted(real_morph.variations('pull'))\n"
        f"got = whoosh.compat.urlretrieve({page.as_uri()!r}, {str(tmp_path / 'copy.txt')!r})[0]\n"
        "from whoosh.analysis import morph\nfrom whoosh import searching, compat\n"
        "twins = [morph.stem('running'), morph.double_metaphone('Thompson'),\n"
        "         type(searching.highlight.Highlighter()).__name__, compat.htmlescape('<&>')]\n"
        "from whoosh.lang import stemmer_for_language\n"
        "twins.append([stemmer_for_language(c)('hestene') for c in ('en', 'de', 'da')])\n"
        "import whoosh.lang.porter as porter, whoosh.lang.dmetaphone as dm, html\n"
        "from whoosh.lang.snowball.english import EnglishStemmer\n"
        "from whoosh.lang.snowball.german import GermanStemmer\n"
        "from whoosh.lang.snowball.danish import DanishStemmer\n"
        "stems = [s().stem('hestene') for s in (EnglishStemmer, GermanStemmer, DanishStemmer)]\n"
        "same = same and twins == [porter.stem('running'), dm.double_metaphone('Thompson'),\n"
        "                          'Highlighter', html.escape('<&>'), stems]\n"
        "import asyncio, urllib.request\n"
        "real = [hasattr(asyncio, 'run'), hasattr(urllib.request, 'Request'),\n"
        "        type(real_morph).__name__, type(sys.modules['whoosh.lang.morph_en']).__name__]\n"
        "print(json.dumps({'waiting': waiting, 'cached': cached, 'forms': len(forms), 'same': same,\n"
        "                  'got': open(got).read(), 'real': real}))"
    )
    found = _fresh(code)
    assert found["waiting"] == []  # whoosh imported, its deferred modules not
    assert found["cached"] == [42, 42, 1]
    assert found["forms"] > 5 and found["same"] is True  # "pulls", "pulled", "pulling", ...
    assert found["got"] == "whoosh"
    assert found["real"] == [True, True, "module", "module"]


async def _coroutine() -> None:
    return None


def test_coroutine_functions_are_told_apart_as_asyncio_does() -> None:
    for func in (_coroutine, test_coroutine_functions_are_told_apart_as_asyncio_does, len):
        assert lean_whoosh.iscoroutinefunction(func) == asyncio.iscoroutinefunction(func)


def test_a_stand_in_is_no_package_to_the_import_system() -> None:
    # the import system probes __path__ and __spec__; a probe must not import the real module
    stand_in = lean_whoosh._stand_in("urllib.request")
    assert not hasattr(stand_in, "__path__")
    assert callable(stand_in.urlretrieve)  # type: ignore[attr-defined]
