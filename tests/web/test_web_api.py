"""The JSON API: the CLI's ``--json`` objects over HTTP, and its error envelope with 4xx codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from regelwerk.cli.app import app as cli_app


def cli_json(home: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, object]:
    monkeypatch.setenv("REGELWERK_HOME", str(home))
    result = CliRunner().invoke(cli_app, [*args, "--json"])
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(
    ("url", "cli"),
    [
        ("/api/rule/702.9", ["rule", "702.9"]),
        ("/api/rule/100.1a?version=2020-06-01", ["rule", "100.1a", "--version", "2020-06-01"]),
        ("/api/rule/702.19?lang=de", ["rule", "702.19", "--lang", "de"]),
        ("/api/search?q=B%C3%BCndnisf%C3%A4hikeit", ["search", "Bündnisfähikeit"]),
        ("/api/search?q=flying&lang=en&limit=3", ["search", "flying", "--lang", "en", "--limit", "3"]),
        ("/api/search?q=banding&all_versions=true", ["search", "banding", "--all-versions"]),
        ("/api/search?q=flying&version=2020-06-01", ["search", "flying", "--version", "2020-06-01"]),
        ("/api/term?q=Trampelschaden", ["term", "Trampelschaden"]),
        ("/api/card?q=Tatzelwurm", ["card", "Tatzelwurm"]),
        ("/api/card?q=craw&lang=de&limit=1", ["card", "craw", "--lang", "de", "--limit", "1"]),
        ("/api/examples", ["example", "list"]),
        ("/api/examples/banding-band-attack?lang=en", ["example", "run", "banding-band-attack", "--lang=en"]),
        ("/api/examples/banding-band-attack", ["example", "run", "banding-band-attack"]),
        ("/api/docs", ["docs"]),
    ],
)
def test_api_returns_the_cli_json(
    client: TestClient, web_home: Path, monkeypatch: pytest.MonkeyPatch, url: str, cli: list[str]
) -> None:
    monkeypatch.setenv("REGELWERK_HOME", str(web_home))  # example titles come from the default home
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == cli_json(web_home, monkeypatch, *cli)


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/api/rule/abc", 400, "'abc' is not a rule number"),
        ("/api/rule/999.1", 404, "rule '999.1' is in no ingested document"),
        ("/api/rule/702.9?version=1999-01-01", 404, "no ingested document has version '1999-01-01'"),
        ("/api/rule/702.9?lang=fr", 400, "lang:"),
        ("/api/rule/" + "1" * 41, 400, "too long"),
        ("/api/search", 400, "q: field required"),
        ("/api/search?q=", 400, "q: string should have at least 1 character"),
        ("/api/search?q=" + "x" * 201, 400, "q: string should have at most 200 characters"),
        ("/api/search?q=%20%20", 400, "empty query: type a rule number, a keyword or a question"),
        ("/api/search?q=%3F%21", 400, "query '?!' has no word to search for"),
        ("/api/search?q=flying&limit=0", 400, "limit: input should be greater than or equal to 1"),
        ("/api/search?q=flying&limit=51", 400, "limit: input should be less than or equal to 50"),
        ("/api/search?q=flying&limit=ten", 400, "limit: input should be a valid integer"),
        ("/api/search?q=flying&lang=xx", 400, "lang:"),
        ("/api/search?q=flying&version=2020-06-01&all_versions=true", 400, "either version or all_versions"),
        ("/api/term?q=qqqqqqqqqqqqqqq", 404, "no keyword or card matches"),
        ("/api/term?q=%E2%80%94", 400, "no letters or digits"),
        ("/api/card?q=zzzzzzzzzzzz", 404, "no card matches 'zzzzzzzzzzzz'"),
        ("/api/card?q=Tatzelwurm&limit=99", 400, "limit: input should be less than or equal to 50"),
        ("/api/examples/no-such-example", 404, "no scenario 'no-such-example'"),
        ("/api/examples/banding-band-attack?lang=fr", 400, "lang:"),
        ("/api/examples/data%2Fscenarios%2Fbanding-band-attack.toml", 404, "no such page"),
        ("/api/nothing-here", 404, "no such page: /api/nothing-here"),
    ],
)
def test_api_errors_use_the_envelope(client: TestClient, url: str, status: int, says: str) -> None:
    response = client.get(url)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False
    assert says in body["error"]
    assert "\n" not in body["error"]


def test_example_file_paths_are_not_reachable(client: TestClient, tmp_path: Path) -> None:
    """The CLI runs a scenario file by path; over HTTP only packaged ids exist."""
    (tmp_path / "x.toml").write_text("id = 'x'\n", encoding="utf-8")
    response = client.get(f"/api/examples/{tmp_path / 'x.toml'}")
    assert response.status_code == 404
    assert response.json()["ok"] is False


def test_api_is_read_only(client: TestClient) -> None:
    for method in ("post", "put", "delete", "patch"):
        response = getattr(client, method)("/api/docs")
        assert response.status_code == 405
        assert response.json() == {"ok": False, "error": "Method Not Allowed"}


def test_no_cors_headers(client: TestClient) -> None:
    response = client.get("/api/docs", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in response.headers
    preflight = client.options(
        "/api/docs", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"}
    )
    assert "access-control-allow-origin" not in preflight.headers


def test_openapi_schema_lists_every_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert paths == {
        "/api/rule/{number}", "/api/search", "/api/term", "/api/card",
        "/api/examples", "/api/examples/{scenario}", "/api/history/{rule}", "/api/diff", "/api/docs",
    }
    limit = next(p for p in schema["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "limit")
    assert limit["schema"]["maximum"] == 50


def test_offline_docs_page(client: TestClient) -> None:
    """FastAPI's Swagger page would load from a CDN; /api is rendered here, with no external URL."""
    assert client.get("/docs").status_code == 404
    page = client.get("/api")
    assert page.status_code == 200
    assert "/api/search" in page.text and "/openapi.json" in page.text
    assert "https://" not in page.text and "http://" not in page.text


def test_serve_says_when_it_cannot_listen() -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli_app, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    said = f"error: --host 127.0.0.1 --port {port}: cannot listen there (Address already in use)"
    assert said in result.output


def test_the_server_raises_its_open_files_limit_within_the_hard_one() -> None:
    """A home with the whole archive needs about 310 descriptors under load: over macOS's
    default soft limit of 256 (`server.OPEN_FILES`)."""
    resource = pytest.importorskip("resource")
    from regelwerk.cli.web.server import raise_open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, soft), hard))
        now = raise_open_files(1024)
        expected = 1024 if hard == resource.RLIM_INFINITY else min(1024, hard)
        assert now == expected == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert raise_open_files(300) == expected  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
