"""Rich tables for read commands. Pure functions of plain data, so tests can render them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table


def documents_table(rows: list[dict[str, Any]], title: str | None = None) -> Table:
    """Compact enough for an 80-column terminal: dates and counts never wrap; only ids and kinds fold."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from regelwerk.cli.i18n import _, pgettext

    table = Table(title=title or _("Ingested documents"), title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    # on a narrow terminal the long ids fold, so dates and counts are never cut to "2026-…"
    table.add_column(pgettext("documents column", "id"), overflow="fold", min_width=10)
    table.add_column(pgettext("documents column", "lang"), no_wrap=True)
    table.add_column(pgettext("documents column", "version"), no_wrap=True)
    table.add_column(pgettext("documents column", "kind"), overflow="fold", min_width=7)
    counts = (pgettext("documents column", "secs"), pgettext("documents column", "rules"),
              pgettext("documents column", "gloss"), pgettext("documents column", "cards"),
              pgettext("documents column", "issues"))
    for col in counts:
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        cells = (r["id"], r["language"], r["version"] or "-", r["kind"])
        table.add_row(
            *(escape(str(c)) for c in cells), str(r["sections"]),
            str(r["rules"]), str(r["glossary"]), str(r["cards"]), str(len(r["issues"])),
        )
    return table
