"""Linking: keyword records across languages, releases and number-less documents."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from regelwerk.index.linking.keyword import Keyword
from regelwerk.index.linking.keyword_index import KeywordIndex, keyword_index
from regelwerk.index.linking.link import Linked, excerpt_numbers, link
from regelwerk.index.store.corpus import Corpus
from regelwerk.index.terms.shipped import load_terms
from regelwerk.index.terms.table import TermRow
from regelwerk.ingest import parse_path
from regelwerk.ingest.model.fold import compact, fold, umlaut_fold
from regelwerk.ingest.model.records import Document, ParsedDocument, Section

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "data" / "seeds"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "en"
needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="../shared corpus not available")

BILINGUAL = "rule-702-19-banding-de-en"
EXCERPT = "cr-excerpt-en-keywords-unnumbered"


# -- folding ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bündnisfähigkeit", "Buendnisfaehigkeit"),
        ("Bündnisfähigkeit", "bundnisfahigkeit"),
        ("Großmeister", "GROSSMEISTER"),
        ("Göttergabe", "Goettergabe"),
        ("Lim-Dûl", "lim-dul"),
        ("Kitchen Finks", "  kitchen   finks "),
    ],
)
def test_fold_equates_spellings(a: str, b: str) -> None:
    assert fold(a) == fold(b)


@pytest.mark.parametrize(
    "word",
    ["Zählen", "zaehlen", "Bündnisfähigkeit", "Buendnisfaehigkeit", "Großmeister", "Lim-Dûl", "Feuer",
     "Dauer", "Kaffee", "Idee", "Göttergabe", "  Mächte  und Stärke ", "ZÄHLT", "Noël", "Muße"],
)
def test_umlaut_fold_only_splits_what_fold_joins(word: str) -> None:
    assert fold(umlaut_fold(word)) == fold(word)


def test_umlaut_fold_keeps_the_umlaut_apart_from_the_bare_vowel() -> None:
    assert umlaut_fold("Zählen") == umlaut_fold("zaehlen") == umlaut_fold("ZÄHLEN") == "zählen"
    assert umlaut_fold("zahlen") == "zahlen" != umlaut_fold("zählen")
    assert umlaut_fold("Ändere") == "ändere" and umlaut_fold("andere") == "andere"
    assert umlaut_fold("Großmeister") == "grossmeister" and umlaut_fold("Lim-Dûl") == "lim-dul"
    assert umlaut_fold("Ü\u0308ber") == umlaut_fold("über")  # decomposed or composed alike


def test_compact_ignores_spaces_and_hyphens() -> None:
    assert compact("trampel schaden") == compact("Trampel-Schaden") == compact("Trampelschaden")
    assert compact("Bündnis") != compact("Bündnisfähigkeit")


# -- hand-built documents ---------------------------------------------------------------------
def _doc(doc_id: str, version: str | None, sections: list[tuple[str | None, str, str, str, str]],
         kind: str = "cr-text", language: str = "en") -> ParsedDocument:
    """sections: (number, kind, title, text, language)."""
    return ParsedDocument(
        document=Document(doc_id, doc_id, language, kind, version, doc_id, "0" * 64),
        sections=tuple(
            Section(doc_id, number, None, title, text, lang, i, skind, keyword=title or None)
            for i, (number, skind, title, text, lang) in enumerate(sections)
        ),
    )


ROWS = (TermRow("Banding", "keyword_ability", "702.22", "Bündnis", ("Bündnisfähigkeit",), (), "seed"),
        TermRow("Trample", "keyword_ability", "702.19", "Trampelschaden", (), (), "seed"))


def _release(version: str, banding: str, trample: str) -> ParsedDocument:
    return _doc(f"cr-en-{version}", version, [
        (trample, "rule", "Trample", "", "en"),
        (trample + "a", "subrule", "", "Trample is a static ability.", "en"),
        (banding, "rule", "Banding", "", "en"),
        (banding + "a", "subrule", "", "Banding is a static ability.", "en"),
    ])


def _bilingual() -> ParsedDocument:
    return _doc(BILINGUAL, None, [
        ("702.19", "rule", "Bündnisfähigkeit", "", "de"),
        ("702.19a", "subrule", "", "Bündnisfähigkeit ist eine statische Fähigkeit.", "de"),
        ("702.19", "rule", "Banding", "", "en"),
        ("702.19a", "subrule", "", "Banding is a static ability.", "en"),
    ], kind="bilingual-dump", language="de+en")


def _by_id(linked: Linked, kid: str) -> Keyword:
    return next(k for k in linked.keywords if k.id == kid)


def test_same_number_other_language_is_the_same_rule() -> None:
    linked = link([_bilingual()], ROWS)
    banding = _by_id(linked, "banding")
    refs = {(r.language, r.number, r.how) for r in banding.rules}
    assert refs == {("de", "702.19", "same-number"), ("en", "702.19", "heading")}
    assert "Bündnisfähigkeit" in banding.german_names
    # Without any release the era can only be compared with the term table (702.22).
    era = linked.eras[0]
    assert era.versions == () and not era.current and "older release" in era.reason


def test_releases_link_by_title_and_date_the_undated_document() -> None:
    docs = [_release("2011-02-04", "702.19", "702.17"), _release("2026-04-17", "702.22", "702.19"),
            _bilingual()]
    linked = link(docs, ROWS)
    banding = _by_id(linked, "banding")
    assert banding.rules_by_key() == {"2026-04-17": "702.22", "2011-02-04": "702.19", BILINGUAL: "702.19"}
    # 702.19 is Trample in 2026: the German 702.19 must not be linked to it.
    trample = _by_id(linked, "trample")
    assert all(r.document != BILINGUAL for r in trample.rules)
    era = next(e for e in linked.eras if e.document == BILINGUAL)
    assert era.versions == ("2011-02-04",) and "2011-02-04" in era.reason
    index = KeywordIndex(linked)
    assert index.current(BILINGUAL, "702.19j") == "702.22j"
    assert index.current("cr-en-2011-02-04", "702.17a") == "702.19a"
    assert index.current("cr-en-2011-02-04", "510.1c") is None  # not a keyword rule: unknown
    assert linked.newest == "cr-en-2026-04-17"


def test_release_keywords_missing_from_the_table_still_get_records() -> None:
    release = _doc("cr-en-2026-04-17", "2026-04-17", [("702.163", "rule", "", "For Mirrodin!", "en")])
    linked = link([release], ROWS)
    assert _by_id(linked, "for-mirrodin").rules_by_key() == {"2026-04-17": "702.163"}


def test_excerpt_paragraphs_are_lettered_from_the_keyword_number() -> None:
    excerpt = _doc(EXCERPT, None, [
        (None, "front", "", "Creatures band together. (See rule 702.22, “Banding.”)", "en"),
        (None, "keyword", "Banding", "Banding is a static ability.", "en"),
        *[(None, "paragraph", "", f"Banding rule {i}.", "en") for i in range(11)],
        (None, "paragraph", "", "Something unrelated.", "en"),
    ], kind="excerpt")
    linked = link([excerpt], ROWS)
    numbers = excerpt_numbers(linked, EXCERPT)
    assert numbers[1] == "702.22a"
    assert numbers[11] == "702.22k" and numbers[12] == "702.22m"  # "l" is skipped
    assert 0 not in numbers and 13 not in numbers
    assert next(e for e in linked.eras if e.document == EXCERPT).current


def test_linked_round_trips_through_json() -> None:
    linked = link([_release("2026-04-17", "702.22", "702.19"), _bilingual()], ROWS)
    assert Linked.from_dict(linked.to_dict()) == linked


def _same_records(a: object, b: object, path: str = "") -> None:
    """`a` and `b` hold the same values of the same types, field by field (dataclass
    equality skips fields with ``compare=False`` and takes a list for a tuple)."""
    import dataclasses

    assert type(a) is type(b), path
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _same_records(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, tuple) and isinstance(b, tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_records(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


@needs_corpus
def test_stored_links_decode_to_what_from_dict_makes() -> None:
    """The keyword index decodes its stored JSON with msgspec (`_decoded`): the records must be
    exactly `Linked.from_dict`'s, for releases, seeds, excerpt numbers and eras; JSON that
    does not fit the types goes through `from_dict` too."""
    import json

    from regelwerk.index.linking.keyword_index import _decoded

    linked = link((*_corpus(), *_seeds()), load_terms())
    raw = json.dumps(linked.to_dict(), ensure_ascii=False).encode("utf-8")
    assert linked.assigned and linked.eras and linked.keywords
    _same_records(_decoded(raw), Linked.from_dict(json.loads(raw)))
    odd = json.loads(raw)
    odd["newest"] = 7  # no str: msgspec refuses it, from_dict keeps it
    assert _decoded(json.dumps(odd).encode("utf-8")).newest == 7


# -- the shipped seeds ------------------------------------------------------------------------
@functools.cache
def _seeds() -> tuple[ParsedDocument, ...]:
    return tuple(parse_path(p) for p in sorted(SEEDS.glob("*.txt")))


@functools.cache
def _corpus() -> tuple[ParsedDocument, ...]:
    return tuple(parse_path(p) for p in sorted(CORPUS.glob("*.txt")))


def test_seeds_only_link_german_names_to_keywords() -> None:
    index = KeywordIndex(link(_seeds(), load_terms()))
    banding = index.find("Bündnisfähigkeit")
    assert banding is not None and banding.en == "Banding"
    assert banding.rules_by_key()[BILINGUAL] == "702.19"
    assert {c.name_en for c in banding.cards} >= {"Benalish Hero"}
    seed_names = {
        e.title: k.en for k in index.keywords() for e in k.seed_entries
    }
    # d: German glossary entries by their German names, incl. "Prowess/Bravour" and "Gift".
    assert seed_names["Prowess/Bravour"] == "Prowess"
    assert seed_names["Gift"] == "Poisonous"
    assert seed_names["Beharrlichkeit"] == "Persist"
    assert seed_names["Bündnisfähigkeit"] == "Banding"
    assert not index.linked.unlinked
    persist = index.find("persist")
    assert persist is not None and any("Wenn diese Kreatur" in r.text for r in persist.reminders)


def test_seeds_only_number_the_excerpt_from_the_term_table() -> None:
    linked = link(_seeds(), load_terms())
    excerpt = next(p for p in _seeds() if p.document.id == EXCERPT)
    numbers = excerpt_numbers(linked, EXCERPT)
    banding = [s.position for s in excerpt.sections if s.keyword == "Banding"]
    assert [numbers[p] for p in banding] == [f"702.22{c}" for c in "abcdefghijkm"]


def test_translate_both_directions() -> None:
    index = KeywordIndex(link(_seeds(), load_terms()))
    assert index.translate("Giftmarken", "de") == ["poison counter"]
    assert index.translate("Bündnisfähigkeit", "de") == ["banding"]
    assert "bündnisfähigkeit" in index.translate("banding", "en")
    assert index.translate("Quatschwort", "de") == []


# -- with the real CR releases ----------------------------------------------------------------
@needs_corpus
def test_every_keyword_of_the_newest_release_has_a_record() -> None:
    linked = link((*_corpus(), *_seeds()), load_terms())
    newest = next(p for p in _corpus() if p.document.version == "2026-04-17")
    numbered = {r.number for k in linked.keywords for r in k.rules if r.document == newest.document.id}
    headings = [s.number for s in newest.sections
                if s.kind == "rule" and s.number and s.number.split(".")[0] in ("701", "702")
                and s.number not in ("701.1", "702.1")]
    assert len(headings) > 240
    assert [n for n in headings if n not in numbered] == []


@needs_corpus
def test_banding_across_releases_and_languages() -> None:
    index = KeywordIndex(link((*_corpus(), *_seeds()), load_terms()))
    banding = index.find("banding")
    assert banding is not None
    rules = banding.rules_by_key()
    assert rules["2026-04-17"] == "702.22" and rules["2015-11-13"] == "702.21"
    assert rules["2011-02-04"] == "702.19" and rules[BILINGUAL] == "702.19"
    era = index.era(BILINGUAL)
    assert era is not None and era.versions == ("2011-02-04",)
    assert index.current(BILINGUAL, "702.19j") == "702.22j"
    assert index.current("cr-en-2015-11-13", "702.21") == "702.22"


@needs_corpus
def test_excerpt_numbers_match_the_2026_text() -> None:
    linked = link((*_corpus(), *_seeds()), load_terms())
    excerpt = next(p for p in _seeds() if p.document.id == EXCERPT)
    cr = next(p for p in _corpus() if p.document.version == "2026-04-17")
    by_number = {s.number: s for s in cr.sections if s.number}
    numbers = excerpt_numbers(linked, EXCERPT)
    era = next(e for e in linked.eras if e.document == EXCERPT)
    assert "2026-04-17" in era.versions
    texts = {s.position: s.text for s in excerpt.sections}
    wrong = {
        (pos, number): texts[pos][:50]
        for pos, number in numbers.items()
        if fuzz.ratio(texts[pos], by_number[number].text) < 75
    }
    assert wrong == {}
    assert numbers[next(p for p, t in texts.items() if t.startswith("Banding is"))] == "702.22a"
    # Every paragraph except the page's two title lines gets a number.
    assert len(numbers) == len(excerpt.sections) - 2


@needs_corpus
def test_keyword_index_is_built_once_per_fingerprint(tmp_path: Path) -> None:
    library = Corpus(tmp_path)
    first = keyword_index(library)
    assert keyword_index(library) is first
    library.ingest([CORPUS / "MagicCompRules-20110204.txt"])
    second = keyword_index(library)
    assert second is not first
    banding = second.find("Bündnisfähigkeit")
    assert banding is not None and banding.rules_by_key()["2011-02-04"] == "702.19"
