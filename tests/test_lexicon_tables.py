"""The lexicon's text tables and the SQLite file each home compiles them into (`lexicon_tables`)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelwerk.index.search import lexicon_tables
from regelwerk.index.search.lexicon import Lexicon, load
from regelwerk.index.search.lexicon_tables import (
    TABLES,
    TableError,
    compile_tables,
    compiled_path,
    format_tables,
    parse_tables,
    read_tables,
)

SHIPPED = resources.files("regelwerk.data") / "lexicon"
#: Words whose lookups every way of opening the lexicon must answer alike.
WORDS = ("Friedhof", "Bibliotheken", "Kampfschadensschritt", "Spielstien", "verdoppeln", "Zug",
         "ins spiel kommen")


def _bytes(tables: dict[str, str]) -> dict[str, bytes]:
    return {name: text.encode("utf-8") for name, text in tables.items()}


def _small() -> dict[str, bytes]:
    return _bytes(format_tables(
        {"entries": "2", "built": "2026-12-02"},
        [("friedhof", "graveyard", 0.9312, "mtgjson", 0.9312, 412), ("zug", "turn", 1.0, "terms", None, 0)],
        {"friedhofe": "friedhof", "friedhofs": "friedhof", "zuge": "zug"},
    ))


def _tables(folder: Path, data: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in data.items():
        (folder / name).write_bytes(raw)
    return folder


def _answers(lex: Lexicon) -> list[object]:
    return [(lex.lemma(w), lex.translations(lex.lemma(w)), lex.split(w), lex.correct(w)) for w in WORDS] + [
        lex.phrase_starts(), lex.meta()]


text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1).filter(
    lambda s: "|" not in s and s.strip() == s)
floats = st.floats(min_value=0, max_value=1)


Entry = tuple[float, str, float | None, int]


entry = st.tuples(floats, text, st.none() | floats, st.integers(0, 10**6))


@given(st.dictionaries(st.tuples(text, text), entry, max_size=20), st.dictionaries(text, text, max_size=20))
def test_tables_read_back_exactly_what_was_written(entries: dict[tuple[str, str], Entry],
                                                   forms: dict[str, str]) -> None:
    """Every value, floats to the last bit, and NULL apart from every number."""
    rows = sorted((de, en, p, src, learned, count) for (de, en), (p, src, learned, count) in entries.items())
    meta, got, got_forms = parse_tables(_bytes(format_tables({"k": "v"}, rows, forms)))
    assert meta == [("k", "v")]
    assert got == rows
    assert [repr(r) for r in got] == [repr(r) for r in rows]
    assert dict(got_forms) == forms


def test_the_shipped_tables_are_sorted_and_hold_what_their_meta_counts() -> None:
    data = read_tables(SHIPPED)
    assert data is not None, "data/lexicon/*.tsv ship with the package"
    for name in TABLES:
        rows = [line for line in data[name].decode("utf-8").splitlines()[2:]]
        assert rows == sorted(rows), f"{name} is not sorted"
        assert data[name].decode("utf-8").startswith("# ")
    meta, translations, forms = parse_tables(data)
    counts = dict(meta)
    assert int(counts["entries"]) == len(translations) == len({(r[0], r[1]) for r in translations})
    assert int(counts["forms"]) == len(forms) == len({f for f, _ in forms})
    assert format_tables(counts, translations, dict(forms)) == {k: v.decode("utf-8") for k, v in data.items()}


def test_a_damaged_table_is_named_with_its_line() -> None:
    data = _small()
    data["translations.tsv"] += b"zug\tmove\t0.5\tmtgjson\n"
    with pytest.raises(TableError, match=r"translations\.tsv, line 5: 4 cells"):
        parse_tables(data)
    data = _small()
    data["translations.tsv"] += b"zug\tmove\tmuch\tmtgjson\t\t3\n"
    with pytest.raises(TableError, match=r"translations\.tsv"):
        parse_tables(data)
    data = _small()
    data["forms.tsv"] += b"zug\tzuge\n"  # the form zuge under a second lemma
    with pytest.raises(TableError, match="twice"):
        compile_tables(data)
    data = _small()
    data["forms.tsv"] = b"form\tlemma\n"
    with pytest.raises(TableError, match=r"forms\.tsv: the header row"):
        parse_tables(data)


def test_the_tables_are_compiled_once_and_then_reused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    data = read_tables(SHIPPED)
    assert data is not None
    path = compiled_path(home, data)
    first = load(SHIPPED, home)
    assert first is not None and path.is_file()
    seal = json.loads((path.parent / (path.name + ".seal.json")).read_text(encoding="utf-8"))
    assert seal["size"] == path.stat().st_size
    before = path.stat()
    again = load(SHIPPED, home)
    assert again is not None
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not rewritten
    assert _answers(again) == _answers(first)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".seal.json"]


def test_changed_tables_get_a_new_compiled_file_and_the_old_one_goes(tmp_path: Path) -> None:
    home, folder = tmp_path / "home", _tables(tmp_path / "tables", _small())
    lex = load(folder, home)
    assert lex is not None and [t.en for t in lex.translations("zug")] == ["turn"]
    old = compiled_path(home, _small())
    changed = _small()
    changed["translations.tsv"] = changed["translations.tsv"].replace(b"zug\tturn", b"zug\tmove")
    _tables(folder, changed)
    lex = load(folder, home)
    assert lex is not None and [t.en for t in lex.translations("zug")] == ["move"]
    new = compiled_path(home, changed)
    assert new != old and new.is_file() and not old.exists()
    assert sorted(p.name for p in new.parent.iterdir()) == [new.name, new.name + ".seal.json"]


@pytest.mark.parametrize("damage", ["truncated", "flipped", "unsealed", "seal damaged", "a folder"])
def test_a_damaged_compiled_file_is_compiled_again_not_trusted(tmp_path: Path, damage: str) -> None:
    home, folder = tmp_path / "home", _tables(tmp_path / "tables", _small())
    assert load(folder, home) is not None
    path = compiled_path(home, _small())
    sound = path.read_bytes()
    seal = path.with_name(path.name + ".seal.json")
    if damage == "truncated":
        path.write_bytes(sound[: len(sound) // 2])
    elif damage == "flipped":  # the same size, one value's byte changed: only the seal sees it
        at = sound.rindex(b"graveyard")
        path.write_bytes(sound[:at] + b"Graveyard" + sound[at + len(b"graveyard"):])
    elif damage == "unsealed":  # a writer killed between the file and its seal
        seal.unlink()
    elif damage == "seal damaged":
        seal.write_text("{", encoding="utf-8")
    else:
        path.unlink()
        path.mkdir()
    lex = load(folder, home)
    assert lex is not None and [t.en for t in lex.translations("friedhof")] == ["graveyard"]
    assert path.read_bytes() == sound
    assert json.loads(seal.read_text(encoding="utf-8"))["size"] == len(sound)


def test_a_home_that_cannot_be_written_gets_the_lexicon_in_memory(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    on_disk = load(SHIPPED, tmp_path / "home")
    assert on_disk is not None
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    in_memory = load(SHIPPED, blocked)  # home/lexicon cannot be made
    assert in_memory is not None and blocked.read_text(encoding="utf-8") == "not a folder"
    assert _answers(in_memory) == _answers(on_disk)

    def refuse(path: Path, text: str | bytes) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("regelwerk.index.store.disk.write_atomic", refuse)  # a read-only home
    read_only = tmp_path / "read-only"
    in_memory = load(SHIPPED, read_only)
    assert in_memory is not None and not list(read_only.rglob("*.sqlite"))
    assert _answers(in_memory) == _answers(on_disk)


def test_the_compiled_file_holds_the_tables_rows_and_their_types() -> None:
    """The schema and values a search reads: the same as the SQLite file shipped until session 16."""
    data = read_tables(SHIPPED)
    assert data is not None
    db = compile_tables(data)
    types = db.execute("SELECT DISTINCT typeof(p), typeof(learned), typeof(count) FROM translation")
    assert sorted(types.fetchall()) == [("real", "null", "integer"), ("real", "real", "integer")]
    entries = int(dict(parse_tables(data)[0])["entries"])
    assert db.execute("SELECT count(*) FROM translation").fetchone()[0] == entries
    assert compile_tables(data).serialize() == db.serialize()  # the same bytes whoever compiles them


def test_a_home_whose_path_sqlite_would_misread_still_works(tmp_path: Path) -> None:
    home = tmp_path / "my home #1 ?mode=rw %20"
    lex = load(SHIPPED, home)
    assert lex is not None and lex.lemma("Bibliotheken") == "bibliothek"
    assert list((home / lexicon_tables.FOLDER).glob("*.sqlite"))


def test_processes_compiling_at_once_leave_one_sound_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code = ("import sys; from pathlib import Path; from importlib import resources;"
            "from regelwerk.index.search.lexicon import load;"
            "lex = load(resources.files('regelwerk.data') / 'lexicon', Path(sys.argv[1]));"
            "print(lex.lemma('Bibliotheken'), [t.en for t in lex.translations('friedhof')][0])")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(home)], stdout=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs == ["bibliothek graveyard\n"] * 3
    data = read_tables(SHIPPED)
    assert data is not None
    path = compiled_path(home, data)
    from regelwerk.index.store.disk import seal_problem

    assert seal_problem(path) is None
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".seal.json"]


def test_doctor_names_a_damaged_compiled_lexicon_and_the_repair_drops_it(tmp_path: Path) -> None:
    from regelwerk.index.store.doctor import doctor

    home = tmp_path / "home"
    assert load(SHIPPED, home) is not None
    assert doctor(home)["problems"] == []
    data = read_tables(SHIPPED)
    assert data is not None
    path = compiled_path(home, data)
    raw = bytearray(path.read_bytes())
    at = raw.rindex(b"graveyard")
    raw[at] = ord("G")
    path.write_bytes(bytes(raw))
    report = doctor(home)
    assert any(str(path) in p and "sha256" in p for p in report["problems"]), report["problems"]
    assert any(str(path) in r for r in doctor(home, repair=True)["repaired"])
    assert not path.exists()
    assert load(SHIPPED, home) is not None and path.is_file()  # compiled again at its next use
    assert doctor(home)["problems"] == []


def test_the_converter_keeps_every_row_of_an_sqlite_lexicon(tmp_path: Path) -> None:
    """tools/lexicon_from_sqlite.py: the compiled tables, dumped back, are the tables again."""
    from lexicon_from_sqlite import main

    data = read_tables(SHIPPED)
    assert data is not None
    db_file = tmp_path / "de-en.sqlite"
    db_file.write_bytes(compile_tables(data).serialize())
    assert main([str(db_file), str(tmp_path / "out")]) == 0
    assert read_tables(tmp_path / "out") == data


def test_no_compiled_lexicon_is_shipped() -> None:
    """The lexicon ships as text: no SQLite file in data/lexicon/ (a rebuild rewrote it whole)."""
    folder = Path(__file__).resolve().parents[1] / "data" / "lexicon"
    assert not list(folder.glob("*.sqlite"))


def test_a_word_typed_with_its_umlaut_reads_its_own_key_where_the_tables_hold_one(tmp_path: Path) -> None:
    data = _bytes(format_tables(
        {"entries": "3"},
        [("zahlen", "pay", 1.0, "words", None, 0), ("zählen", "count", 1.0, "cr", None, 0),
         ("andern", "change", 1.0, "words", None, 0), ("andere", "other", 1.0, "words", None, 0)],
        {"zahlt": "zahlen", "zählt": "zählen", "ändere": "andern"},
    ))
    lex = Lexicon(compile_tables(data))
    # with the umlaut (or its two letters) the umlaut word, without it the word it always was
    assert lex.key("Zählt") == lex.key("zaehlt") == "zählt" and lex.lemma("ZÄHLT") == "zählen"
    assert lex.key("zahlt") == "zahlt" and lex.lemma("zahlt") == lex.lemma("Zahlt") == "zahlen"
    assert lex.lemma("ändere") == "andern" and lex.lemma("andere") == "andere"
    # a word the tables hold no umlaut key for is folded as before
    assert lex.key("Zählers") == "zahlers" and lex.key("Stärke") == "starke"
    assert [t.en for t in lex.translations(lex.lemma("zählen"))] == ["count"]
    assert lex.correct("zahlrn") == "zahlen"  # typos are matched against folded keys only
