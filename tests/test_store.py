from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from regelwerk.index.store import disk
from regelwerk.index.store.disk import Store
from regelwerk.ingest.model.records import Document, ParsedDocument, Section
from tests.conftest import CORPUS, NEEDS_SHARED


def _doc(doc_id: str, sha: str, text: str = "Banding is a static ability.") -> ParsedDocument:
    doc = Document(doc_id, "t", "en", "cr-text", "2026-04-17", "x.txt", sha)
    sec = Section(doc_id, "702.22a", "702.22", "", text, "en", 0, "subrule", lines=(1,))
    return ParsedDocument(doc, sections=(sec,))


def test_round_trip_and_reopen(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    again = Store(tmp_path)
    assert again.ids() == ["a"]
    parsed = again.get("a")
    assert parsed.sections[0].number == "702.22a"
    assert parsed.sections[0].lines == (1,)
    assert parsed == _doc("a", "1")


def test_fingerprint_changes_only_with_documents(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    f1 = store.fingerprint()
    store.put(_doc("a", "1"))
    assert store.fingerprint() == f1
    store.put(_doc("a", "2"))
    assert store.fingerprint() != f1


def _counting(calls: list[Path]) -> Callable[[Path], None]:
    """A build that writes "v1" and notes each call."""
    def build(tmp: Path) -> None:
        calls.append(tmp)
        (tmp / "data").write_text("v1")

    return build


def test_derived_builds_once_and_swaps_atomically(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    calls: list[Path] = []
    build = _counting(calls)

    with store.publishing():
        first = store.derived("thing", build)
        second = store.derived("thing", build)
    assert first == second and len(calls) == 1
    assert (first / "data").read_text() == "v1"
    assert Store(tmp_path).derived("thing", build) == first and len(calls) == 1  # a reader finds it

    def broken(tmp: Path) -> None:
        (tmp / "data").write_text("half")
        raise RuntimeError("crash mid-build")

    with pytest.raises(RuntimeError), store.publishing():
        store.put(_doc("b", "9"))
        store.derived("thing", broken)
    # the failed build left no directory behind under the new fingerprint, and the old one is intact
    assert len(list((tmp_path / "derived").glob("*/thing"))) == 1
    assert (first / "data").read_text() == "v1" and Store(tmp_path).ids() == ["a"]
    with store.publishing():
        store.put(_doc("b", "9"))
        new = store.derived("thing", build)
    assert new != first and (new / "data").read_text() == "v1"
    assert not first.exists()  # the previous generation is pruned after a successful build


def test_a_reader_never_builds(tmp_path: Path) -> None:
    """Readers never build: a state no writer built (here: committed without its artefact, as
    a new home or an upgrade leaves it) is NotBuilt for a reader, which builds nothing; a writer
    step builds it, and then every reader finds it."""
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    calls: list[Path] = []
    build = _counting(calls)

    with pytest.raises(disk.NotBuilt, match="thing"):
        Store(tmp_path).derived("thing", build)
    assert not calls and not list((tmp_path / "derived").glob("*/*thing*"))
    with store.publishing():
        built = store.derived("thing", build)
    (built / "data").write_text("v1 and more")  # damage the cheap check sees: a reader does not rebuild it
    with pytest.raises(disk.NotBuilt, match="bytes, expected"):
        Store(tmp_path).derived("thing", build)
    assert len(calls) == 1


def test_remove(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    store.remove("a")
    assert Store(tmp_path).ids() == []


def test_a_version_a_reader_holds_survives_a_new_build_and_goes_once_released(tmp_path: Path) -> None:
    """Pruning removes only what no reader holds: a lease, not a grace period."""
    store = Store(tmp_path)
    with store.publishing():
        store.put(_doc("a", "1"))
        store.derived("thing", lambda tmp: (tmp / "data").write_text("v1"))
    reader = Store(tmp_path)
    first = reader.derived("thing", lambda tmp: (tmp / "data").write_text("v1"))
    with store.publishing():
        store.put(_doc("b", "9"))
        second = store.derived("thing", lambda tmp: (tmp / "data").write_text("v2"))
    assert first != second
    assert (first / "data").read_text() == "v1"  # the reader still holds it
    del reader  # its leases end with it (a CLI command: when it exits)
    gc.collect()
    with store.publishing():
        store.put(_doc("c", "3"))
        third = store.derived("thing", lambda tmp: (tmp / "data").write_text("v3"))
    assert not first.exists() and not second.exists() and third.exists()
    assert not disk.leases.lease_path(tmp_path / "derived", first.parent.name).exists()


def test_publishing_shows_nothing_until_the_commit_and_nothing_after_a_failure(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put(_doc("a", "1"))
    with store.publishing():
        store.put(_doc("b", "2"))
        store.derived("thing", lambda tmp: (tmp / "data").write_text("ab"))
        assert Store(tmp_path).ids() == ["a"]  # another process sees the committed state only
        assert not store.record_path("b").exists()
    assert Store(tmp_path).ids() == ["a", "b"]
    with pytest.raises(RuntimeError), store.publishing():
        store.put(_doc("c", "3"))
        store.remove("a")
        raise RuntimeError("build failed")
    assert Store(tmp_path).ids() == ["a", "b"] and store.ids() == ["a", "b"]
    assert not store.record_path("c").exists() and store.record_path("a").exists()
    with store.publishing():
        store.remove("a")
    assert Store(tmp_path).ids() == ["b"] and not store.record_path("a").exists()


def test_records_are_stored_compressed_and_a_flipped_bit_is_damage(tmp_path: Path) -> None:
    import gzip
    import json

    from regelwerk.ingest.model.errors import StoreError

    text = " ".join(["Banding is a static ability that modifies the rules for combat."] * 200)
    store = Store(tmp_path)
    store.put(_doc("a", "1", text))
    path = store.record_path("a")
    raw = path.read_bytes()
    assert len(raw) * 5 < len(json.dumps(_doc("a", "1", text).to_dict()))
    assert Store(tmp_path).get("a") == _doc("a", "1", text)
    # a record as older versions wrote it (plain JSON) still reads
    path.write_text(gzip.decompress(raw).decode("utf-8"), encoding="utf-8")
    assert Store(tmp_path).get("a") == _doc("a", "1", text)
    # a flipped bit inside the compressed text fails gzip's CRC: named damage, never wrong text
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0x04
    path.write_bytes(bytes(flipped))
    with pytest.raises(StoreError, match="record of 'a' is damaged"):
        Store(tmp_path).get("a")


def test_a_record_with_a_lone_surrogate_or_any_character_reads_back_as_it_was(tmp_path: Path) -> None:
    """Records are written by msgspec; a lone surrogate (which it refuses as UTF-8) falls back
    to ASCII escapes, and both kinds read back to the same record."""
    store = Store(tmp_path)
    odd = "Bündnis \u2028 line\x00 \"quoted\" \\ tab\t æ ™ 𝔐"
    store.put(_doc("a", "1", odd))
    store.put(_doc("b", "2", "lone \udc80 surrogate"))
    again = Store(tmp_path)
    assert again.get("a") == _doc("a", "1", odd)
    assert again.get("b") == _doc("b", "2", "lone \udc80 surrogate")


@NEEDS_SHARED
def test_a_record_s_json_is_its_to_dict() -> None:
    """`encode_record` hands the dataclasses to msgspec: the JSON must hold exactly what
    ``to_dict`` gives (the same keys in the same order, lists for tuples), for a CR release
    with examples, references and issues, and for one of the old numbering."""
    import gzip
    import json

    from regelwerk.ingest import parse_bytes

    for name in ("en/MagicCompRules-20260116.txt", "archive/MagicCompRules-20090904.txt"):
        path = CORPUS / name
        parsed = parse_bytes(path.read_bytes(), str(path))
        stored = json.loads(gzip.decompress(disk.encode_record(parsed)))
        assert json.dumps(stored) == json.dumps(parsed.to_dict())
        assert ParsedDocument.from_dict(stored) == parsed


def _big_cr(folder: Path) -> Path:
    """A CR whose rules table is larger than the files hashed on every use (64 KB)."""
    rules = "\n\n".join(f"100.{i}. Rule {i} says that trample and banding work as rule {i} describes."
                        for i in range(1, 1500))
    path = folder / "cr.txt"
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
    tail = "\n\nGlossary\n\nAbility\nSomething.\n\nCredits\n\nPeople.\n"
    path.write_text(f"{head}1. Game Concepts\n\n100. General\n\n{rules}{tail}", encoding="utf-8")
    return path


READS = """
import json, sys
from regelwerk.index.facade import Library
answer = Library().rule("100.7")["rule"]["text"]
print(json.dumps([answer, sorted(m for m in ("hashlib", "regelwerk.index.store.journal",
                                             "regelwerk.ingest.model.ids") if m in sys.modules)]))
"""


def _read_rule(home: Path) -> tuple[str, list[str]]:
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "REGELWERK_HOME": str(home)}
    out = subprocess.run([sys.executable, "-c", READS], env=env, capture_output=True, text=True, check=True)
    answer, loaded = json.loads(out.stdout.strip().splitlines()[-1])
    return answer, loaded


def test_a_reader_of_the_committed_state_hashes_nothing_and_a_bad_marker_costs_only_a_hash(
    tmp_path: Path,
) -> None:
    """The writer step's ready marker (``ready``) answers a reader's checks (seeds current?
    which derived version? which term tables?) without hashing: a `rule` loads neither hashlib
    nor the journal. A marker damaged, or left from an older state, is not believed: the
    reader hashes and reads the right state."""
    from regelwerk.index.facade import Library
    from regelwerk.index.store.ready import MARKER

    home = tmp_path / "home"
    library = Library(home)
    library.ingest([_big_cr(tmp_path)])
    marker = home / "derived" / MARKER
    assert _read_rule(home) == ("Rule 7 says that trample and banding work as rule 7 describes.", [])
    old = marker.read_bytes()
    cr = _big_cr(tmp_path)
    cr.write_text(cr.read_text(encoding="utf-8").replace("Rule 7 says", "Rule 7 now says"), encoding="utf-8")
    library.ingest([cr], replace=True)
    assert marker.read_bytes() != old
    assert _read_rule(home) == ("Rule 7 now says that trample and banding work as rule 7 describes.", [])
    for stale in (old, old.replace(b'"fingerprint": "', b'"fingerprint": "0', 1)[:-1],
                  marker.read_bytes()[:-3] + b"123"):
        marker.write_bytes(stale)  # an older state's marker, one of the wrong shape, a failed CRC
        answer, loaded = _read_rule(home)
        assert answer == "Rule 7 now says that trample and banding work as rule 7 describes."
        assert "hashlib" in loaded  # computed, not believed
    assert json_problems(home) == []


def json_problems(home: Path) -> list[str]:
    from regelwerk.index.store.doctor import doctor

    return list(doctor(home)["problems"])


def test_a_package_file_changed_since_the_marker_is_hashed_again(tmp_path: Path) -> None:
    """A stamp is taken from the marker only for exactly the files it was computed from (path,
    size, modification time): an edited table, even of the same size, is hashed again."""
    from regelwerk.index.store import ready

    table = tmp_path / "keywords.tsv"
    table.write_text("Banding\tBündnis\n", encoding="utf-8")
    calls: list[str] = []

    def compute() -> str:
        calls.append("hash")
        return table.read_text(encoding="utf-8")

    assert ready.stamp("test-table", [table], compute) == "Banding\tBündnis\n"
    assert ready.stamp("test-table", [table], compute) == "Banding\tBündnis\n" and calls == ["hash"]
    table.write_text("Banding\tBuendnis\n", encoding="utf-8")
    assert len(table.read_bytes()) == len("Banding\tBündnis\n".encode())
    import os

    os.utime(table, ns=(1, 1))  # another modification time, as an edit has
    assert ready.stamp("test-table", [table], compute) == "Banding\tBuendnis\n" and calls == ["hash", "hash"]
