"""Load check for ``regelwerk serve``: concurrent loopback clients on /api/search.

Starts the server (the same app and uvicorn setup as ``regelwerk serve``) on a free loopback
port over a home with the real CR releases (``../shared/corpus/en`` and ``html``, when present),
then runs each scenario for a fixed time with N keep-alive clients, each asking a mixed list of
queries (numbers, English and German keywords, typos, questions, prefixes as one types). Every
run is bounded: a fixed duration, a per-request timeout, and it stops by itself.

    python bench/load.py                    # 50 clients, 4 clients, 50 clients during an ingest
    python bench/load.py --no-cache         # the same with the server's result cache off
    python bench/load.py --clients 50 --seconds 10 --scenario plain

Targets (issue 13, on a 2-core machine): 50 clients 0 errors and >= 150 requests/s;
4 clients p95 <= 50 ms. The client runs in this process on the same machine, so it competes
with the server for the same cores; say so when quoting the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

QUERIES = [
    "702.22", "510.1c", "trample", "Trampelschaden", "flying", "Flugfähigkeit", "banding",
    "Bündnisfähigkeit", "Bündnisfähikeit", "tramle", "deathtouch", "Todesberührung",
    "first strike", "Erstschlag", "wer verteilt den Kampfschaden", "combat damage assignment order",
    "phasing", "Phasing", "hexproof", "Fluchsicher", "Schutz vor", "protection from", "lifelink",
    "Lebensverknüpfung", "state-based actions", "zustandsbasierte Aktionen", "mulligan",
    "what happens when a creature with banding is blocked", "persist", "Beharrlichkeit",
    "B", "Bü", "Bün", "Bünd", "Bündn", "tr", "tra", "tram", "trampl", "ward",
]
TIMEOUT = 5.0

SERVER = """
import sys, uvicorn
from regelwerk.cli.web.app import create_app
from regelwerk.cli.web.backend import Backend
app = create_app(Backend(cache_size=int(sys.argv[1])))
print("ready", flush=True)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", access_log=False)
"""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""

    def fail(self, why: str) -> None:
        self.errors += 1
        self.first_error = self.first_error or why


async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    found = re.search(rb"(?i)content-length:\s*(\d+)", head)
    if found is None:
        raise ValueError("response without content-length")
    return status, await reader.readexactly(int(found.group(1)))


async def _client(port: int, paths: list[str], offset: int, deadline: float, stats: Stats) -> None:
    """One keep-alive connection asking `paths` in turn (starting at `offset`) until `deadline`."""
    conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    i = offset
    while time.perf_counter() < deadline:
        path = paths[i % len(paths)]
        i += 1
        start = time.perf_counter()
        try:
            if conn is None:
                conn = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
            reader, writer = conn
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            status, body = await asyncio.wait_for(_response(reader), TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            stats.fail(f"{path}: {type(exc).__name__}")
            if conn is not None:
                conn[1].close()
            conn = None
            continue
        if status != 200 or not body.startswith(b'{"ok":true'):
            stats.fail(f"{path}: {status} {body[:80]!r}")
            continue
        stats.latencies.append(time.perf_counter() - start)
    if conn is not None:
        conn[1].close()


async def _run(port: int, clients: int, seconds: float) -> Stats:
    paths = [f"/api/search?{urlencode({'q': q, 'limit': 10})}" for q in QUERIES]
    stats = Stats()
    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(_client(port, paths, k * 7, deadline, stats) for k in range(clients)))
    return stats


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="regelwerk-load-"))
    files = sorted((CORPUS / "en").glob("*.txt")) + sorted((CORPUS / "html").glob("*.htm"))
    env = {**os.environ, "REGELWERK_HOME": str(home)}
    if files:
        subprocess.run([sys.executable, "-m", "regelwerk", "ingest", *map(str, files)], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    else:
        print("note: ../shared/corpus is absent; the load runs on the seeds only", file=sys.stderr)
    # build the index now, once, instead of in the server's first (timed-out) requests
    subprocess.run([sys.executable, "-m", "regelwerk", "search", "warm"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return home


def _ingest_loop(home: Path) -> subprocess.Popen[bytes] | None:
    """Another process ingesting archive releases one after another into the same home."""
    archive = sorted((CORPUS / "archive").glob("*.txt"))[:6]
    if not archive:
        return None
    script = (
        "import subprocess, sys\n"
        "for f in sys.argv[1:]:\n"
        "    subprocess.run([sys.executable, '-m', 'regelwerk', 'ingest', f], stdout=subprocess.DEVNULL)\n"
    )
    env = {**os.environ, "REGELWERK_HOME": str(home)}
    # its own process group, so stopping it also stops the ingest it is running
    cmd = [sys.executable, "-c", script, *map(str, archive)]
    return subprocess.Popen(cmd, env=env, start_new_session=True)


def _report(name: str, clients: int, seconds: float, stats: Stats) -> dict[str, object]:
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else float("nan")

    row = {
        "scenario": name, "clients": clients, "seconds": seconds, "requests": len(lat),
        "req_per_s": round(len(lat) / seconds, 1), "p50_ms": pct(0.50), "p95_ms": pct(0.95),
        "p99_ms": pct(0.99), "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "errors": stats.errors,
    }
    print(f"{name:<22} {clients:>3} clients {seconds:>4.0f}s  {row['req_per_s']:>7} req/s  "
          f"p50 {row['p50_ms']:>6} ms  p95 {row['p95_ms']:>6} ms  p99 {row['p99_ms']:>6} ms  "
          f"errors {stats.errors}" + (f" (first: {stats.first_error})" if stats.errors else ""))
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=None, help="only this many clients (one scenario)")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--scenario", choices=["all", "plain", "ingest"], default="all")
    ap.add_argument("--no-cache", action="store_true", help="turn the server's result cache off")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = ap.parse_args()

    home = _home()
    port = _free_port()
    env = {**os.environ, "REGELWERK_HOME": str(home)}
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, "0" if args.no_cache else "1024", str(port)],
        env=env, stdout=subprocess.PIPE, text=True,
    )
    rows = []
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        warm = asyncio.run(_run(port, 1, 1.0))  # wait for the listener, build what the first query builds
        for _ in range(60):
            if warm.latencies:
                break
            time.sleep(0.5)
            warm = asyncio.run(_run(port, 1, 1.0))
        plan = []
        if args.scenario in ("all", "plain"):
            plan += [("plain", n) for n in ([args.clients] if args.clients else [50, 4])]
        if args.scenario in ("all", "ingest"):
            plan.append(("during ingest", args.clients or 50))
        print(f"server cache {'off' if args.no_cache else 'on'}; {len(QUERIES)} distinct queries; "
              f"{os.cpu_count()} cores shared with the client")
        for name, clients in plan:
            ingest = _ingest_loop(home) if name == "during ingest" else None
            try:
                stats = asyncio.run(_run(port, clients, args.seconds))
            finally:
                if ingest is not None:
                    os.killpg(ingest.pid, signal.SIGTERM)
                    ingest.wait(timeout=30)
            rows.append(_report(name, clients, args.seconds, stats))
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
