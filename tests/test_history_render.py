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


def test_word_diff_parts_elide_long_unchanged_text() -> None:
    long = " ".join(f"w{i}" for i in range(40))
    parts = words([["=", long], ["-", "old"], ["+", "new"], ["=", "end"]])
    assert str(parts[0]).startswith("… w32")
    assert parts[1:] == [" ", ("old", "red strike"), " ", ("new", "green"), " ", "end"]


def test_a_word_diff_outside_a_terminal_marks_what_went_and_what_came() -> None:
    """Colour and strike-through vanish in a pipe; git's plain word-diff marks say it instead."""
    diff = [["=", "one mana of that"], ["-", "color."], ["+", "type."], ["=", "If [a] half"]]
    assert "".join(map(str, words(diff, marked=True))) == "one mana of that [-color.-] {+type.+} If [a] half"
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


def test_history_and_diff_print_the_same_on_a_plain_and_a_rich_console() -> None:
    """Outside a terminal history and diff print through `PlainConsole` (no rich console is
    loaded): the bytes are those a rich console prints, word diff, brackets and wrapping included."""
    from regelwerk.cli.plain import PlainConsole

    diff = [["=", "one mana of that"], ["-", "color."], ["+", "type."], ["=", "If [a] half " * 12]]
    run = {**LINEAGE[2], "change": "changed", "diff": diff, "from": "a", "to": "b"}
    change = {"kind": "rule", "change": "changed", "old": "702.1", "new": "702.1", "title": "[Banding]",
              "section": "702", "diff": diff}
    shown = (
        (render_history, {"query": "[x]", "lineage": [run], "runs": [run]}, {"full": False}),
        (render_diff, {"from": "2026-01-16", "to": "2026-04-17", "counts": {"changed": 1},
                       "glossary_counts": {}, "changes": [change]}, {}),
    )
    fallback: list[int] = []
    for render, data, args in shown:
        con, out = _console()
        render(con, data, **args)
        plain = StringIO()
        render(PlainConsole(plain, 100, lambda: fallback.append(1)), data, **args)
        assert plain.getvalue() == out.getvalue() and not fallback
