"""The one check of a ``term`` or ``card`` query: kept apart from the lookups so that the card
path (``card Tatzelwurm``) does not import the keyword index to validate its argument."""

from __future__ import annotations

import unicodedata

from regelwerk.ingest.model.errors import InvalidQuery
from regelwerk.ingest.model.fold import compact
from regelwerk.ingest.model.message import N_, msg

MAX_QUERY = 200


def check_query(query: str) -> str:
    """The query stripped, or InvalidQuery saying what is wrong with it (in one line)."""
    if any(unicodedata.category(c) == "Cc" for c in query):
        shown = query[:40].encode("unicode_escape").decode()
        raise InvalidQuery(msg(N_("query '{shown}' contains control characters; type a keyword or card name"),
                               shown=shown))
    text = query.strip()
    if not text:
        raise InvalidQuery(msg(N_("empty query; give a keyword or card name such as 'banding' or "
                                  "'Bündnisfähigkeit'")))
    if len(text) > MAX_QUERY:
        raise InvalidQuery(msg(N_("query is {n} characters long; the limit is {limit} (a keyword or "
                                  "card name)"),
                               n=str(len(text)), limit=str(MAX_QUERY)))
    if not compact(text):
        raise InvalidQuery(msg(N_("query {text!r} has no letters or digits; give a keyword or card name"),
                               text=text))
    return text
