"""The HTML pages: escaping of document text, links, both languages, errors as pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from regelwerk.cli.web.render import highlight, linkify
from tests.web.conftest import IMG, SCRIPT

HOSTILE_PAGES = [
    "/rule/100.1?version=2020-06-01",
    "/rule/702.9",
    "/?q=flying",
    "/search/hits?q=subrule",
    "/term?q=flying",
    "/card?q=Evil",
    "/card?q=B%C3%B6se",
    "/documents",
]


@pytest.mark.parametrize("url", HOSTILE_PAGES)
def test_document_markup_is_shown_as_text(client: TestClient, url: str) -> None:
    """The hostile CR's <script> and <img onerror> arrive escaped, never as tags."""
    page = client.get(url)
    assert page.status_code == 200, page.text
    text = page.text
    assert "<script>alert" not in text
    assert "<img" not in text and "onerror=\"alert" not in text
    assert "&lt;script&gt;" in text or "&lt;img" in text or url == "/documents"


def test_only_our_own_script_tags(client: TestClient) -> None:
    text = client.get("/?q=flying").text
    assert re.findall(r"<script[^>]*>", text) == ['<script src="/static/search.js" defer>']


def test_linkify_escapes_before_linking() -> None:
    out = str(linkify(f"See rule 702.22, 510.1c-d and rules 506 {SCRIPT} {IMG}; 1702.2 and 702.22.5 stay"))
    assert '<a class="ref" href="/rule/702.22">702.22</a>' in out
    assert '<a class="ref" href="/rule/510.1c">510.1c</a>-<a class="ref" href="/rule/510.1d">d</a>' in out
    assert 'rules <a class="ref" href="/rule/506">506</a>' in out
    assert "&lt;script&gt;" in out and "<script" not in out and "<img" not in out
    assert "1702.2 and 702.22.5 stay" in out
    pinned = '<a class="ref" href="/rule/702.9a?version=2020-06-01">702.9a</a>'
    assert str(linkify("702.9a", "2020-06-01")) == pinned


def test_linkify_follows_a_moved_rule_into_its_number_today() -> None:
    """The German seed's 702.19 is 702.22 today: its "siehe Regel 702.19j" means 702.22j."""
    out = str(linkify("siehe Regel 702.19j und 510.1c", moved=("702.19", "702.22")))
    assert '<a class="ref" href="/rule/702.22j">702.19j</a>' in out
    assert 'href="/rule/510.1c"' in out


def test_highlight_marks_only_balanced_pairs() -> None:
    assert str(highlight("«Bands» with <b>")) == "<mark>Bands</mark> with &lt;b&gt;"
    assert str(highlight("half «open")) == "half open"


def test_rule_page_links_every_reference(client: TestClient) -> None:
    text = client.get("/rule/100.1?version=2020-06-01").text
    assert 'href="/rule/100.1a?version=2020-06-01"' in text
    # "702.9a-b" is a range of two subrules
    assert 'href="/rule/702.9a?version=2020-06-01">702.9a</a>-<a class="ref" href="/rule/702.9b' in text


def test_rule_page_german_and_english_side_by_side(client: TestClient) -> None:
    """The seed numbers Banding 702.19 in both languages: one column each, paired by rule."""
    text = client.get("/rule/702.19").text
    assert 'class="columns two"' in text
    assert '<article class="col" lang="en">' in text and '<article class="col" lang="de">' in text
    assert "Bündnisfähigkeit" in text and "Banding" in text


def test_rule_page_names_the_german_keyword_where_only_english_exists(client: TestClient) -> None:
    text = client.get("/rule/702.9").text
    assert '<aside class="col missing" lang="de">' in text
    assert "Fliegend" in text


def test_release_picker_lists_releases_with_the_number(client: TestClient) -> None:
    text = client.get("/rule/702.9").text
    assert '<option value="2020-06-01" selected>2020-06-01 · Flying</option>' in text


def test_search_page_and_fragment(client: TestClient) -> None:
    page = client.get("/?q=B%C3%BCndnisf%C3%A4hikeit")
    assert page.status_code == 200
    assert 'value="Bündnisfähikeit"' in page.text
    assert 'href="/rule/702.19"' in page.text  # the German hit links to the rule page
    fragment = client.get("/search/hits?q=banding&lang=de").text
    assert "<html" not in fragment and 'class="hits"' in fragment
    assert 'lang-en' not in fragment


def _rule_links(page: str) -> list[str]:
    return re.findall(r'href="/rule/[^"]*"', page)


def test_the_search_forms_both_languages_option_searches_both(client: TestClient) -> None:
    """The form's "both languages" option submits ``lang=`` (empty): pressing Enter gave a 400
    page ("lang: input should be 'en' or 'de'") until the page read it as no language."""
    for path in ("/?q=banding", "/search/hits?q=banding"):
        both = client.get(path)
        blank = client.get(path + "&lang=")
        assert blank.status_code == 200, path
        assert _rule_links(blank.text) == _rule_links(both.text)
        assert 'href="/rule/702.19"' in blank.text  # the German seed's Bündnis among them
    assert client.get("/?q=banding&lang=fr").status_code == 400  # a language it has not: still refused
    assert client.get("/api/search?q=banding&lang=").status_code == 400  # the API stays exact


def test_a_query_with_nothing_to_search_for_says_so_where_the_hits_would_be(client: TestClient) -> None:
    """The search's error (the CLI's and the API's, 400), on the page and in the fragment the
    page swaps in as one types, in the page's language; the empty box is the start page."""
    client.cookies.clear()
    page = client.get("/?q=%3F%21")
    assert page.status_code == 400 and 'value="?!"' in page.text
    assert "query &#39;?!&#39; has no word to search for" in page.text
    fragment = client.get("/search/hits?q=%3F")
    assert fragment.status_code == 400 and "<html" not in fragment.text
    assert 'class="error"' in fragment.text and "has no word to search for" in fragment.text
    client.cookies.set("ui", "de")
    assert "enthält kein Wort" in client.get("/search/hits?q=%3F").text
    client.cookies.clear()
    for start in ("/", "/search/hits?q="):
        empty = client.get(start)
        assert empty.status_code == 200 and 'class="error"' not in empty.text
        assert 'id="hint"' not in empty.text


def test_a_query_of_spaces_gets_the_empty_query_hint(client: TestClient) -> None:
    """Spaces in the box showed nothing at all; now the search's EMPTY_QUERY hint, as a note in
    the page's language (no error, no 400: the reader has not typed anything wrong yet)."""
    client.cookies.clear()
    for url in ("/?q=%20%20", "/search/hits?q=%20"):
        page = client.get(url)
        assert page.status_code == 200 and 'class="error"' not in page.text
        hint = '<p class="note" id="hint">empty query: type a rule number, a keyword or a question</p>'
        assert hint in page.text
    client.cookies.set("ui", "de")
    german = client.get("/?q=%20%20").text
    assert "leere Anfrage: eine Regelnummer, ein Schlüsselwort oder eine Frage eingeben" in german
    client.cookies.clear()


def test_language_switch_is_remembered(client: TestClient) -> None:
    client.cookies.clear()
    assert 'lang="en"' in client.get("/examples").text[:200]
    switch = client.get("/ui/de?next=/examples", follow_redirects=False)
    assert switch.status_code == 303 and switch.headers["location"] == "/examples"
    client.cookies.set("ui", switch.cookies["ui"])
    page = client.get("/examples").text
    assert '<html lang="de">' in page and "Beispiele" in page
    assert 'href="/ui/en?next=%2Fexamples"' in page
    client.cookies.clear()


def test_accept_language_picks_german_without_a_cookie(client: TestClient) -> None:
    client.cookies.clear()
    assert '<html lang="de">' in client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", ""])
def test_language_switch_never_leaves_the_site(client: TestClient, target: str) -> None:
    response = client.get("/ui/en", params={"next": target}, follow_redirects=False)
    assert response.headers["location"] == "/"


def test_example_replay_cites_rules_in_both_languages(client: TestClient) -> None:
    listing = client.get("/examples").text
    assert 'href="/examples/banding-band-attack"' in listing
    de = client.get("/examples/banding-band-attack?lang=de").text
    en = client.get("/examples/banding-band-attack?lang=en").text
    assert 'class="ref cite" href="/rule/702.22c"' in de
    assert '<ol class="steps" lang="de">' in de and '<ol class="steps" lang="en">' in en
    assert "Bündnis" in de and "band" in en


def test_card_page_both_languages_and_keyword_links(client: TestClient) -> None:
    page = client.get("/card?q=Tatzelwurm").text
    assert '<span lang="en">Craw Wurm</span>' in page and '<span lang="de">Tatzelwurm</span>' in page
    evil = client.get("/card?q=Evil").text
    assert 'class="ref" href="/rule/702.9"' in evil  # Flying, the keyword's rule
    assert client.get("/card?q=zzzzzzzzzzzz").status_code == 404


def test_term_and_documents_pages(client: TestClient) -> None:
    term = client.get("/term?q=Trampelschaden").text
    assert "Trample" in term and "Trampelschaden" in term and "Verursacht Trampelschaden" in term
    docs = client.get("/documents").text
    assert "cr-en-2020-06-01" in docs and "rule-702-19-banding-de-en" in docs


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/rule/abc", 400, "is not a rule number"),
        ("/rule/999.1", 404, "is in no ingested document"),
        ("/term?q=qqqqqqqqqqqqq", 404, "No keyword or card matches"),
        ("/examples/nope", 404, "No scenario"),
        ("/nowhere", 404, "No such page: /nowhere"),
        ("/term?q=" + "x" * 201, 400,
         "The parameter q may be at most 200 characters long; this one has 201."),
        ("/?q=banding&lang=xx", 400,
         "The parameter lang must be one of &#39;en&#39;, &#39;de&#39;, not &#39;xx&#39;."),
    ],
)
def test_errors_are_pages_with_status(client: TestClient, url: str, status: int, says: str) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    assert says in response.text


def test_static_files_are_shipped(client: TestClient) -> None:
    js = client.get("/static/search.js")
    assert js.status_code == 200 and "replaceState" in js.text
    assert client.get("/static/style.css").status_code == 200
    # the pages name their icon, so a browser does not ask for a /favicon.ico that is not there
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in client.get("/").text
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")


def test_pages_speak_german_through_the_gettext_catalog(client: TestClient) -> None:
    """The pages' words come from the CLI's catalog (cli/locale), in the page's language."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    page = client.get("/").text
    assert '<a href="/term">Begriffe</a>' in page and '<a href="/">Suche</a>' in page
    assert '<button type="submit">Suchen</button>' in page  # the verb (context "button")
    assert "Die Magic-Regeln auf Deutsch und Englisch" in page
    missing = client.get("/rule/999.1")
    assert missing.status_code == 404
    assert "Regel &#39;999.1&#39; steht in keinem eingelesenen Dokument; am nächsten:" in missing.text
    api = client.get("/api/rule/999.1")  # the API answers in English, like --json
    assert api.status_code == 404
    assert api.json()["error"].startswith("rule '999.1' is in no ingested document")
    client.cookies.clear()
    english = client.get("/").text
    assert '<a href="/term">Terms</a>' in english and '<button type="submit">Search</button>' in english


def test_validation_errors_are_german_sentences_on_german_pages(client: TestClient) -> None:
    """A page names the parameter and what it expects in its language (not pydantic's English
    with the value cut mid-word); the API keeps its terse English envelope."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    long = client.get("/term?q=" + "x" * 201)
    assert long.status_code == 400
    assert "Der Parameter q darf höchstens 200 Zeichen lang sein; dieser hat 201." in long.text
    said = long.text.partition('id="error-message">')[2].partition("</p>")[0]
    assert said == "Der Parameter q darf höchstens 200 Zeichen lang sein; dieser hat 201."
    lang = client.get("/rule/702.9?version=" + "9" * 41).text
    assert "Der Parameter version darf höchstens 40 Zeichen lang sein; dieser hat 41." in lang
    bad = client.get("/?q=banding&lang=xx").text
    assert "muss einer dieser Werte sein: &#39;en&#39;, &#39;de&#39;, nicht &#39;xx&#39;." in bad
    api = client.get("/api/search?q=" + "x" * 201)
    assert api.status_code == 400
    assert api.json()["error"].startswith("q: string should have at most 200 characters")
    client.cookies.clear()


def test_notes_on_pages_are_in_the_page_language(client: TestClient) -> None:
    """The search's and the rule page's notes come from their Message dicts, translated; a note
    that names the command line's --lang de says what to choose on the page instead."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    hits = client.get("/search/hits?q=banding&lang=de").text
    assert "Keine deutsche Fassung der Comprehensive Rules eingelesen: mit „nur Deutsch“" in hits
    assert "--lang" not in hits
    rule = client.get("/rule/702.19").text
    assert "<summary>Hinweise</summary>" in rule and "die Nummer in den neuesten englischen Regeln" in rule
    assert "its number in the newest English rules" not in rule
    client.cookies.clear()
    english = client.get("/search/hits?q=banding&lang=de").text
    assert "with “German only” only the German seed texts" in english and "--lang" not in english
    assert '<p class="note">No German Comprehensive Rules' in english  # a sentence starts upper-case


def test_term_page_labels_are_words_not_internal_names(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set("ui", "de")
    term = client.get("/term?q=B%C3%BCndnis").text
    assert '<span class="badge">Schlüsselwortfähigkeit</span>' in term
    assert "<td>eigene Überschrift</td>" in term
    assert "<td>Regel der anderen Sprache mit dieser Nummer</td>" in term
    assert "keyword_ability" not in term and "<td>heading</td>" not in term
    client.cookies.clear()
    english = client.get("/term?q=banding").text
    assert '<span class="badge">keyword ability</span>' in english and "<td>its own heading</td>" in english


def test_term_page_says_whose_word_and_what_the_cards_print(client: TestClient) -> None:
    """As ``term`` does on the command line: a word people say is named with whose word it is,
    and a term with the German forms its cards print, in the page's language."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    page = client.get("/term?q=Ergebenheit").text
    alias = page.partition('<p class="note alias">')[2].partition("</p>")[0]
    assert alias.startswith("Ergebenheit: wörtliche Übersetzung des englischen Namens ("), alias
    evidence = page.partition('<dd class="evidence">')[2].partition("</dd>")[0]
    assert evidence.startswith("Hingabe (aktuell, 58 Karten, 2013–2021, z. B. Gray Merchant"), evidence
    client.cookies.clear()
    english = client.get("/term?q=Spielfeld").text
    assert '<p class="note alias">Spielfeld: players&#39; word (' in english
    assert "alias" not in client.get("/term?q=Flying").text.partition("<article")[2].partition("<h1>")[0]


def test_term_page_shows_every_sense_of_an_ambiguous_word(client: TestClient) -> None:
    """"counter" is Counter (neutralisieren, 701.6) and Counters (Marke, 122): both in full, as
    ``term counter`` shows them, not one with the other under "Other matches"."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    page = client.get("/term?q=counter").text
    assert '<p class="note" id="senses">&#39;counter&#39; hat 2 Bedeutungen</p>' in page
    heads = [a.partition("</h1>")[0] for a in page.split('<article class="term">')[1:]]
    assert len(heads) == 2, heads
    assert "Counter</span>" in heads[0] + heads[1] and "Counters</span>" in heads[0] + heads[1]
    assert "Bedeutungen" not in client.get("/term?q=Flying").text


def test_backticked_commands_are_code(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set("ui", "de")
    docs = client.get("/documents").text
    assert "<code>regelwerk ingest DATEI</code>" in docs and "`" not in docs
    api = client.get("/api").text
    assert "<code>regelwerk rule N --json</code>" in api and "`" not in api
    client.cookies.clear()


def test_code_escapes_before_marking() -> None:
    from regelwerk.cli.web.render import code

    assert str(code("run ``a <b>`` or `c`")) == "run <code>a &lt;b&gt;</code> or <code>c</code>"


def test_a_rules_hits_come_best_first_then_in_rule_order_alike_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the seeds alone, the Banding excerpt by score listed 702.22b e c i m g a f d h (the
    definition seventh). Each rule's lines now come best first, then in rule order, and the
    payload (``--json``), the terminal's groups and the web page list them in the same order."""
    from typer.testing import CliRunner

    from regelwerk.cli.app import app
    from regelwerk.cli.web.app import create_app
    from regelwerk.cli.web.backend import Backend
    from regelwerk.index.facade import Library
    from regelwerk.ingest.model.numbers import sort_key

    home = tmp_path / "seeds-home"
    hits = Library(home).search("banding", limit=20)["hits"]  # the web page's 20
    shown = [h["number"] or h["current"] for h in hits]
    runs: dict[tuple[str, str], list[str]] = {}
    for h, number in zip(hits, shown, strict=True):
        if number:
            runs.setdefault((h["document"], h["language"]), []).append(number)
    long = [r for r in runs.values() if len(r) > 3]
    assert long, runs
    for best, *rest in long:
        assert rest == sorted(rest, key=sort_key), (best, rest)
    monkeypatch.setenv("REGELWERK_HOME", str(home))
    out = json.loads(CliRunner().invoke(app, ["search", "banding", "--limit", "20", "--json"]).output)
    assert [h["number"] or h["current"] for h in out["hits"]] == shown
    text = CliRunner().invoke(app, ["search", "banding", "--limit", "20"], env={"COLUMNS": "300"}).output
    lines = [m.group(1) for m in re.finditer(r"^    (\d{3}\.\d+[a-z]) ", text, re.MULTILINE)]
    assert lines == [n for n in shown if n and re.fullmatch(r"\d{3}\.\d+[a-z]", n)]
    with TestClient(create_app(Backend(home)), raise_server_exceptions=False) as client:
        page = client.get("/search/hits?q=banding").text
    assert re.findall(r'<span class="num">([^<]*)</span>', page) == [n or "" for n in shown]


def test_a_seeds_numbers_link_to_its_rule_and_its_notes_speak_in_words(banding_client: TestClient) -> None:
    """The German seed's 702.19 is Banding (702.22 today), not today's 702.19 (Trample): its
    numbers in the rule page's notes and the term page's table link to the rule it is, and the
    notes name the seed by its title and the language in words, not by id and code."""
    client = banding_client
    client.cookies.clear()
    client.cookies.set("ui", "de")
    rule = client.get("/rule/702.22").text
    notes = rule.partition("<summary>Hinweise</summary>")[2].partition("</details>")[0]
    assert '<a class="ref" href="/rule/702.22">702.19</a> in dem undatierten Text „Bündnisfähigkeit' in notes
    assert 'href="/rule/702.19">702.19</a> Trample' in notes  # today's 702.19 is Trample
    assert "rule-702-19-banding-de-en" not in notes and "'de'" not in notes and "&#39;de&#39;" not in notes
    assert "<title>702.22 Banding / Bündnisfähigkeit · regelwerk</title>" in rule  # the tab in both languages
    metas = [m.partition("</p>")[0] for m in rule.split('<p class="meta">')[1:]]
    assert metas[0] == "2021-01-01"  # a release by its date, the German seed's column by its title
    assert metas[1].startswith("ohne Datum · Bündnisfähigkeit / Banding · heute"), metas
    term = client.get("/term?q=B%C3%BCndnis").text
    # the term page's table names the seed by its title too
    seed_rows = [row for row in term.split("<tr>") if row.startswith("<td>Bündnisfähigkeit / Banding</td>")]
    assert seed_rows and all('href="/rule/702.22">702.19</a>' in row for row in seed_rows)
    assert "<td>rule-702-19-banding-de-en" not in term
    client.cookies.clear()
    english = client.get("/rule/702.22").text.partition("<summary>Notes</summary>")[2]
    assert "in the undated text “Bündnisfähigkeit / Banding”" in english.partition("</details>")[0]


def test_an_old_releases_numbers_in_notes_link_into_that_release(history_client: TestClient) -> None:
    """A note "702.10 in the 2020-06-01 rules is ..." links 702.10 with ``?version=``."""
    from regelwerk.cli.web.site import note_html

    note = {"id": "{number} in the {version} rules is {title}{today}.",
            "args": {"number": "702.10", "version": "2020-06-01", "title": "Flanking",
                     "today": {"id": "; today that is {current}", "args": {"current": "702.25"}}}}
    html = str(note_html(note, "en", {}))
    assert html.startswith('<a class="ref" href="/rule/702.10?version=2020-06-01">702.10</a> in the')
    assert html.endswith('today that is <a class="ref" href="/rule/702.25">702.25</a>.')


def test_a_word_that_names_no_rule_offers_the_term_page_and_the_search(client: TestClient) -> None:
    """No advice to run ``regelwerk term`` on a page: links to both for the text, and a title
    that says what failed."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    page = client.get("/rule/Quatschwort")
    assert page.status_code == 400
    assert "<title>Keine Regelnummer · regelwerk</title>" in page.text
    assert "regelwerk term" not in page.text and "regelwerk search" not in page.text
    assert '<a href="/term?q=Quatschwort">„Quatschwort“ als Begriff oder Karte nachschlagen</a>' in page.text
    assert '<a href="/?q=Quatschwort">In den Regeln nach „Quatschwort“ suchen</a>' in page.text
    said = page.text.partition('id="error-message">')[2].partition("</p>")[0]
    assert said.startswith("&#39;Quatschwort&#39; ist keine Regelnummer; erwartet: eine Regelnummer wie")
    missing = client.get("/rule/999.1")
    assert "<title>Regel nicht gefunden · regelwerk</title>" in missing.text
    nearest = missing.text.partition("am nächsten:")[2].partition("</p>")[0]
    assert '<a class="ref" href="/rule/' in nearest and "999.1" not in nearest
    assert "<title>Seite nicht gefunden · regelwerk</title>" in client.get("/nowhere").text
    client.cookies.clear()
    english = client.get("/rule/abc.x").text
    assert '<a href="/term?q=abc.x">Look up “abc.x” as a term or card</a>' in english
    assert "<title>Not a rule number · regelwerk</title>" in english


def test_messages_on_error_pages_start_upper_case(client: TestClient) -> None:
    said = client.get("/nowhere").text.partition('id="error-message">')[2]
    assert said.startswith("No such page: /nowhere")


def test_a_query_longer_than_the_search_takes_is_cut_on_the_search_page(client: TestClient) -> None:
    """A long text in the address gets the search page with the text cut to 200 characters and
    a sentence saying so, not an error page without the form; one of exactly 200 (the search
    box's own limit) says the box cuts there."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    text = "flying " * 120
    page = client.get("/?q=" + text)
    assert page.status_code == 200
    assert f'value="{text[:200]}"' in page.text and 'id="search-form"' in page.text
    said = "Die Suche nimmt höchstens 200 Zeichen: dein Text hat 840, daher wurden nur die ersten 200"
    assert said in page.text
    assert "Der Parameter q" not in page.text
    fragment = client.get("/search/hits?q=" + text[:200]).text
    assert "Das Suchfeld nimmt höchstens 200 Zeichen; längerer Text wird dort abgeschnitten." in fragment
    assert "cut-note" not in client.get("/?q=flying").text
    assert client.get("/?q=" + "x" * 5000).status_code == 400  # what no one types stays refused
    client.cookies.clear()


def test_hits_in_the_other_language_say_so_and_glossary_hits_are_marked(client: TestClient) -> None:
    """On a German page an English hit's title and snippet carry lang="en" (a screen reader
    reads them in English); a glossary hit (no number) shows "Glossar" where the number goes."""
    client.cookies.clear()
    client.cookies.set("ui", "de")
    hits = client.get("/search/hits?q=keyword+ability&lang=en").text
    assert '<span class="title" lang="en">' in hits and '<p class="snippet" lang="en">' in hits
    assert '<span class="num glossary">Glossar</span>' in hits
    assert '<span class="num"></span>' not in hits
    client.cookies.clear()
    english = client.get("/search/hits?q=keyword+ability&lang=en").text
    assert 'lang="en"' not in english and '<span class="num glossary">Glossary</span>' in english
