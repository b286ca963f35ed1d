"""The library's messages that the web says in its own way are the ones the library says.

The web recognises them by the names it imports (``rule_messages``, the facade's constants),
never by a copy of their words: these tests fail if the library stops saying the message a
page looks for (the page would silently fall back to the library's own wording).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regelwerk.cli.web.site import ELSEWHERE
from regelwerk.index.facade import Library, rule_messages
from regelwerk.ingest.model.errors import InputError, InvalidRuleNumber


def test_a_word_that_names_no_rule_expects_what_the_page_rewords(web_home: Path) -> None:
    with pytest.raises(InvalidRuleNumber) as caught:
        Library(web_home).rule("Quatschwort")
    assert caught.value.message is not None
    assert caught.value.message.to_dict()["args"]["expected"]["id"] == rule_messages.RULE_OR_TERM


def test_a_diff_in_the_wrong_order_is_the_refusal_the_page_rewords(history_home: Path) -> None:
    with pytest.raises(InputError) as caught:
        Library(history_home).diff("2021-06-01", "2020-06-01")
    assert caught.value.message is not None and caught.value.message.id == rule_messages.NEWER_THAN


def test_a_seed_rules_notes_are_ones_the_page_links(web_home: Path) -> None:
    """The German seed's 702.19: a note the page links (`ELSEWHERE`), naming the seed by the
    message the page replaces with its title."""
    notes = Library(web_home).rule("702.19", lang="de")["rule"]["messages"]
    linked = [n for n in notes if n["id"] in ELSEWHERE]
    assert linked, [n["id"] for n in notes]
    assert linked[0]["args"]["where"]["id"] == rule_messages.DOCUMENT

