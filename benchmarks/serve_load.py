"""A bounded load run of `grk serve` on loopback: search throughput and latency with N concurrent
clients on the SciFact collection, while other processes write into that same collection.

    .venv/bin/python benchmarks/serve_load.py --dataset ../shared/data/scifact \\
        [--clients 16] [--writers 2] [--duration 30] [--workdir DIR]

It ingests ``corpus.jsonl`` (BM25 only) into a collection ``scifact`` in a temporary index dir,
starts ``grk serve`` as a subprocess on a free loopback port, then, at once: N client threads issue
``POST /v1/search`` with the dataset's queries (round robin, top_k 10) until the duration is up,
and W writer threads each run ``grk ingest`` processes back to back that add and change a few
documents in ``scifact`` itself: the case that once made 11% of searches fail with ``internal``
(the server dropped SQLite's locks; see docs/decisions/0007-derived-indexes.md). A writer that
finds another holding the write lock (``index.locked``) tries again; that is not a search error.
Every request goes to 127.0.0.1 only, and the run stops by itself. Clients, writers and server
share the machine's cores.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

import groundkit

GRK = [sys.executable, "-m", "groundkit.cli.main"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def read_queries(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh if line.strip()]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wait_until_up(base: str, server: subprocess.Popen[bytes], limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("grk serve exited before answering")
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("grk serve did not answer in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, required=True, help="BEIR folder (SciFact)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--writers", type=int, default=2, help="processes writing to scifact")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--workdir", type=Path, help="index dir parent [default: a temp dir]")
    parser.add_argument(
        "--mode",
        choices=["bm25", "dense", "hybrid"],
        default="bm25",
        help="search mode; dense and hybrid embed the corpus first (the embed extra; slow)",
    )
    args = parser.parse_args()

    corpus = (args.dataset / "corpus.jsonl").resolve()
    queries = read_queries(args.dataset / "queries.jsonl")
    work = Path(args.workdir or tempfile.mkdtemp(prefix="grk-load-"))
    index_dir = work / "index"

    began = time.perf_counter()
    with groundkit.open_collection("scifact", index_dir=index_dir) as scifact:
        report = scifact.ingest([corpus], dense=args.mode != "bm25")
        chunks = scifact.status().chunks
    print(
        f"ingested scifact: {report.new} documents, {chunks} chunks, "
        f"{time.perf_counter() - began:.1f} s"
    )

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    log = (work / "serve.stderr").open("wb")
    server = subprocess.Popen(
        [
            *GRK,
            "--index-dir",
            str(index_dir),
            "serve",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        env=env,
    )
    try:
        wait_until_up(base, server)
        results = run_load(
            base, queries, index_dir, work, args.clients, args.writers, args.duration, args.mode
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    print_table(results, args.clients, args.duration, args.mode)


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[tuple[float, float]] = []  # (finished at, seconds)
        self.errors: dict[str, int] = {}
        self.hits = 0
        # (started, finished, exit status) of each writer's `grk ingest`, seconds into the run
        self.ingests: list[tuple[float, float, int]] = []


def run_load(
    base: str,
    queries: list[str],
    index_dir: Path,
    work: Path,
    clients: int,
    writers: int,
    duration: float,
    mode: str,
) -> Results:
    results = Results()
    start = time.perf_counter()
    deadline = start + duration
    counter = iter(range(10**12))

    def client() -> None:
        with httpx.Client(base_url=base, timeout=30) as http:
            while time.perf_counter() < deadline:
                query = queries[next(counter) % len(queries)]
                t0 = time.perf_counter()
                try:
                    response = http.post(
                        "/v1/search",
                        json={"collection": "scifact", "query": query, "top_k": 10, "mode": mode},
                    )
                    status = str(response.status_code)
                    ok = response.status_code == 200
                    hits = len(response.json()["hits"]) if ok else 0
                except httpx.HTTPError as exc:
                    status, ok, hits = type(exc).__name__, False, 0
                t1 = time.perf_counter()
                with results.lock:
                    if ok:
                        results.latencies.append((t1 - start, t1 - t0))
                        results.hits += hits
                    else:
                        results.errors[status] = results.errors.get(status, 0) + 1

    def ingester(number: int) -> None:
        # Each writer's own folder of notes, changed every round, ingested into scifact itself
        # by a `grk ingest` process of its own (as another terminal would).
        folder = work / f"writer{number}"
        folder.mkdir(exist_ok=True)
        rounds = 0
        while time.perf_counter() < deadline:
            for i in range(5):
                (folder / f"note{i}.md").write_text(
                    f"# Writer {number} note {i}\n\nRound {rounds} of a note on cells.\n" * 40
                )
            t0 = time.perf_counter()
            done = subprocess.run(
                [*GRK, "--index-dir", str(index_dir), "-c", "scifact", "ingest", "-q", str(folder)],
                capture_output=True,
                check=False,
            )
            t1 = time.perf_counter()
            with results.lock:
                results.ingests.append((t0 - start, t1 - start, done.returncode))
            rounds += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    writing = [threading.Thread(target=ingester, args=(n,)) for n in range(writers)]
    for thread in [*writing, *threads]:
        thread.start()
    for thread in [*threads, *writing]:
        thread.join()
    return results


def print_table(results: Results, clients: int, duration: float, mode: str) -> None:
    lat = [seconds for _, seconds in results.latencies]
    errors = sum(results.errors.values())
    ms = 1000
    print()
    print(f"{clients} clients, {duration:.0f} s of POST /v1/search ({mode}, top_k 10) on loopback")
    print("| requests | errors | throughput req/s | p50 ms | p99 ms | max ms |")
    print("|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {len(lat) + errors} | {errors} | {len(lat) / duration:.1f} "
        f"| {statistics.median(lat) * ms:.1f} | {percentile(lat, 0.99) * ms:.1f} "
        f"| {max(lat) * ms:.1f} |"
    )
    print()
    print(f"errors by status: {results.errors or 'none'}")
    print(f"hits returned: {results.hits}")
    done = [status for *_, status in results.ingests]
    print(
        f"concurrent `grk ingest` runs into scifact: {len(done)}"
        f" ({done.count(0)} exit 0, {done.count(1)} exit 1 = index.locked by the other writer,"
        f" {len(done) - done.count(0) - done.count(1)} other)"
    )


if __name__ == "__main__":
    main()
