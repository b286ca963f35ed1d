"""Long hypothesis campaigns per entry point (issue 14): counts internal errors and slow cases.

    python bench/fuzz.py [--cases 5000] [--only args,ingest,html,damage,queries]

Each entry point gets `--cases` generated inputs (hypothesis, no shrinking). A case that
raises anything but a RegelwerkError (or, for commands, prints "internal error") counts as an
internal error; a case over 5 s counts as a hang (an alarm stops it at 30 s). Bad-argument
queries are also timed against the 1 s query budget on whatever is ingested in the home
(use a home with the 2026 CR: REGELWERK_HOME=... python bench/fuzz.py --only queries).
The machine is shared: figures are for a loaded 2-core box.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.fuzzing

import contextlib

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.fuzzing import command_args, damage, html_bytes, ingest_bytes, store_damage

HANG = 5.0
CR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "en" / "MagicCompRules-20260417.txt"


class Alarm(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Alarm()


def campaign(
    name: str, strategy: st.SearchStrategy[Any], body: Callable[[Any], None], cases: int
) -> dict[str, Any]:
    from regelwerk.ingest.model.errors import RegelwerkError

    counts: Counter[str] = Counter()
    slowest = [0.0]
    first: dict[str, str] = {}

    @settings(max_examples=cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(value: Any) -> None:
        signal.alarm(30)
        start = time.perf_counter()
        try:
            body(value)
            counts["ok"] += 1
        except RegelwerkError:
            counts["clean error"] += 1
        except Alarm:
            counts["hang"] += 1
            first.setdefault("hang", repr(value)[:200])
        except Exception:
            counts["internal error"] += 1
            trace = traceback.format_exc(limit=3)[-600:]
            first.setdefault("internal error", f"{value!r}"[:200] + "\n" + trace)
        finally:
            signal.alarm(0)
        took = time.perf_counter() - start
        slowest[0] = max(slowest[0], took)
        if took > HANG:
            counts["over 5 s"] += 1

    start = time.perf_counter()
    run()
    total = sum(v for k, v in counts.items() if k != "over 5 s")
    return {"entry point": name, "cases": total, **counts, "slowest s": round(slowest[0], 2),
            "minutes": round((time.perf_counter() - start) / 60, 1), "first": first}


def prepared_home(with_cr: bool) -> Path:
    from regelwerk.index.facade import Library

    home = Path(tempfile.mkdtemp(prefix="fuzz-home-"))
    src = home.parent / f"{home.name}.txt"
    src.write_text(
        "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
        "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\nGlossary\n\n"
        "Ability\nSomething.\n\nCredits\n\nPeople.\n", encoding="utf-8")
    library = Library(home)
    library.ingest([CR] if with_cr and CR.exists() else [src])
    library.rule("100.1")
    library.search("trample")
    library.term("trample")
    return home


def main() -> None:
    import os

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--only", default="args,ingest,html,damage,queries")
    opts = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    from typer.testing import CliRunner

    from regelwerk.cli.app import app
    from regelwerk.index.facade import Library
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest import cr_html, parse_bytes

    small = prepared_home(with_cr=False)
    big = prepared_home(with_cr=True) if "queries" in opts.only else small
    scratch = Path(tempfile.mkdtemp(prefix="fuzz-scratch-"))
    runner = CliRunner()

    def args(argv: list[str]) -> None:
        result = runner.invoke(app, argv, env={"REGELWERK_HOME": str(small)})
        if "internal error" in result.output or result.exit_code not in (0, 1, 2):
            raise RuntimeError(f"{argv!r}: {result.output[-300:]}")

    def ingest(data: bytes) -> None:
        Corpus(scratch, seed=False).store.put(parse_bytes(data, "fuzz.txt"))

    def html(data: bytes) -> None:
        cr_html.parse(data, "fuzz.htm")

    n = [0]

    def store(hit: tuple[str, int, int]) -> None:
        kind, which, seed = hit
        n[0] += 1
        home = scratch / f"d{n[0]}"
        shutil.copytree(small, home)
        files = sorted(p for p in home.rglob("*") if p.is_file() and not p.name.endswith("lock"))
        damage(files[which % len(files)], kind, seed)
        library = Library(home)
        from regelwerk.ingest.model.errors import RegelwerkError

        for call in (library.docs, lambda: library.rule("100.1"), lambda: library.search("trample"),
                     lambda: library.term("trample")):
            with contextlib.suppress(RegelwerkError):
                call()
        if not Library(home).doctor(repair=True)["healthy"]:
            raise RuntimeError(f"doctor could not repair {kind} of {files[which % len(files)]}")
        Library(home).rule("100.1")
        shutil.rmtree(home, ignore_errors=True)

    engine: Any = None

    def query(argv: list[str]) -> None:
        nonlocal engine
        from regelwerk.index.search.query import SearchEngine

        if engine is None:
            engine = SearchEngine(Corpus(big))
        words = [w for w in argv[1:] if not w.startswith("--")]
        start = time.perf_counter()
        engine.search(" ".join(words), limit=200, all_versions=True)
        if time.perf_counter() - start > 1.0:
            raise RuntimeError(f"query over 1 s: {words!r}")

    entries = {
        "args": (command_args(), args), "ingest": (ingest_bytes(), ingest), "html": (html_bytes(), html),
        "damage": (store_damage(), store), "queries": (command_args(), query),
    }
    print(f"fuzz: {opts.cases} cases per entry point, pid {os.getpid()}; the machine is shared")
    for name in opts.only.split(","):
        strategy, body = entries[name]
        cases = opts.cases if name != "damage" else max(1, opts.cases // 25)  # each copies and heals a store
        print(campaign(name, strategy, body, cases), flush=True)


if __name__ == "__main__":
    main()
