"""MTGJSON v5 card files to card records: set files and AllPrintings, plain or compressed.

MTGJSON ships one file per set (``{"data": {"cards": [...], "code": "4ED", ...}, "meta": ...}``)
and ``AllPrintings`` (the same set objects under ``data.<SET>``), each as ``.json`` or packed as
``.json.gz``, ``.json.xz``, ``.json.bz2`` or ``.json.zip``. The container is recognised by its
magic bytes (``detect.compression``), never by the file name. An AllPrintings file is well over a
gigabyte of JSON, so it is never loaded whole: ijson streams the members of ``data`` one at a
time, and only one set's objects are alive at once (`MtgjsonReader.sets`).

Per printing we keep what the German card says: MTGJSON's ``foreignData`` entry with
``language`` "German" gives the printed name, type line and text of that printing (old sets
print old wording: 4ED's Mesa Pegasus says "Kann fliegen, Bündnisfähigkeit"). Each face of a
double-faced or split card becomes its own `OracleCard`. Parsing is lenient: a card entry that
is not a card (no name) becomes an `IngestIssue`, and the rest go on.
"""

from __future__ import annotations

import bz2
import contextlib
import dataclasses
import gzip
import io
import json
import lzma
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import IO, Any, BinaryIO, cast

from regelwerk.ingest.detect import compression, mtgjson_reason
from regelwerk.ingest.model.errors import IngestError
from regelwerk.ingest.model.format import Compression, Format
from regelwerk.ingest.model.ids import file_sha256, sha256, slug
from regelwerk.ingest.model.message import N_, msg
from regelwerk.ingest.model.records import CardSet, Document, IngestIssue, OracleCard, Printing

KIND = Format.MTGJSON
GERMAN = "German"
#: How much of the decompressed start (and end) of a file we keep to sniff it and find "meta".
_EDGE = 65536
_META = re.compile(rb'"meta"\s*:\s*(\{[^{}]*\})')
#: Everything that can go wrong while reading a broken container or truncated JSON.
_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    lzma.LZMAError,
    zipfile.BadZipFile,
    ValueError,  # ijson.JSONError and IncompleteJSONError are ValueErrors
)


class _EdgeReader(io.RawIOBase):
    """A read-only stream that remembers its first and last bytes (for the trailing "meta")."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner
        self.head = b""
        self.tail = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self._inner.read(len(buffer))
        n = len(chunk)
        buffer[:n] = chunk
        if len(self.head) < _EDGE:
            self.head += chunk[: _EDGE - len(self.head)]
        self.tail = (self.tail + chunk)[-_EDGE:]
        return n

    def drain(self) -> None:
        while self.read(1 << 20):
            pass


@contextlib.contextmanager
def decompressed(raw: BinaryIO, source: str) -> Iterator[IO[bytes]]:
    """The JSON bytes inside `raw`, decompressing a gzip, xz, bzip2 or zip container."""
    start = raw.read(8)
    raw.seek(0)
    kind = compression(start)
    try:
        if kind is None:
            yield raw
        elif kind is Compression.GZIP:
            with gzip.GzipFile(fileobj=raw, mode="rb") as gz:
                yield cast(IO[bytes], gz)
        elif kind is Compression.XZ:
            with lzma.LZMAFile(raw, mode="rb") as fh:
                yield fh
        elif kind is Compression.BZIP2:
            with bz2.BZ2File(raw, mode="rb") as fh:
                yield fh
        else:
            with zipfile.ZipFile(raw) as archive, archive.open(_zip_member(archive, source)) as fh:
                yield fh
    except _READ_ERRORS as exc:
        why = msg(N_("cannot be read as {kind} ({error})"), kind=str(kind or "JSON"),
                  error=f"{type(exc).__name__}: {exc}")
        raise IngestError(source, why) from None


def _zip_member(archive: zipfile.ZipFile, source: str) -> str:
    names = [n for n in archive.namelist() if not n.endswith("/")]
    jsons = [n for n in names if n.lower().endswith(".json")] or names
    if len(jsons) != 1:
        why = msg(N_("zip archive holds {n} JSON files; expected exactly one: {names}"),
                  n=str(len(jsons)), names=str(jsons[:5]))
        raise IngestError(source, why)
    return jsons[0]


_DECOMPRESSORS: dict[Compression, Callable[[], Any]] = {
    Compression.GZIP: lambda: zlib.decompressobj(wbits=31),
    Compression.XZ: lzma.LZMADecompressor,
    Compression.BZIP2: bz2.BZ2Decompressor,
}


def _head(raw: BinaryIO, source: str) -> tuple[bytes, Compression | None]:
    """The first decompressed bytes of `raw` (fewer if it is truncated) and its container."""
    kind = compression(raw.read(8))
    raw.seek(0)
    if kind is None:
        return raw.read(_EDGE), None
    if kind is Compression.ZIP:  # a broken or ambiguous archive is an error worth naming
        with decompressed(raw, source) as fh:
            return fh.read(_EDGE), kind
    decompressor: Any = _DECOMPRESSORS[kind]()
    try:
        return decompressor.decompress(raw.read(1 << 16), _EDGE), kind
    except (zlib.error, lzma.LZMAError, OSError, EOFError):
        return b"", kind


def sniff(raw: BinaryIO, source: str) -> str | None:
    """Why the file is an MTGJSON card file (decompressing its start if needed), or None.

    Raises IngestError only for a zip archive that cannot be opened or holds several files.
    """
    try:
        head, kind = _head(raw, source)
    finally:
        raw.seek(0)
    reason = mtgjson_reason(head)
    if reason is not None and kind is not None:
        return f"{reason} ({kind}-compressed)"
    return reason


def _year(date: Any) -> int | None:
    if isinstance(date, str) and len(date) >= 4 and date[:4].isdigit():
        return int(date[:4])
    return None


def _text(value: Any) -> str | None:
    """A string field, or None for a missing or empty one."""
    return value if isinstance(value, str) and value else None


def _german(card: dict[str, Any]) -> dict[str, Any] | None:
    for entry in card.get("foreignData") or ():
        if isinstance(entry, dict) and entry.get("language") == GERMAN:
            return entry
    return None


def _card(card: dict[str, Any], set_code: str, set_year: int | None) -> OracleCard:
    """One MTGJSON card object (one face of one printing) as an OracleCard with one Printing."""
    full_name = str(card["name"])
    face = _text(card.get("faceName"))
    de = _german(card)
    printing = Printing(
        set_code=str(card.get("setCode") or set_code),
        number=str(card.get("number") or ""),
        year=_year(card.get("originalReleaseDate")) or set_year,
        name_de=None if de is None else _text(de.get("faceName") if face else None) or _text(de.get("name")),
        type_de=None if de is None else _text(de.get("type")),
        text_de=None if de is None else _text(de.get("text")),
    )
    keywords = card.get("keywords") or ()
    return OracleCard(
        name=face or full_name,
        type_line=_text(card.get("type")),
        mana_cost=_text(card.get("manaCost")),
        power=_text(card.get("power")),
        toughness=_text(card.get("toughness")),
        loyalty=_text(card.get("loyalty")),
        keywords=tuple(str(k) for k in keywords if isinstance(k, str)),
        text=_text(card.get("text")),
        full_name=full_name if face else None,
        layout=_text(card.get("layout")),
        printings=(printing,),
    )


def card_set(data: dict[str, Any], source: str, issues: list[IngestIssue]) -> CardSet:
    """One MTGJSON set object to a CardSet; odd card entries are added to `issues`."""
    code = str(data.get("code") or "?")
    release = _text(data.get("releaseDate"))
    year = _year(release)
    cards: list[OracleCard] = []
    for i, raw in enumerate(data.get("cards") or (), start=1):
        if not isinstance(raw, dict) or not _text(raw.get("name")):
            issues.append(
                IngestIssue(source, None, f"set {code}: card #{i} has no name; skipped", text=repr(raw)[:200])
            )
            continue
        cards.append(_card(raw, code, year))
    return CardSet(code=code, name=str(data.get("name") or code), release_date=release, cards=tuple(cards))


@dataclass
class MtgjsonReader:
    """Streams the sets of one MTGJSON file; after `sets` is exhausted, `document` describes it.

    Usage: ``reader = MtgjsonReader(path); for s in reader.sets(): ...; reader.document(sha)``.
    `source` names the file in messages; `data` may replace the path for in-memory bytes.
    """

    source: str
    data: bytes | None = None

    def __post_init__(self) -> None:
        self.issues: list[IngestIssue] = []
        self.set_codes: list[str] = []
        self.set_names: list[str] = []
        self.meta: dict[str, Any] = {}
        self.cards = 0
        self.german = 0
        self._done = False

    @contextlib.contextmanager
    def _raw(self) -> Iterator[BinaryIO]:
        if self.data is not None:
            yield io.BytesIO(self.data)
            return
        try:
            fh = open(self.source, "rb")  # noqa: SIM115 - closed below, after the generator ends
        except OSError as exc:
            raise IngestError(self.source, msg(N_("cannot be read ({why})"),
                                               why=str(exc.strerror or exc))) from None
        with fh:
            yield fh

    def sets(self) -> Iterator[CardSet]:
        """Each set of the file in file order, streamed (AllPrintings never loads whole)."""
        for data in self.set_objects():
            yield self._count(card_set(data, self.source, self.issues))

    def set_objects(self) -> Iterator[dict[str, Any]]:
        """Each set object of the file in file order as MTGJSON gives it (``{"code": ..., "cards":
        [...]}``), streamed: `sets` reads these into records; the maintenance tools read fields
        the records leave out (``supertypes``, every German ``foreignData`` entry)."""
        import ijson

        with self._raw() as raw:
            if sniff(raw, self.source) is None:
                raise IngestError(self.source, msg(N_("not an MTGJSON v5 set or AllPrintings file")))
            with decompressed(raw, self.source) as inner:
                edges = _EdgeReader(inner)
                stream = io.BufferedReader(edges, buffer_size=1 << 16)
                single: dict[str, Any] = {}
                found = 0
                try:
                    for key, value in ijson.kvitems(stream, "data", use_float=True):
                        if isinstance(value, dict) and "cards" in value:  # AllPrintings: data.<SET>
                            found += 1
                            yield value
                        else:  # a set file: data's own keys, "cards" among them
                            single[key] = value
                    stream.read()
                    edges.drain()
                except ijson.JSONError as exc:
                    raise IngestError(self.source, msg(N_("is not valid JSON ({why})"),
                                                       why=str(exc))) from None
                except _READ_ERRORS as exc:
                    raise IngestError(self.source, msg(N_("cannot be read ({why})"),
                                                       why=f"{type(exc).__name__}: {exc}")) from None
                if "cards" in single:
                    yield single
                elif not found:
                    raise IngestError(
                        self.source, msg(N_("MTGJSON file without cards (expected data.cards or "
                                            "data.<SET>.cards)"))
                    )
                self.meta = _find_meta(edges.head, edges.tail)
        self._done = True

    def _count(self, found: CardSet) -> CardSet:
        self.set_codes.append(found.code)
        self.set_names.append(found.name)
        self.cards += len(found.cards)
        self.german += sum(1 for c in found.cards for p in c.printings if p.name_de)
        return found

    @property
    def document_id(self) -> str:
        """The file's id, known before reading: ``mtgjson-`` and the file name without endings."""
        return f"mtgjson-{slug(PurePath(self.source).name.split('.')[0])}"

    def summary(self, sha: str) -> dict[str, Any]:
        """`file_summary` of the file (call after `sets` has run to the end)."""
        return file_summary(self.document(sha), len(self.set_codes), self.cards, self.german, self.issues)

    def document(self, sha: str) -> Document:
        """The Document record of the file (call after `sets` has run to the end)."""
        if not self._done:
            raise RuntimeError("MtgjsonReader.document() before sets() was exhausted")
        stem = PurePath(self.source).name.split(".")[0]
        if len(self.set_codes) == 1:
            title = f"MTGJSON {self.set_codes[0]} ({self.set_names[0]})"
        else:
            title = f"MTGJSON {stem} ({len(self.set_codes)} sets)"
        version = self.meta.get("date")
        return Document(
            id=self.document_id,
            title=title,
            language="de+en",
            kind=KIND,
            version=version if isinstance(version, str) else None,
            source=self.source,
            sha256=sha,
        )


def _find_meta(head: bytes, tail: bytes) -> dict[str, Any]:
    """MTGJSON's small "meta" object (date, version), from the start or the end of the file."""
    for edge in (tail, head):
        found = _META.search(edge)
        if found:
            with contextlib.suppress(ValueError):
                meta = json.loads(found.group(1))
                if isinstance(meta, dict):
                    return meta
    return {}


@dataclass(frozen=True)
class CardFile:
    """A whole MTGJSON file read into memory (for small files and tests; see MtgjsonReader)."""

    document: Document
    sets: tuple[CardSet, ...]
    issues: tuple[IngestIssue, ...] = ()

    def cards(self) -> tuple[OracleCard, ...]:
        """Every card once, with its printings from all sets of the file."""
        return merge_printings(c for s in self.sets for c in s.cards)

    def summary(self) -> dict[str, Any]:
        """The ``--json`` shape of ``ingest`` and ``docs`` for a card file."""
        printings = sum(len(c.printings) for s in self.sets for c in s.cards)
        german = sum(1 for s in self.sets for c in s.cards for p in c.printings if p.name_de)
        return file_summary(self.document, len(self.sets), printings, german, self.issues)


def file_summary(
    document: Document, sets: int, printings: int, german: int, issues: Iterable[IngestIssue]
) -> dict[str, Any]:
    """A card file in ``ingest``/``docs`` output: the document columns every kind has (it holds no
    rules, so those counts are 0; ``cards`` counts printings), plus its set and German counts."""
    return {
        **document.summary(),
        "sections": 0,
        "rules": 0,
        "glossary": 0,
        "cards": printings,
        "sets": sets,
        "printings": printings,
        "german_printings": german,
        "issues": [str(i) for i in issues],
    }


def card_key(card: OracleCard) -> str:
    """What makes two card objects the same card: the English (face) name."""
    return card.name


def merge_printings(cards: Iterable[OracleCard]) -> tuple[OracleCard, ...]:
    """One OracleCard per card name, printings in order seen, keywords united."""
    merged: dict[str, OracleCard] = {}
    for card in cards:
        key = card_key(card)
        have = merged.get(key)
        if have is None:
            merged[key] = card
            continue
        merged[key] = dataclasses.replace(
            have,
            keywords=tuple(dict.fromkeys((*have.keywords, *card.keywords))),
            printings=have.printings + card.printings,
        )
    return tuple(merged.values())


def read_file(path: str | Path) -> CardFile:
    """Read a whole MTGJSON file (any container) into memory."""
    reader = MtgjsonReader(str(path))
    sets = tuple(reader.sets())
    return CardFile(reader.document(file_sha256(path)), sets, tuple(reader.issues))


def parse(data: bytes, source: str) -> CardFile:
    """Parse MTGJSON bytes (any container) into memory."""
    reader = MtgjsonReader(source, data)
    sets = tuple(reader.sets())
    return CardFile(reader.document(sha256(data)), sets, tuple(reader.issues))
