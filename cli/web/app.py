"""The ASGI app behind ``regelwerk serve``: HTML pages and a JSON API over the library facade.

Thin like the CLI: a route validates its parameters (declared, so they show in the OpenAPI
schema), asks the library through `Backend.call`, and either returns the payload as the CLI's
``--json`` object or renders it with a Jinja2 template. Everything is read-only; ingesting stays
a command-line job. Errors use the CLI's envelope ``{"ok": false, "error": ...}`` with 400 for
bad input and 404 for what does not exist; a 500 only for a bug.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from regelwerk.cli.web.backend import Backend, status_for
from regelwerk.cli.web.render import highlight, linkify, rule_url
from regelwerk.ingest.model.errors import RegelwerkError

HERE = Path(__file__).resolve().parent
#: Bounds on what a request may ask for: a query longer than this is not a search, and more
#: hits than this are not read by anyone.
MAX_QUERY = 200
MAX_LIMIT = 50
UI_LANGS = ("de", "en")
UI_COOKIE = "ui"
COOKIE_AGE = 365 * 24 * 3600

Lang = Literal["en", "de"]
QueryText = Annotated[
    str, Query(min_length=1, max_length=MAX_QUERY, description="A rule number, keyword or question.")
]
Version = Annotated[
    str | None, Query(max_length=40, description="A CR release (effective date, e.g. 2015-11-13).")
]


def _catalog() -> dict[str, dict[str, str]]:
    with open(HERE / "ui.toml", "rb") as fh:
        data: dict[str, dict[str, str]] = tomllib.load(fh)
    return data


UI = _catalog()


def ui_lang(request: Request) -> str:
    """The interface language: the switch's cookie, else the browser's first choice, else English."""
    chosen = request.cookies.get(UI_COOKIE)
    if chosen in UI_LANGS:
        return str(chosen)
    accept = request.headers.get("accept-language", "").lower()
    return "de" if accept.startswith("de") else "en"


def _error_message(exc: RequestValidationError) -> str:
    """One line naming the parameter and what was expected, like the CLI's usage errors."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("query", "path"))
        got = err.get("input")
        shown = f" (got {got!r:.60})" if isinstance(got, str | int | float) else ""
        parts.append(f"{where}: {err.get('msg', 'invalid').lower()}{shown}")
    return "; ".join(parts) or "invalid request"


def _safe_next(target: str | None) -> str:
    """Only a path on this server: never an open redirect to another site."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def create_app(backend: Backend | None = None) -> FastAPI:
    """The app; tests pass their own `backend` (a library over a temporary home)."""
    state: dict[str, Backend] = {}

    def lib() -> Backend:
        if "backend" not in state:
            state["backend"] = backend or Backend()
        return state["backend"]

    app = FastAPI(
        title="regelwerk",
        summary="The Magic: The Gathering rules in German and English: rules, search, terms, examples.",
        version="1",
        docs_url=None,  # FastAPI's Swagger page loads from a CDN; /api is our offline one
        redoc_url=None,
    )
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")
    env = templates.env
    env.filters["linkify"] = linkify
    env.filters["highlight"] = highlight
    env.globals["rule_url"] = rule_url
    env.globals["quote"] = lambda s: quote(str(s), safe="")

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = ui_lang(request)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return templates.TemplateResponse(
            request,
            template,
            {"t": UI[lang], "ui": lang, "other": "en" if lang == "de" else "de", "here": here, **context},
            status_code=status,
        )

    def wants_json(request: Request) -> bool:
        return request.url.path.startswith("/api/") or request.url.path == "/api"

    def error(request: Request, message: str, status: int) -> Response:
        message = " ".join(message.split())
        if wants_json(request):
            return JSONResponse({"ok": False, "error": message}, status_code=status)
        return page(request, "error.html", status=status, message=message, status_code=status)

    @app.exception_handler(RegelwerkError)
    async def library_error(request: Request, exc: RegelwerkError) -> Response:
        return error(request, str(exc), status_for(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        return error(request, _error_message(exc), 400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and detail == "Not Found":  # no route, not a missing thing
            detail = f"no such page: {request.url.path}"
        return error(request, detail, exc.status_code)

    def ok(payload: dict[str, Any]) -> JSONResponse:
        return JSONResponse({"ok": True, **payload})

    # -- JSON API -----------------------------------------------------------------------------
    @app.get("/api/rule/{number}", tags=["api"])
    def api_rule(number: str, version: Version = None, lang: Lang | None = None) -> Any:
        """A rule with subrules, examples and references: ``regelwerk rule N --json``."""
        _check_number(number)
        return ok(lib().call("rule", number, version=version, lang=lang))

    @app.get("/api/search", tags=["api"])
    def api_search(
        q: QueryText,
        lang: Lang | None = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 10,
        version: Version = None,
        all_versions: bool = False,
    ) -> Any:
        """Ranked hits in both languages: ``regelwerk search Q --json``."""
        if version is not None and all_versions:
            raise _bad("use either version or all_versions, not both")
        return ok(lib().call("search", q, lang=lang, limit=limit, version=version, all_versions=all_versions))

    @app.get("/api/term", tags=["api"])
    def api_term(
        q: QueryText, lang: Lang | None = None, limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 10
    ) -> Any:
        """A keyword or card in both languages: ``regelwerk term Q --json``."""
        return ok(lib().call("term", q, lang=lang, limit=limit))

    @app.get("/api/examples", tags=["api"])
    def api_examples() -> Any:
        """The packaged worked examples: ``regelwerk example list --json``."""
        return ok(lib().call("examples"))

    @app.get("/api/examples/{scenario}", tags=["api"])
    def api_example(scenario: str, lang: Lang = "de") -> Any:
        """One example played step by step: ``regelwerk example run ID --lang L --json``."""
        _check_scenario(lib(), scenario)
        return ok(lib().call("example", scenario, lang=lang))

    @app.get("/api/docs", tags=["api"])
    def api_docs() -> Any:
        """The ingested documents: ``regelwerk docs --json``."""
        return ok(lib().call("docs"))

    @app.get("/api", response_class=HTMLResponse, include_in_schema=False)
    def api_page(request: Request) -> Response:
        return page(request, "api.html", schema=app.openapi())

    # -- pages ----------------------------------------------------------------------------
    def hits_context(q: str, lang: str | None) -> dict[str, Any]:
        if not q.strip():
            return {"q": q, "result": None}
        result = lib().call("search", q, lang=lang, limit=20, version=None, all_versions=False)
        return {"q": q, "result": result, "other_titles": [_other_title(h) for h in result["hits"]]}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def search_page(
        request: Request, q: Annotated[str, Query(max_length=MAX_QUERY)] = "", lang: Lang | None = None
    ) -> Response:
        return page(request, "search.html", lang=lang, **hits_context(q, lang))

    @app.get("/search/hits", response_class=HTMLResponse, include_in_schema=False)
    def search_fragment(
        request: Request, q: Annotated[str, Query(max_length=MAX_QUERY)] = "", lang: Lang | None = None
    ) -> Response:
        """The hit list alone, for search-as-you-type (the page swaps it in)."""
        return page(request, "_hits.html", lang=lang, **hits_context(q, lang))

    @app.get("/rule/{number}", response_class=HTMLResponse, include_in_schema=False)
    def rule_page(request: Request, number: str, version: Version = None) -> Response:
        _check_number(number)
        return page(request, "rule.html", **_rule_view(lib(), number, version))

    @app.get("/term", response_class=HTMLResponse, include_in_schema=False)
    def term_page(request: Request, q: Annotated[str, Query(max_length=MAX_QUERY)] = "") -> Response:
        data = lib().call("term", q, lang=ui_lang(request), limit=10) if q.strip() else None
        return page(request, "term.html", q=q, data=data)

    @app.get("/examples", response_class=HTMLResponse, include_in_schema=False)
    def examples_page(request: Request) -> Response:
        return page(request, "examples.html", scenarios=lib().call("examples")["scenarios"])

    @app.get("/examples/{scenario}", response_class=HTMLResponse, include_in_schema=False)
    def example_page(request: Request, scenario: str, lang: Lang | None = None) -> Response:
        info = _check_scenario(lib(), scenario)
        narration = lang or ui_lang(request)
        result = lib().call("example", scenario, lang=narration)["scenarios"][0]
        return page(request, "example.html", info=info, result=result, narration=narration)

    @app.get("/documents", response_class=HTMLResponse, include_in_schema=False)
    def documents_page(request: Request) -> Response:
        return page(request, "documents.html", **lib().call("docs"))

    @app.get("/ui/{lang}", include_in_schema=False)
    def switch_language(lang: Lang, next: str | None = None) -> Response:
        """The language switch: remember the choice in a cookie and go back where one was."""
        response = RedirectResponse(_safe_next(next), status_code=303)
        response.set_cookie(UI_COOKIE, lang, max_age=COOKIE_AGE, samesite="lax", httponly=True)
        return response

    return app


def _bad(message: str) -> RegelwerkError:
    from regelwerk.ingest.model.errors import InputError

    return InputError(message)


def _check_number(number: str) -> None:
    if len(number) > 40:
        raise _bad(f"rule number {number[:40]!r}... is too long; expected a rule number such as '702.22'")


def _check_scenario(backend: Backend, scenario: str) -> dict[str, Any]:
    """Only packaged scenarios: the library also takes a file path, which HTTP must not reach."""
    import difflib

    infos: list[dict[str, Any]] = backend.call("examples")["scenarios"]
    for info in infos:
        if info["id"] == scenario:
            return info
    near = difflib.get_close_matches(scenario, [i["id"] for i in infos], n=3)
    hint = f" (did you mean {', '.join(repr(s) for s in near)}?)" if near else ""
    raise HTTPException(404, f"no scenario {scenario!r}{hint}; expected an id from /api/examples")


def _rule_view(backend: Backend, number: str, version: str | None) -> dict[str, Any]:
    """The rule in English and German side by side, paired by the rule's number today.

    A German document may number the same rule differently (the seed's 702.19 is today's
    702.22), so the German column is the German rule whose current number is the English
    one's, not whatever German text has the same digits.
    """
    from regelwerk.ingest.model.errors import UnknownRule

    def find(n: str, v: str | None, lang: str) -> dict[str, Any] | None:
        """The rule's text in `lang`, or None (``lang="de"`` falls back to glossed English)."""
        try:
            rule: dict[str, Any] = backend.call("rule", n, version=v, lang=lang)["rule"]
        except UnknownRule:
            return None
        return rule if lang in rule["language"].split("+") else None

    en = find(number, version, "en")
    de = find(number, None, "de")
    if en is None and de is None:  # neither language: let the library say why (and what is near)
        en = backend.call("rule", number, version=version, lang=None)["rule"]
    if en is not None and de is not None and not _same_rule(en, de):
        de = find(en.get("current") or en["number"], None, "de")
        if de is not None and not _same_rule(en, de):
            de = None
    if en is None and de is not None and de.get("current"):
        en = find(str(de["current"]), None, "en")
        if en is not None and not _same_rule(en, de):
            en = None
    name = (en or de or {}).get("names")
    return {
        "number": number,
        "version": version,
        "en": en,
        "de": de,
        "main": en or de,
        "name": name,
        "releases": _releases(backend, (en or de or {}).get("number") or number),
    }


def _other_title(hit: dict[str, Any]) -> str | None:
    """A hit's title in the other language, when the library names it and it differs."""
    names = hit.get("names") or {}
    title = names.get("en") if hit["language"] == "de" else names.get("de")
    return str(title) if title and title != hit["title"] else None


def _same_rule(en: dict[str, Any], de: dict[str, Any]) -> bool:
    """Two language versions of one rule: the same number today, or one bilingual entry."""
    if en.get("current") is not None:
        return bool(en["current"] == de.get("current"))
    return bool(en["document"] == de["document"] and en["number"] == de["number"])


def _releases(backend: Backend, number: str) -> list[dict[str, Any]]:
    """The CR releases that have `number`, newest first, with what it was called there."""
    from regelwerk.ingest.model.errors import RegelwerkError

    out: list[dict[str, Any]] = []
    for doc in backend.call("docs")["documents"]:
        if doc["kind"] not in ("cr-text", "cr-html") or not doc["version"] or doc["language"] != "en":
            continue
        try:
            rule = backend.call("rule", number, version=doc["version"], lang="en")["rule"]
        except RegelwerkError:
            continue
        if rule["number"] == number and not any(r["version"] == doc["version"] for r in out):
            out.append({"version": doc["version"], "title": rule["title"], "current": rule["current"]})
    return out
