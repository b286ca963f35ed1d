"""What every route shares: the library backend, the templates, the interface language, errors.

The app keeps one `Site` in ``app.state.site``; routes reach it through `site(request)`. Limits
on what a request may ask for live here too, so the API and the pages enforce the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from regelwerk.cli.history import CHANGE_WORDS
from regelwerk.cli.i18n import catalog, messages_or_notes
from regelwerk.cli.notes import ALIAS_STATUS, evidence_forms, said
from regelwerk.cli.web.backend import Backend
from regelwerk.cli.web.render import code, highlight, linkify, rule_url, upper_first, word_diff
from regelwerk.index.facade import BAD_SECTION, NO_GERMAN_RULES, rule_messages
from regelwerk.ingest.model.errors import InputError, NotFound
from regelwerk.ingest.model.message import N_, Message, msg

HERE = Path(__file__).resolve().parent
#: Bounds on what a request may ask for: a query longer than this is not a search, and more
#: hits than this are not read by anyone.
MAX_QUERY = 200
MAX_LIMIT = 50
UI_LANGS = ("de", "en")
UI_COOKIE = "ui"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

Lang = Literal["en", "de"]
#: The language a page's search form sends: its "both languages" option submits ``lang=`` (empty),
#: which the page reads as no language (`form_lang`).
FormLang = Literal["en", "de", ""]


def form_lang(lang: FormLang | None) -> Lang | None:
    """The language a search form asked for: None for both (the empty option, or none sent)."""
    return lang or None


QueryText = Annotated[
    str, Query(min_length=1, max_length=MAX_QUERY, description="A rule number, keyword or question.")
]
PageQuery = Annotated[str, Query(max_length=MAX_QUERY)]
#: The search page's query: one longer than `MAX_QUERY` (a long text pasted into the address)
#: is cut there and the page says so, instead of an error page without the search form; only
#: what no one types is refused.
SearchQuery = Annotated[str, Query(max_length=20 * MAX_QUERY)]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="At most this many results.")]
Version = Annotated[
    str | None, Query(max_length=40, description="A CR release (effective date, e.g. 2015-11-13).")
]

Release = Annotated[
    str, Query(min_length=1, max_length=40,
               description="A CR release: its date (2026-01-16), 'latest' or a document id.")
]
Section = Annotated[
    str | None, Query(max_length=10, description="Only this chapter (7) or section (702).")
]


#: What a term is, for its badge ("keyword_ability" is the term tables' own word).
KINDS = {
    "keyword_ability": N_("keyword ability"),
    "keyword_action": N_("keyword action"),
    "ability_word": N_("ability word"),
    "core": N_("rules term"),
    "card": N_("card"),
}
#: How a document's number for a keyword was found (``RuleRef.how``, index/linking/keyword.py).
LINKED_BY = {
    "heading": N_("its own heading"),
    "same-number": N_("the other language's rule with this number"),
    "table": N_("the term table's number today"),
    "era": N_("the numbering of its release"),
}
#: The library's sentences that speak of the command line, as the web says them; one table for
#: a payload's notes (`notes`), an error's sentence (`reworded`: the API's too, which names its
#: query parameter, a page the form's field, "Section" or "Abschnitt") and a part of an error
#: (a page says the rule lookup's expectation of a word without its advice to run ``regelwerk
#: term`` or ``regelwerk search``: it links both instead, while the API keeps the advice). The
#: search with only German (``--lang de`` on the command line) is the page's "German only".
WEB_WORDING = {
    NO_GERMAN_RULES: N_("no German Comprehensive Rules are ingested: with “German only” only the "
                        "German seed texts (older than today's rules) are searched; with both languages a "
                        "German question finds the English rules too"),
    BAD_SECTION: N_("section {section!r}: expected a chapter (7) or a section (702)"),
    rule_messages.RULE_OR_TERM: N_("a rule number such as '702.22' or '702.22j', or a keyword or game term "
                                   "('Trampelschaden', 'banding')"),
}


def reworded(exc: BaseException) -> Message | None:
    """An error's sentence as the web says it (`WEB_WORDING`), else as the library said it
    (None: a plain string, no `Message`)."""
    found = getattr(exc, "message", None)
    if not isinstance(found, Message):
        return None
    return Message(WEB_WORDING[found.id], found.args) if found.id in WEB_WORDING else found


def notes(data: dict[str, Any] | None, lang: str) -> list[str]:
    """A payload's notes in the page's language (`messages_or_notes`), in the page's own
    wording where a note speaks of a command-line option (`WEB_WORDING`), upper-case first."""
    return [upper_first(n) for n in (messages_or_notes(data, lang, WEB_WORDING) if data else [])]


#: Rule notes whose numbers belong to another document: the argument holding such a number,
#: and the argument naming its document (``where``, a message) or release (``version``).
#: The number links to the rule as that document has it (``?version=`` for a release; for an
#: undated seed, the rule it is today), not to what the same digits mean today (index/rules/lookup.py).
ELSEWHERE = {
    rule_messages.SAME_RULE_ELSEWHERE: ("moved", "where"),
    rule_messages.SAME_RULE_NAMED: ("moved", "where"),
    rule_messages.NUMBER_TODAY: ("number", "where"),
    rule_messages.NUMBER_TODAY_MEANS: ("number", "where"),
    rule_messages.NUMBER_IN_RELEASE: ("number", "version"),
    rule_messages.NUMBER_IN_RELEASES: ("number", "version"),
    rule_messages.REMOVED_IN: ("number", "where"),
    rule_messages.NOT_KNOWN_TODAY: ("number", "where"),
}


def rule_notes(data: dict[str, Any], lang: str, titles: dict[str, str]) -> list[Markup]:
    """A rule payload's notes as HTML (`note_html`); plain notes where it has no messages."""
    found = data.get("messages") or []
    if len(found) != len(data.get("notes") or ()):
        found = data.get("notes") or []
    return [note_html(n, lang, titles) for n in found]


def note_html(note: dict[str, Any] | str, lang: str, titles: dict[str, str]) -> Markup:
    """A rule's note (a ``Message.to_dict()``) as HTML in `lang`: its rule numbers linked to
    the rule as the document it speaks of has it (`ELSEWHERE`), its document ids and language
    codes said in words (`titles`: document id -> title), the first letter upper-case."""
    if isinstance(note, str):
        return linkify(upper_first(note))
    args = note.get("args", {})
    moved, source = ELSEWHERE.get(str(note.get("id")), (None, None))
    today = args.get("current") or (args.get("number") if moved == "moved" else None)
    place = args.get(source) if source else None
    version = place if isinstance(place, str) else (
        place["args"].get("version")
        if isinstance(place, dict) and place.get("id") == rule_messages.RELEASE else None)
    if isinstance(today, dict):  # "; today that is {current}"
        today = today.get("args", {}).get("current")

    def say(key: str, text: str) -> Markup:
        if key != moved:
            return linkify(text)
        if version and _DATE.fullmatch(str(version)):
            return linkify(text, version=str(version))
        return Markup(f'<a class="ref" href="{escape(rule_url(str(today)))}">{escape(text)}</a>') \
            if today else escape(text)

    return upper_first(_html(note, lang, titles, say))


def message_html(data: dict[str, Any], lang: str, links: tuple[str, ...] = (),
                 version: str | None = None) -> Markup:
    """A ``Message.to_dict()`` as escaped HTML in `lang`, the rule numbers of the arguments named
    in `links` as links (in `version`), language codes in words (`said`)."""
    def say(key: str, text: str) -> Markup:
        return linkify(text, version=version) if key in links else escape(text)

    return _html(data, lang, {}, say)


def _html(
    data: dict[str, Any], lang: str, titles: dict[str, str], say: Callable[[str, str], Markup]
) -> Markup:
    """A ``Message.to_dict()`` as escaped HTML in `lang`, each argument's text as `say` makes it
    HTML (by its name); an argument that is a message is said in `lang` first, its ids and codes
    in words (`regelwerk.cli.notes.said`), and one the template quotes (``{given!r}``) is put
    between quotes."""
    from regelwerk.cli.i18n import message

    args = data.get("args", {})
    shown = {key: say(key, message(said(value, titles), lang) if isinstance(value, dict)
                      else str(value)) for key, value in args.items()}
    quoted = {k for k in args if "{" + k + "!r}" in str(data["id"])}
    shown.update({k: Markup("&#39;") + shown[k] + Markup("&#39;") for k in quoted})
    return escape(catalog(lang).gettext(str(data["id"])).replace("!r}", "}")).format(**shown)


def ui_lang(request: Request) -> str:
    """The interface language: the switch's cookie, else the browser's first choice, else English."""
    chosen = request.cookies.get(UI_COOKIE)
    if chosen in UI_LANGS:
        return str(chosen)
    accept = request.headers.get("accept-language", "").lower()
    return "de" if accept.startswith("de") else "en"


class Site:
    """The backend (opened on first use) and the templates with our filters."""

    def __init__(self, backend: Backend | None = None) -> None:
        self._backend = backend
        self.templates = Jinja2Templates(directory=HERE / "templates")
        env = self.templates.env
        env.filters["linkify"] = linkify
        env.filters["highlight"] = highlight
        env.filters["code"] = code
        env.filters["word_diff"] = word_diff
        env.globals["rule_url"] = rule_url
        env.globals["quote"] = lambda s: quote(str(s), safe="")

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = Backend()
        return self._backend

    def call(self, method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.backend.call(method, *args, **kwargs)

    def diff(self, old: str, new: str, section: str | None = None) -> dict[str, Any]:
        """``Library.diff(old, new, section=section)``, narrowed from the whole diff of the two
        releases: the page and the API share its one cache entry, so a diff of the archive
        (2003 to today, 1.5 s) is composed once for both and for every section."""
        from regelwerk.index.facade import check_section, diff_section

        check_section(section)  # before the (slow) diff: a bad section is refused at once
        return diff_section(self.call("diff", old, new), section)

    def history(self, query: str, full: bool = False) -> dict[str, Any]:
        """``Library.history(query, full=full)``: both views are in every history (its
        ``lineage`` and its ``runs``), so the toggle between them is one cache entry."""
        return {**self.call("history", query), "full": full}

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = ui_lang(request)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        t = catalog(lang)  # the CLI's gettext catalog: the pages' words are in it too
        common = {"_": t.gettext, "ngettext": t.ngettext, "pgettext": t.pgettext,
                  "notes": lambda data: notes(data, lang),
                  "rule_notes": lambda data, titles: rule_notes(data, lang, titles),
                  "kind_label": lambda kind: t.gettext(KINDS[kind]) if kind in KINDS else kind,
                  "how_label": lambda how: t.gettext(LINKED_BY[how]) if how in LINKED_BY else how,
                  "alias_label": lambda status: t.gettext(ALIAS_STATUS[status])
                  if status in ALIAS_STATUS else status,
                  "evidence_forms": lambda evidence: evidence_forms(evidence, t.gettext),
                  "change_label": lambda change: t.gettext(CHANGE_WORDS[change])
                  if change in CHANGE_WORDS else change,
                  "ui": lang, "other": "en" if lang == "de" else "de", "here": here}
        return self.templates.TemplateResponse(request, template, {**common, **context}, status_code=status)

    def error(self, request: Request, message: str, status: int, shown: str | Markup | None = None,
              title: str | None = None, offers: list[tuple[str, str]] | None = None) -> Response:
        """The CLI's envelope for /api/ (English, like ``--json``), an error page for a person
        (`shown`: the message in the page's language, where there is one, text or HTML; `title`:
        what failed, for the page's title; `offers`: ``(words, address)`` of where to go instead)."""
        if request.url.path.startswith("/api/"):
            return JSONResponse({"ok": False, "error": " ".join(message.split())}, status_code=status)
        said = shown if shown is not None else message
        said = Markup(" ".join(said.split())) if isinstance(said, Markup) else " ".join(said.split())
        said = upper_first(said)
        t = catalog(ui_lang(request))
        return self.page(request, "error.html", status=status, message=said, status_code=status,
                         failed=t.gettext(title) if title else None, offers=offers or [])


def site(request: Request) -> Site:
    found: Site = request.app.state.site
    return found


def check_number(number: str) -> None:
    if len(number) > 40:
        raise InputError(msg(N_("rule number {number!r}... is too long; expected one such as '702.22'"),
                             number=number[:40]))


def check_rule_query(rule: str) -> None:
    """A rule number or keyword in a URL path: as long as a query may be."""
    if len(rule) > MAX_QUERY:
        raise InputError(msg(N_("rule or keyword {rule!r}... is too long; expected a number such as "
                                "'702.22' or a keyword such as 'banding'"), rule=rule[:40]))


def check_scenario(s: Site, scenario: str) -> dict[str, Any]:
    """Only packaged scenarios: the library also takes a file path, which HTTP must not reach."""
    import difflib

    infos: list[dict[str, Any]] = s.call("examples")["scenarios"]
    for info in infos:
        if info["id"] == scenario:
            return info
    near = difflib.get_close_matches(scenario, [i["id"] for i in infos], n=3)
    if near:
        raise UnknownScenarioPage(msg(N_("no scenario {scenario!r} (did you mean {near}?); expected an id "
                                         "from /api/examples"),
                                      scenario=scenario, near=", ".join(map(repr, near))))
    raise UnknownScenarioPage(msg(N_("no scenario {scenario!r}; expected an id from /api/examples"),
                                  scenario=scenario))


class UnknownScenarioPage(NotFound):
    """A scenario id in a URL that no packaged scenario has (404, like an unknown rule)."""
