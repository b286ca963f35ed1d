"""Hostile ingest input (issue 14 item 3): odd charsets, undecodable file names, pathological
HTML, endless words, named pipes, oversize files, symbolic links. Each gives a stored document
or a clean one-line error, never an internal error, a hang or a lost neighbour."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import regelwerk.ingest as ingest
from regelwerk.index.search.analysis import german, split_compound
from regelwerk.index.store.corpus import Corpus
from regelwerk.ingest import cr_html, read_document
from regelwerk.ingest.model.errors import IngestError

CR = (
    "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    "1. Game Concepts\n\n100. General\n\n100.1. These rules apply.\n\n100.1a A subrule.\n\n"
    "Glossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
)


def _html(charset: str, body: str = "These +AGEAYgBj- rules apply.") -> bytes:
    return (
        f"<html><head><meta http-equiv=Content-Type content='text/html; charset={charset}'></head><body>"
        "<p>Magic: The Gathering Comprehensive Rules</p>"
        "<p>These rules are effective as of April 17, 2026.</p>"
        f"<p>1. Game Concepts</p><p>100. General</p><p>100.1. {body}</p></body></html>"
    ).encode("ascii")


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regelwerk", *args], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("charset", ["utf-7", "base64", "zlib", "utf-16", "idna", "rot13", "hex", "nonsense"])
def test_odd_meta_charsets_are_stored_or_guessed(tmp_path: Path, charset: str) -> None:
    src = tmp_path / f"cr-{charset}.htm"
    src.write_bytes(_html(charset))
    library = Corpus(tmp_path / "home")
    report = library.ingest([src], "cr-html")
    assert not report.errors, report.errors
    parsed = report.documents[0]
    if charset != "utf-7":  # refused as a charset: the page is read as what it is (ASCII)
        assert any(charset in i.message for i in parsed.issues)
    reread = Corpus(tmp_path / "home").store.get(parsed.document.id)
    assert reread.document.sha256 == parsed.document.sha256


def test_lone_surrogates_from_a_codec_are_replaced() -> None:
    assert cr_html._decoded("a\udcffb".encode("utf-8", "surrogatepass"), "utf-8") == "a\ufffd\ufffd\ufffdb"


def test_undecodable_file_name_is_stored_and_its_neighbour_too(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    odd = os.fsdecode(b"cr-\xff.txt")
    (folder / odd).write_text(CR, encoding="utf-8")
    (folder / "good.txt").write_text(CR.replace("April 17, 2026", "April 18, 2026"), encoding="utf-8")
    proc = _run("ingest", str(folder), "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert len(data["documents"]) == 2
    assert any(d["source"].endswith("cr-\ufffd.txt") for d in data["documents"])
    listed = json.loads(_run("docs", "--json").stdout)["documents"]
    assert {"2026-04-17", "2026-04-18"} <= {d["version"] for d in listed}


def test_unclosed_paragraphs_each_keep_only_their_own_text() -> None:
    """20,000 unclosed <p> nest 20,000 deep; reading each one's subtree was quadratic (210 s).
    The walk gives each paragraph its own text, so the first is not the whole page."""
    lines = cr_html.paragraphs("<body>" + "<p>Rule text\n" * 2000)
    assert len(lines) == 2000
    assert {text for _, text in lines} == {"Rule text"}


def test_an_endless_word_is_neither_split_nor_indexed() -> None:
    word = "x" * 320_000
    assert split_compound(word) == ()
    assert [t.text for t in german()(f"{word} Kampfschaden")] == ["kampfschad", "kampf", "schad"]
    assert split_compound("ebene" * 12 + "x") == ()  # a failing split is not retried exponentially


def test_a_document_with_an_endless_word_is_searchable(tmp_path: Path) -> None:
    src = tmp_path / "long.txt"
    src.write_text(CR.replace("These rules apply.", "These rules apply " + "a" * 320_000 + "."), "utf-8")
    assert _run("ingest", str(src)).returncode == 0
    proc = _run("search", "rules apply", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hits"]


def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(IngestError, match="named pipe"):
        read_document(fifo)
    proc = _run("ingest", str(fifo), timeout=60)
    assert proc.returncode == 1 and "named pipe" in proc.stderr
    (tmp_path / "ok.txt").write_text(CR, encoding="utf-8")
    proc = _run("ingest", str(tmp_path), "--json", timeout=60)  # the pipe inside a folder: skipped
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and len(data["documents"]) == 1
    assert any("pipe.txt" in s and "not a regular file" in s for s in data["skipped"])


def test_an_oversize_file_is_refused_with_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "MAX_DOCUMENT_BYTES", 100)
    src = tmp_path / "big.txt"
    src.write_text(CR, encoding="utf-8")
    with pytest.raises(IngestError, match="the limit is 100"):
        read_document(src)


def test_directory_ingest_does_not_follow_symlinks_unless_asked(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n" * 3, encoding="utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "cr.txt").write_text(CR, encoding="utf-8")
    (folder / "passwd.txt").symlink_to(secret)
    proc = _run("ingest", str(folder), "--format", "excerpt", "--json")
    data = json.loads(proc.stdout)
    assert len(data["documents"]) == 1, data
    assert any("passwd.txt" in s and "symbolic link" in s for s in data["skipped"])
    with pytest.raises(IngestError, match="symbolic link"):
        read_document(folder / "passwd.txt", follow_symlinks=False)
    proc = _run("ingest", str(folder), "--format", "excerpt", "--follow-symlinks", "--json")
    assert len(json.loads(proc.stdout)["documents"]) == 2
