"""``regelwerk history RULE|KEYWORD`` and ``regelwerk diff OLD NEW``: rules across releases.

Thin: parse the options, ask the facade (``Library.history``, ``Library.diff``), render. Runs of
releases where a rule stayed the same collapse to one line (``502.10  2003-03-15 .. 2009-05-01``);
each change shows a word diff: removed words red and struck through, added words green (in a
pipe or a file, ``[-removed-]`` and ``{+added+}`` as git's plain word diff writes them).
Lines are printed as styled parts (``output.styled``), never as markup, so output to a pipe or
a file does not load rich's console (a cold ``history`` is mostly imports).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.i18n import N_, _, ngettext
from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import Part, emit, styled

if TYPE_CHECKING:
    from rich.console import Console

#: Unchanged words shown around a change in a word diff; the rest is elided.
CONTEXT_WORDS = 8


def history(
    rule: list[str] = typer.Argument(
        ...,
        help="A rule number (702.22, 502.10) or a keyword in English or German (banding, Bündnisfähigkeit).",
    ),
    full: bool = typer.Option(
        False, "--full", help="One line per release instead of runs of unchanged ones."
    ),
    lang: LangOption = None,
    json_mode: JsonOption = False,
) -> None:
    """Follow one rule through every ingested CR release, with what changed at each step."""
    from regelwerk.index.facade import Library

    data = Library().history(" ".join(rule), full=full)

    def render(con: Console) -> None:
        render_history(con, data, full=full, lang=lang)

    emit(data, json_mode, render)


def diff(
    old: str = typer.Argument(..., help="The older release: a date (2026-01-16), 'latest' or a document id."),
    new: str = typer.Argument("latest", help="The newer release (default: latest)."),
    section: str | None = typer.Option(None, "--section", help="Only this chapter (7) or section (702)."),
    lang: LangOption = None,
    json_mode: JsonOption = False,
) -> None:
    """What changed between two CR releases: added, removed, renumbered and changed rules."""
    from regelwerk.index.facade import Library

    data = Library().diff(old, new, section=section)

    def render(con: Console) -> None:
        render_diff(con, data, lang=lang)

    emit(data, json_mode, render)


def words(diff: list[list[str]], context: int = CONTEXT_WORDS, *, marked: bool = False) -> list[Part]:
    """A word diff as styled parts (removed words red and struck through, added words
    green), long unchanged stretches elided.

    Colour and strike-through vanish in a pipe or a file, and "of that color. type." would no
    longer say which word went and which came; `marked` writes them as git's plain word diff
    does (``[-color.-] {+type.+}``), for output that is not a terminal.
    """
    out: list[Part] = []
    for op, text in elided(diff, context):
        if out:
            out.append(" ")
        if op == "=":
            out.append(text)
        else:
            out.append(_GIT_MARKS[op].format(text) if marked else (text, _DIFF_STYLES[op]))
    return out


def elided(diff: list[list[str]], context: int = CONTEXT_WORDS) -> list[tuple[str, str]]:
    """A word diff's ``(op, text)`` pairs with unchanged stretches longer than twice `context`
    words cut to their ends around "…" (what `words` and the web pages show)."""
    out: list[tuple[str, str]] = []
    for i, (op, text) in enumerate(diff):
        if op == "=":
            ws = text.split()
            if len(diff) > 1 and len(ws) > 2 * context:
                head = ws[:context] if i > 0 else []
                tail = ws[-context:] if i < len(diff) - 1 else []
                text = " ".join([*head, "…", *tail]).strip()
        if text:
            out.append((op, text))
    return out


#: How a word diff shows removed and added words on a terminal, and elsewhere (git's marks).
_DIFF_STYLES = {"-": "red strike", "+": "green"}
_GIT_MARKS = {"-": "[-{}-]", "+": "{{+{}+}}"}


def named(title: str | None, names: dict[str, str | None] | None) -> str:
    """A title with its German name beside it where the term tables know one, as in rule
    headings ("Banding · Bündnisfähigkeit"); history and diff show English releases, so the title is
    the English one the rules print."""
    from regelwerk.cli.bilingual import titled

    return titled(title or "", names, "en") if title else ""


def history_heading(data: dict[str, Any]) -> str:
    """A history's heading: the rule's newest title with its German name ("Banding · Bündnis"),
    or "" where no release gave it one."""
    last = next((e for e in reversed(data["lineage"]) if e["title"]), None)
    return named(last["title"], last.get("names")) if last else ""


def history_rows(data: dict[str, Any], *, full: bool) -> list[dict[str, Any]]:
    """The rows a history lists (here and on the web page): its runs of unchanged releases, or
    with `full` every release as a run of one."""
    if not full:
        return list(data["runs"])
    return [{**e, "from": e["version"], "to": e["version"], "releases": 1} for e in data["lineage"]]


def render_history(con: Console, data: dict[str, Any], *, full: bool, lang: str | None = None) -> None:
    lineage = data["lineage"]
    releases = ngettext("{n} release", "{n} releases", len(lineage)).format(n=len(lineage))
    styled(con, (history_heading(data) or data["query"], "bold"), "  ", (f"({releases})", "dim"))
    for run in history_rows(data, full=full):
        span = run["from"] if run["from"] == run["to"] else f"{run['from']} .. {run['to']}"
        number = run["number"] or "—"
        said = _(CHANGE_WORDS[run["change"]]) if run["change"] in CHANGE_WORDS else run["change"]
        change: list[Part] = [] if run["change"] == "same" else ["  ", (said, "yellow")]
        styled(con, (f"{number:<10}", "bold"), f" {span}", *change)
        if run.get("diff") and any(op != "=" for op, _ in run["diff"]):
            styled(con, "    ", *words(run["diff"], marked=not con.is_terminal))


#: The mark before each change in a diff.
_MARKS: dict[str, Part] = {
    "added": ("+", "green"),
    "removed": ("-", "red"),
    "renumbered": ("→", "cyan"),
    "changed": ("~", "yellow"),
    "split": ("⑂", "magenta"),
    "merged": ("⋈", "magenta"),
}


#: How many rules changed which way ("8 added"), by the kinds of change the library reports.
CHANGE_COUNTS = {
    "added": N_("{n} added"),
    "removed": N_("{n} removed"),
    "renumbered": N_("{n} renumbered"),
    "changed": N_("{n} changed"),
    "split": N_("{n} split"),
    "merged": N_("{n} merged"),
}
#: What happened to a rule at one release of its history.
CHANGE_WORDS = {
    "new": N_("new"),
    "same": N_("same"),
    "changed": N_("changed"),
    "text": N_("changed"),  # the lineage's word for a step whose text changed
    "renumbered": N_("renumbered"),
    "removed": N_("removed"),
    "split": N_("split"),
    "merged": N_("merged"),
    "added": N_("added"),
}


def change_counts(
    counts: dict[str, int], glossary: dict[str, int], gettext: Callable[[str], str] | None = None
) -> str:
    """"8 added, 5 changed; glossary: 1 added" in the interface language (or through
    `gettext`: a web page's catalog)."""
    t = gettext or _

    def said(found: dict[str, int]) -> str:
        return ", ".join(
            (t(CHANGE_COUNTS[k]) if k in CHANGE_COUNTS else "{n} " + k).format(n=n)
            for k, n in found.items() if n
        )

    text = said(counts) or t(N_("no rule changes"))
    gloss = said(glossary)
    return t(N_("{counts}; glossary: {glossary}")).format(counts=text, glossary=gloss) if gloss else text


def render_diff(con: Console, data: dict[str, Any], lang: str | None = None) -> None:
    counts = change_counts(data["counts"], data["glossary_counts"])
    styled(con, (f"{data['from']} → {data['to']}", "bold"), f": {counts}")
    group = None
    for c in data["changes"]:
        if c["section"] != group:
            group = c["section"]
            heading = _("Glossary") if group == "Glossary" else _("Section {number}").format(number=group)
            styled(con, (heading, "bold underline"))
        if c["change"] in ("renumbered", "split", "merged"):
            label = f"{c['old']} → {c['new']}"
        else:
            label = c["new"] or c["old"] or ""
        title = named(c["title"], c.get("names"))
        if c.get("kind") == "glossary":  # a glossary entry's label is its term: show it once
            label, title = title, ""
        styled(con, " ", _MARKS.get(c["change"], " "), " ", (label, "bold"), f" {title}".rstrip())
        if c["change"] in ("changed", "renumbered", "merged", "split") and any(
            op != "=" for op, _ in c["diff"]
        ):
            styled(con, "     ", *words(c["diff"], marked=not con.is_terminal))


def register(app: typer.Typer) -> None:
    app.command(name="history")(history)
    app.command(name="diff")(diff)
