"""The HTML pages: search (with the hit list as a fragment for search-as-you-type), rule (with
its history across releases), history, release diff, term, examples, documents, the offline API
page, and the language switch."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from regelwerk.cli.history import CHANGE_COUNTS
from regelwerk.cli.i18n import N_, error
from regelwerk.cli.notes import senses
from regelwerk.cli.web.site import (
    MAX_QUERY,
    UI_COOKIE,
    FormLang,
    Lang,
    PageQuery,
    SearchQuery,
    Section,
    Site,
    Version,
    check_number,
    check_rule_query,
    check_scenario,
    form_lang,
    site,
    ui_lang,
)
from regelwerk.ingest.model.errors import InputError, InvalidQuery, RegelwerkError, UnknownRelease
from regelwerk.ingest.model.releases import CR_KINDS

#: What the search says of a query at its limit (`_cut`).
CUT = N_("The search takes at most {limit} characters: your text has {length}, so only its first "
         "{limit} were searched. Shorten it to what you want to find.")
#: What a page says instead of the library's refusal of a diff from a newer release to an older
#: one (`rule_messages.NEWER_THAN`, "swap them"), with a link to the swapped diff.
SWAPPED = N_("The release {old} is newer than {new}: a diff goes from the older release to the newer one.")
CUT_AT_LIMIT = N_("The search box takes at most {limit} characters; a longer text is cut off there.")

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
COOKIE_AGE = 365 * 24 * 3600
#: A diff page lists at most this many changes at once; a bigger diff over several sections
#: (2003-03-15 to today: 4401 changes in 165 sections, a 1.5 MB page) lists its sections with
#: their counts instead, each a link to its own page.
PAGE_CHANGES = 250
#: The ``section`` of a diff page that shows the glossary's changes (the library's sections
#: are rule numbers; the glossary is the web's overview's last row).
GLOSSARY = "glossary"
#: A diff's kinds of change, in the order its counts say them (the command line's).
CHANGE_KINDS = tuple(CHANGE_COUNTS)


def _hits(request: Request, s: Site, q: str, lang: str | None) -> dict[str, Any]:
    """The page's hits; a query with nothing to search for ("?!") is the search's error, shown
    where the hits would be (in the page's language), so typing on past it needs no reload.
    A query of spaces gets the search's own empty-query hint, as a note (it is no mistake)."""
    if not q:  # the empty search box: the start page, no error
        return {"q": q, "result": None}
    cut = _cut(request, q)
    q = q[:MAX_QUERY]
    try:
        result = s.call("search", q, lang=lang, limit=20, version=None, all_versions=False)
    except InvalidQuery as exc:
        said = error(exc, ui_lang(request))
        if not q.strip():  # only spaces: the search's hint of what to type, not an error
            return {"q": q, "result": None, "hint": said, "cut": cut}
        return {"q": q, "result": None, "error": said, "cut": cut}
    return {"q": q, "result": result, "other_titles": [_other_title(h) for h in result["hits"]], "cut": cut}


def _wrong_order(request: Request, s: Site, exc: InputError, section: str | None) -> Response:
    """A diff from a newer release to an older one: the page says so in words and links the
    swapped diff (the library's own message says "swap them"); any other error is raised."""
    from regelwerk.cli.i18n import catalog
    from regelwerk.index.facade import rule_messages

    refused = exc.message
    if refused is None or refused.id != rule_messages.NEWER_THAN:
        raise exc
    args = dict(refused.args)
    t = catalog(ui_lang(request))
    swapped = f"/diff?old={quote(str(args['new_version']))}&new={quote(str(args['old_version']))}"
    if section:
        swapped += f"&section={quote(section)}"
    said = t.gettext(SWAPPED).format(old=args["old_version"], new=args["new_version"])
    offer = t.gettext(N_("The changes from {old} to {new}")).format(
        old=args["new_version"], new=args["old_version"])
    return s.error(request, str(exc), 400, shown=said, title=N_("Releases in the wrong order"),
                   offers=[(offer, swapped)])


def _cut(request: Request, q: str) -> str | None:
    """What the page says of a query at the search's limit: one longer is cut to it (its length
    said), one just as long was most likely cut by the search box itself (``maxlength``)."""
    from regelwerk.cli.i18n import catalog

    if len(q) < MAX_QUERY:
        return None
    lang = ui_lang(request)
    if len(q) == MAX_QUERY:
        return catalog(lang).gettext(CUT_AT_LIMIT).format(limit=MAX_QUERY)
    return catalog(lang).gettext(CUT).format(limit=MAX_QUERY, length=len(q))


@router.get("/")
def search_page(request: Request, q: SearchQuery = "", lang: FormLang | None = None) -> Response:
    s = site(request)
    lang = form_lang(lang)
    found = _hits(request, s, q, lang)
    return s.page(request, "search.html", status=400 if "error" in found else 200, lang=lang, **found)


@router.get("/search/hits")
def search_fragment(request: Request, q: SearchQuery = "", lang: FormLang | None = None) -> Response:
    """The hit list alone, for search-as-you-type (the page swaps it in)."""
    s = site(request)
    lang = form_lang(lang)
    found = _hits(request, s, q, lang)
    return s.page(request, "_hits.html", status=400 if "error" in found else 200, lang=lang, **found)


@router.get("/rule/{number}")
def rule_page(request: Request, number: str, version: Version = None) -> Response:
    check_number(number)
    s = site(request)
    view = _rule_view(s, number, version)
    return s.page(request, "rule.html", **view, **_rule_history(request, s, view))


@router.get("/history")
def history_start(request: Request, q: PageQuery = "") -> Response:
    """The history form; a number or keyword typed there goes to its own address."""
    if q.strip():
        return RedirectResponse(f"/history/{quote(q.strip(), safe='')}", status_code=303)
    return site(request).page(request, "history.html", query="", full=False, data=None)


@router.get("/history/{rule}")
def history_page(request: Request, rule: str, full: bool = False) -> Response:
    """One rule through every ingested release: ``regelwerk history RULE [--full]``."""
    check_rule_query(rule)
    s = site(request)
    return s.page(request, "history.html", query=rule, full=full, **_history(request, s, rule, full))


@router.get("/diff")
def diff_page(
    request: Request, old: Version = None, new: Version = None, section: Section = None
) -> Response:
    """What changed between two releases: ``regelwerk diff OLD NEW [--section S]``; without
    `old` only the form (the newest release against the one before). A diff of more than
    `PAGE_CHANGES` changes over several sections lists its sections instead, each with its
    counts and a link to its own page (``section=702``, ``section=glossary``): every section
    page narrows the one whole diff (`Site.diff`, cached, the API's too), so the releases are
    composed once."""
    from regelwerk.cli.history import change_counts
    from regelwerk.cli.i18n import catalog

    s = site(request)
    releases = _cr_releases(s)
    section = (section or "").strip() or None
    form: dict[str, Any] = {
        "releases": releases,
        "old": old or (releases[1] if len(releases) > 1 else ""),
        "new": new or "latest",
        "section": section or "",
    }
    if not old:
        note = None
        if not releases:  # the library says how to ingest one
            try:
                s.call("diff", "latest", "latest")
            except RegelwerkError as exc:
                note = error(exc, ui_lang(request))
        return s.page(request, "diff.html", data=None, note=note, **form)
    glossary = section is not None and section.lower() == GLOSSARY
    try:
        data = s.diff(old, new or "latest", None if glossary else section)
    except InputError as exc:
        return _wrong_order(request, s, exc, section)
    if glossary:
        data = _glossary_only(data)
    counts = change_counts(data["counts"], data["glossary_counts"], catalog(ui_lang(request)).gettext)
    groups = _groups(data["changes"])
    if len(data["changes"]) > PAGE_CHANGES and len(groups) > 1:
        return s.page(request, "diff.html", data=data, counts=counts, sections=_section_counts(groups),
                      kinds=[k for k in CHANGE_KINDS if any(c["change"] == k for c in data["changes"])],
                      groups=[], **form)
    return s.page(request, "diff.html", data=data, counts=counts, groups=groups, sections=None, **form)


@router.get("/term")
def term_page(request: Request, q: PageQuery = "") -> Response:
    s = site(request)
    data = s.call("term", q, lang=ui_lang(request), limit=10) if q.strip() else None
    named = data is not None and any(m.get("documents") for m in data["matches"])
    full, rest, ambiguous = senses(data["matches"]) if data else ([], [], None)
    return s.page(request, "term.html", q=q, data=data, full=full, rest=rest, ambiguous=ambiguous,
                  titles=s.call("titles") if named else {})


@router.get("/card")
def card_page(request: Request, q: PageQuery = "") -> Response:
    s = site(request)
    data = s.call("card", q, lang=ui_lang(request), limit=10) if q.strip() else None
    return s.page(request, "card.html", q=q, data=data)


@router.get("/examples")
def examples_page(request: Request) -> Response:
    s = site(request)
    return s.page(request, "examples.html", scenarios=s.call("examples")["scenarios"])


@router.get("/examples/{scenario}")
def example_page(request: Request, scenario: str, lang: Lang | None = None) -> Response:
    s = site(request)
    info = check_scenario(s, scenario)
    narration = lang or ui_lang(request)
    result = s.call("example", scenario, lang=narration)["scenarios"][0]
    return s.page(request, "example.html", info=info, result=result, narration=narration)


@router.get("/documents")
def documents_page(request: Request) -> Response:
    s = site(request)
    return s.page(request, "documents.html", **s.call("docs"))


@router.get("/api")
def api_page(request: Request) -> Response:
    """The API's documentation, rendered from the OpenAPI schema (no CDN, works offline)."""
    return site(request).page(request, "api.html", schema=request.app.openapi())


@router.get("/ui/{lang}", response_class=RedirectResponse)
def switch_language(lang: Lang, next: str | None = None) -> Response:
    """The language switch: remember the choice in a cookie and go back where one was."""
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(UI_COOKIE, lang, max_age=COOKIE_AGE, samesite="lax", httponly=True)
    return response


def _safe_next(target: str | None) -> str:
    """Only a path on this server: never an open redirect to another site."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _rule_view(backend: Site, number: str, version: str | None) -> dict[str, Any]:
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
        # notes and an undated document (a seed) name a document by its title
        "titles": _titles(backend) if any(r and (r["notes"] or not r["version"]) for r in (en, de)) else {},
    }


def _titles(backend: Site) -> dict[str, str]:
    """Each document's title by its id: a note names a seed by its title, not its id."""
    return backend.call("titles")


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


def _releases(backend: Site, number: str) -> list[dict[str, Any]]:
    """The CR releases that have `number`, newest first, with what it was called there."""
    return [{k: r[k] for k in ("version", "title", "current")}
            for r in backend.call("rule_releases", number)["releases"]]


def _history(request: Request, s: Site, query: str, full: bool) -> dict[str, Any]:
    """The history of `query` with the rows a page lists (runs, or every release with `full`)
    and its subrules with their own change counts (a keyword's heading is renumbered while its
    subrules change); with no CR release ingested, the library's note of how to ingest one
    instead of an error."""
    from regelwerk.cli.history import history_heading, history_rows

    try:
        data = s.history(query, full=full)
    except RegelwerkError as exc:
        if not isinstance(exc, UnknownRelease):  # an unknown rule or keyword: a 404 page
            raise
        return {"data": None, "note": error(exc, ui_lang(request))}
    return {
        "data": data,
        "rows": history_rows(data, full=full),
        "heading": history_heading(data) or query,
        "changes": sum(1 for r in data["runs"] if r["change"] not in ("same", "new")),
        "subrules": s.call("subrule_changes", query)["subrules"],
    }


def _rule_history(request: Request, s: Site, view: dict[str, Any]) -> dict[str, Any]:
    """The rule page's history: the rule's runs across releases, if the shown rule is one a CR
    release has (a rule of an old release is followed by its number today, and shown only if
    the history passes through that release with that number: 702.22 of 2011 is Flanking, not
    today's Banding); nothing for a rule no release has."""
    main = view["main"]
    if main is None:
        return {}
    query = main.get("current") or main["number"]
    try:
        found = _history(request, s, query, full=False)
    except RegelwerkError:  # a rule no CR release has (a seed's): no history
        return {}
    if found["data"] is not None and main.get("version") and not any(
        e["version"] == main["version"] and e["number"] == main["number"] for e in found["data"]["lineage"]
    ):
        return {}
    return {"history": found, "history_query": query}


def _cr_releases(s: Site) -> list[str]:
    """The dates of the ingested English CR releases, newest first (the diff form's choices)."""
    found = {doc["version"] for doc in s.call("docs")["documents"]
             if doc["kind"] in CR_KINDS and doc["language"] == "en" and doc["version"]}
    return sorted(found, reverse=True)


def _glossary_only(whole: dict[str, Any]) -> dict[str, Any]:
    """A whole diff with only its glossary changes (the overview's "Glossary" row's page)."""
    return {**whole, "section": GLOSSARY, "counts": dict.fromkeys(whole["counts"], 0),
            "changes": [c for c in whole["changes"] if c["kind"] == "glossary"]}


def _section_counts(groups: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Each section of a diff with how many of its changes are of each kind (the overview)."""
    return [{"section": name, "total": len(changes),
             "counts": {k: sum(1 for c in changes if c["change"] == k) for k in CHANGE_KINDS}}
            for name, changes in groups]


def _groups(changes: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """A diff's changes by section (in the library's order), the glossary last as it comes."""
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for c in changes:
        if not groups or groups[-1][0] != c["section"]:
            groups.append((c["section"], []))
        groups[-1][1].append(c)
    return groups
