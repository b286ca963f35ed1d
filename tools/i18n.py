"""Maintain the interface's German catalog with Babel: extract, update, compile.

    python tools/i18n.py            # extract every message, merge it into the .po, compile the .mo
    python tools/i18n.py --check    # exit 1 if the .po lacks a message or the .mo is stale

Messages come from three places: ``_()``, ``ngettext()`` and ``N_()`` calls in ``cli/`` and
``N_()`` message templates in ``index/`` (Babel's Python extractor), every help text of the
typer command tree (command docstrings and option help, read from the built click commands so
none is missed), the /api page's endpoint and parameter descriptions (from the OpenAPI schema),
and the handful of
click/typer words that typer looks up through the stdlib's global ``gettext`` ("Options",
"Commands", ...). New messages land in the ``.po`` untranslated; translate them there and run
the script again. The ``.mo`` is committed and shipped as package data; the tests check that it
matches the ``.po``.
"""

from __future__ import annotations

import argparse
import inspect
import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "cli"
LOCALE = CLI / "locale"
DOMAIN = "regelwerk"
LANGUAGES = ("de",)
#: A fixed creation date, so the .po changes only when its messages do.
STAMP = datetime(2026, 1, 1, tzinfo=UTC)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

#: typer's own words, looked up through the stdlib's global gettext (typer/core.py).
TYPER_WORDS = (
    "Arguments", "Options", "Commands", "required", "default: {default}", "Aborted!",
    "Missing command.", "No such command {name!r}.", "env var: {var}", "(dynamic)",
    "Show this message and exit.", "Usage: ", "[OPTIONS]", "COMMAND [ARGS]...",
)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


#: Folders whose code holds interface messages: the CLI (``_``, ``ngettext``, ``N_``), and the
#: index, ingest and engine, whose notes and errors are `Message` templates marked with ``N_``
#: (the engine's narration has catalogs of its own in data/narration).
SOURCES = (("cli", KEYWORDS), ("index", {"N_": None}), ("ingest", {"N_": None}), ("engine", {"N_": None}))


#: The web pages' templates call ``_()``, ``ngettext()`` and ``pgettext()`` (site.Site.page
#: passes the catalog's functions in); Jinja2's own Babel extractor reads them.
TEMPLATES = ("cli/web/templates", {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)})


def _code_messages() -> Iterator[tuple[str | tuple[str, str], str, str | None]]:
    for folder, keywords in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
            str(ROOT / folder), method_map=[("**.py", "python")], keywords=keywords
        ):
            yield message, f"{folder}/{filename}:{lineno}", context
    folder, keywords = TEMPLATES
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT / folder), method_map=[("**.html", "jinja2.ext:babel_extract")], keywords=keywords
    ):
        yield message, f"{folder}/{filename}:{lineno}", context


def _help_texts(command: Any, path: str) -> Iterator[tuple[str, str]]:
    for attr in ("help", "short_help", "epilog"):
        text = getattr(command, attr, None)
        if isinstance(text, str) and text:
            yield inspect.cleandoc(text), f"help:{path}"
    for param in getattr(command, "params", ()):
        if isinstance(getattr(param, "help", None), str) and param.help:
            yield inspect.cleandoc(param.help), f"help:{path} {param.opts[0] if param.opts else param.name}"
    for name, sub in getattr(command, "commands", {}).items():
        yield from _help_texts(sub, f"{path} {name}")


def template() -> Catalog:
    """Every message the interface shows, with where it comes from."""
    import typer

    from regelwerk.cli.app import app

    cat = Catalog(domain=DOMAIN, project="regelwerk", charset="utf-8", creation_date=STAMP)
    for message, where, context in _code_messages():
        cat.add(message, locations=[(where.rsplit(":", 1)[0], int(where.rsplit(":", 1)[1]))], context=context)
    for text, where in _help_texts(typer.main.get_command(app), "regelwerk"):
        cat.add(text, auto_comments=[where])
    for word in TYPER_WORDS:
        cat.add(word, auto_comments=["typer"])
    for text, where in _api_texts():
        cat.add(text, auto_comments=[where])
    return cat


def _api_texts() -> Iterator[tuple[str, str]]:
    """What the /api page says of each endpoint and parameter (the OpenAPI schema's
    descriptions: the routes' docstrings and the parameters' ``description``)."""
    from regelwerk.cli.web.app import create_app

    for path, ops in create_app().openapi()["paths"].items():
        for method, op in ops.items():
            text = op.get("description") or op.get("summary")
            if text:
                yield text, f"api:{method.upper()} {path}"
            for param in op.get("parameters", ()):
                about = param.get("description") or param.get("schema", {}).get("description")
                if about:
                    yield about, f"api:{method.upper()} {path} {param['name']}"


def compiled(po: Path) -> bytes:
    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def problems(lang: str) -> list[str]:
    """What is wrong with `lang`'s catalog: missing or untranslated messages, a stale .mo."""
    po, mo = po_path(lang), mo_path(lang)
    if not po.exists():
        return [f"{po} is missing; run python tools/i18n.py"]
    with po.open("rb") as f:
        catalog = read_po(f)
    out = []
    for msg in template():
        if not msg.id:
            continue
        have = catalog.get(msg.id, context=msg.context)
        if have is None:
            out.append(f"{po.name} ({lang}): no entry for {msg.id!r}")
        elif not have.string or (isinstance(have.string, tuple) and not all(have.string)) or have.fuzzy:
            out.append(f"{po.name} ({lang}): {msg.id!r} is not translated")
    if not mo.exists() or mo.read_bytes() != compiled(po):
        out.append(f"{mo} does not match {po.name}; run python tools/i18n.py")
    return out


def update(lang: str) -> None:
    po = po_path(lang)
    po.parent.mkdir(parents=True, exist_ok=True)
    if po.exists():
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="regelwerk", charset="utf-8")
    catalog.update(template(), no_fuzzy_matching=True)
    catalog.fuzzy = False  # the header: a fuzzy header would be left out of the .mo
    catalog.copyright_holder = "the regelwerk authors"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "regelwerk <regelwerk@invalid>"
    catalog.language_team = "German"
    with po.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=False, omit_header=False, ignore_obsolete=True)
    mo_path(lang).write_bytes(compiled(po))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report problems (for CI)")
    args = parser.parse_args(argv)
    if args.check:
        found = [p for lang in LANGUAGES for p in problems(lang)]
        for p in found:
            print(p, file=sys.stderr)
        return 1 if found else 0
    for lang in LANGUAGES:
        update(lang)
        left = problems(lang)
        print(f"{po_path(lang).relative_to(ROOT)}: {len(left)} message(s) to translate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
