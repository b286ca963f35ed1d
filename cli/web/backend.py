"""What the web server holds between requests: one library snapshot, a result cache, errors.

A CLI command opens the library, answers and exits; a server answers thousands of questions
from one process while another process may ingest. So the server keeps one library object
(whose search engines are reused across requests) and watches the store's manifest. When it
changes and has stayed unchanged for a moment (an ingest of many files rewrites it per file),
a background thread opens a new library, builds its derived artefacts (rule table, keyword
links, search index) and only then swaps it in: requests keep being answered from the old
snapshot meanwhile, and never wait for an index build another process caused.

Answers of a snapshot are deterministic, so they are cached (bounded LRU) per snapshot:
search-as-you-type asks the same prefixes again and again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from regelwerk.index.facade import Library
from regelwerk.ingest.model.errors import NotFound

#: Seconds between two looks at the manifest, and how long it must stay unchanged before a
#: new snapshot is built (an ingest of N files rewrites it N times).
CHECK_INTERVAL = 1.0
SETTLE = 2.0
CACHE_SIZE = 1024

def status_for(exc: BaseException) -> int:
    """The HTTP status of a library error: 404 for something that does not exist (`NotFound`),
    else 400."""
    return 404 if isinstance(exc, NotFound) else 400


def warm(library: Any) -> None:
    """Build what the first request would otherwise build: rule table, links, search index
    (and load what the first question in each language would: the German lexicon for a German
    one, and the sentence encoder where the extra is installed)."""
    from regelwerk.ingest.model.errors import RegelwerkError

    for method, query in (("rule", "100.1"), ("term", "flying"), ("search", "x"),
                          ("search", "when may a player cast a spell"),
                          ("search", "wann darf ein Spieler einen Zauberspruch wirken")):
        with contextlib.suppress(RegelwerkError):
            getattr(library, method)(query)


class Backend:
    """The server's view of the library: a snapshot, refreshed in the background, and a cache."""

    def __init__(
        self,
        home: Path | None = None,
        *,
        cache_size: int = CACHE_SIZE,
        factory: Callable[[Path | None], Any] = Library,
    ) -> None:
        self._home = home
        self._factory = factory
        self._snapshot = factory(home)
        self._stamp = self._snapshot.stamp()
        self._seen = self._stamp
        self._seen_at = time.monotonic()
        self._checked = 0.0
        self._refreshing = False
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._cache_size = cache_size
        self.generation = 0  # bumped at every swap; part of every cache key

    # -- snapshot -----------------------------------------------------------------------------
    def library(self) -> Any:
        """The current snapshot; starts a background refresh once the store settled after a change."""
        now = time.monotonic()
        if now - self._checked >= CHECK_INTERVAL and not self._refreshing:
            self._checked = now
            stamp = self._snapshot.stamp()
            if stamp != self._seen:
                self._seen, self._seen_at = stamp, now
            elif stamp != self._stamp and now - self._seen_at >= SETTLE:
                self._refreshing = True
                threading.Thread(target=self._refresh, args=(stamp,), daemon=True).start()
        return self._snapshot

    def _refresh(self, stamp: tuple[int, int]) -> None:
        try:
            fresh = self._factory(self._home)
            warm(fresh)
            with self._lock:
                self._snapshot, self._stamp = fresh, stamp
                self.generation += 1
                self._cache.clear()
        finally:
            self._refreshing = False

    # -- cached calls -------------------------------------------------------------------------
    def call(self, method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """``library.<method>(*args, **kwargs)``, answered from the cache when asked before.

        Errors propagate and are not cached (they are cheap and carry the input in their text).
        """
        library = self.library()
        key = (self.generation, method, args, tuple(sorted(kwargs.items())))
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        result: dict[str, Any] = getattr(library, method)(*args, **kwargs)
        if self._cache_size > 0:
            with self._lock:
                self._cache[key] = result
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return result
