"""Rich tables for read commands. Pure functions of plain data, so tests can render them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table


def documents_table(rows: list[dict[str, Any]]) -> Table:
    from rich.table import Table

    table = Table(title="Ingested documents", title_justify="left")
    for col, justify in (
        ("id", "left"), ("lang", "left"), ("version", "left"), ("kind", "left"),
        ("sections", "right"), ("rules", "right"), ("glossary", "right"), ("cards", "right"),
        ("issues", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        table.add_row(
            r["id"], r["language"], r["version"] or "-", r["kind"], str(r["sections"]),
            str(r["rules"]), str(r["glossary"]), str(r["cards"]), str(len(r["issues"])),
        )
    return table
