"""Shared fixtures: a rule book from the CR text when ../shared is there, else none."""

from __future__ import annotations

from pathlib import Path

import pytest

from regelwerk.engine.rulebook import NullRuleBook, RuleBook, TextRuleBook

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CR = SHARED / "corpus" / "en" / "MagicCompRules-20260417.txt"


@pytest.fixture(scope="session")
def rulebook() -> RuleBook:
    return TextRuleBook.from_path(CR) if CR.exists() else NullRuleBook()
