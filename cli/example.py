"""Play the worked examples: a narrated, rule-citing trace in German or English."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from regelwerk.cli.options import JsonOption, LangOption
from regelwerk.cli.output import Commands, bad_usage, emit
from regelwerk.ingest.model.message import N_, msg

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(cls=Commands, no_args_is_help=True, help=__doc__)

#: Interface words of the trace, by reading language (narration itself comes from the engine).
WORDS = {
    "de": {"passed": "bestanden", "mismatch": "Abweichung"},
    "en": {"passed": "passed", "mismatch": "mismatch"},
}


@app.command("list")
def list_command(lang: LangOption = None, json_mode: JsonOption = False) -> None:
    """List the packaged scenarios with their titles and sources."""
    from regelwerk.index.facade import Library

    data = Library().examples()

    def render(con: Console) -> None:
        from rich.markup import escape
        from rich.table import Table

        from regelwerk.cli.i18n import _, pgettext

        table = Table(pgettext("documents column", "id"), _("Title"), _("Source"), show_lines=False)
        for s in data["scenarios"]:
            title = s[f"title_{lang}"] if lang else f"{s['title_de']}\n{s['title_en']}"
            table.add_row(escape(s["id"]), escape(title), escape(s["source"]))
        con.print(table)

    emit(data, json_mode, render)


@app.command("run")
def run_command(
    scenario: str | None = typer.Argument(
        None, help="A scenario id (see `example list`) or the path of a .toml scenario file."
    ),
    all_: bool = typer.Option(False, "--all", help="Run every packaged scenario."),
    lang: LangOption = None,
    json_mode: JsonOption = False,
) -> None:
    """Play a scenario step by step, each step citing its rule; exit 1 if an outcome differs."""
    from regelwerk.index.facade import Library

    if all_ == (scenario is not None):
        bad_usage(msg(N_("give either a scenario id or file, or --all")))
    data = Library().example(None if all_ else scenario, lang=lang)
    results = data["scenarios"]
    words = WORDS[lang or "de"]

    def render(con: Console) -> None:
        for r in results:
            render_result(con, r, words)
        if len(results) > 1:
            passed = sum(r["passed"] for r in results)
            con.print(f"{passed}/{len(results)} {words['passed']}")

    emit(data, json_mode, render)
    if not all(r["passed"] for r in results):
        raise typer.Exit(1)


def render_result(con: Console, r: dict[str, Any], words: dict[str, str]) -> None:
    """One scenario: a numbered line per step with its rule, then any expected-vs-actual diff."""
    from rich.markup import escape

    mark = "[green]✓[/]" if r["passed"] else "[red]✗[/]"
    con.print(f"{mark} [bold]{escape(r['id'])}[/] — {escape(r['title'])}")
    for i, step in enumerate(r["steps"], 1):
        cite = step["rule"] + (f" {step['title']}" if step["title"] else "")
        con.print(f"  {i:>2}. {escape(step['text'])} [dim]({escape(cite)})[/]")
    for m in r["mismatches"]:
        con.print(f"  [red]{words['mismatch']}:[/] {escape(m)}")
