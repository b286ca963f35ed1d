"""A small library for the web tests: the seeds plus one tiny CR release with hostile text.

Built once per module (ingest and index build cost a second); every test reads it through
FastAPI's TestClient, which runs the app in-process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from regelwerk.cli.web.app import create_app
from regelwerk.cli.web.backend import Backend
from tests.test_cr_text import MINI
from tests.test_mtgjson import META, _card, _json, _set

SCRIPT = "<script>alert('xss')</script>"
IMG = '<img src=x onerror="alert(2)">'

#: A CR release in the official text layout (test_cr_text's) whose rule and glossary text
#: carry markup, and whose references include a range ("702.9a-b").
HOSTILE_CR = (
    MINI.replace("rules apply. See rule 100.1a.", f"rules apply {SCRIPT}. See rule 100.1a and 702.9a-b.")
    .replace("100.1a A subrule.", f"100.1a A subrule with {IMG} inside.")
    .replace("Example: An example.", f"Example: An example {SCRIPT}.")
    .replace(
        "702.9a Flying is an evasion ability.",
        f"702.9a Flying is an evasion ability {IMG}.\n\n"
        "702.9b A creature with flying can't be blocked except by creatures with flying or reach.",
    )
    .replace("A keyword ability. See rule 702.9.", f"A keyword ability {SCRIPT}. See rule 702.9.")
)
assert HOSTILE_CR.count(SCRIPT) == 3 and HOSTILE_CR.count(IMG) == 2


#: A card set (MTGJSON) with one card whose names and texts carry markup.
HOSTILE_SET = _set(
    "EVL",
    "2020-06-01",
    [
        _card(f"Evil {SCRIPT}", "EVL", "1", f"Böse {IMG}", text=f"Fliegend {SCRIPT}", keywords=["Flying"]),
        _card("Craw Wurm", "EVL", "2", "Tatzelwurm"),
    ],
)


def make_home(root: Path) -> Path:
    """A home with the seeds, the hostile CR release and the hostile card set ingested."""
    from regelwerk.index.facade import Library

    source = root / "hostile-cr.txt"
    source.write_text(HOSTILE_CR, encoding="utf-8")
    cards = root / "EVL.json"
    cards.write_bytes(_json({"data": HOSTILE_SET, "meta": META}))
    home = root / "home"
    report = Library(home).ingest([source, cards])
    assert not report["errors"], report["errors"]
    return home


@pytest.fixture(scope="module")
def web_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_home(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def client(web_home: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Backend(web_home)), raise_server_exceptions=False) as c:
        yield c


#: Three small releases for history and diff: 702.9a's text changes in the second, Banding is
#: added in the second, and the third is the second again under a new date.
RELEASES = {
    "2020-06-01": MINI,
    "2021-01-01": MINI.replace("June 1, 2020", "January 1, 2021")
    .replace("702.9a Flying is an evasion ability.",
             "702.9a Flying is an evasion ability that limits blockers.\n\n"
             "702.10. Banding\n\n702.10a Banding is a static ability that modifies combat."),
    "2021-06-01": MINI.replace("June 1, 2020", "June 1, 2021")
    .replace("702.9a Flying is an evasion ability.",
             "702.9a Flying is an evasion ability that limits blockers.\n\n"
             "702.10. Banding\n\n702.10a Banding is a static ability that modifies combat."),
}


def home_with(root: Path, releases: dict[str, str]) -> Path:
    """A home under `root` with the seeds and `releases` (version -> CR text) ingested."""
    from regelwerk.index.facade import Library

    sources = []
    for version, text in releases.items():
        source = root / f"cr-{version}.txt"
        source.write_text(text, encoding="utf-8")
        sources.append(source)
    home = root / "home"
    report = Library(home).ingest(sources)
    assert not report["errors"], report["errors"]
    return home


@pytest.fixture(scope="module")
def history_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the seeds and `RELEASES`."""
    return home_with(tmp_path_factory.mktemp("history"), RELEASES)


@pytest.fixture(scope="module")
def history_client(history_home: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Backend(history_home)), raise_server_exceptions=False) as c:
        yield c


#: Two releases with today's 702.19 (Trample) and 702.22 (Banding), whose subrules change while
#: the heading stays: the German seed's 702.19 is this Banding, and Banding's history is its
#: subrules'.
_KEYWORDS = (
    "702.19. Trample\n\n702.19a Trample is a static ability that modifies the rules for assigning "
    "combat damage.\n\n"
    "702.22. Banding\n\n702.22a Banding is a static ability that modifies the rules for combat.\n\n"
    "702.22b A player may declare bands.{b}\n\n"
)
BANDING_RELEASES = {
    "2020-06-01": MINI.replace("702.9. Flying", _KEYWORDS.format(b="") + "702.9. Flying"),
    "2021-01-01": MINI.replace("June 1, 2020", "January 1, 2021").replace(
        "702.9. Flying", _KEYWORDS.format(b=" Defending players can't declare bands.") + "702.9. Flying"),
}


@pytest.fixture(scope="module")
def banding_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The seeds and `BANDING_RELEASES`."""
    home = home_with(tmp_path_factory.mktemp("banding"), BANDING_RELEASES)
    with TestClient(create_app(Backend(home)), raise_server_exceptions=False) as c:
        yield c
