"""Human output at a fixed width: exact text, and rules text's "[cost]"/"[quality]" survive.

rich reads square brackets as markup; the CR is full of them ("Equip [cost]", "bands with other
[quality]"), so every renderer must print data escaped or with markup off.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

from rich.console import Console

from regelwerk.cli import i18n
from regelwerk.cli.rule import render_rule
from regelwerk.cli.search import render_hits
from regelwerk.cli.tables import documents_table
from regelwerk.cli.term import labels, render_matches


def _console(width: int = 80) -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=width, color_system=None, highlight=False), out


def _lines(out: StringIO) -> list[str]:
    return [line.rstrip() for line in out.getvalue().splitlines()]


def test_documents_table_exact() -> None:
    con, out = _console(120)  # what piped output gets (cli.output.console)
    rows = [
        {"id": "cr-en-2026-04-17", "language": "en", "version": "2026-04-17", "kind": "cr-text",
         "sections": 3299, "rules": 3138, "glossary": 730, "cards": 0, "issues": []},
        {"id": "rule-702-19-banding-de-en", "language": "de+en", "version": None,
         "kind": "bilingual-dump", "sections": 26, "rules": 26, "glossary": 0, "cards": 0,
         "issues": ["x"]},
    ]
    con.print(documents_table(rows))
    assert _lines(out) == [
        "Ingested documents",
        "",
        " id                         lang   version     kind            secs  rules  gloss  cards  issues",
        " " + "─" * 95,
        " cr-en-2026-04-17           en     2026-04-17  cr-text         3299   3138    730      0       0",
        " rule-702-19-banding-de-en  de+en  -           bilingual-dump    26     26      0      0       1",
        "",
    ]


def test_documents_table_on_an_80_column_terminal_cuts_no_date_or_count() -> None:
    """Ids and kinds fold; versions and counts stay whole (they were cut to "2026-…" and "3…")."""
    con, out = _console(80)
    row = {"id": "glossary-de-banding-bataillon-bushido-x", "language": "de+en", "version": "2026-04-17",
           "kind": "bilingual-dump", "sections": 3299, "rules": 3138, "glossary": 730, "cards": 12345,
           "issues": ["x"] * 12}
    con.print(documents_table([row]))
    lines = _lines(out)
    assert all(len(line) <= 80 for line in lines)
    assert "…" not in out.getvalue()
    header = ["id", "lang", "version", "kind", "secs", "rules", "gloss", "cards", "issues"]
    assert lines[2].split() == header
    cells = ["de+en", "2026-04-17", "bilingual-d", "3299", "3138", "730", "12345", "12"]
    assert lines[4].split()[1:] == cells


def _rule(text: str) -> dict[str, Any]:
    return {
        "number": "702.6", "title": "Equip", "text": "", "language": "en", "version": "2026-04-17",
        "document": "cr-en-2026-04-17", "current": "702.6", "notes": [], "examples": [],
        "subrules": [{"number": "702.6a", "text": text, "examples": []}],
        "references": [{"number": "301", "title": "Artifacts"}],
    }


def test_rule_keeps_square_brackets() -> None:
    con, out = _console()
    render_rule(con, _rule("“Equip [cost]” means “[Cost]: Attach this permanent.”"))
    assert _lines(out) == [
        "702.6 Equip  (2026-04-17, en)",
        "702.6a “Equip [cost]” means “[Cost]: Attach this permanent.”",
        "See also (regelwerk rule NUMBER):",
        "  301 Artifacts",
    ]


def test_search_hit_keeps_square_brackets_and_marks_matches() -> None:
    con, out = _console()
    render_hits(con, {"notes": [], "hits": [{
        "number": "702.19j", "current": "702.22j", "title": "Banding", "term": None,
        "language": "en", "version": None, "document": "rule-702-19-banding-de-en",
        "snippet": "both a [quality] creature with «banding»",
    }]})
    assert _lines(out) == [  # grouped under its rule, the subrule's number before its snippet
        "702.19 Banding  (rule-702-19-banding-de-en, en)  today 702.22",
        "    702.19j both a [quality] creature with banding",
    ]


def test_unnumbered_paragraphs_go_under_the_rule_they_are_today() -> None:
    """The seeds' number-stripped excerpt has no numbers of its own: its hits were one head
    each ("Banding (cr-excerpt-…) today 702.22" five times, no number on any line)."""
    excerpt = {"number": None, "title": "Banding", "term": None, "language": "en", "version": None,
               "document": "cr-excerpt-en-keywords-unnumbered", "names": {"en": "Banding", "de": "Bündnis"}}
    hits = [
        {**excerpt, "current": "702.22i", "snippet": "the entire «band» becomes blocked."},
        {**excerpt, "current": None, "title": "Comprehensive Rules", "names": {},
         "snippet": "Search the official rules"},
        {**excerpt, "current": "702.22", "snippet": "«Banding»"},
        {**excerpt, "current": "702.22a", "snippet": "«Banding» is a static ability"},
    ]
    con, out = _console()
    render_hits(con, {"notes": [], "hits": hits})
    assert _lines(out) == [
        "Banding · Bündnis  (cr-excerpt-en-keywords-unnumbered, en)  today 702.22",
        "    702.22i the entire band becomes blocked.",
        "    Banding",
        "    702.22a Banding is a static ability",
        "Comprehensive Rules  (cr-excerpt-en-keywords-unnumbered, en)",
        "    Search the official rules",
    ]


def test_ingest_progress_shows_the_embedding_as_a_counted_bar_of_its_own() -> None:
    """The half minute of embedding was one text at the end of the files' bar, which stood at
    100% (on an 80-column terminal the count was cut off); now it is a bar with its count."""
    from regelwerk.cli.ingest_view import build_steps, progress_bar
    from regelwerk.ingest.model.steps import Counted

    con, out = _console(80)
    bar = progress_bar(con)
    files = bar.add_task("ingesting", total=4, completed=4)
    stage = build_steps(bar, files)
    stage("search index")
    stage("sentence vectors")
    stage(Counted("sentence vectors (all-MiniLM-L6-v2-onnx-int8)", 0, 4031))
    stage(Counted("sentence vectors (all-MiniLM-L6-v2-onnx-int8)", 256, 4031))
    con.print(bar.make_tasks_table(bar.tasks))
    lines = _lines(out)
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    head, embedding = (line.split() for line in lines)
    assert head[:3] == ["building:", "sentence", "vectors"] and head[-2:] == ["4/4", "0:00:00"]
    assert embedding[:3] == ["sentence", "vectors", "(all-MiniLM-L6-v2-onnx-int8)"]
    assert embedding[-2:] == ["256/4031", "-:--:--"]
    stage(Counted("sentence vectors (all-MiniLM-L6-v2-onnx-int8)", 4031, 4031))
    assert [(t.completed, t.total) for t in bar.tasks] == [(4, 4), (4031, 4031)]


def test_term_keeps_square_brackets_in_german() -> None:
    con, out = _console()
    match = {
        "en": "Banding", "de": "Bündnis", "kind": "keyword_ability", "match": "exact",
        "matched": "Banding", "score": 100.0, "de_variants": ["Bündnisfähigkeit"], "de_old": [],
        "number": "702.22", "documents": [], "rules": {},
        "glossary": "“Bands with other [quality]” is a specialized version.",
        "seed_entries": [], "reminders": [], "cards": [],
    }
    i18n.use("de")
    try:
        render_matches(con, [match], labels())
    finally:
        i18n.use("en")
    text = out.getvalue()
    assert "Banding / Bündnis" in text
    assert "Deutsche Varianten: Bündnisfähigkeit" in text
    assert "“Bands with other [quality]” is a specialized version." in text
