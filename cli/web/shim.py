"""Stand-in for ``regelwerk.index.facade.Library`` until the facade is on main.

Each method returns exactly the payload the CLI prints with ``--json`` (without ``"ok"``), as
the facade contract says, so the web server can switch to the facade by changing one import.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

#: Search engines kept per library: searches run on one core at a time anyway (the GIL), so a
#: few engines serve any number of concurrent requests.
ENGINES = 4


class Library:
    """The facade's read methods over today's lookup functions."""

    def __init__(self, home: Path | None = None) -> None:
        from regelwerk.index.store.library import Library as Store

        self._lib = Store(home)
        self.home = self._lib.home
        self.store = self._lib.store
        self._engines: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._searching = threading.BoundedSemaphore(ENGINES)  # so at most ENGINES engines exist

    def rule(self, query: str, version: str | None = None, lang: str | None = None) -> dict[str, Any]:
        from regelwerk.index.rules.lookup import lookup

        return {"rule": lookup(self._lib, query, version=version, lang=lang).to_dict()}

    def search(
        self,
        query: str,
        lang: str | None = None,
        limit: int = 10,
        version: str | None = None,
        all_versions: bool = False,
    ) -> dict[str, Any]:
        with self._searching:
            engine = self._engine()
            try:
                result = engine.search(
                    query, limit=limit, version=version, all_versions=all_versions, lang=lang
                )
            finally:
                self._engines.put(engine)
        data: dict[str, Any] = result.to_dict()
        return data

    def _engine(self) -> Any:
        """A search engine of this library's own (opening one costs more than a query; an
        engine is not shared by two threads at once, so concurrent requests take one each)."""
        from regelwerk.index.search.query import SearchEngine

        try:
            return self._engines.get_nowait()
        except queue.Empty:
            return SearchEngine(self._lib)

    def term(self, query: str, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        from regelwerk.index.linking.keyword_index import keyword_index
        from regelwerk.index.terms.lookup import lookup

        index = keyword_index(self._lib)
        data = [m.to_dict() for m in lookup(index, query, limit)]
        eras: dict[str, dict[str, Any]] = {}
        for m in data:
            for ref in m.get("documents", ()):
                era = index.era(ref["document"])
                if era is not None:
                    eras[era.document] = {"versions": list(era.versions), "reason": era.explain(lang or "en")}
        return {"query": query.strip(), "matches": data, "eras": eras}

    def docs(self) -> dict[str, Any]:
        return {"documents": self._lib.documents(), "home": str(self.home)}

    def examples(self) -> dict[str, Any]:
        from regelwerk.engine.scenario import list_scenarios

        return {"scenarios": [s.to_dict() for s in list_scenarios()]}

    def example(self, name_or_path: str, lang: str = "de") -> dict[str, Any]:
        from regelwerk.cli.example import LibraryRuleBook
        from regelwerk.engine.runner import run_scenario
        from regelwerk.engine.scenario import resolve_scenario

        result = run_scenario(resolve_scenario(name_or_path), lang, LibraryRuleBook())
        return {"scenarios": [result.to_dict()]}
