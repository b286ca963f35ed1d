"""The JSON API: each endpoint returns exactly the ``--json`` object of its command."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from regelwerk.cli.web.site import (
    Lang,
    Limit,
    QueryText,
    Release,
    Section,
    Version,
    check_number,
    check_rule_query,
    check_scenario,
    site,
)
from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.message import N_, msg

router = APIRouter(prefix="/api", tags=["api"])


def ok(payload: dict[str, Any]) -> JSONResponse:
    return JSONResponse({"ok": True, **payload})


@router.get("/rule/{number}")
def api_rule(request: Request, number: str, version: Version = None, lang: Lang | None = None) -> Any:
    """A rule with subrules, examples and references: ``regelwerk rule N --json``."""
    check_number(number)
    return ok(site(request).call("rule", number, version=version, lang=lang))


@router.get("/search")
def api_search(
    request: Request,
    q: QueryText,
    lang: Lang | None = None,
    limit: Limit = 10,
    version: Version = None,
    all_versions: bool = False,
) -> Any:
    """Ranked hits in both languages: ``regelwerk search Q --json``."""
    s = site(request)
    if version is not None and all_versions:
        raise InputError(msg(N_("use either version or all_versions, not both")))
    found = s.call("search", q, lang=lang, limit=limit, version=version, all_versions=all_versions)
    return ok(found)


@router.get("/term")
def api_term(request: Request, q: QueryText, lang: Lang | None = None, limit: Limit = 10) -> Any:
    """A keyword or card in both languages: ``regelwerk term Q --json``."""
    return ok(site(request).call("term", q, lang=lang, limit=limit))


@router.get("/card")
def api_card(request: Request, q: QueryText, lang: Lang | None = None, limit: Limit = 10) -> Any:
    """Cards by German or English name, with their German printings: ``regelwerk card Q --json``."""
    return ok(site(request).call("card", q, lang=lang, limit=limit))


@router.get("/examples")
def api_examples(request: Request) -> Any:
    """The packaged worked examples: ``regelwerk example list --json``."""
    return ok(site(request).call("examples"))


@router.get("/examples/{scenario}")
def api_example(request: Request, scenario: str, lang: Lang = "de") -> Any:
    """One example played step by step: ``regelwerk example run ID --lang L --json``."""
    check_scenario(site(request), scenario)
    return ok(site(request).call("example", scenario, lang=lang))


@router.get("/history/{rule}")
def api_history(
    request: Request,
    rule: Annotated[str, Path(description="A rule number (702.22, 502.10) or a keyword in English or "
                                          "German (banding, Bündnisfähigkeit).")],
    full: Annotated[
        bool, Query(description="One entry per release instead of runs of unchanged ones.")
    ] = False,
) -> Any:
    """One rule (a number, or a keyword in English or German) through every ingested CR
    release, runs of unchanged releases collapsed, a word diff at each change:
    ``regelwerk history RULE --json``."""
    check_rule_query(rule)
    return ok(site(request).history(rule, full=full))


@router.get("/diff")
def api_diff(request: Request, old: Release, new: Release = "latest", section: Section = None) -> Any:
    """Added, removed, renumbered and changed rules and glossary entries between two releases:
    ``regelwerk diff OLD NEW --json``."""
    return ok(site(request).diff(old, new, section=section))


@router.get("/docs")
def api_docs(request: Request) -> Any:
    """The ingested documents: ``regelwerk docs --json``."""
    return ok(site(request).call("docs"))
