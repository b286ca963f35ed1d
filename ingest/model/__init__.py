"""What every layer shares: the records ingest produces and the vocabulary to talk about them.

``ingest`` is the lowest layer and its records are everyone's input, so the shared model lives
here and ``index``, ``engine`` and ``cli`` import it from this package (never from an ingest
format module):

- ``records``: the frozen dataclasses (Document, Section, GlossaryEntry, Card, KeywordMention,
  IngestIssue, ParsedDocument; OracleCard, Printing, CardSet for MTGJSON card files) with their
  JSON round trip;
- ``errors``: the error hierarchy under ``RegelwerkError`` (bad input is a ``ValueError``);
- ``numbers``: rule numbers (``RuleNumber``), their order and references in text;
- ``fold``: umlaut/case folding (ü = ue = u, ß = ss) for matching;
- ``format``: the ``Format`` enum of document kinds and the ``Compression`` containers;
- ``ids``: content hashes and slugs for ids;
- ``stemming``: the one stemmer, ``stem(word, lang)`` on Snowball;
- ``lean_whoosh``: whoosh imported without the modules it loads for nothing (for the stemmer
  and search);
- ``releases``: release order (which CR release is newest) and the one list of CR kinds.
- ``steps``: ``Counted``, a build step's text with its count ("sentence vectors 256/4031").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regelwerk.ingest.model.errors import (
        IngestError,
        InputError,
        InvalidQuery,
        InvalidRuleNumber,
        RegelwerkError,
        UnknownCard,
        UnknownFormat,
        UnknownKeyword,
        UnknownRule,
    )
    from regelwerk.ingest.model.fold import compact, fold
    from regelwerk.ingest.model.format import Compression, Format
    from regelwerk.ingest.model.ids import sha256, slug
    from regelwerk.ingest.model.numbers import SUBRULE_LETTERS, RuleNumber, find_references, lineage
    from regelwerk.ingest.model.records import (
        Card,
        CardSet,
        Document,
        GlossaryEntry,
        IngestIssue,
        KeywordMention,
        OracleCard,
        ParsedDocument,
        Printing,
        Record,
        Section,
    )
    from regelwerk.ingest.model.releases import CR_KINDS, newest_release, release_date, release_key
    from regelwerk.ingest.model.stemming import mentions, stem

#: Each exported name -> the submodule that defines it. The package imports a submodule only
#: when one of its names is first used (PEP 562), so ``import regelwerk.ingest.model.errors``
#: (which every command does for the error types) does not pay for the records' dataclasses,
#: rule numbers or the stemmer.
_HOME: dict[str, str] = {
    "CR_KINDS": "releases",
    "Card": "records",
    "CardSet": "records",
    "Compression": "format",
    "Document": "records",
    "Format": "format",
    "GlossaryEntry": "records",
    "IngestError": "errors",
    "IngestIssue": "records",
    "InputError": "errors",
    "InvalidQuery": "errors",
    "InvalidRuleNumber": "errors",
    "KeywordMention": "records",
    "OracleCard": "records",
    "ParsedDocument": "records",
    "Printing": "records",
    "Record": "records",
    "RegelwerkError": "errors",
    "RuleNumber": "numbers",
    "SUBRULE_LETTERS": "numbers",
    "Section": "records",
    "UnknownCard": "errors",
    "UnknownFormat": "errors",
    "UnknownKeyword": "errors",
    "UnknownRule": "errors",
    "compact": "fold",
    "find_references": "numbers",
    "fold": "fold",
    "lineage": "numbers",
    "mentions": "stemming",
    "newest_release": "releases",
    "release_date": "releases",
    "release_key": "releases",
    "sha256": "ids",
    "slug": "ids",
    "stem": "stemming",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next use is an ordinary global
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__all__ = [
    "CR_KINDS",
    "SUBRULE_LETTERS",
    "Card",
    "CardSet",
    "Compression",
    "Document",
    "Format",
    "GlossaryEntry",
    "IngestError",
    "IngestIssue",
    "InputError",
    "InvalidQuery",
    "InvalidRuleNumber",
    "KeywordMention",
    "OracleCard",
    "ParsedDocument",
    "Printing",
    "Record",
    "RegelwerkError",
    "RuleNumber",
    "Section",
    "UnknownCard",
    "UnknownFormat",
    "UnknownKeyword",
    "UnknownRule",
    "compact",
    "find_references",
    "fold",
    "lineage",
    "mentions",
    "newest_release",
    "release_date",
    "release_key",
    "sha256",
    "slug",
    "stem",
]
