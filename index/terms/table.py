"""The term tables' row type and file format (``data/terms/*.tsv``).

Kept apart from the generator so that loading the tables at run time (``term``, ``rule``,
linking) does not import the CR-parsing script.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from regelwerk.ingest.model.errors import InputError

#: Column order of both tables; the README documents each column.
COLUMNS = ("en", "kind", "number", "de", "de_variants", "de_old", "source", "note")
KINDS = ("keyword_action", "keyword_ability", "ability_word", "core")
SOURCES = ("seed", "official", "known", "cards")


class TermTableError(InputError):
    """A term table that cannot be read: wrong header, wrong column count, bad kind or source."""


@dataclass(frozen=True)
class TermRow:
    """One row of a term table; ``de_variants`` and ``de_old`` are ``|``-separated in the file."""

    en: str
    kind: str
    number: str = ""
    de: str = ""
    de_variants: tuple[str, ...] = ()
    de_old: tuple[str, ...] = ()
    source: str = ""
    note: str = ""

    def cells(self) -> list[str]:
        return [
            self.en,
            self.kind,
            self.number,
            self.de,
            "|".join(self.de_variants),
            "|".join(self.de_old),
            self.source,
            self.note,
        ]

    @property
    def german_names(self) -> tuple[str, ...]:
        """Every German form the row knows, current first."""
        return tuple(n for n in (self.de, *self.de_variants, *self.de_old) if n)


def read_table(path: str | Path) -> list[TermRow]:
    """Read a term table, checking its shape; a missing file is an empty table."""
    p = Path(path)
    if not p.exists():
        return []
    rows: list[TermRow] = []
    lines = p.read_text(encoding="utf-8").split("\n")
    if lines[0].split("\t") != list(COLUMNS):
        raise TermTableError(f"{p}: header is {lines[0]!r}; expected {chr(9).join(COLUMNS)!r}")
    for lineno, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise TermTableError(
                f"{p}:{lineno}: {len(cells)} columns in {line!r}; expected {len(COLUMNS)}"
            )
        en, kind, number, de, variants, old, source, note = cells
        if kind not in KINDS:
            raise TermTableError(f"{p}:{lineno}: kind {kind!r}; expected one of {KINDS}")
        if source not in (*SOURCES, ""):
            raise TermTableError(f"{p}:{lineno}: source {source!r}; expected one of {SOURCES}")
        rows.append(
            TermRow(en, kind, number, de, _split_bar(variants), _split_bar(old), source, note)
        )
    return rows


def _split_bar(cell: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in cell.split("|") if v.strip())


def write_table(path: str | Path, rows: Iterable[TermRow]) -> None:
    out = ["\t".join(COLUMNS)]
    for row in rows:
        cells = row.cells()
        for cell in cells:
            if "\t" in cell or "\n" in cell:
                raise TermTableError(f"cell {cell!r} of {row.en!r} holds a tab or newline")
        out.append("\t".join(cells))
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")
