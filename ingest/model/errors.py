"""The error hierarchy every layer raises from.

One root (`RegelwerkError`) lets the CLI map any of them to the one-line error envelope; bad
input subclasses `ValueError` so library callers can catch it the ordinary way. Messages quote
what they got with ``!r`` and say what was expected.

An error's sentence is a `Message` (an English template marked with ``N_`` plus its
arguments), kept in ``.message``: ``str(error)`` is the English sentence (logs, ``--json``
envelopes, HTTP API errors), and the CLI and the web pages show ``.message`` in the reader's
language through the gettext catalog (``cli/locale``). A plain string is accepted too, for
text that has no translation (it is then shown as it is).
"""

from __future__ import annotations

from regelwerk.ingest.model.message import N_, Arg, Message, msg


class RegelwerkError(Exception):
    """Root of every error regelwerk raises on purpose."""

    def __init__(self, message: Arg = "") -> None:
        super().__init__(str(message))
        #: The sentence as template + arguments (None: a plain, untranslatable string).
        self.message: Message | None = message if isinstance(message, Message) else None


class InputError(RegelwerkError, ValueError):
    """The user (or a file) gave us something we cannot use."""


class IngestError(InputError):
    """A document could not be ingested at all (unreadable, binary, empty, unrecognised)."""

    def __init__(self, path: str, why: Arg) -> None:
        super().__init__(msg(N_("{path}: {why}"), path=path, why=why))
        self.path = path
        self.why = str(why)


class UnknownFormat(IngestError):
    """No ingestor recognises the document."""


class InvalidRuleNumber(InputError):
    """A string that is not a Comprehensive Rules number."""

    def __init__(self, given: str, expected: Arg | None = None) -> None:
        wanted = expected if expected is not None else msg(N_("a rule number such as '702.22' or '702.22j'"))
        super().__init__(msg(N_("{given!r} is not a rule number; expected {expected}"),
                             given=given, expected=wanted))
        self.given = given


class NotFound(InputError):
    """Something asked for by name or number that does not exist (a rule, a release, a term):
    a web server's 404, where other bad input is a 400."""


class UnknownRule(NotFound):
    """A well-formed rule number that no ingested document contains."""


class UnknownVersion(NotFound):
    """A --version that no ingested document has (rule lookup and search both refuse it)."""

    def __init__(self, version: str, known: list[str]) -> None:
        if not known:  # the embedded seeds alone: no dated release to choose from
            super().__init__(msg(N_("no ingested document has version {version!r}: no dated release is "
                                    "ingested (the embedded texts have no dates); "
                                    "try: regelwerk ingest FILE"), version=version))
            return
        super().__init__(msg(N_("no ingested document has version {version!r}; versions: {known}"),
                             version=version, known=", ".join(known)))


class UnknownKeyword(NotFound):
    """A term that matches no keyword record."""


class UnknownCard(NotFound):
    """A name that matches no card of the card database (or no cards are ingested yet)."""


class UnknownRelease(NotFound):
    """A CR release (date, ``latest`` or document id) that no ingested CR release matches, or
    none ingested at all (history and diff)."""


class InvalidQuery(InputError):
    """A search or term query that cannot be used (empty, too long, control characters)."""


class StoreError(RegelwerkError):
    """The store under REGELWERK_HOME is damaged or cannot be used; the message names the fix."""


class StoreBusy(StoreError):
    """Another regelwerk process holds the store's lock longer than we may wait."""


def sentence(exc: BaseException) -> Arg:
    """An error's sentence as a message argument: its `Message` if it has one, else its text."""
    found = getattr(exc, "message", None)
    return found if isinstance(found, Message) else str(exc)


def joined(parts: list[Arg], separator: str = "; ") -> Arg:
    """Several sentences as one message argument ("a; b; c"), each still translatable."""
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        out = msg("{first}" + separator + "{rest}", first=out, rest=part)
    return out
