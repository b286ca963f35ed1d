"""The German/English term tables in data/terms/: shape, provenance, and agreement with the CR."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from termcheck import evidence, fold, german_forms, load_cards, occurs_in_german
from termgen import (
    COLUMNS,
    TERMS_DIR,
    TermRow,
    TermTableError,
    UnknownCoreTerm,
    fill_core,
    main,
    merge_keywords,
    parse_cr,
    read_cr,
    read_table,
    write_table,
)

from regelwerk.ingest.model.numbers import RuleNumber

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CR_2026 = SHARED / "corpus" / "en" / "MagicCompRules-20260417.txt"
CARDS = SHARED / "corpus" / "cards"
SEEDS = ROOT / "data" / "seeds"
needs_cr = pytest.mark.skipif(not CR_2026.exists(), reason="../shared corpus not available")
needs_cards = pytest.mark.skipif(not CARDS.exists(), reason="../shared card corpus not available")

KEYWORDS = read_table(TERMS_DIR / "keywords.tsv")
CORE = read_table(TERMS_DIR / "core.tsv")
ALL = KEYWORDS + CORE

MINI_CR = """Contents
Glossary
Credits

207.2c An ability word appears in italics. The ability words are battalion, council’s dilemma, and raid.

403. Battlefield

701.1. Most actions described in a card’s rules text use the standard English definitions.

701.8. Destroy

701.8a To destroy a permanent, move it from the battlefield to its owner’s graveyard.

702.22. Banding

702.22a Banding is a static ability that modifies the rules for combat.

Glossary

Banding, “Bands with Other”
A keyword ability that modifies the rules for combat. See rule 702.22, “Banding.”

Swampwalk
See Landwalk.

Landwalk
A generic term for a keyword ability. See rule 702.14, “Landwalk.”

Zone
A place where objects can be during a game. See section 4, “Zones.”

Credits
"""


# --- the generator on a small text (no ../shared needed) -----------------------------------


def test_parse_cr_finds_headings_ability_words_and_glossary() -> None:
    cr = parse_cr(MINI_CR)
    rows = cr.keyword_rows()
    assert [(r.en, r.kind, r.number) for r in rows] == [
        ("Destroy", "keyword_action", "701.8"),
        ("Banding", "keyword_ability", "702.22"),
        ("Battalion", "ability_word", "207.2c"),
        ("Council’s dilemma", "ability_word", "207.2c"),
        ("Raid", "ability_word", "207.2c"),
    ]
    assert cr.core_number("Battlefield") == "403"
    assert cr.core_number("Banding") == "702.22"  # a part of a split glossary head
    assert cr.core_number("Swampwalk") == "702.14"  # follows "See Landwalk."
    assert cr.core_number("Zone") == "4"  # "See section 4"
    assert cr.core_number("Flurble") is None


def test_merge_keeps_reviewed_german_and_reports_orphans() -> None:
    generated = [
        TermRow("Banding", "keyword_ability", "702.22"),
        TermRow("Flying", "keyword_ability", "702.9"),
    ]
    existing = [
        TermRow("banding", "keyword_ability", "702.21", "Bündnis", ("Bündnisfähigkeit",), (), "seed", "n"),
        TermRow("Gone", "keyword_ability", "702.99", "Weg", (), (), "known", ""),
    ]
    rows, orphans = merge_keywords(generated, existing)
    assert rows[0] == TermRow(
        "Banding", "keyword_ability", "702.22", "Bündnis", ("Bündnisfähigkeit",), (), "seed", "n"
    )
    assert rows[1] == TermRow("Flying", "keyword_ability", "702.9")
    assert [o.en for o in orphans] == ["Gone"]
    assert rows[2].number == ""  # kept, but no longer claims a number
    pruned, _ = merge_keywords(generated, existing, prune=True)
    assert [r.en for r in pruned] == ["Banding", "Flying"]


def test_fill_core_rejects_names_the_cr_lacks() -> None:
    cr = parse_cr(MINI_CR)
    rows = fill_core(cr, [TermRow("Battlefield", "core", "", "Spiel")], ["Zone"])
    assert [(r.en, r.number, r.de) for r in rows] == [("Battlefield", "403", "Spiel"), ("Zone", "4", "")]
    with pytest.raises(UnknownCoreTerm, match="'Battle field'"):
        fill_core(cr, [TermRow("Battle field", "core")])


def test_table_round_trip_and_bad_tables(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    row = TermRow("Banding", "keyword_ability", "702.22", "Bündnis", ("A", "B"), ("C",), "seed", "x")
    write_table(path, [row])
    assert read_table(path) == [row]
    path.write_text("en\tkind\n", encoding="utf-8")
    with pytest.raises(TermTableError, match="header"):
        read_table(path)
    path.write_text("\t".join(COLUMNS) + "\nBanding\tkeyword_ability\n", encoding="utf-8")
    with pytest.raises(TermTableError, match="2 columns"):
        read_table(path)
    path.write_text("\t".join(COLUMNS) + "\nX\tkeyword\t\t\t\t\t\t\n", encoding="utf-8")
    with pytest.raises(TermTableError, match="kind 'keyword'"):
        read_table(path)
    with pytest.raises(TermTableError, match="tab"):
        write_table(path, [TermRow("A\tB", "core")])


def test_fold_and_verb_forms() -> None:
    assert fold("Bündnisfähigkeit") == fold("Buendnisfaehigkeit") == fold("bundnisfahigkeit")
    assert fold("Straße") == fold("strasse")
    assert german_forms("zerstören") == ("zerstören", "zerstör")
    assert german_forms("opfern") == ("opfern", "opfer")
    assert german_forms("Trampelschaden") == ("Trampelschaden",)  # nouns are not stemmed


# --- the shipped tables ----------------------------------------------------------------------


def test_tables_are_well_formed() -> None:
    assert KEYWORDS and CORE
    assert {r.kind for r in KEYWORDS} == {"keyword_action", "keyword_ability", "ability_word"}
    assert {r.kind for r in CORE} == {"core"}
    for row in ALL:
        assert row.en and row.en == row.en.strip(), row
        for cell in row.cells():
            assert cell == cell.strip(), (row.en, cell)
        if len(row.number) > 1:  # core terms may cite a bare chapter ("4", Zones)
            RuleNumber.parse(row.number)
        has_german = bool(row.de or row.de_variants or row.de_old)
        assert bool(row.source) == has_german, f"{row.en}: source {row.source!r} vs German cells"
        if row.de_variants or row.de_old:
            assert row.de, f"{row.en}: variants without a current German name"
        names = [fold(n) for n in row.german_names]
        assert len(names) == len(set(names)), f"{row.en}: a German form is listed twice"


def test_no_duplicate_english_names() -> None:
    for table in (KEYWORDS, CORE, ALL):
        names = [r.en.casefold() for r in table]
        dupes = {n for n in names if names.count(n) > 1}
        assert not dupes


def test_seed_german_names_occur_in_a_seed() -> None:
    seeds = fold("\n".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))))
    missing = [(r.en, r.de) for r in ALL if r.source == "seed" and fold(r.de) not in seeds]
    assert not missing


#: A note's claim that the German printings of ``cards/mtgjson`` print a form (session 24's cells).
_PRINTED_CLAIM = re.compile(r"confirmed: German cards in cards/mtgjson print '([^']+)'")


@pytest.mark.skipif(not (CARDS / "mtgjson").exists(), reason="../shared MTGJSON set files not available")
def test_cells_confirmed_by_the_mtgjson_printings_are_printed_there() -> None:
    """A "confirmed: German cards in cards/mtgjson print 'X'" note is checked, not trusted: X is
    in a German card text there, and the cell is X or a form of the same word (Clash
    "befehden" for "Befehde dich mit einem Gegner", Champion "beschützen" for "Beschütze")."""
    claims = [(r, m.group(1)) for r in ALL if (m := _PRINTED_CLAIM.search(r.note))]
    assert len(claims) >= 60
    cards = load_cards(CARDS / "mtgjson")
    unprinted = [(r.en, form) for r, form in claims if not occurs_in_german(form, cards)]
    assert not unprinted
    unrelated = [
        (r.en, r.de, form)
        for r, form in claims
        if not any(fold(name)[:4] in fold(form) for name in r.german_names)
    ]
    assert not unrelated


@needs_cards
def test_official_german_names_are_printed_or_sourced() -> None:
    cards = load_cards(CARDS)
    unconfirmed = [
        (r.en, r.de)
        for r in ALL
        if r.source == "official"
        and not occurs_in_german(r.de, cards)
        and "confirmed:" not in r.note
    ]
    assert not unconfirmed


@needs_cards
def test_checker_finds_the_printed_keyword_line() -> None:
    cards = load_cards(CARDS)
    persist = evidence("Persist", cards)
    assert persist.candidates.most_common(1)[0][0] == "Beharrlichkeit"
    assert persist.confirms("Beharrlichkeit") >= 10
    banding = evidence("Banding", cards)
    assert banding.confirms("Bündnisfähigkeit") >= 1
    assert all(c.set_code == "4ED" for c in banding.cards)


@needs_cr
def test_every_cr_keyword_has_a_row_and_every_row_is_in_the_cr() -> None:
    generated = {(r.en, r.kind, r.number) for r in read_cr(CR_2026).keyword_rows()}
    shipped = {(r.en, r.kind, r.number) for r in KEYWORDS}
    assert generated == shipped
    assert ("Banding", "keyword_ability", "702.22") in shipped
    assert ("Destroy", "keyword_action", "701.8") in shipped


@needs_cr
def test_core_names_and_numbers_come_from_the_cr() -> None:
    cr = read_cr(CR_2026)
    assert [(r.en, r.number) for r in fill_core(cr, CORE)] == [(r.en, r.number) for r in CORE]


@needs_cr
def test_generator_reproduces_the_shipped_tables(tmp_path: Path) -> None:
    for name in ("keywords.tsv", "core.tsv"):
        shutil.copy(TERMS_DIR / name, tmp_path / name)
    assert main([str(CR_2026), "--terms", str(tmp_path)]) == 0
    for name in ("keywords.tsv", "core.tsv"):
        assert (tmp_path / name).read_bytes() == (TERMS_DIR / name).read_bytes()


@needs_cr
def test_generator_on_an_empty_folder_builds_english_only_rows(tmp_path: Path) -> None:
    assert main([str(CR_2026), "--terms", str(tmp_path), "--add-core", "Battlefield"]) == 0
    rows = read_table(tmp_path / "keywords.tsv")
    assert len(rows) == len(KEYWORDS)
    assert not any(r.de for r in rows)
    assert [(r.en, r.number) for r in read_table(tmp_path / "core.tsv")] == [("Battlefield", "403")]
