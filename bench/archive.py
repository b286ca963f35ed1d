"""Benchmark of the whole CR archive (not a test): ``python bench/archive.py`` from the repository
root, needs ../shared. Everything happens in a temporary REGELWERK_HOME. Printed, with the
targets of issue 10:

- ``regelwerk ingest ../shared/corpus/archive/ ../shared/corpus/en/`` into an empty store with
  every derived structure built, the newest release (en/2026-04-17) held back (<= 90 s);
- adding that one release (<= 5 s), and what sealing costs in it: each build records the
  size and sha256 of the SQLite databases that grow in place (lineage, linking's lookups; the
  card database on a card ingest), hashing them whole;
- the first cold ``search banding`` after it, beside a minimal typer app's start (<= 2x);
- warm search p50/p95 with every release stored, default scope and --all-versions
  (p95 <= 20 ms);
- cold ``history banding`` (<= 1.5x the typer floor);
- store size on disk against the raw text (aim <= 3x);
- per-era parse figures and the lineage counts of every adjacent pair.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.scratch import scratch  # noqa: E402  (after the path is set)

CORPUS = ROOT.parent / "shared" / "corpus"
NEWEST = CORPUS / "en" / "MagicCompRules-20260417.txt"
QUERIES = (
    "banding",
    "trample",
    "Bündnisfähigkeit",
    "702.22",
    "first strike damage",
    "mulligan",
    "wer verteilt den Kampfschaden",
    "flanking",
    "phasing",
    "commander tax",
    "702.19",
    "Trampelschaden",
    "deathtouch lifelink",
    "split second",
    "Weltenwanderer",
)


#: CPU seconds (user + system) of the last `_run`'s process: the machine is shared, so wall
#: time alone says as much about the neighbours as about regelwerk.
LAST_CPU = [0.0]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one run (its CPU seconds go to LAST_CPU)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    LAST_CPU[0] = _children_cpu() - cpu
    return took


def _cpu_runs(args: list[str], env: dict[str, str], n: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of `n` runs."""
    walls, cpus = [], []
    for _ in range(n):
        walls.append(_run(args, env))
        cpus.append(LAST_CPU[0])
    return statistics.median(walls), statistics.median(cpus)


def _size(folder: Path) -> int:
    """Bytes on disk under `folder`, each file once: a grown search index links the previous
    one's segment files (the same inode in both artefacts) instead of copying them."""
    seen: dict[tuple[int, int], int] = {}
    for p in folder.rglob("*"):
        if p.is_file():
            st = p.stat()
            seen[(st.st_dev, st.st_ino)] = st.st_size
    return sum(seen.values())


def _sealing(home: Path, add: float) -> None:
    """What sealing costs a build: `disk.seal` of every sealed database of the home, timed as a
    build runs it (the database just written, so in the page cache). Sealing an unchanged file
    again writes the same record, so the home is left as it was."""
    from regelwerk.index.store.disk import SEAL, seal

    sealed = sorted(p.with_name(p.name[: -len(SEAL)]) for p in home.rglob(f"*{SEAL}"))
    total_bytes, total_ms = 0, 0.0
    for path in sealed:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            seal(path)
            times.append((time.perf_counter() - start) * 1000)
        size, ms = path.stat().st_size, statistics.median(times)
        total_bytes, total_ms = total_bytes + size, total_ms + ms
        print(f"   seal {path.relative_to(home)}: {size / 1e6:.1f} MB in {ms:.0f} ms")
    print(
        f"== sealing: {total_bytes / 1e6:.1f} MB hashed in {total_ms:.0f} ms per build = "
        f"{total_ms / 10 / add:.1f}% of adding one release"
    )


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    if not NEWEST.exists():
        print("skipped: ../shared/corpus is needed")
        return 0
    home = scratch("regelwerk-archive-bench-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["REGELWERK_HOME"] = str(home)
    os.environ["REGELWERK_HOME"] = str(home)
    cli = [sys.executable, "-c", "from regelwerk.cli.app import main; main()"]
    files = sorted((CORPUS / "archive").glob("*.txt")) + [
        p for p in sorted((CORPUS / "en").glob("*.txt")) if p != NEWEST
    ]
    raw = sum(p.stat().st_size for p in files) + NEWEST.stat().st_size

    print(f"== ingest {len(files)} files (archive + en without 2026-04-17) into an empty store")
    print(f"   load average before: {os.getloadavg()[0]:.1f}")
    took = _run([*cli, "ingest", *map(str, files)], env)
    print(f"{took:.1f} s wall, {LAST_CPU[0]:.1f} s CPU (target <= 90 s)")
    print("== one more release (en/2026-04-17)")
    took = _run([*cli, "ingest", str(NEWEST)], env)
    print(f"{took:.1f} s wall, {LAST_CPU[0]:.1f} s CPU (target <= 5 s; load {os.getloadavg()[0]:.1f})")
    _sealing(home, took)

    floor_file = home / "floor.py"
    floor_file.write_text(
        "import typer\napp = typer.Typer(add_completion=False)\n"
        "@app.command()\ndef hello(name: str) -> None:\n    typer.echo(name)\napp()\n"
    )
    first = _run([*cli, "search", "banding"], env)
    first_cpu = LAST_CPU[0]
    floor, floor_cpu = _cpu_runs([sys.executable, str(floor_file), "x"], env, 5)
    print(
        f"== first cold search after the ingest: {first:.2f} s = {first / floor:.1f}x the typer floor "
        f"{floor:.2f} s; CPU {first_cpu:.2f} s = {first_cpu / floor_cpu:.1f}x {floor_cpu:.2f} s "
        "(target <= 2x)"
    )
    history, history_cpu = _cpu_runs([*cli, "history", "banding"], env, 5)
    print(
        f"== cold history banding: {history:.2f} s = {history / floor:.1f}x; CPU {history_cpu:.2f} s = "
        f"{history_cpu / floor_cpu:.1f}x (target <= 1.5x)"
    )

    from regelwerk.index.facade import Library

    library = Library()
    for q in QUERIES:  # warm up: open the index, load the tables
        library.search(q)
        library.search(q, all_versions=True)
    for label, all_versions in (("default scope (newest release)", False), ("--all-versions", True)):
        times, cpus = [], []
        for _ in range(10):
            for q in QUERIES:
                start, cpu = time.perf_counter(), time.process_time()
                library.search(q, all_versions=all_versions)
                times.append((time.perf_counter() - start) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
        print(
            f"== warm search, {label}: p50 {statistics.median(times):.1f} ms, "
            f"p95 {_pct(times, 95):.1f} ms over {len(times)}; CPU p50 {statistics.median(cpus):.1f} ms, "
            f"p95 {_pct(cpus, 95):.1f} ms (target p95 <= 20 ms; load average {os.getloadavg()[0]:.1f})"
        )

    store = _size(home)
    print(
        f"== store {store / 1e6:.0f} MB for {raw / 1e6:.0f} MB of raw text = {store / raw:.1f}x (aim <= 3x)"
    )
    for part in sorted(p for p in home.iterdir() if p.is_dir()):
        print(f"   {part.name}: {_size(part) / 1e6:.0f} MB")

    from regelwerk.index.linking.lineage import summarize
    from regelwerk.index.rules.lookup import lineage_chain

    chain = lineage_chain(library.corpus)
    totals: dict[str, int] = {}
    for older, newer in zip(chain.releases, chain.releases[1:], strict=False):
        for k, n in summarize(chain.pair(older, newer)).items():
            totals[k] = totals.get(k, 0) + n
    print(f"== lineage over {len(chain.releases)} releases ({len(chain.releases) - 1} pairs): {totals}")
    eras: dict[str, list[int]] = {}
    for d in library.docs()["documents"]:
        if d["kind"] == "cr-text" and d["version"]:
            era = "before 2009-07" if d["version"] < "2009-07" else "2009-07 and later"
            eras.setdefault(era, []).append(d["rules"])
    for era, counts in sorted(eras.items()):
        print(f"   {era}: {len(counts)} releases, {min(counts)}-{max(counts)} rules each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
