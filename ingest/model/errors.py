"""The error hierarchy every layer raises from.

One root (`RegelwerkError`) lets the CLI map any of them to the one-line error envelope; bad
input subclasses `ValueError` so library callers can catch it the ordinary way. Messages quote
what they got with ``!r`` and say what was expected.
"""

from __future__ import annotations


class RegelwerkError(Exception):
    """Root of every error regelwerk raises on purpose."""


class InputError(RegelwerkError, ValueError):
    """The user (or a file) gave us something we cannot use."""


class IngestError(InputError):
    """A document could not be ingested at all (unreadable, binary, empty, unrecognised)."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why


class UnknownFormat(IngestError):
    """No ingestor recognises the document."""


class InvalidRuleNumber(InputError):
    """A string that is not a Comprehensive Rules number."""

    def __init__(self, given: str, expected: str = "a rule number such as '702.22' or '702.22j'") -> None:
        super().__init__(f"{given!r} is not a rule number; expected {expected}")
        self.given = given


class UnknownRule(InputError):
    """A well-formed rule number that no ingested document contains."""


class UnknownVersion(InputError):
    """A --version that no ingested document has (rule lookup and search both refuse it)."""


class UnknownKeyword(InputError):
    """A term that matches no keyword record."""


class UnknownCard(InputError):
    """A name that matches no card of the card database (or no cards are ingested yet)."""


class InvalidQuery(InputError):
    """A search or term query that cannot be used (empty, too long, control characters)."""
