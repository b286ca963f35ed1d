"""Play the worked examples: a narrated, rule-citing trace in German or English."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.output import JSON_OPTION, emit, fail

if TYPE_CHECKING:
    from rich.console import Console

    from regelwerk.engine.rulebook import RuleBook
    from regelwerk.engine.runner import RunResult

app = typer.Typer(no_args_is_help=True, help=__doc__)

LANGS = ("de", "en")


class LibraryRuleBook:
    """Rule titles from the ingested rules (the newest CR), falling back up the number tree.

    A subrule has no title of its own, so "702.22j" asks 702.22j, then 702.22, then 702 and
    keeps the first answer that reads like a heading. Failures mean "no title", never an error:
    a trace without titles is still a correct trace.
    """

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], str | None] = {}
        self._library: Any = None
        self._terms: dict[str, tuple[str, str]] | None = None

    def title(self, number: str, lang: str) -> str | None:
        key = (number, lang)
        if key not in self._cache:
            german = self._from_terms(number, "de") if lang == "de" else None
            self._cache[key] = german or self._find(number, lang) or self._from_terms(number, "en")
        return self._cache[key]

    def _from_terms(self, number: str, lang: str) -> str | None:
        """The term tables name every keyword and the turn-structure sections by current
        number, in both languages: titles even before any CR is ingested, German ones in
        German traces."""
        from regelwerk.index.terms.shipped import load_terms
        from regelwerk.ingest.model.numbers import lineage

        if self._terms is None:
            self._terms = {}
            for row in load_terms():  # file order: a section's own title comes first
                # Ability words are examples listed in 207.2c, not its title ("Adamant").
                if row.number and row.kind != "ability_word":
                    self._terms.setdefault(row.number, (row.en, row.de))
        for n in lineage(number):
            names = self._terms.get(n)
            if names is not None:
                return names[1] if lang == "de" else names[0]
        return None

    def _find(self, number: str, lang: str) -> str | None:
        from regelwerk.index.rules.lookup import lookup
        from regelwerk.index.store.library import Library
        from regelwerk.ingest.model.errors import RegelwerkError
        from regelwerk.ingest.model.numbers import lineage

        if self._library is None:
            self._library = Library()
        for n in lineage(number):
            try:
                title = lookup(self._library, n, lang=lang).title
            except (RegelwerkError, OSError):
                continue
            if title and len(title) <= 60 and not title.endswith((".", ":")):
                return str(title)
        return None


def _rulebook() -> RuleBook:
    return LibraryRuleBook()


@app.command("list")
def list_command(json_mode: bool = JSON_OPTION) -> None:
    """List the packaged scenarios with their titles and sources."""
    from regelwerk.engine.scenario import list_scenarios
    from regelwerk.ingest.model.errors import RegelwerkError

    try:
        infos = [s.to_dict() for s in list_scenarios()]
    except RegelwerkError as exc:
        fail(str(exc), json_mode)

    def render(con: Console) -> None:
        from rich.markup import escape
        from rich.table import Table

        table = Table("id", "Titel / title", "source", show_lines=False)
        for s in infos:
            table.add_row(escape(s["id"]), escape(f"{s['title_de']}\n{s['title_en']}"), escape(s["source"]))
        con.print(table)

    emit({"scenarios": infos}, json_mode, render)


@app.command("run")
def run_command(
    scenario: str | None = typer.Argument(
        None, help="A scenario id (see `example list`) or the path of a .toml scenario file."
    ),
    all_: bool = typer.Option(False, "--all", help="Run every packaged scenario."),
    lang: str = typer.Option("de", "--lang", help="Language of the narration: de or en."),
    json_mode: bool = JSON_OPTION,
) -> None:
    """Play a scenario step by step, each step citing its rule; exit 1 if an outcome differs."""
    from regelwerk.engine.runner import run_scenario
    from regelwerk.engine.scenario import load_packaged, resolve_scenario
    from regelwerk.ingest.model.errors import RegelwerkError

    if lang not in LANGS:
        fail(f"--lang {lang!r} is not supported; use 'de' or 'en'", json_mode, code=2)
    if all_ == (scenario is not None):
        fail("give either a scenario id or file, or --all", json_mode, code=2)
    book = _rulebook()
    try:
        scenarios = load_packaged() if all_ else [resolve_scenario(str(scenario))]
        results = [run_scenario(s, lang, book) for s in scenarios]
    except RegelwerkError as exc:
        fail(str(exc), json_mode)
    data = {"scenarios": [r.to_dict() for r in results]}

    def render(con: Console) -> None:
        for r in results:
            render_result(con, r, lang)
        if len(results) > 1:
            passed = sum(r.passed for r in results)
            con.print(f"{passed}/{len(results)} " + ("bestanden" if lang == "de" else "passed"))

    emit(data, json_mode, render)
    if not all(r.passed for r in results):
        raise typer.Exit(1)


def render_result(con: Console, r: RunResult, lang: str) -> None:
    """One scenario: a numbered line per step with its rule, then any expected-vs-actual diff."""
    from rich.markup import escape

    mark = "[green]✓[/]" if r.passed else "[red]✗[/]"
    con.print(f"{mark} [bold]{escape(r.id)}[/] — {escape(r.title)}")
    for i, step in enumerate(r.steps, 1):
        cite = step.rule + (f" {step.title}" if step.title else "")
        con.print(f"  {i:>2}. {escape(step.text)} [dim]({escape(cite)})[/]")
    for m in r.mismatches:
        label = "Abweichung" if lang == "de" else "mismatch"
        con.print(f"  [red]{label}:[/] {escape(m)}")
