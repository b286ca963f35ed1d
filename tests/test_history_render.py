"""``history`` and ``diff`` as a reader sees them, rendered at a fixed width."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from regelwerk.cli.history import render_diff, render_history, words


def _console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(width=100, file=out, color_system=None, highlight=False), out


LINEAGE = [
    {
        "version": "2003-03-15",
        "number": "502.10",
        "title": "Banding",
        "change": "new",
        "text": "Banding",
        "diff": [],
    },
    {
        "version": "2009-05-01",
        "number": "502.10",
        "title": "Banding",
        "change": "same",
        "text": "Banding",
        "diff": [],
    },
    {
        "version": "2009-07-11",
        "number": "702.19",
        "title": "Banding",
        "change": "renumbered",
        "text": "Banding",
        "diff": [],
    },
]
RUNS = [
    {
        "number": "502.10",
        "title": "Banding",
        "from": "2003-03-15",
        "to": "2009-05-01",
        "releases": 2,
        "change": "new",
        "text": "Banding",
        "diff": [],
    },
    {
        "number": "702.19",
        "title": "Banding",
        "from": "2009-07-11",
        "to": "2009-07-11",
        "releases": 1,
        "change": "renumbered",
        "text": "Banding",
        "diff": [],
    },
]


def test_history_collapses_runs() -> None:
    con, out = _console()
    render_history(con, {"query": "banding", "lineage": LINEAGE, "runs": RUNS}, full=False)
    assert out.getvalue().splitlines() == [
        "Banding  (3 releases)",
        "502.10     2003-03-15 .. 2009-05-01  new",
        "702.19     2009-07-11  renumbered",
    ]
    con, out = _console()
    render_history(con, {"query": "banding", "lineage": LINEAGE, "runs": RUNS}, full=True)
    assert len(out.getvalue().splitlines()) == 4


def test_word_diff_markup_elides_long_unchanged_text() -> None:
    long = " ".join(f"w{i}" for i in range(40))
    text = words([["=", long], ["-", "old"], ["+", "new"], ["=", "end"]])
    assert text.startswith("… w32") and "[red strike]old[/red strike] [green]new[/green] end" in text


def test_a_word_diff_outside_a_terminal_marks_what_went_and_what_came() -> None:
    """Colour and strike-through vanish in a pipe; git's plain word-diff marks say it instead."""
    diff = [["=", "one mana of that"], ["-", "color."], ["+", "type."], ["=", "If [a] half"]]
    assert words(diff, marked=True) == r"one mana of that [-color.-] {+type.+} If \[a] half"  # markup
    run = {**LINEAGE[2], "change": "changed", "diff": diff}
    con, out = _console()  # a StringIO: not a terminal
    runs = [{**run, "from": "a", "to": "a"}]
    render_history(con, {"query": "x", "lineage": [run], "runs": runs}, full=False)
    assert "one mana of that [-color.-] {+type.+} If [a] half" in out.getvalue()


def test_diff_groups_by_section() -> None:
    data = {
        "from": "2026-01-16",
        "to": "2026-04-17",
        "counts": {"added": 1, "removed": 0, "renumbered": 1, "changed": 0, "split": 0, "merged": 0},
        "glossary_counts": {"added": 0, "removed": 0, "changed": 0},
        "changes": [
            {
                "kind": "rule",
                "change": "added",
                "old": None,
                "new": "722",
                "title": "Preparation Cards",
                "section": "722",
                "diff": [["+", "Preparation Cards"]],
            },
            {
                "kind": "rule",
                "change": "renumbered",
                "old": "722",
                "new": "723",
                "title": "Controlling Another Player",
                "section": "723",
                "diff": [["=", "Controlling Another Player"]],
            },
        ],
    }
    con, out = _console()
    render_diff(con, data)
    assert out.getvalue().splitlines() == [
        "2026-01-16 → 2026-04-17: 1 added, 1 renumbered",
        "Section 722",
        " + 722 Preparation Cards",
        "Section 723",
        " → 722 → 723 Controlling Another Player",
    ]
