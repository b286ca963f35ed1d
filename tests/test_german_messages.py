"""Library errors, usage errors and the newest commands' output in German, as a German reader
sees them (CliRunner and fixed-width consoles); ``--json`` errors stay English."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from regelwerk.cli import i18n
from regelwerk.cli.app import app
from regelwerk.cli.archive import render_doctor, render_update
from regelwerk.cli.history import render_diff, render_history
from regelwerk.index.terms.names import both_names, plurals
from regelwerk.index.terms.shipped import load_terms
from regelwerk.ingest.model.errors import InvalidRuleNumber, UnknownVersion
from tests.conftest import CORPUS, NEEDS_SHARED
from tests.test_identity import CR, EXCERPT

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("REGELWERK_HOME", str(folder))
    return folder


@pytest.fixture
def german() -> Iterator[None]:
    """Render functions called directly read the interface language set here."""
    i18n.use("de")
    yield
    i18n.use("en")


def _de(*args: str) -> Any:
    """The command with a German interface (REGELWERK_LANG, so `--lang` keeps its meaning)."""
    return runner.invoke(app, list(args), env={"REGELWERK_LANG": "de"})


@pytest.mark.parametrize(
    ("args", "german", "english"),
    [
        (["rule", "999.1"], "Fehler: Regel '999.1' steht in keinem eingelesenen Dokument; am nächsten: ",
         "rule '999.1' is in no ingested document; nearest: "),
        (["rule", "xyzzyq"],
         "Fehler: 'xyzzyq' ist keine Regelnummer; erwartet: eine Regelnummer wie '702.22'",
         "'xyzzyq' is not a rule number; expected a rule number such as '702.22'"),
        (["rule", "702.19", "--version", "1999-01-01"],
         "Fehler: kein eingelesenes Dokument hat die Fassung '1999-01-01': keine datierte Fassung ist "
         "eingelesen",
         "no ingested document has version '1999-01-01': no dated release is ingested"),
        (["term", "qqqqzz"], "Fehler: kein Schlüsselwort und keine Karte passt zu 'qqqqzz'",
         "no keyword or card matches 'qqqqzz'"),
        (["card", "Tatzelwurm"],
         "Fehler: noch keine Karten eingelesen; zuerst MTGJSON-Set-Dateien hinzufügen",
         "no cards ingested yet"),
        (["term", "--list", "--kind", "spell"], "Fehler: 'spell' ist keine Begriffsart",
         "kind 'spell' is not a term kind"),
        (["forget", "nope"], "Fehler: kein gespeichertes Dokument heißt 'nope'; eine ID aus 'regelwerk docs'",
         "no stored document is 'nope'"),
        (["history", "xyzzy"], "Fehler: keine Fassung der Comprehensive Rules eingelesen",
         "no Comprehensive Rules release is ingested"),
        (["ingest", "/nonexistent/cr.txt"],
         "Fehler: /nonexistent/cr.txt: Datei oder Verzeichnis nicht gefunden",
         "/nonexistent/cr.txt: no such file or directory"),
    ],
)
def test_library_errors_in_german_and_json_errors_in_english(
    home: Path, args: list[str], german: str, english: str
) -> None:
    shown = _de(*args)
    assert shown.exit_code == 1 and shown.output.startswith(german), shown.output
    assert len(shown.output.strip().splitlines()) == 1
    data = json.loads(_de(*args, "--json").output)
    assert data["ok"] is False and data["error"].startswith(english)
    assert runner.invoke(app, args).output.startswith("error: " + english)


def test_ingest_errors_in_german(home: Path, tmp_path: Path) -> None:
    readme = tmp_path / "notes.txt"
    readme.write_text("Just some notes.\nNothing about rules here.\n", encoding="utf-8")
    shown = _de("ingest", str(readme))
    assert shown.output.startswith(f"Fehler: {readme}: kein Regeldokument, das regelwerk erkennt")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert f"Fehler: {empty}: die Datei ist leer" in _de("ingest", str(empty)).output
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe.txt"
        os.mkfifo(pipe)
        assert "ist keine reguläre Datei (eine benannte Pipe); regelwerk liest nur Dateien" in _de(
            "ingest", str(pipe)).output


def test_file_too_large_in_german(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import regelwerk.ingest as ingest

    big = tmp_path / "big.txt"
    big.write_text(CR, encoding="utf-8")
    monkeypatch.setattr(ingest, "MAX_DOCUMENT_BYTES", 100)
    shown = _de("ingest", str(big))
    assert f"Fehler: {big}: ist {len(CR.encode()):,} Bytes groß; höchstens 100" in shown.output


def test_refused_replacement_in_german(home: Path, tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "MagicCompRules.txt").write_text(CR, encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(tmp_path / "real")]).exit_code == 0
    fake = tmp_path / "cr-en-2026-04-17.txt"
    fake.write_text(EXCERPT, encoding="utf-8")
    shown = _de("ingest", str(fake), "--format", "excerpt")
    assert shown.exit_code == 1
    assert "würde das gespeicherte Dokument 'cr-en-2026-04-17' (cr-text en 2026-04-17, " in shown.output
    assert " Abschnitte, aus " in shown.output
    assert "durch ein anderes Dokument (excerpt en ohne Datum, " in shown.output
    assert "mit --replace ersetzen oder die Datei umbenennen" in shown.output
    english = json.loads(runner.invoke(app, ["ingest", str(fake), "--format", "excerpt", "--json"]).output)
    assert "would replace the stored document 'cr-en-2026-04-17'" in english["error"]


def test_update_error_in_german(home: Path) -> None:
    shown = _de("update", "--url", "http://127.0.0.1:9/")
    assert shown.exit_code == 1
    assert shown.output.startswith("Fehler: http://127.0.0.1:9/ kann nicht abgerufen werden: ")
    assert shown.output.rstrip().endswith("(kein Netz?); der Speicher ist unverändert")


def test_usage_errors_and_usage_line_in_german(home: Path) -> None:
    assert _de("rule", "--bad").output == "Fehler: regelwerk rule: Unbekannte Option: --bad\n"
    assert _de("rule").output == "Fehler: regelwerk rule: Argument 'number' fehlt.\n"
    assert _de("docs", "extra").output == (
        "Fehler: regelwerk docs: Unerwartetes zusätzliches Argument (extra)\n")
    assert _de("docs", "a", "b").output == (
        "Fehler: regelwerk docs: Unerwartete zusätzliche Argumente (a b)\n")
    assert "Ungültiger Wert für '--lang': 'fr' wird nicht unterstützt; 'en', 'de' oder 'both' verwenden" in (
        runner.invoke(app, ["rule", "702.1", "--lang", "fr"], env={"REGELWERK_LANG": "de"}).output)
    helped = _de("history", "--help").output
    assert helped.startswith("Aufruf: regelwerk history [OPTIONEN] {rule}...")
    assert "Eine Regel durch alle eingelesenen CR-Fassungen verfolgen" in helped
    assert "Usage:" not in helped and "[OPTIONS]" not in helped
    assert _de("--help").output.startswith("Aufruf: regelwerk [OPTIONEN] BEFEHL [ARGUMENTE]...")
    assert runner.invoke(app, ["history", "--help"]).output.startswith("Usage: regelwerk history [OPTIONS]")


def test_errors_carry_their_message_for_translation() -> None:
    error = InvalidRuleNumber("x")
    assert str(error) == "'x' is not a rule number; expected a rule number such as '702.22' or '702.22j'"
    assert error.message is not None and error.message.to_dict()["args"]["given"] == "x"
    i18n.use("de")
    try:
        assert i18n.error(UnknownVersion("1999", ["2026-04-17"])) == (
            "kein eingelesenes Dokument hat die Fassung '1999'; Fassungen: 2026-04-17")
        assert i18n.error(UnknownVersion("1999", [])) == (
            "kein eingelesenes Dokument hat die Fassung '1999': keine datierte Fassung ist eingelesen (die "
            "mitgelieferten Texte haben kein Datum); versuche: regelwerk ingest DATEI")
        assert i18n.error(ValueError("plain")) == "plain"
    finally:
        i18n.use("en")


def _render(fn: Any, *args: Any, **kwargs: Any) -> list[str]:
    out = io.StringIO()
    fn(Console(width=100, file=out, color_system=None, highlight=False), *args, **kwargs)
    return out.getvalue().splitlines()


HISTORY = {
    "query": "banding",
    "lineage": [
        {"version": "2009-07-11", "number": "702.19", "title": "Banding", "change": "renumbered",
         "text": "Banding", "diff": [], "names": {"en": "Banding", "de": "Bündnis"}},
        {"version": "2026-04-17", "number": "702.22", "title": "Banding", "change": "renumbered",
         "text": "Banding", "diff": [], "names": {"en": "Banding", "de": "Bündnis"}},
    ],
    "runs": [
        {"number": "702.19", "title": "Banding", "from": "2009-07-11", "to": "2009-07-11", "releases": 1,
         "change": "new", "text": "Banding", "diff": []},
        {"number": "702.22", "title": "Banding", "from": "2026-04-17", "to": "2026-04-17", "releases": 1,
         "change": "renumbered", "text": "Banding", "diff": []},
    ],
}


def test_history_in_german_names_the_rule_in_both_languages(german: None) -> None:
    assert _render(render_history, HISTORY, full=False) == [
        "Banding · Bündnis  (2 Fassungen)",
        "702.19     2009-07-11  neu",
        "702.22     2026-04-17  umnummeriert",
    ]


def test_history_in_english_keeps_the_german_name_beside() -> None:
    assert _render(render_history, HISTORY, full=False)[0] == "Banding · Bündnis  (2 releases)"


def test_diff_in_german(german: None) -> None:
    data = {
        "from": "2026-01-16", "to": "2026-04-17",
        "counts": {"added": 1, "removed": 0, "renumbered": 1, "changed": 0, "split": 0, "merged": 0},
        "glossary_counts": {"added": 2, "removed": 0, "changed": 0},
        "changes": [
            {"kind": "rule", "change": "added", "old": None, "new": "305.10", "title": "Lands",
             "section": "305", "diff": [], "names": both_names("Lands", "en")},
            {"kind": "glossary", "change": "added", "old": None, "new": "Lifelink", "title": "Lifelink",
             "section": "Glossary", "diff": [], "names": both_names("Lifelink", "en")},
        ],
    }
    assert _render(render_diff, data) == [
        "2026-01-16 → 2026-04-17: 1 hinzugekommen, 1 umnummeriert; Glossar: 2 hinzugekommen",
        "Abschnitt 305",
        " + 305.10 Lands · Länder",
        "Glossar",
        " + Lifelink · Lebensverknüpfung",
    ]


def test_doctor_and_update_in_german(german: None) -> None:
    healthy = {"home": "/h", "documents": 6, "artefacts": 3, "problems": [], "repaired": [], "healthy": True}
    assert _render(render_doctor, healthy) == [
        "6 Dokumente und 3 abgeleitete Daten in Ordnung; Speicher intakt: /h"]
    damaged = {**healthy, "problems": ["/h/x: missing"], "healthy": False}
    assert _render(render_doctor, damaged) == [
        "Problem: /h/x: missing",
        "6 Dokumente und 3 abgeleitete Daten in Ordnung; Speicher beschädigt (`regelwerk doctor --repair` "
        "ausführen): /h",
    ]
    update = {"updated": True, "url": "u", "version": "2026-04-17", "document": "cr-en-2026-04-17",
              "previous": "2026-01-16", "counts": {"changed": 5}, "glossary_counts": {}}
    assert _render(render_update, update) == [
        "CR 2026-04-17 von u als cr-en-2026-04-17 eingelesen",
        "seit 2026-01-16: 5 geändert",
        "Einzelheiten: regelwerk diff 2026-01-16 2026-04-17",
    ]


def test_plural_section_titles_have_their_german_plural() -> None:
    assert both_names("Lands", "en") == {"en": "Lands", "de": "Länder"}
    assert both_names("Creatures", "en") == {"en": "Creatures", "de": "Kreaturen"}
    assert both_names("Länder", "de") == {"en": "Lands", "de": "Länder"}
    assert both_names("Instants", "en")["de"] == "Spontanzauber"
    assert both_names("Land", "en")["de"] is None  # "Land" is the same word in German


def test_every_plural_belongs_to_a_term_with_a_german_name() -> None:
    """The plural table only adds the plural of a term the tables already name in German, and
    it is that name's plural (it starts like it: Land/Länder, Karte/Karten, Marke/Marken)."""
    from regelwerk.ingest.model.fold import compact

    rows = {r.en: r for r in load_terms()}
    import csv
    from importlib import resources

    text = (resources.files("regelwerk.data") / "terms" / "plurals.tsv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    table = list(csv.DictReader(lines, delimiter="\t"))
    assert len(table) == len(plurals()[0]) >= 15
    for row in table:
        singular = rows[row["singular"]]
        assert singular.de, row
        assert compact(row["de"])[:3] == compact(singular.de)[:3], row
        assert int(row["cards"]) >= 50, row


@NEEDS_SHARED
def test_plural_titles_are_cr_section_titles() -> None:
    import re

    text = (CORPUS / "en" / "MagicCompRules-20260417.txt").read_text(encoding="utf-8-sig", errors="replace")
    titles = {m.group(1).strip() for m in re.finditer(r"^\d{3}\. (.+)$", text, re.M)}
    from regelwerk.ingest.model.fold import compact

    assert {compact(t) for t in titles} >= set(plurals()[0])


def test_doctor_names_damage_in_german(home: Path) -> None:
    from regelwerk.index.facade import Library
    from regelwerk.index.store.disk import Store

    Library(home).docs()  # the seeds, stored
    record = next((home / "store" / "docs").glob("*.json"))
    record.unlink()
    shown = _de("doctor")
    assert shown.exit_code == 1
    assert f"Problem: {record}: der Eintrag von '{record.stem}' fehlt" in shown.output
    assert "Speicher beschädigt (`regelwerk doctor --repair` ausführen)" in shown.output
    repaired = _de("doctor", "--repair")
    assert f"repariert: {record.stem}: erneut aus seeds/" in repaired.output
    data = json.loads(_de("doctor", "--json").output)  # healed; JSON keeps English and the ids
    assert data["healthy"] and data["problems"] == [] and data["problem_messages"] == []
    assert Store(home).record_path(record.stem).exists()


def test_ingest_says_in_german_why_it_skipped_a_file(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.pdf").write_bytes(b"%PDF-1.4")
    (folder / "cr.txt").write_text(CR, encoding="utf-8")
    shown = _de("ingest", str(folder))
    assert shown.exit_code == 0, shown.output
    assert (f"Hinweis: {folder / 'notes.pdf'}: weder Regeldokument noch Kartendatei (.pdf; erwartet: .txt, "
            ".htm, .html oder MTGJSON), übersprungen") in shown.output


def test_documents_table_in_german_on_an_80_column_terminal(german: None) -> None:
    """German headers, and still no date or count cut on 80 columns."""
    from regelwerk.cli.tables import documents_table

    row = {"id": "glossary-de-banding-bataillon-bushido-x", "language": "de+en", "version": "2026-04-17",
           "kind": "bilingual-dump", "sections": 3299, "rules": 3138, "glossary": 730, "cards": 12345,
           "issues": ["x"] * 12}
    out = io.StringIO()
    Console(width=80, file=out, color_system=None, highlight=False).print(documents_table([row]))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[0] == "Eingelesene Dokumente"
    assert lines[2].split() == ["ID", "Spr.", "Fassung", "Art", "Abs.", "Regeln", "Gloss.", "Karten", "Hinw."]
    assert all(len(line) <= 80 for line in lines) and "…" not in out.getvalue()
    assert "2026-04-17" in lines[4] and lines[4].split()[-5:] == ["3299", "3138", "730", "12345", "12"]


def test_term_evidence_and_links_in_german(home: Path) -> None:
    shown = _de("term", "Land")
    assert shown.exit_code == 0, shown.output
    assert "Deutsche Karten drucken: Land (aktuell, " in shown.output and " Karten, 19" in shown.output
    assert "z. B. " in shown.output and " cards, " not in shown.output and "e.g." not in shown.output


def test_every_marked_message_in_the_code_is_in_the_catalog() -> None:
    """Babel's extractor does not look inside f-strings on every Python version; this walks the
    syntax tree (f-strings included) of every module that marks messages, so a ``_("...")``
    it missed still fails the build until the catalog has its German."""
    import ast

    import i18n as catalog_tool  # tools/i18n.py
    from babel.messages.pofile import read_po

    with catalog_tool.po_path("de").open("rb") as f:
        catalog = read_po(f)
    root = catalog_tool.ROOT
    missing = []
    for folder in ("cli", "index", "ingest", "engine"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                args = [a.value for a in node.args
                        if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                name = node.func.id
                if name in ("_", "N_") and args:
                    key, context = args[0], None
                elif name == "pgettext" and len(args) == 2:
                    context, key = args
                elif name == "ngettext" and len(args) == 2:
                    key, context = args[0], None
                else:
                    continue
                found = catalog.get(key, context=context)
                if found is None or not found.string:
                    missing.append(f"{path.relative_to(root)}:{node.lineno} {key!r}")
    assert missing == []
