"""whoosh without the modules it loads for features regelwerk never uses.

whoosh-reloaded binds names at import time whose modules cost a cold ``search`` about a
tenth of its start (and ``term`` the first two, through the stemmer):

- ``whoosh.compat`` binds ``urlretrieve`` (a Python 2 compatibility name nothing of whoosh's
  calls), which loads ``urllib.request`` and with it ``http``, ``ssl`` and ``email``, and
  ``htmlescape`` (``html.escape``, for its HTML highlighter), which loads ``html.entities``;
- ``whoosh.reading`` uses the ``cached_property`` package, which imports ``asyncio`` to tell
  coroutine functions apart;
- ``whoosh.query.terms`` binds ``variations`` (English word forms for the ``Variations``
  query, which regelwerk's analyzers never build), whose module compiles a few hundred
  regular expressions on load;
- ``whoosh.analysis.morph`` binds the Porter stemmer and the double metaphone (defaults of
  filters regelwerk's analyzers never use: they stem with ``ingest.model.stemming``), and
  ``whoosh.searching`` the highlighting module (for ``Results.highlights``, which snippets
  never call): together about 2% of a cold question's start;
- ``whoosh.lang.snowball`` binds the stemmer classes of fourteen languages, of which
  regelwerk stems two (`UNUSED_STEMMERS`).

`prepare` puts a stand-in in each such module's place in ``sys.modules`` while whoosh's
binding module is imported, then takes it out again, so nothing but that binding ever sees
one (whoosh's own modules, which only whoosh imports, keep their stand-ins until first use,
as whoosh imports ``whoosh.query``, ``whoosh.analysis``, ``whoosh.searching`` and the
stemmers later). A stand-in's bound names forward to the real module, imported on first call,
and any other attribute imports it as well: behaviour is whoosh's own, only the import is
deferred. A module already imported (the web server loads ``asyncio`` first) is used as it is.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

#: The modules whose import is deferred, with the names whoosh binds from them, and the module
#: (a whoosh one, or a package whoosh uses) that binds them.
DEFERRED = {
    "urllib.request": (("urlretrieve",), "whoosh.compat"),
    "html": (("escape",), "whoosh.compat"),
    "asyncio": (("iscoroutinefunction",), "cached_property"),
    "whoosh.lang.morph_en": (("variations",), "whoosh.query.terms"),
    "whoosh.lang.porter": (("stem",), "whoosh.analysis.morph"),
    "whoosh.lang.dmetaphone": (("double_metaphone",), "whoosh.analysis.morph"),
    "whoosh.highlight": ((), "whoosh.searching"),
}
#: Snowball's stemmers regelwerk never asks for (it stems English and German): the package
#: ``whoosh.lang.snowball`` imports all fourteen languages' modules to map codes to classes.
UNUSED_STEMMERS = {
    "danish": "DanishStemmer", "dutch": "DutchStemmer", "finnish": "FinnishStemmer",
    "french": "FrenchStemmer", "hungarian": "HungarianStemmer", "italian": "ItalianStemmer",
    "norwegian": "NorwegianStemmer", "portugese": "PortugueseStemmer",
    "romanian": "RomanianStemmer", "russian": "RussianStemmer", "spanish": "SpanishStemmer",
    "swedish": "SwedishStemmer",
}
DEFERRED.update(
    {f"whoosh.lang.snowball.{m}": ((c,), "whoosh.lang.snowball") for m, c in UNUSED_STEMMERS.items()}
)
#: Stand-ins that stay in ``sys.modules`` until first use: whoosh's own modules, which only
#: whoosh imports. The others leave as soon as their binder is imported, so a standard
#: library module is never a stand-in for anyone else.
PERSISTENT = (
    "whoosh.lang.morph_en", "whoosh.lang.porter", "whoosh.lang.dmetaphone", "whoosh.highlight",
    *(f"whoosh.lang.snowball.{m}" for m in UNUSED_STEMMERS),
)

_LOCK = threading.Lock()
_prepared = False


def real(name: str) -> types.ModuleType:
    """The real module `name`, imported now if only its stand-in was there."""
    if isinstance(sys.modules.get(name), _StandIn):
        del sys.modules[name]
    return importlib.import_module(name)


class _StandIn(types.ModuleType):
    """Takes a deferred module's place while whoosh imports; forwards everything to it."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):  # the import system probing (__path__, __spec__): not a use
            raise AttributeError(attr)
        return getattr(real(self.__name__), attr)


def _forward(module: str, attr: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(real(module), attr)(*args, **kwargs)

    call.__name__ = call.__qualname__ = attr
    call.__doc__ = f"``{module}.{attr}``, its module imported on the first call."
    return call


def iscoroutinefunction(func: Any) -> bool:
    """``asyncio.iscoroutinefunction`` without importing asyncio for it.

    ``cached_property`` asks this on every first read of a cached property (whoosh reads one
    per posting list). Beyond ``inspect.iscoroutinefunction`` asyncio only recognises its own
    marker on a function, which nothing can carry while asyncio is not imported; once it is,
    asyncio answers.
    """
    loaded = sys.modules.get("asyncio")
    if loaded is not None and not isinstance(loaded, _StandIn):
        return bool(loaded.iscoroutinefunction(func))
    return inspect.iscoroutinefunction(func)


def _stand_in(name: str) -> _StandIn:
    module = _StandIn(name)
    for attr in DEFERRED[name][0]:
        setattr(module, attr, _forward(name, attr))
    if name == "asyncio":
        module.iscoroutinefunction = iscoroutinefunction  # type: ignore[attr-defined]
    return module


def prepare() -> None:
    """Defer the modules of `DEFERRED` for whoosh; call before a process first imports whoosh
    (later calls do nothing). A module already imported, or whose binder is, stays as it is."""
    global _prepared
    if _prepared:
        return
    with _LOCK:
        if not _prepared:
            _defer()
            _prepared = True


def _defer() -> None:
    wanted = {n: _stand_in(n) for n, (_, binder) in DEFERRED.items()
              if n not in sys.modules and binder not in sys.modules}
    sys.modules.update(wanted)
    try:
        for name in wanted:
            if name not in PERSISTENT:
                importlib.import_module(DEFERRED[name][1])
    finally:
        for name, module in wanted.items():
            if name not in PERSISTENT and sys.modules.get(name) is module:
                del sys.modules[name]
    for name in PERSISTENT:
        package, _, leaf = name.rpartition(".")
        # `import whoosh.lang.morph_en` finds it as the package's attribute too; a package that
        # binds names from it itself (snowball's) does so when it is imported, later
        if name in wanted and package != DEFERRED[name][1]:
            setattr(importlib.import_module(package), leaf, wanted[name])


__all__ = ["DEFERRED", "PERSISTENT", "iscoroutinefunction", "prepare", "real"]
