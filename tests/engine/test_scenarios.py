"""Every packaged scenario is a golden test, in German and in English."""

from __future__ import annotations

import pytest

from regelwerk.engine.rulebook import RuleBook
from regelwerk.engine.runner import run_scenario
from regelwerk.engine.scenario import list_scenarios, load_packaged

SCENARIOS = {s.id: s for s in load_packaged()}


def test_at_least_fifteen_scenarios() -> None:
    assert len(SCENARIOS) >= 15
    assert {"banding-tatzelwurm", "persist-kitchen-finks", "poisonous-virulent-sliver"} <= set(SCENARIOS)


def test_list_matches_files() -> None:
    assert [s.id for s in list_scenarios()] == sorted(SCENARIOS)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_scenario_passes(sid: str, lang: str, rulebook: RuleBook) -> None:
    result = run_scenario(SCENARIOS[sid], lang, rulebook)
    trace = "\n".join(f"  {s.rule:8} {s.text}" for s in result.steps)
    assert result.passed, (
        f"{sid} ({lang}) expected vs actual:\n" + "\n".join(result.mismatches) + "\n" + trace
    )
    assert result.steps, "a scenario narrates at least one step"
    for step in result.steps:
        assert step.rule and step.text.strip()
        assert "{" not in step.text, f"unfilled placeholder in {step.text!r}"


def test_outdated_seed_claims_carry_a_note() -> None:
    for sid, rule in [
        ("proliferate-contagion-clasp", "701.34a"),
        ("phasing-rainbow-efreet", "702.26b"),
        ("banding-block-one-blocks-all", "510.1c"),
    ]:
        result = run_scenario(SCENARIOS[sid], "de")
        assert result.steps[0].text.startswith(
            "Hinweis: Der Text des Glossars ist älter als die aktuellen Regeln"
        )
        assert "Seed" not in result.steps[0].text
        assert result.steps[0].rule == rule
