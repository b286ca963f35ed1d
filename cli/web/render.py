"""Turning document text into safe HTML: escape first, then add the few tags we mean.

Every string from a document is escaped before anything is added to it, and only then are rule
references turned into links and the search highlights («…») into ``<mark>``. What is added is
built from the escaped text and our own fixed tags, so a ``<script>`` in a document stays text.
"""

from __future__ import annotations

import re
from typing import TypeVar
from urllib.parse import quote

from markupsafe import Markup, escape

#: "702.22", "702.22j", "510.1c-d" / "510.1c–d" (a range of subrules), not "1702.2" or "702.22.5".
_REFERENCE = re.compile(r"(?<![\w.])([1-9]\d{2}\.\d+)([a-z]?)(?:([-–])([a-z]))?(?![\w]|\.\d)")
#: A bare section after the word rule: "rule 702", "rules 510", "Regel 506".
_SECTION = re.compile(r"\b([Rr]ules?|[Rr]egeln?) ([1-9]\d{2})(?![\w.])")


_Text = TypeVar("_Text", str, Markup)


def upper_first(text: _Text) -> _Text:
    """`text` with its first letter upper-case: a sentence on a page starts so, while the
    library's sentences start lower-case (they are joined into others: "expected {expected}").
    HTML stays HTML (a leading tag or entity is left as it is)."""
    return text[:1].upper() + text[1:]


def rule_url(number: str, version: str | None = None) -> str:
    url = f"/rule/{quote(number)}"
    return f"{url}?version={quote(version)}" if version else url


def _link(number: str, label: str, version: str | None) -> str:
    return f'<a class="ref" href="{escape(rule_url(number, version))}">{label}</a>'


def linkify(text: str | None, version: str | None = None, moved: tuple[str, str] | None = None) -> Markup:
    """Escaped `text` with every rule reference a link to its rule page (in `version`, if given).

    `moved` is ``(number, number today)`` for text from an old, undated document (the German
    seed's 702.19 is 702.22 today): its references into its own rule ("siehe Regel 702.19j")
    link to where that subrule lives today, not to what 702.19j means now.
    """
    safe = str(escape(text or ""))

    def target(number: str) -> str:
        if moved and moved[0] != moved[1] and number.startswith(moved[0]):
            letter = number[len(moved[0]) :]
            if letter.isalpha():
                return moved[1] + letter
        return number

    def reference(m: re.Match[str]) -> str:
        base, letter, dash, last = m.group(1), m.group(2), m.group(3), m.group(4)
        first = _link(target(base + letter), base + letter, version)
        if dash and letter:
            return first + dash + _link(target(base + last), last, version)
        if dash:  # "702.22-b" is not a range; keep the text as it was
            return first + dash + last
        return first

    safe = _REFERENCE.sub(reference, safe)
    safe = _SECTION.sub(lambda m: f"{m.group(1)} {_link(m.group(2), m.group(2), version)}", safe)
    return Markup(safe)


def highlight(snippet: str | None) -> Markup:
    """A search snippet with its «marked» words as <mark>; unbalanced marks are dropped."""
    safe = str(escape(snippet or ""))
    if safe.count("«") != safe.count("»"):
        return Markup(safe.replace("«", "").replace("»", ""))
    return Markup(safe.replace("«", "<mark>").replace("»", "</mark>"))


#: Command-line text in a sentence, between ``double`` or `single` backticks (docstrings and
#: the catalog write it so).
_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def code(text: str | None) -> Markup:
    """Escaped `text` with its backticked spans as ``<code>``."""
    safe = str(escape(text or ""))
    return Markup(_CODE.sub(lambda m: f"<code>{m.group(1) or m.group(2)}</code>", safe))


def word_diff(
    diff: list[list[str]] | None,
    removed: str = "removed",
    added: str = "added",
    old: str | None = None,
    new: str | None = None,
) -> Markup:
    """A word diff (``[["=", "same"], ["-", "old"], ["+", "new"]]``) as escaped HTML: removed
    words in ``<del>`` (struck through), added ones in ``<ins>`` (underlined), so the change
    reads without colour; each also says so in words to a screen reader (`removed`, `added`:
    the page's language) and on hover. Long unchanged stretches are cut as on the command line.
    Rule references are links as in the rule text (`linkify`): removed words to the rule in
    release `old`, the others in release `new` (the text they were read from).
    """
    from regelwerk.cli.history import elided

    said = {"-": ("del", escape(removed)), "+": ("ins", escape(added))}
    parts = []
    for op, text in elided(diff or []):
        safe = linkify(text, old if op == "-" else new)
        if op in said:
            tag, label = said[op]
            parts.append(f'<{tag} title="{label}"><span class="vh">[{label}: </span>{safe}'
                         f'<span class="vh">]</span></{tag}>')
        else:
            parts.append(str(safe))
    return Markup(" ".join(parts))
