"""Benchmark of the card database (not a test): ingest of every MTGJSON set file, cold lookups.

Run as ``python bench/cards.py`` from the repository root (needs ../shared). Everything happens
in a temporary REGELWERK_HOME. Printed:

- wall time and peak resident memory of one ``regelwerk ingest`` of the 147 compressed set
  files in ``../shared/corpus/cards/mtgjson/`` (targets: <= 60 s, <= 1 GB), measured on the
  child process (``RUSAGE_CHILDREN``), and how much the store grew;
- cold process time of ``regelwerk card Tatzelwurm`` and ``regelwerk term Tatzelwurm`` beside a
  minimal typer app's start time (target: <= 1.5x that floor each) and whether whoosh was
  imported on those paths (it must not be).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.scratch import scratch  # noqa: E402  (after the path is set)

CARDS = ROOT.parent / "shared" / "corpus" / "cards" / "mtgjson"
CLI = [sys.executable, "-c", "from regelwerk.cli.app import main; main()"]


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> int:
    if not CARDS.is_dir():
        print(f"skipped: {CARDS} not found (../shared is needed)")
        return 0
    from bench.bench import FLOOR_APP, _cold

    home = scratch("regelwerk-bench-cards-")
    env = {**os.environ, "REGELWERK_HOME": str(home)}
    subprocess.run([*CLI, "docs"], env=env, check=True, stdout=subprocess.DEVNULL)  # seeds first
    before = _size(home)
    files = sorted(CARDS.glob("*.json.xz"))
    start = time.perf_counter()
    subprocess.run([*CLI, "ingest", str(CARDS), "--json"], env=env, check=True, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    grown = (_size(home) - before) / 1e6
    packed = sum(f.stat().st_size for f in files) / 1e6
    print(f"== ingest {len(files)} MTGJSON set files ({packed:.1f} MB compressed)")
    print(f"wall {took:.1f} s (target <= 60 s), peak RSS {peak_mb:.0f} MB (target <= 1024 MB)")
    print(f"store grew by {grown:.1f} MB")

    floor_file = home / "floor.py"
    floor_file.write_text(FLOOR_APP)
    floor = _cold([sys.executable, str(floor_file), "x"], env)
    print("\n== cold process (median of several runs; machine shared)")
    print(f"typer floor          {floor * 1000:7.1f} ms")
    for args in (["card", "Tatzelwurm"], ["term", "Tatzelwurm"]):
        cold = _cold([*CLI, *args], env)
        probe = subprocess.run(
            [sys.executable, "-X", "importtime", *CLI[1:], *args], env=env, capture_output=True, text=True
        )
        whoosh = "whoosh" in probe.stderr
        label = " ".join(args)
        print(
            f"{label:<20} {cold * 1000:7.1f} ms  {cold / floor:.2f}x floor (target <= 1.5x)"
            f"  whoosh imported: {'yes' if whoosh else 'no'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
