"""``update`` against a local HTTP server on 127.0.0.1 (no test reaches the internet), and
``forget``: the store grows and shrinks by one release, the indexes follow."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from regelwerk.index.facade import Library
from regelwerk.ingest.fetch import FetchError, find_txt_link
from tests.conftest import CORPUS, NEEDS_SHARED

OLD = CORPUS / "en" / "MagicCompRules-20260116.txt"
NEW = CORPUS / "en" / "MagicCompRules-20260417.txt"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """A copy of Wizards' rules page with a link to the 2026-04-17 .txt, served on 127.0.0.1."""
    root = tmp_path / "site"
    (root / "files").mkdir(parents=True)
    if NEW.exists():
        shutil.copy(NEW, root / "files" / "MagicCompRules 20260417.txt")
    (root / "rules.html").write_text(
        '<!doctype html><html><body><a href="/en/formats">Formats</a>'
        '<a href="files/MagicCompRules%2020260417.txt">TXT</a></body></html>',
        encoding="utf-8",
    )
    (root / "empty.html").write_text("<!doctype html><html><body>nothing</body></html>", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_find_txt_link() -> None:
    page = '<a href="/x.pdf">PDF</a> <a href="https://media.example/MagicCompRules%2020260417.txt">TXT</a>'
    assert find_txt_link(page, "https://magic.example/en/rules").endswith("MagicCompRules%2020260417.txt")
    assert (
        find_txt_link('<a href="rules/CR.txt">', "https://a.example/en/")
        == "https://a.example/en/rules/CR.txt"
    )
    with pytest.raises(FetchError, match="no link"):
        find_txt_link("<p>nothing</p>", "https://a.example/")


@NEEDS_SHARED
def test_update_forget_and_update_again(site: str, tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    library.ingest([OLD])
    done = library.update(f"{site}/rules.html")
    assert done["updated"] is True
    assert (done["version"], done["previous"]) == ("2026-04-17", "2026-01-16")
    assert done["counts"]["renumbered"] > 100 and done["counts"]["added"] > 0
    assert library.rule("722", version="2026-01-16")["rule"]["today"] == "723"
    again = library.update(f"{site}/files/MagicCompRules%2020260417.txt")
    assert again["updated"] is False

    gone = library.forget("2026-04-17")
    assert gone["forgotten"]["id"] == "cr-en-2026-04-17"
    assert "cr-en-2026-04-17" not in {d["id"] for d in library.docs()["documents"]}
    assert library.rule("722", version="2026-01-16")["rule"]["today"] == "722"
    with pytest.raises(ValueError, match="no stored document"):
        library.forget("2026-04-17")


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"REGELWERK_HOME": str(home), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "regelwerk", *args], capture_output=True, text=True, timeout=300, env=env
    )


def test_no_network_is_one_line_and_changes_nothing(tmp_path: Path, site: str) -> None:
    home = tmp_path / "home"
    assert _cli(home, "docs").returncode == 0
    manifest = (home / "store" / "manifest.json").read_bytes()
    for url in ("http://127.0.0.1:9/rules", f"{site}/empty.html", f"{site}/missing.txt"):
        proc = _cli(home, "update", "--url", url)
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error:"), proc.stderr
        assert "Traceback" not in proc.stderr
        assert (home / "store" / "manifest.json").read_bytes() == manifest
    proc = _cli(home, "update", "--url", "http://127.0.0.1:9/rules", "--json")
    assert json.loads(proc.stdout)["ok"] is False
