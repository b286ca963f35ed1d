"""Long hypothesis campaigns per entry point (issue 14): counts internal errors and slow cases.

    python bench/fuzz.py [--cases 5000] [--only args,ingest,html,scenarios,damage,queries] [--seed S]

Each entry point gets `--cases` generated inputs (hypothesis, no shrinking). A case that
raises anything but a RegelwerkError (or, for commands, prints "internal error") counts as an
internal error; a case over 5 s counts as a hang (an alarm stops it at 30 s). Every entry point
reports how many of its cases were distinct inputs.

- scenarios: a packaged scenario mutated 1-3 times as data (a value of another type, an id
  from the file, a field removed, an array nested deep) and played in German or English, or
  its text edited line by line and parsed and played (`tests.fuzzing.scenario_cases`); only a
  ``ScenarioError`` is a clean answer.

- damage: each case does 1-3 damages to a copy of a home holding every kind of artefact
  (`tests.fuzzing.store_damage`: which artefact, what damage, which of 32 offset buckets;
  values changed in place in a database; a release dropped from the manifest or journal),
  then every read, `doctor`, for one case in 8 an ingest of a new release, and
  `doctor --repair`, which must leave the home healthy, every release read or named lost,
  and the answers of the healthy home (`tests.fuzzing.survive`). Distinct cases are counted
  by their (artefact, kind, bucket) damages: a case hypothesis drew before is replaced by a
  fresh one (`tests.fuzzing.fresh_case`), so every case of a run is distinct; the report also
  counts the distinct single damages covered. A repair that fails counts as "unhealed".
- queries: every generated argument list is searched as a query (limit 200, all versions)
  on the full 2026-04-17 CR in-process (no process start in the figures), and `term` and
  `card` lookups of it too; max, p99 and the count over the 1 s budget are reported, with
  the load average (the machine is a shared 2-core box).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.fuzzing

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from bench.scratch import scratch as scratch_dir
from tests.fuzzing import command_args, damage, html_bytes, ingest_bytes, scenario_cases, store_damage

HANG = 5.0
#: hypothesis's seed (``--seed``): runs in parallel processes draw different cases.
SEED = [0]
CR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "en" / "MagicCompRules-20260417.txt"
CARDS = CR.parents[1] / "cards"


class Alarm(Exception):
    pass


class Unrepaired(Exception):
    """doctor --repair did not heal a damaged home (counted apart from internal errors)."""


def _alarm(signum: int, frame: Any) -> None:
    raise Alarm()


def campaign(
    name: str, strategy: st.SearchStrategy[Any], body: Callable[[Any], None], cases: int
) -> dict[str, Any]:
    from regelwerk.ingest.model.errors import RegelwerkError

    counts: Counter[str] = Counter()
    slowest = [0.0]
    first: dict[str, str] = {}
    inputs: set[bytes] = set()

    @settings(max_examples=cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @seed(SEED[0])
    @given(strategy)
    def run(value: Any) -> None:
        if sum(counts.values()) % 500 == 0:
            print(f"  {name}: {sum(counts.values())} cases, {dict(counts)}", file=sys.stderr, flush=True)
        inputs.add(hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).digest())
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
        except Unrepaired as exc:
            counts["unhealed"] += 1
            first.setdefault("unhealed", f"{value!r}"[:200] + f"\n{exc}"[:300])
            print(f"  unhealed: {value!r}"[:400] + f"\n  {exc}"[:400], file=sys.stderr, flush=True)
        except Exception:
            counts["internal error"] += 1
            trace = traceback.format_exc(limit=3)[-600:]
            first.setdefault("internal error", f"{value!r}"[:200] + "\n" + trace)
            print(f"  internal error: {value!r}"[:400] + "\n" + trace, file=sys.stderr, flush=True)
        finally:
            signal.alarm(0)
        took = time.perf_counter() - start
        slowest[0] = max(slowest[0], took)
        if took > HANG:
            counts["over 5 s"] += 1

    start = time.perf_counter()
    run()
    total = sum(v for k, v in counts.items() if k != "over 5 s")
    return {"entry point": name, "cases": total, "distinct inputs": len(inputs), **counts,
            "slowest s": round(slowest[0], 2),
            "minutes": round((time.perf_counter() - start) / 60, 1), "first": first}


def prepared_home(with_cr: bool) -> Path:
    from regelwerk.index.facade import Library

    home = scratch_dir("fuzz-home-")
    src = home.parent / f"{home.name}.txt"
    src.write_text(
        "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
        "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to trample.\n\nGlossary\n\n"
        "Ability\nSomething.\n\nCredits\n\nPeople.\n", encoding="utf-8")
    library = Library(home)
    library.ingest([CR] if with_cr and CR.exists() else [src])
    if with_cr and CARDS.is_dir():  # card lookups are part of the query budget too
        library.ingest(sorted(CARDS.glob("*.json")))
    library.rule("100.1")
    library.search("trample")
    library.term("trample")
    return home


def main() -> None:
    import os

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--only", default="args,ingest,html,scenarios,damage,queries")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (parallel runs differ)")
    parser.add_argument("--keys", type=Path, help="write the distinct damage cases here (JSON), to count "
                        "the union of parallel runs")
    opts = parser.parse_args()
    SEED[0] = opts.seed
    signal.signal(signal.SIGALRM, _alarm)
    from typer.testing import CliRunner

    from regelwerk.cli.app import app
    from regelwerk.index.facade import Library
    from regelwerk.index.store.corpus import Corpus
    from regelwerk.ingest import cr_html, parse_bytes
    from regelwerk.ingest.model.errors import RegelwerkError

    small = prepared_home(with_cr=False)
    big = prepared_home(with_cr=True) if "queries" in opts.only else small
    scratch = scratch_dir("fuzz-scratch-")
    runner = CliRunner()

    def args(argv: list[str]) -> None:
        result = runner.invoke(app, argv, env={"REGELWERK_HOME": str(small)})
        if "internal error" in result.output or result.exit_code not in (0, 1, 2):
            raise RuntimeError(f"{argv!r}: {result.output[-300:]}")

    def ingest(data: bytes) -> None:
        Corpus(scratch, seed=False).store.put(parse_bytes(data, "fuzz.txt"))

    def html(data: bytes) -> None:
        cr_html.parse(data, "fuzz.htm")

    def scenario(case: tuple[str, str, str, Any]) -> None:
        from regelwerk.engine.errors import ScenarioError
        from regelwerk.engine.runner import run_scenario
        from regelwerk.engine.scenario import parse_scenario, scenario_from_dict

        how, name, lang, value = case
        where = f"fuzz/{name}"
        try:
            if how == "mutated":
                run_scenario(scenario_from_dict(value, where), lang)
            else:
                run_scenario(parse_scenario(value.encode(), where), lang)
        except ScenarioError as exc:  # one line, naming the file: else it is no clean error
            if "\n" in str(exc) or not str(exc).startswith(f"{where}: "):
                raise RuntimeError(f"not one line naming the file: {exc!r}"[:300]) from None
            raise

    import random

    from tests.fuzzing import Unhealed, case_key, damage_home, fresh_case, new_release, survive, values

    damage_base = scratch_dir("fuzz-damage-")
    damage_home(damage_base)
    release = new_release(damage_base)
    reference = values(damage_base / "home")
    distinct: set[Any] = set()
    singles: set[Any] = set()
    ingests = [0]
    fresh = random.Random(opts.seed)

    def store(case: list[Any]) -> None:
        if case_key(case) in distinct:  # hypothesis drew it before: a fresh one instead
            case = fresh_case(fresh, distinct)
        distinct.add(case_key(case))
        singles.update(case_key(case))
        home = damage_base / "case"
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(damage_base / "home", home, symlinks=True)
        for hit in case:
            damage(home, hit)
        with_ingest = case[0][3] % 8 == 0
        ingests[0] += with_ingest
        try:
            survive(home, release if with_ingest else None, reference)
        except Unhealed as exc:
            raise Unrepaired(f"{exc} (case {case!r}, ingest {with_ingest})") from None
        except Exception as exc:  # the case run (a fresh one may stand for hypothesis's draw)
            exc.add_note(f"case {case!r}, ingest {with_ingest}")
            raise

    engine: Any = None
    timings: list[float] = []

    def query(argv: list[str]) -> None:
        nonlocal engine
        from regelwerk.index.search.query import SearchEngine

        if engine is None:
            engine = SearchEngine(Corpus(big))
        words = [w for w in argv[1:] if not w.startswith("--")]
        text = " ".join(words)
        for ask in (lambda: engine.search(text, limit=200, all_versions=True),
                    lambda: library.term(text), lambda: library.card(text)):
            start = time.perf_counter()
            try:
                ask()
            except RegelwerkError:
                pass  # a clean answer too ("no such keyword"); the time is what counts
            finally:
                timings.append(time.perf_counter() - start)

    library = Library(big)
    entries = {
        "args": (command_args(), args), "ingest": (ingest_bytes(), ingest), "html": (html_bytes(), html),
        "scenarios": (scenario_cases(), scenario),
        "damage": (store_damage(), store), "queries": (command_args(), query),
    }
    print(f"fuzz: {opts.cases} cases per entry point, pid {os.getpid()}; the machine is shared")
    for name in opts.only.split(","):
        strategy, body = entries[name]
        result = campaign(name, strategy, body, opts.cases)
        if name == "damage":
            result.update({"distinct cases": len(distinct), "distinct single damages": len(singles),
                           "with an ingest": ingests[0]})
            if opts.keys is not None:
                import json

                opts.keys.write_text(json.dumps(sorted(distinct)), encoding="utf-8")
        if name == "queries" and timings:
            ordered = sorted(timings)
            result.update({"lookups": len(ordered), "max s": round(ordered[-1], 3),
                           "p99 s": round(ordered[int(len(ordered) * 0.99)], 3),
                           "over 1 s": sum(t > 1.0 for t in ordered)})
        result["load average"] = os.getloadavg()
        print(result, flush=True)


if __name__ == "__main__":
    main()
