"""Piped output without rich's console (``cli.plain``) prints exactly what rich prints.

Every comparison renders the same thing twice, once on a rich console and once on a
`PlainConsole`, at the same width, and wants the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regelwerk.cli.output import console, make_console, styled
from regelwerk.cli.plain import PlainConsole
from regelwerk.cli.rule import render_rule
from regelwerk.cli.search import render_hits
from regelwerk.cli.tables import documents_table
from regelwerk.index.facade import Library
from regelwerk.index.rules.lookup import rules_table
from tests.conftest import NEEDS_SHARED
from tests.search_home import NEWEST, library_with


def _both(width: int, draw: Callable[[Any], None]) -> tuple[str, str]:
    """(rich's output, the plain console's output) of `draw` at `width` columns."""
    rich_out, plain_out = StringIO(), StringIO()
    draw(make_console(file=rich_out, width=width, highlight=False, soft_wrap=False))
    plain = PlainConsole(
        plain_out, width, lambda: make_console(file=plain_out, width=width, highlight=False, soft_wrap=False)
    )
    draw(plain)
    return rich_out.getvalue(), plain_out.getvalue()


EDGES = [
    "", "a", "a\n", "\n", "a\n\nb", "  leading", "trailing   ", "x" * 130, "word " * 40,
    "a " + "y" * 250 + " b", "Bündnisfähigkeit ist eine statische Fähigkeit " * 6,
    "日本語のテキスト" * 20, "e\u0301" * 70, "a\x1bb" * 50, " " * 130, "[bold]not markup[/bold] " * 9,
]


@pytest.mark.parametrize("width", [120, 40, 7])
@pytest.mark.parametrize("text", EDGES)
@pytest.mark.parametrize("options", [{"markup": False}, {"markup": False, "soft_wrap": True}, {"end": ""}])
def test_edges_wrap_as_rich_wraps(text: str, width: int, options: dict[str, Any]) -> None:
    rich_out, plain_out = _both(width, lambda con: con.print(text, **options))
    assert plain_out == rich_out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab cd  é日\u0301-—«»\n")), st.integers(min_value=1, max_value=130))
def test_any_text_wraps_as_rich_wraps(text: str, width: int) -> None:
    rich_out, plain_out = _both(width, lambda con: con.print(text, markup=False))
    assert plain_out == rich_out


def test_styled_parts_print_the_same_text_and_never_read_markup() -> None:
    parts = (("702.22 [quality]", "bold"), "  ", ("(2026-04-17, en)", "dim"))
    rich_out, plain_out = _both(120, lambda con: styled(con, *parts))
    assert plain_out == rich_out == "702.22 [quality]  (2026-04-17, en)\n"


def test_what_it_cannot_print_goes_to_rich() -> None:
    row = {"id": "cr-en-2026-04-17", "language": "en", "version": "2026-04-17", "kind": "cr-text",
           "sections": 3299, "rules": 3138, "glossary": 730, "cards": 0, "issues": []}
    rich_out, plain_out = _both(120, lambda con: con.print(documents_table([row])))
    assert plain_out == rich_out and "cr-en-2026-04-17" in plain_out
    rich_out, plain_out = _both(120, lambda con: con.print("[bold]markup[/bold] and\ttab"))
    assert plain_out == rich_out == "markup and      tab\n"


def test_only_unstyled_piped_stdout_is_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr("sys.stdout", StringIO())
    assert isinstance(console(), PlainConsole)
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich would style a pipe: rich prints
    assert not isinstance(console(), PlainConsole)
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setenv("COLUMNS", "70")
    assert not isinstance(console(), PlainConsole)


def _rules(library: Library, numbers: list[str], at_least: int) -> None:
    assert len(numbers) >= at_least
    for number in numbers:
        data = library.rule(number)["rule"]
        rich_out, plain_out = _both(120, lambda con, d=data: render_rule(con, d))  # type: ignore[misc]
        assert plain_out == rich_out, number


def test_every_seed_rule_prints_the_same(tmp_path_factory: pytest.TempPathFactory) -> None:
    corpus = library_with(tmp_path_factory)
    library = Library(corpus.home)
    rows = rules_table(corpus).execute("SELECT DISTINCT number FROM sections WHERE number != ''")
    _rules(library, [r[0] for r in rows], 10)


@NEEDS_SHARED
def test_every_keyword_rule_of_a_cr_and_its_search_hits_print_the_same(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    corpus = library_with(tmp_path_factory, NEWEST)
    library = Library(corpus.home)
    rows = rules_table(corpus).execute(
        "SELECT DISTINCT number FROM sections WHERE number LIKE '70%' AND number NOT GLOB '*[a-z]'"
    )
    _rules(library, [r[0] for r in rows], 150)
    for query in ("banding", "Bündnis Schaden verteilen", "[cost] Equip", "lifelink"):
        data = library.search(query)
        rich_out, plain_out = _both(120, lambda con, d=data: render_hits(con, d))  # type: ignore[misc]
        assert plain_out == rich_out, query
