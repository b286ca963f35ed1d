"""Convert a lexicon built as one SQLite file (``de-en.sqlite``, the format up to session 16)
into the text tables ``data/lexicon/`` ships (``meta.tsv``, ``translations.tsv``, ``forms.tsv``)::

    python tools/lexicon_from_sqlite.py OLD/de-en.sqlite OUT_DIR

Every row is kept as it is (floats as their `repr`, which reads back as the same double), so an
older build can be compared with a new one by ``diff`` of the tables. Not part of the installed
package.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from regelwerk.index.search.lexicon_tables import Row, write_tables


def read_sqlite(path: Path) -> tuple[dict[str, str], list[Row], dict[str, str]]:
    """(meta, translation rows, form -> lemma) of an SQLite lexicon, exactly as stored."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        rows = db.execute("SELECT de, en, p, source, learned, count FROM translation").fetchall()
        forms = dict(db.execute("SELECT form, lemma FROM form").fetchall())
    finally:
        db.close()
    return meta, rows, forms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sqlite", type=Path, help="an SQLite lexicon (de-en.sqlite)")
    ap.add_argument("out", type=Path, help="folder for the tables")
    args = ap.parse_args(argv)
    meta, rows, forms = read_sqlite(args.sqlite)
    write_tables(args.out, meta, rows, forms)
    print(f"{len(rows)} translations, {len(forms)} forms, {len(meta)} meta rows -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
