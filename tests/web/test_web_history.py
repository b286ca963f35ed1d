"""A rule's history and release diffs in the web face: ``/api/history``, ``/api/diff`` (the CLI's
``--json`` objects), the rule page's history, ``/history/{rule}`` and ``/diff``.

Most tests read `history_home` (conftest: the seeds and three small releases in which 702.9a's
text changes once and Banding arrives as 702.10); the last ones need the real archive and skip
without ../shared.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regelwerk.cli.web.app import create_app
from regelwerk.cli.web.backend import Backend
from regelwerk.cli.web.render import word_diff
from tests.conftest import CORPUS, NEEDS_SHARED
from tests.web.conftest import SCRIPT
from tests.web.test_web_api import cli_json


@pytest.fixture(autouse=True)
def _english(history_client: TestClient) -> None:
    history_client.cookies.clear()


@pytest.mark.parametrize(
    ("url", "cli"),
    [
        ("/api/history/702.9a", ["history", "702.9a"]),
        ("/api/history/702.9a?full=true", ["history", "702.9a", "--full"]),
        ("/api/history/banding", ["history", "banding"]),
        ("/api/history/B%C3%BCndnisf%C3%A4higkeit", ["history", "Bündnisfähigkeit"]),
        ("/api/history/first%20strike", ["history", "first", "strike"]),
        ("/api/diff?old=2020-06-01", ["diff", "2020-06-01"]),
        ("/api/diff?old=2020-06-01&new=2021-01-01&section=702",
         ["diff", "2020-06-01", "2021-01-01", "--section", "702"]),
        ("/api/diff?old=cr-en-2020-06-01&new=latest&section=1",
         ["diff", "cr-en-2020-06-01", "latest", "--section", "1"]),
        ("/api/diff?old=2021-01-01&new=2021-06-01", ["diff", "2021-01-01", "2021-06-01"]),
    ],
)
def test_api_returns_the_cli_json(
    history_client: TestClient, history_home: Path, monkeypatch: pytest.MonkeyPatch, url: str, cli: list[str]
) -> None:
    if "first" in url:  # no release names first strike: the same error from both
        response = history_client.get(url)
        assert response.status_code == 404
        assert response.json() == cli_json(history_home, monkeypatch, *cli)
        return
    response = history_client.get(url)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(history_home, monkeypatch, *cli)


def test_api_history_and_diff_say_what_changed(history_client: TestClient) -> None:
    runs = history_client.get("/api/history/702.9a").json()["runs"]
    assert [(r["from"], r["to"], r["change"]) for r in runs] == [
        ("2020-06-01", "2020-06-01", "new"), ("2021-01-01", "2021-06-01", "text")]
    assert ["+", "ability that limits blockers."] in runs[1]["diff"]
    diff = history_client.get("/api/diff?old=2020-06-01&new=latest").json()
    assert diff["counts"]["added"] == 2 and diff["counts"]["changed"] == 1
    assert diff["to"] == "2021-06-01"


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/api/history/nothing-here", 404, "'nothing-here' is neither a rule number nor a rule title"),
        ("/api/history/999.1", 404, "rule '999.1' is in no ingested CR release"),
        ("/api/history/" + "x" * 201, 400, "is too long; expected a number such as '702.22'"),
        ("/api/history/702.9a?full=maybe", 400, "full: input should be a valid boolean"),
        ("/api/diff", 400, "old: field required"),
        ("/api/diff?old=", 400, "old: string should have at least 1 character"),
        ("/api/diff?old=1999-01-01", 404, "no ingested CR release is '1999-01-01'"),
        ("/api/diff?old=2020-06-01&new=2099-01-01", 404, "no ingested CR release is '2099-01-01'"),
        ("/api/diff?old=latest&new=2020-06-01", 400, "is newer than '2020-06-01'"),
        ("/api/diff?old=2020-06-01&section=abc", 400,  # the API's own parameter, not --section
         "section 'abc': expected a chapter (7) or a section (702)"),
        ("/api/diff?old=2020-06-01&section=70222222222", 400, "section: string should have at most 10"),
    ],
)
def test_api_errors_use_the_envelope(history_client: TestClient, url: str, status: int, says: str) -> None:
    response = history_client.get(url)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and says in body["error"], body
    assert "--" not in body["error"]  # the web names its own fields, never a command-line option


def test_a_bad_section_names_the_web_s_field_in_the_page_s_language(history_client: TestClient) -> None:
    english = history_client.get("/diff?old=2020-06-01&section=abc")
    assert english.status_code == 400
    assert "Section &#39;abc&#39;: expected a chapter (7) or a section (702)" in english.text
    history_client.cookies.set("ui", "de")
    german = history_client.get("/diff?old=2020-06-01&section=abc")
    assert german.status_code == 400 and "--section" not in german.text
    assert "Abschnitt &#39;abc&#39;: erwartet wird ein Kapitel (7) oder ein Abschnitt (702)" in german.text
    api = history_client.get("/api/diff?old=2020-06-01&section=abc").json()  # the API stays English
    assert api["error"] == "section 'abc': expected a chapter (7) or a section (702)"


def test_the_api_page_lists_both_in_both_languages(history_client: TestClient) -> None:
    schema = history_client.get("/openapi.json").json()
    assert {"/api/history/{rule}", "/api/diff"} <= set(schema["paths"])
    english = history_client.get("/api").text
    assert "<code>regelwerk history RULE --json</code>" in english
    assert "<code>regelwerk diff OLD NEW --json</code>" in english
    history_client.cookies.set("ui", "de")
    german = history_client.get("/api").text
    assert "jede Änderung Wort für Wort" in german and "<code>regelwerk history REGEL --json</code>" in german
    assert "Eine CR-Fassung: ihr Datum (2026-01-16)" in german  # a parameter's description
    assert "<code>regelwerk rule N --json</code>" in german and "Eine Regel mit Unterregeln" in german


def _main(page: str) -> str:
    return page.partition("<main>")[2].partition("</main>")[0]


def test_history_page_shows_runs_with_word_diffs_and_release_links(history_client: TestClient) -> None:
    page = _main(history_client.get("/history/702.9a").text)
    assert "History: Flying · Fliegend" in page
    assert "3 releases" in page and "1 change" in page
    # each run's releases link to the rule page at that release (the release picker's URL)
    assert re.findall(r'href="(/rule/[^"]+)"', page) == [
        "/rule/702.9a?version=2020-06-01", "/rule/702.9a?version=2021-01-01",
        "/rule/702.9a?version=2021-06-01"]
    # removed words struck (<del>), added ones underlined (<ins>), each also said in words
    assert ('<del title="removed"><span class="vh">[removed: </span>ability.<span class="vh">]</span></del>'
            in page)
    assert '<ins title="added"><span class="vh">[added: </span>ability that limits blockers.' in page
    assert page.count('class="run ') == 2
    full = _main(history_client.get("/history/702.9a?full=true").text)
    assert full.count('class="run ') == 3 and 'href="/history/702.9a"' in full


def test_history_of_a_keyword_in_either_language(history_client: TestClient) -> None:
    typed = history_client.get("/history?q=B%C3%BCndnisf%C3%A4higkeit", follow_redirects=False)
    assert typed.status_code == 303 and typed.headers["location"] == "/history/B%C3%BCndnisf%C3%A4higkeit"
    for url in ("/history/B%C3%BCndnisf%C3%A4higkeit", "/history/banding"):
        page = _main(history_client.get(url).text)
        assert "History: Banding" in page and "/rule/702.10?version=2021-01-01" in page
    assert "History" in history_client.get("/history").text  # the empty form


def test_the_rule_page_has_its_history(history_client: TestClient) -> None:
    page = _main(history_client.get("/rule/702.9a?version=2021-01-01").text)
    section = page.partition('id="history"')[2]
    assert section and "<del" in section and 'href="/history/702.9a"' in section
    # the run of the release shown is marked as such, in words and for a screen reader
    here = section.partition('aria-current="true"')[2].partition("</li>")[0]
    assert "2021-01-01" in here and "shown above" in here
    # the German seed's 702.19 is today's Banding (702.10 here): its history is Banding's
    seed = _main(history_client.get("/rule/702.19").text).partition('id="history"')[2]
    assert "/rule/702.10?version=2021-01-01" in seed


def test_history_pages_speak_german(history_client: TestClient) -> None:
    history_client.cookies.set("ui", "de")
    page = _main(history_client.get("/history/702.9a").text)
    assert "Verlauf: Flying · Fliegend" in page and "3 Fassungen" in page and "1 Änderung" in page
    assert "geändert" in page and '<del title="entfallen">' in page
    diff = _main(history_client.get("/diff?old=2020-06-01&new=2021-06-01").text)
    assert "2 hinzugekommen, 1 geändert" in diff and "Abschnitt 702" in diff
    missing = history_client.get("/history/nichts")
    assert missing.status_code == 404
    assert "&#39;nichts&#39; ist weder eine Regelnummer noch ein Regeltitel" in missing.text


def test_diff_page_lists_changes_each_number_a_link(history_client: TestClient) -> None:
    start = _main(history_client.get("/diff").text)  # the form: the newest against the one before
    assert '<option value="2021-01-01" selected>' in start and '<option value="2021-06-01" selected>' in start
    page = _main(history_client.get("/diff?old=2020-06-01&new=2021-06-01&section=").text)
    assert "Changes 2020-06-01 → 2021-06-01" in page and "2 added, 1 changed" in page
    assert 'href="/rule/702.9a?version=2021-06-01"' in page
    assert 'href="/rule/702.10?version=2021-06-01"' in page
    assert "<ins" in page and "Section 702" in page
    narrow = _main(history_client.get("/diff?old=2020-06-01&new=2021-06-01&section=100").text)
    assert "no rule changes" in narrow and "Section 702" not in narrow


def _picked_one_by_one(home: Path, number: str) -> list[dict[str, object]]:
    """The release picker as it was: one rule lookup per English CR release."""
    from regelwerk.index.facade import Library
    from regelwerk.ingest.model.errors import RegelwerkError

    lib, out = Library(home), []
    for doc in lib.docs()["documents"]:
        if doc["kind"] not in ("cr-text", "cr-html") or not doc["version"] or doc["language"] != "en":
            continue
        try:
            rule = lib.rule(number, version=doc["version"], lang="en")["rule"]
        except RegelwerkError:
            continue
        if rule["number"] == number and not any(r["version"] == doc["version"] for r in out):
            out.append({"version": doc["version"], "title": rule["title"], "current": rule["current"]})
    return out


@pytest.mark.parametrize("number", ["702.9a", "702.10", "702.10a", "100.1", "1", "702.19", "999.1"])
def test_rule_releases_are_the_releases_one_lookup_each_finds(history_home: Path, number: str) -> None:
    from regelwerk.index.facade import Library

    found = Library(history_home).rule_releases(number)["releases"]
    assert [{k: r[k] for k in ("version", "title", "current")} for r in found] == _picked_one_by_one(
        history_home, number)


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/diff?old=1999-01-01", 404, "No ingested CR release is &#39;1999-01-01&#39;"),
        ("/diff?old=2020-06-01&section=abc", 400, "expected a chapter (7) or a section (702)"),
        ("/history/999.1", 404, "Rule &#39;999.1&#39; is in no ingested CR release"),
    ],
)
def test_errors_are_pages(history_client: TestClient, url: str, status: int, says: str) -> None:
    response = history_client.get(url)
    assert response.status_code == status and response.headers["content-type"].startswith("text/html")
    assert says in response.text


def test_rule_references_in_word_diffs_are_links_into_their_release() -> None:
    html = str(word_diff([["=", "as in rule 702.9a-b"], ["-", "See rule 100.1a."], ["+", "See rule 702"]],
                         old="2020-06-01", new="2021-06-01"))
    assert '<a class="ref" href="/rule/702.9a?version=2021-06-01">702.9a</a>' in html  # unchanged: new
    assert '<a class="ref" href="/rule/702.9b?version=2021-06-01">b</a>' in html
    removed = html.partition("<del")[2].partition("</del>")[0]
    assert '<a class="ref" href="/rule/100.1a?version=2020-06-01">100.1a</a>' in removed  # removed: old
    added = html.partition("<ins")[2].partition("</ins>")[0]
    assert 'rule <a class="ref" href="/rule/702?version=2021-06-01">702</a>' in added
    html = str(word_diff([["+", f"rule 702.9 {SCRIPT}"]]))  # escaped first, then linked
    assert "<script>" not in html and '<a class="ref" href="/rule/702.9">702.9</a>' in html


def test_word_diff_escapes_before_marking() -> None:
    html = str(word_diff([["=", "a <b>"], ["-", SCRIPT], ["+", "x & y"]], "weg", "neu"))
    assert "<script>" not in html and "&lt;script&gt;" in html and "a &lt;b&gt;" in html
    assert '<del title="weg"><span class="vh">[weg: </span>' in html and "x &amp; y" in html
    long = str(word_diff([["=", " ".join(map(str, range(40)))], ["+", "new"]]))
    assert long.startswith("… 32 33") and "0 1" not in long  # long unchanged text is cut


@pytest.fixture(scope="module")
def bare_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A home with the seeds only: no CR release to follow a rule through."""
    home = tmp_path_factory.mktemp("bare") / "home"
    with TestClient(create_app(Backend(home)), raise_server_exceptions=False) as c:
        yield c


def test_without_releases_the_pages_say_how_to_ingest_one(bare_client: TestClient) -> None:
    api = bare_client.get("/api/history/banding")
    assert api.status_code == 404
    said = "no Comprehensive Rules release is ingested; try: regelwerk ingest FILE"
    assert api.json() == {"ok": False, "error": said}
    for url in ("/history/banding", "/history/B%C3%BCndnisf%C3%A4higkeit", "/rule/702.19", "/diff"):
        page = bare_client.get(url)
        assert page.status_code == 200, url
        assert said in page.text, url
    bare_client.cookies.set("ui", "de")
    assert "versuche: regelwerk ingest DATEI" in bare_client.get("/history/banding").text


# -- the real archive ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def archive_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from regelwerk.index.facade import Library

    home = tmp_path_factory.mktemp("archive-web") / "home"
    Library(home).ingest([CORPUS / "en" / f"MagicCompRules-{date}.txt" for date in ("20110204", "20260417")])
    with TestClient(create_app(Backend(home)), raise_server_exceptions=False) as c:
        yield c


@NEEDS_SHARED
def test_an_old_release_s_rule_page_shows_that_rule_s_history(archive_client: TestClient) -> None:
    """702.22 of 2011 is Flanking; today 702.22 is Banding. The page of the old one follows
    Flanking (to its number today), not today's owner of the number."""
    old = _main(archive_client.get("/rule/702.22?version=2011-02-04").text).partition('id="history"')[2]
    here = old.partition('aria-current="true"')[2].partition("</li>")[0]
    assert "702.22" in here and "2011-02-04" in here
    assert "/rule/702.19?version=2011-02-04" not in old  # Banding's number then
    today = _main(archive_client.get("/rule/702.22").text).partition('id="history"')[2]
    assert "/rule/702.19?version=2011-02-04" in today
    assert _main(archive_client.get("/history/Flankenangriff").text).count('class="run ') >= 2
    picker = _main(archive_client.get("/rule/702.22").text).partition("</select>")[0]
    assert "2026-04-17 · Banding" in picker and "2011-02-04 · Flanking" in picker


@NEEDS_SHARED
def test_a_big_diff_lists_its_sections_each_on_its_own_page(archive_client: TestClient) -> None:
    """2011 to 2026: thousands of changes. The page lists the sections with their counts (the
    whole list was 1.5 MB from 2003); each row links to its section's page, whose changes are
    those the API (the CLI's --section) gives; the glossary has a page too."""
    import html

    whole = archive_client.get("/diff?old=2011-02-04&new=latest")
    page = _main(whole.text)
    assert whole.status_code == 200 and len(whole.content) < 100_000
    assert 'id="diff-sections"' in page and "<ins" not in page and "<del" not in page
    api = archive_client.get("/api/diff?old=2011-02-04&new=latest").json()
    assert len(api["changes"]) > 250  # what the API returns is the CLI's, unnarrowed
    rows = re.findall(r'<tr id="section-([^"]+)"><td><a href="([^"]+)"', page)
    assert [name for name, _ in rows] == list(dict.fromkeys(c["section"] for c in api["changes"]))
    links = dict(rows)
    assert links["702"] == "/diff?old=2011-02-04&amp;new=2026-04-17&amp;section=702"
    for name, section in (("702", "702"), ("Glossary", "glossary")):
        assert links[name].endswith("&amp;section=" + section)
        one = _main(archive_client.get(html.unescape(links[name])).text)
        expected = [c for c in api["changes"] if c["section"] == name]
        assert one.count('<li class="change-') == len(expected) and 'id="diff-sections"' not in one
        assert 'id="diff-all" href="/diff?old=2011-02-04&amp;new=2026-04-17"' in one
    cli = archive_client.get("/api/diff?old=2011-02-04&new=latest&section=702").json()
    assert len(cli["changes"]) == len([c for c in api["changes"] if c["section"] == "702"])
    chapter = _main(archive_client.get("/diff?old=2011-02-04&new=latest&section=7").text)
    assert 'id="section-702"' in chapter and 'id="section-100"' not in chapter


@NEEDS_SHARED
def test_rule_references_in_the_diffs_of_pages_are_links(archive_client: TestClient) -> None:
    diffs = re.findall(r'<p class="diff" lang="en">(.*?)</p>',
                       _main(archive_client.get("/diff?old=2011-02-04&new=latest&section=601").text), re.S)
    assert any('class="ref" href="/rule/' in d for d in diffs)
    linked = [d for d in diffs if 'class="ref"' in d]
    assert all(re.search(r'href="/rule/[^"?]+\?version=20(11-02-04|26-04-17)"', d) for d in linked)
    runs = re.findall(r'<p class="diff" lang="en">(.*?)</p>',
                      _main(archive_client.get("/history/601.2").text), re.S)
    assert any('class="ref" href="/rule/' in d for d in runs)


def test_a_keywords_history_lists_its_subrules_with_their_own_changes(banding_client: TestClient) -> None:
    """Banding's heading stays the same across the two releases while 702.22b is reworded: the
    history page and the rule page's History say so per subrule, each a link to its history."""
    client = banding_client
    client.cookies.clear()
    page = client.get("/history/702.22").text
    summary = page.partition('id="history-summary">')[2].partition("</p>")[0]
    assert "0 changes" in summary and '<a href="#subrule-history">1 more in its subrules</a>' in summary
    subs = page.partition('id="subrule-history">')[2].partition("</section>")[0]
    assert '<a href="/history/702.22a">702.22a</a> <span class="meta">0 changes · since 2020-06-01' in subs
    assert '<a href="/history/702.22b">702.22b</a> <span class="meta">1 change (1 to its words)' in subs
    rule = client.get("/rule/702.22").text.partition('id="history"')[2]
    assert '<a href="/history/702.22b">702.22b</a>' in rule
    assert "subrule-history" not in client.get("/history/702.22b").text  # a subrule has none
    client.cookies.set("ui", "de")
    german = client.get("/history/702.22").text
    assert "Seine Unterregeln" in german and "1 Änderung (1 am Wortlaut)" in german
    client.cookies.clear()


def test_the_pages_and_the_api_compose_a_diff_and_walk_a_history_once(history_home: Path) -> None:
    """The diff page, its sections and /api/diff share one cached whole diff; the history's two
    views (runs, every release) and /api/history share one cached history."""
    from regelwerk.index.facade import Library

    asked: list[str] = []

    class Counting(Library):
        def diff(self, old: str, new: str, section: str | None = None) -> dict[str, Any]:
            asked.append("diff")
            return super().diff(old, new, section)

        def history(self, query: str, full: bool = False) -> dict[str, Any]:
            asked.append("history")
            return super().history(query, full)

    with TestClient(create_app(Backend(history_home, factory=Counting))) as c:
        for url in ("/api/diff?old=2020-06-01", "/diff?old=2020-06-01", "/diff?old=2020-06-01&section=7",
                    "/api/diff?old=2020-06-01&section=702", "/diff?old=2020-06-01&section=glossary",
                    "/history/702.9a", "/history/702.9a?full=true", "/api/history/702.9a?full=true",
                    "/api/history/702.9a"):
            assert c.get(url).status_code == 200, url
        assert c.get("/api/history/702.9a?full=true").json()["full"] is True
    assert asked == ["diff", "history"]


def test_a_diff_in_the_wrong_order_offers_the_swapped_one(history_client: TestClient) -> None:
    history_client.cookies.clear()
    page = history_client.get("/diff?old=2021-06-01&new=2020-06-01&section=7")
    assert page.status_code == 400
    assert "<title>Releases in the wrong order · regelwerk</title>" in page.text
    assert '<a href="/diff?old=2020-06-01&amp;new=2021-06-01&amp;section=7">' in page.text
    assert "swap them" not in page.text
    unknown = history_client.get("/diff?old=1999-01-01").text  # the newest releases, newest first
    assert "(newest: 2021-06-01, 2021-01-01, 2020-06-01)" in unknown


def test_english_diff_text_says_it_is_english_on_a_german_page(history_client: TestClient) -> None:
    history_client.cookies.set("ui", "de")
    page = history_client.get("/diff?old=2020-06-01&new=2021-01-01").text
    assert '<p class="diff" lang="en">' in page and '<span class="title" lang="en">Banding' in page
    history_client.cookies.clear()
