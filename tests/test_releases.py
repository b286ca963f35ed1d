"""Release order is defined once, on the records: which CR release is newest, and what is one."""

from __future__ import annotations

from pathlib import Path

from regelwerk.ingest.model import CR_KINDS, Document, Format, ParsedDocument, newest_release, release_key

ROOT = Path(__file__).resolve().parents[1]


def _doc(id_: str, kind: str, version: str | None, language: str = "en") -> ParsedDocument:
    return ParsedDocument(Document(id_, id_, language, kind, version, f"{id_}.txt", "0" * 64))


def test_kind_is_the_format_enum_and_the_repr_evaluates() -> None:
    doc = Document("cr-en-2026-04-17", "CR", "en", "cr-text", "2026-04-17", "x.txt", "0" * 64)
    assert doc.kind is Format.CR_TEXT and doc.kind == "cr-text"
    assert eval(repr(doc)) == doc
    assert Document.from_dict(doc.to_dict()) == doc


def test_release_order() -> None:
    docs = [
        _doc("seed", "bilingual-dump", None, "de+en"),
        _doc("undated", "cr-text", None),
        _doc("html-2014", "cr-html", "2014-09-25"),
        _doc("txt-2014", "cr-text", "2014-09-25"),
        _doc("txt-2011", "cr-text", "2011-02-04"),
        _doc("de-2015", "cr-text", "2015-11-13", "de"),
    ]
    ordered = sorted(docs, key=lambda p: p.document.release_key)
    assert [p.document.id for p in ordered[-3:]] == ["html-2014", "txt-2014", "de-2015"]
    assert not docs[0].document.is_release and not docs[1].document.is_release
    newest = newest_release(docs)
    assert newest is not None and newest.document.id == "txt-2014"  # .txt beats .htm of a date
    newest_de = newest_release(docs, "de")
    assert newest_de is not None and newest_de.document.id == "de-2015"
    assert newest_release(docs[:2]) is None
    assert release_key("excerpt", "2026-01-01") < release_key("cr-html", "2003-01-01")


def test_cr_kinds_are_listed_once() -> None:
    assert {Format.CR_TEXT, Format.CR_HTML} == CR_KINDS
    defined = [
        p.relative_to(ROOT).as_posix()
        for top in ("ingest", "index", "cli", "engine")
        for p in (ROOT / top).rglob("*.py")
        if "CR_KINDS =" in p.read_text(encoding="utf-8")
    ]
    assert defined == ["ingest/model/releases.py"]
