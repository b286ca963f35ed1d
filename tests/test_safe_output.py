"""Any document text prints safely: rich markup is escaped, control and escape sequences are
made visible instead of reaching the terminal (issue 14 item 4)."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from regelwerk.cli.output import json_text, make_console, safe_text
from regelwerk.cli.search import marked, render_hits
from regelwerk.cli.tables import documents_table

OSC = "\x1b]0;pwned\x07"
CSI = "\x1b[2J"

HOSTILE_CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n"
    f"100.1. Ein Zauber heißt »Blitzschlag« und [/bold magenta] trifft {OSC}Banding{CSI} hart.\n\n"
    "100.1a Der Spieler sagt «Ende» und [red]ist fertig.\n\n"
    "Glossary\n\nAbility\nSomething \x9b31m red.\n\nCredits\n\nPeople.\n"
)


def _console() -> tuple[Console, StringIO]:
    out = StringIO()
    return make_console(file=out, width=100, color_system=None, highlight=False), out


def _hit(snippet: str) -> dict[str, object]:
    return {"number": "100.1", "current": None, "title": "General [x]", "term": None,
            "language": "de", "version": "2026-04-17", "document": "cr", "snippet": snippet}


def test_german_quotes_in_a_snippet_do_not_break_rendering() -> None:
    """The repro: »Blitzschlag« (German quotes) used to become a stray closing tag."""
    con, out = _console()
    render_hits(con, {"notes": [], "hits": [_hit("Ein Zauber »Blitzschlag« trifft «Banding» [/bold magenta]"),
                                           _hit("«so»")]})
    lines = out.getvalue().splitlines()
    assert lines[1] == "    Ein Zauber »Blitzschlag« trifft Banding [/bold magenta]"
    assert lines[2] == "    so"  # the same rule's second hit, grouped beneath it


def test_marks_are_bold_only_around_whole_words() -> None:
    assert marked("a «b» »c« [d]") == ["a ", ("b", "bold magenta"), " »c« [d]"]


def test_control_sequences_are_made_visible() -> None:
    con, out = _console()
    con.print(f"x{OSC}y{CSI}z\x9b1m\u202eq")
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text and "\u202e" not in text
    assert text.startswith("x␛]0;pwned␇y␛[2Jz")


def test_table_cells_are_filtered_too() -> None:
    con, out = _console()
    row = {"id": f"a{OSC}[/b]", "language": "en", "version": None, "kind": "excerpt", "sections": 1,
           "rules": 0, "glossary": 0, "cards": 0, "issues": []}
    con.print(documents_table([row]))
    assert "\x1b" not in out.getvalue() and "[/b]" in out.getvalue()


def test_json_escapes_what_json_dumps_leaves_raw() -> None:
    data = {"t": f"a{OSC}\x9b\x7f\u2066b"}
    text = json_text(data)
    assert all(ch not in text for ch in "\x1b\x07\x9b\x7f\u2066")
    assert json.loads(text) == data


def test_json_escapes_lone_surrogates_so_a_strict_utf8_stream_takes_them() -> None:
    # the damage campaign: `search --json` with an argument holding byte 0xff (as '\udcff')
    data = {"query": "o\udcff \U0010fba2"}
    text = json_text(data)
    text.encode("utf-8")  # strict: raised UnicodeEncodeError before
    assert "\\udcff" in text and json.loads(text) == data
    assert safe_text("a\udcffb") == "a\ufffdb"


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_prints(text: str) -> None:
    con, out = _console()
    render_hits(con, {"notes": [text], "hits": [_hit(text)]})
    printed = out.getvalue()
    assert safe_text(printed) == printed


def test_search_and_rule_print_hostile_documents_end_to_end(tmp_path: Path) -> None:
    src = tmp_path / "hostile.txt"
    src.write_text(HOSTILE_CR, encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "regelwerk", *args], capture_output=True,
                              text=True, timeout=120)

    assert run("ingest", str(src)).returncode == 0
    for args in (("search", "Blitzschlag"), ("search", "Ende"), ("rule", "100.1"), ("docs",)):
        proc = run(*args)
        assert proc.returncode == 0, (args, proc.stderr)
        assert "\x1b" not in proc.stdout and "\x9b" not in proc.stdout, args
    assert "»Blitzschlag«" in run("search", "Blitzschlag").stdout
    data = json.loads(run("rule", "100.1", "--json").stdout)
    assert OSC in data["rule"]["text"]  # the data keep what the document says
