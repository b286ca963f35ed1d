"""The German interface and the everyday conveniences, as a user sees them (CliRunner, fixed width)."""

from __future__ import annotations

import io
import json
from typing import Any

import i18n as catalog_tool  # tools/i18n.py
import pytest
from rich.console import Console
from typer.testing import CliRunner

from regelwerk.cli import i18n
from regelwerk.cli.app import app
from regelwerk.cli.bilingual import pairs, render_both, titled
from regelwerk.cli.search import group_hits, render_hits
from regelwerk.index.facade import Library
from tests.conftest import CORPUS, NEEDS_SHARED

runner = CliRunner()


@pytest.fixture(scope="module")
def _cr_home(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if not CORPUS.exists():
        pytest.skip("../shared corpus not available")
    path = tmp_path_factory.mktemp("cr-home")
    Library(path).ingest([CORPUS / "en" / "MagicCompRules-20260417.txt"])
    return path


@pytest.fixture
def cr_library(_cr_home: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The CLI reads a home with the newest CR (and the seeds)."""
    monkeypatch.setenv("REGELWERK_HOME", str(_cr_home))
    return _cr_home


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        ([], {}, "en"),
        (["rule", "702.2", "--lang", "de"], {}, "de"),
        (["rule", "702.2", "--lang=de"], {"REGELWERK_LANG": "en"}, "de"),
        (["rule", "702.2", "--lang", "both"], {}, "en"),
        (["rule", "702.2"], {"REGELWERK_LANG": "de"}, "de"),
        (["rule"], {"LANG": "de_DE.UTF-8"}, "de"),
        (["rule"], {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),  # LC_ALL decides first
        (["rule"], {"LC_MESSAGES": "de_AT"}, "de"),
        (["search", "--", "--lang", "de"], {}, "en"),  # after -- it is query text
    ],
)
def test_interface_language_is_detected_before_any_command(
    argv: list[str], env: dict[str, str], expected: str
) -> None:
    assert i18n.detect(argv, env) == expected


def test_the_shipped_mo_matches_the_po() -> None:
    assert catalog_tool.mo_path("de").read_bytes() == catalog_tool.compiled(catalog_tool.po_path("de"))


def test_catalog_covers_every_message() -> None:
    """Every help text, label, note and error message has a German translation and the shipped
    .mo is compiled from the .po: a new message fails the build until ``python tools/i18n.py``
    has run and its German is written into the .po."""
    assert catalog_tool.problems("de") == []


def test_every_translation_keeps_the_placeholders_of_its_message() -> None:
    """A German sentence that drops or misspells a ``{placeholder}`` would fail (or lie) only
    when that message is shown; this checks them all at once."""
    import re

    from babel.messages.pofile import read_po

    with catalog_tool.po_path("de").open("rb") as f:
        catalog = read_po(f)
    fields = re.compile(r"\{[^{}]*\}")
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = sorted(set(fields.findall(ids[-1])))
        wrong += [(ids[0], s) for s in strings if sorted(set(fields.findall(s))) != want]
    assert wrong == []


def test_help_is_german_with_lang_de_and_english_by_default() -> None:
    german = runner.invoke(app, ["rule", "--help", "--lang", "de"])
    assert german.exit_code == 0, german.output
    assert "Eine Regel mit Unterregeln und Beispielen zeigen" in german.output
    assert "Optionen:" in german.output and "Argumente:" in german.output
    assert "Diese Hilfe zeigen und beenden." in german.output  # click's own --help option too
    english = runner.invoke(app, ["rule", "--help"])
    assert "Show a rule with its subrules and examples" in english.output
    assert "Options:" in english.output


def test_help_follows_regelwerk_lang_and_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_LANG", "de")
    assert "Befehle:" in runner.invoke(app, ["--help"]).output
    monkeypatch.delenv("REGELWERK_LANG")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert "Befehle:" in runner.invoke(app, ["--help"]).output


def test_term_labels_and_whose_word_in_german() -> None:
    result = runner.invoke(app, ["term", "Spielfeld", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Battlefield / Spiel  (Spielbegriff)" in result.output
    assert "Spielfeld: Wort der Spieler" in result.output


def test_term_gives_every_sense_of_counter() -> None:
    result = runner.invoke(app, ["term", "counter"])
    assert result.exit_code == 0, result.output
    assert "'counter' has 2 senses" in result.output
    assert "Counter / neutralisieren  (keyword action)" in result.output
    assert "Counters / Marke  (game term)" in result.output


def test_term_list_both_languages_and_by_kind() -> None:
    data = json.loads(runner.invoke(app, ["term", "--list", "--json"]).output)
    assert len(data["terms"]) >= 400
    assert {"en": "Mill", "de": "millen", "kind": "keyword_action"}.items() <= next(
        t for t in data["terms"] if t["en"] == "Mill").items()
    core = json.loads(runner.invoke(app, ["term", "--list", "--kind", "core", "--json"]).output)
    assert {t["kind"] for t in core["terms"]} == {"core"}
    shown = runner.invoke(app, ["term", "--list", "--kind", "keyword_ability", "--lang", "de"])
    assert "Trample" in shown.output and "Trampelschaden" in shown.output
    bad = runner.invoke(app, ["term", "--list", "--kind", "spell"])
    assert bad.exit_code == 1 and "not a term kind" in bad.output


def test_rule_by_german_keyword_and_cite() -> None:
    result = runner.invoke(app, ["rule", "Bündnis", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "702.19 Bündnisfähigkeit · Banding" in result.output
    assert "Bündnis ist Banding (Bündnisfähigkeit): Regel 702.22 in den neuesten Regeln." in result.output
    cite = runner.invoke(app, ["rule", "Bündnis", "--lang", "de", "--cite"])
    assert cite.output.strip() == "CR 702.19 (rule-702-19-banding-de-en)"


def test_rule_under_its_old_number_is_said_once_in_words() -> None:
    """``rule 702.22 --lang de`` on the seeds shows the German seed's 702.19: one note says
    so, naming the seed by its title and the language in words; ``--json`` keeps the ids."""
    result = runner.invoke(app, ["rule", "702.22", "--lang", "de"])
    shown = " ".join(result.output.split())
    assert ("702.22 steht in keinem eingelesenen Dokument auf Deutsch; dieselbe Regel, Bündnisfähigkeit "
            "(Banding), ist 702.19 in dem undatierten Text „Bündnisfähigkeit / Banding“; heute ist 702.19 "
            "Trample (Trampelschaden).") in shown
    assert shown.count("702.22") == 1 and shown.count("Trample") == 1
    assert "'de'" not in shown and "(de+en)" not in shown
    english = " ".join(runner.invoke(app, ["rule", "702.19", "--lang", "en"]).output.split())
    assert ("702.19 in the undated text “Bündnisfähigkeit / Banding” is Banding (") in english
    data = json.loads(runner.invoke(app, ["rule", "702.22", "--lang", "de", "--json"]).output)
    assert data["rule"]["notes"][0].startswith("702.22 is in no ingested document for language 'de'")
    args = data["rule"]["messages"][0]["args"]
    assert args["scope"] == {"id": " for language '{lang}'", "args": {"lang": "de"}}
    assert args["where"]["args"]["document"] == "rule-702-19-banding-de-en"


def test_a_seeds_rule_and_hits_name_it_by_its_title() -> None:
    """On the embedded seeds a heading names its document as a reader knows it: the seed's
    title (a release by its date), not the library's id; ``--json`` keeps the id."""
    for args, title in ((["rule", "702.22", "--lang", "de"], "(Bündnisfähigkeit / Banding, de)"),
                        (["rule", "702.19", "--lang", "both"], "(Bündnisfähigkeit / Banding)"),
                        (["search", "Bündnis Schaden verteilen"],
                         "(Comprehensive Rules (excerpt without rule numbers), en)")):
        shown = " ".join(runner.invoke(app, args).output.split())
        assert title in shown, (args, shown[:300])
        assert "rule-702-19-banding-de-en" not in shown and "cr-excerpt-" not in shown, args
    rule = " ".join(runner.invoke(app, ["rule", "702.22", "--lang", "de"]).output.split())
    assert rule.startswith("702.19 Bündnisfähigkeit · Banding (Bündnisfähigkeit / Banding, de)")
    data = json.loads(runner.invoke(app, ["rule", "702.22", "--lang", "de", "--json"]).output)
    assert data["rule"]["document"] == "rule-702-19-banding-de-en"


@NEEDS_SHARED
def test_cite_a_cr_subrule(cr_library: Any) -> None:
    result = runner.invoke(app, ["rule", "702.19b", "--cite"])
    assert result.output.strip() == "CR 702.19b (2026-04-17)"
    assert json.loads(runner.invoke(app, ["rule", "702.19b", "--cite", "--json"]).output) == {
        "ok": True, "citation": "CR 702.19b (2026-04-17)"}
    # a citation names the dated release for every reader: not the German seed's document id
    for lang in ("de", "both"):
        cited = runner.invoke(app, ["rule", "702.19b", "--cite", "--lang", lang])
        assert cited.output.strip() == "CR 702.19b (2026-04-17)", lang
    german_keyword = runner.invoke(app, ["rule", "Bündnis", "--cite", "--lang", "de"])
    assert german_keyword.output.strip() == "CR 702.22 (2026-04-17)"


@NEEDS_SHARED
def test_lang_de_never_dead_ends(cr_library: Any) -> None:
    result = runner.invoke(app, ["rule", "702.2", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "702.2 Deathtouch · Todesberührung" in result.output
    assert "Zu 702.2 gibt es in keinem eingelesenen Dokument einen deutschen Text" in result.output
    assert "Deathtouch = Todesberührung" in result.output


@NEEDS_SHARED
def test_lang_both_pairs_the_same_rule_across_renumbering(cr_library: Any) -> None:
    data = json.loads(runner.invoke(app, ["rule", "702.22", "--lang", "both", "--json"]).output)
    assert data["rule"]["number"] == "702.22" and data["translation"]["number"] == "702.19"
    alone = json.loads(runner.invoke(app, ["rule", "702.2", "--lang", "both", "--json"]).output)
    assert alone["translation"] is None


def test_version_prints_the_package_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("regelwerk ")


def test_completion_is_offered() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).output


def _rule(number: str, title: str, lang: str, subs: list[str], names: dict[str, Any]) -> dict[str, Any]:
    return {"number": number, "title": title, "text": title, "examples": [], "language": lang,
            "version": "2026-04-17" if lang == "en" else None, "document": f"doc-{lang}", "names": names,
            "subrules": [{"number": number + x, "text": f"{lang} text {x}", "examples": []} for x in subs]}


EN = _rule("702.22", "Banding", "en", ["a", "b"], {"en": "Banding", "de": "Bündnis"})
DE = _rule("702.19", "Bündnisfähigkeit", "de", ["a", "b", "m"], {"en": "Banding", "de": "Bündnisfähigkeit"})


def test_pairs_by_subrule_letter() -> None:
    assert pairs(EN, DE) == [
        ("702.22a en text a", "702.19a de text a"),
        ("702.22b en text b", "702.19b de text b"),
        ("", "702.19m de text m"),
    ]


def _render(width: int, fn: Any, *args: Any) -> str:
    out = io.StringIO()
    fn(Console(width=width, file=out, color_system=None, highlight=False), *args)
    return out.getvalue()


def test_side_by_side_when_wide_interleaved_when_narrow() -> None:
    wide = _render(120, render_both, EN, DE).splitlines()
    assert any("702.22a en text a" in line and "702.19a de text a" in line for line in wide)
    narrow = _render(60, render_both, EN, DE).splitlines()
    assert narrow[:4] == [
        "EN 702.22 Banding · Bündnis (2026-04-17)",
        "DE 702.19 Bündnisfähigkeit · Banding (doc-de)",
        "EN 702.22a en text a",
        "DE 702.19a de text a",
    ]


def test_titles_show_both_names_never_twice() -> None:
    names = {"en": "Lifelink", "de": "Lebensverknüpfung"}
    assert titled("Lifelink", names, "en") == "Lifelink · Lebensverknüpfung"
    assert titled("Mana", {"en": "Mana", "de": None}, "en") == "Mana"
    assert titled("Lifelink", {"en": "Lifelink", "de": "lifelink"}, "en") == "Lifelink"


def _hit(number: str | None, title: str, snippet: str, term: str | None = None) -> dict[str, Any]:
    return {"number": number, "current": number, "title": title, "term": term, "language": "en",
            "version": "2026-04-17", "document": "cr", "snippet": snippet, "score": 1.0,
            "names": {"en": "Lifelink", "de": "Lebensverknüpfung"}}


HITS = [
    _hit("702.15", "Lifelink", "Lifelink"),
    _hit(None, "Lifelink", "A keyword ability that causes a player to gain life.", term="Lifelink"),
    _hit("702.15d", "Lifelink", "The lifelink rules function no matter what zone."),
    _hit("702.15a", "Lifelink", "Lifelink is a static ability."),
]


def test_hits_are_grouped_by_their_rule() -> None:
    groups = group_hits(HITS)
    assert [[h["number"] for h in g] for g in groups] == [["702.15", "702.15a", "702.15d"], [None]]
    text = _render(100, render_hits, {"notes": [], "hits": HITS})
    assert text.splitlines() == [
        "702.15 Lifelink · Lebensverknüpfung  (2026-04-17, en)",
        "    Lifelink",
        "    702.15a Lifelink is a static ability.",
        "    702.15d The lifelink rules function no matter what zone.",
        "Lifelink · Lebensverknüpfung  (2026-04-17, en)",
        "    A keyword ability that causes a player to gain life.",
    ]


def test_ingest_says_why_it_skipped_a_file(tmp_path: Any) -> None:
    from pathlib import Path

    seeds = Path(__file__).resolve().parents[1] / "data" / "seeds"
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "banding.txt").write_bytes((seeds / "rule-702.19-banding-de-en.txt").read_bytes())
    (folder / "notes.pdf").write_bytes(b"%PDF-1.4")
    (folder / "cards.json").write_text('{"hello": 1}', encoding="utf-8")
    data = json.loads(runner.invoke(app, ["ingest", str(folder), "--json"]).output)
    reasons = {Path(s.split(":")[0]).name: s.split(": ", 1)[1] for s in data["skipped"]}
    assert reasons["notes.pdf"].startswith("not a rules document or card file (.pdf; expected .txt")
    assert reasons["cards.json"] == "a .json file that is not MTGJSON card data, skipped"
    shown = runner.invoke(app, ["ingest", str(folder)])
    assert "notes.pdf: not a rules document" in shown.output


def test_pager_only_for_a_terminal_and_only_when_taller_than_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.pager import SystemPager

    from regelwerk.cli.pager import paged

    shown: list[str] = []
    monkeypatch.setattr(SystemPager, "show", lambda self, content: shown.append(content))
    monkeypatch.delenv("REGELWERK_NO_PAGER", raising=False)

    def lines(n: int) -> Any:
        return lambda con: [con.print(f"line {i}") for i in range(n)]

    out = io.StringIO()
    terminal = Console(file=out, force_terminal=True, width=80, height=10, color_system=None)
    paged(terminal, lines(5))
    assert not shown and out.getvalue().count("line") == 5
    paged(terminal, lines(30))
    assert len(shown) == 1 and shown[0].count("line") == 30
    pipe = io.StringIO()
    paged(Console(file=pipe, width=80, height=10), lines(30))
    assert len(shown) == 1 and pipe.getvalue().count("line") == 30
