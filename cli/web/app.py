"""The ASGI app behind ``regelwerk serve``: HTML pages and a JSON API over the library facade.

Thin like the CLI: a route validates its parameters (declared, so they show in the OpenAPI
schema), asks the library through the backend, and either returns the payload as the CLI's
``--json`` object (`api`) or renders it with a Jinja2 template (`pages`). Everything is
read-only; ingesting stays a command-line job. Errors use the CLI's envelope
``{"ok": false, "error": ...}`` with 400 for bad input and 404 for what does not exist (an
error page for a person); a 500 only for a bug. No CORS middleware: other sites' scripts get
no answers.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from regelwerk.cli.i18n import N_, catalog
from regelwerk.cli.web import api, pages
from regelwerk.cli.web.backend import Backend, status_for
from regelwerk.cli.web.render import upper_first
from regelwerk.cli.web.site import HERE, WEB_WORDING, Site, UnknownScenarioPage, reworded, site, ui_lang
from regelwerk.index.facade import rule_messages
from regelwerk.ingest.model.errors import (
    InvalidQuery,
    InvalidRuleNumber,
    RegelwerkError,
    UnknownCard,
    UnknownKeyword,
    UnknownRelease,
    UnknownRule,
    UnknownVersion,
)


def create_app(backend: Backend | None = None) -> FastAPI:
    """The app; tests pass their own `backend` (a library over a temporary home)."""
    app = FastAPI(
        title="regelwerk",
        summary="The Magic: The Gathering rules in German and English: rules, search, terms, examples.",
        version="1",
        docs_url=None,  # FastAPI's Swagger page loads from a CDN; /api is our offline one
        redoc_url=None,
    )
    app.state.site = Site(backend)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    app.add_exception_handler(RegelwerkError, _library_error)
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.add_exception_handler(HTTPException, _http_error)
    return app


#: What failed, by the library's error class: an error page's title and heading.
FAILED: dict[type[Exception], str] = {
    UnknownRule: N_("Rule not found"),
    InvalidRuleNumber: N_("Not a rule number"),
    UnknownKeyword: N_("Term not found"),
    UnknownCard: N_("Card not found"),
    UnknownScenarioPage: N_("Example not found"),
    UnknownVersion: N_("Release not found"),
    UnknownRelease: N_("Release not found"),
    InvalidQuery: N_("Query not usable"),
}


async def _library_error(request: Request, exc: Exception) -> Response:
    """The API says it in English (as ``--json`` does); a page in the reader's language, titled
    by what failed, with the nearest rule numbers as links and, for a word that is no rule,
    links to the term page and the search for it. Both name the web's own field where the
    library names a command-line option (`reworded`)."""
    from urllib.parse import quote

    from regelwerk.cli.i18n import text
    from regelwerk.cli.web.site import message_html

    lang = ui_lang(request)
    found = reworded(exc)
    if found is None:
        return site(request).error(request, str(exc), status_for(exc), title=FAILED.get(type(exc)))
    shown: Any = text(found, lang)
    offers: list[tuple[str, str]] = []
    data = found.to_dict()
    if "nearest" in data["args"]:
        shown = message_html(data, lang, links=("nearest",), version=request.query_params.get("version"))
    given = getattr(exc, "given", None)
    expected = data["args"].get("expected")
    if given and isinstance(expected, dict) and expected["id"] == rule_messages.RULE_OR_TERM:
        data["args"]["expected"] = {"id": WEB_WORDING[rule_messages.RULE_OR_TERM], "args": {}}
        shown = message_html(data, lang)
        t = catalog(lang)
        said = quote(given, safe="")
        offers = [(t.gettext(N_("Look up “{text}” as a term or card")).format(text=given), f"/term?q={said}"),
                  (t.gettext(N_("Search the rules for “{text}”")).format(text=given), f"/?q={said}")]
    return site(request).error(request, str(found), status_for(exc), shown=shown,
                               title=FAILED.get(type(exc)), offers=offers)


async def _bad_request(request: Request, exc: Exception) -> Response:
    """The API's envelope keeps the terse English line; a page says it as sentences in its
    language."""
    assert isinstance(exc, RequestValidationError)
    return site(request).error(request, _error_message(exc), 400, shown=_page_message(exc, ui_lang(request)),
                               title=N_("Invalid request"))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else "error"
    shown = title = None
    if exc.status_code == 404 and detail == "Not Found":  # no route, not a missing thing
        template = N_("no such page: {path}")
        detail = template.format(path=request.url.path)
        shown = catalog(ui_lang(request)).gettext(template).format(path=request.url.path)
        title = N_("Page not found")
    return site(request).error(request, detail, exc.status_code, shown=shown, title=title)


def _error_message(exc: RequestValidationError) -> str:
    """One line naming the parameter and what was expected, like the CLI's usage errors."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("query", "path"))
        got = err.get("input")
        shown = f" (got {got!r:.60})" if isinstance(got, str | int | float) else ""
        parts.append(f"{where}: {err.get('msg', 'invalid').lower()}{shown}")
    return "; ".join(parts) or "invalid request"


#: What a page says of a parameter that failed validation, by pydantic's error type; each
#: names the parameter and what it expects (never the whole value: a 200-character query cut
#: mid-word tells nobody anything).
VALIDATION = {
    "string_too_long": N_("the parameter {name} may be at most {limit} characters long; "
                          "this one has {length}"),
    "string_too_short": N_("the parameter {name} must not be empty"),
    "literal_error": N_("the parameter {name} must be one of {expected}, not {got}"),
    "int_parsing": N_("the parameter {name} must be a whole number, not {got}"),
    "less_than_equal": N_("the parameter {name} may be at most {limit}, not {got}"),
    "greater_than_equal": N_("the parameter {name} must be at least {limit}, not {got}"),
    "missing": N_("the parameter {name} is missing"),
}
INVALID = N_("the parameter {name} is invalid: {got}")


def _page_message(exc: RequestValidationError, lang: str) -> str:
    """Each failed parameter as a sentence in `lang` (joined; the first letter capitalised)."""
    t = catalog(lang)
    sentences = []
    for err in exc.errors():
        name = ".".join(str(x) for x in err.get("loc", ()) if x not in ("query", "path")) or "?"
        ctx = err.get("ctx") or {}
        got = err.get("input")
        shown = repr(got) if len(repr(got)) <= 40 else repr(got)[:39] + "…"
        args = {
            "name": name,
            "got": shown,
            "length": str(len(got)) if isinstance(got, str) else "?",
            "limit": str(ctx.get("max_length", ctx.get("le", ctx.get("ge", ctx.get("min_length", "?"))))),
            "expected": _choices(str(ctx.get("expected", "?"))),
        }
        template = VALIDATION.get(str(err.get("type")), INVALID)
        sentence = t.gettext(template).format(**args)
        sentences.append(upper_first(sentence) + ".")
    return " ".join(sentences) or t.gettext(INVALID).format(name="?", got="?")


def _choices(expected: str) -> str:
    """pydantic's "'en', 'de' or ''" as "'en', 'de'" (the empty choice is the form's "both")."""
    import re

    found = [c for c in re.split(r", | or ", expected) if c not in ("''", '""')]
    return ", ".join(found) or expected
