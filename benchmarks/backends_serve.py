"""Two `grk serve` processes over one Qdrant collection while a third process writes into it:
bounded load, every error counted, every answer checked for a document shown twice or in part.

    .venv/bin/python benchmarks/backends_serve.py [--dataset ../shared/data/scifact]
        [--docs 1000] [--clients 6] [--duration 60] [--workdir DIR]

No Qdrant server runs on these machines, and qdrant-client's local mode is one process's. The
"cluster" here is ``groundkit.testing.qdrant_server``: Qdrant's REST API, served on loopback from
a local-mode collection in a process of its own (one request at a time; Python scoring). So the
two servers and the writer are real, separate processes sharing one collection over HTTP, as
replicas behind a load balancer would; what this cannot show is a real cluster's own behaviour
(sharding, replication, its consistency under concurrent writes: see docs/scale.md).

The collection holds the first ``--docs`` SciFact documents (BM25 only) and a folder of 20 notes
the writer rewrites each round (``grk ingest`` of that folder, a new round number in every note).
Clients send ``POST /v1/search`` to the two servers in turn: SciFact queries, and one client that
searches the notes with folding off and checks that each note is there exactly once and whole
(both of its chunks, of one round).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from groundkit.testing.qdrant_server import server_process

GRK = [sys.executable, "-m", "groundkit.cli.main"]
NOTES = 20


def write_notes(folder: Path, round_no: int) -> None:
    folder.mkdir(exist_ok=True)
    for i in range(NOTES):
        body = f"Lighthouse keeper log {i} of round {round_no}: the lamp burned bright. " * 9
        (folder / f"note{i:02}.md").write_text(f"# Log {i}\n\n{body}\n\n## Night\n\n{body}\n")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_up(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("grk serve exited before answering")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("grk serve did not answer in time")


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.checked = 0
        self.broken: list[str] = []
        self.rounds: list[int] = []  # exit status of each writer round

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


def check_notes(hits: list[dict[str, Any]]) -> str | None:
    """None when every note is there once and whole, else what is wrong."""
    by_document: dict[str, list[dict[str, Any]]] = {}
    for hit in hits:
        by_document.setdefault(hit["document_id"], []).append(hit)
    if len(by_document) != NOTES:
        return f"{len(by_document)} notes, not {NOTES}"
    for found in by_document.values():
        rounds = {h["text"].split("of round ")[1].split(":")[0] for h in found}
        if len(found) != 2 or len(rounds) != 1:
            return f"a note with {len(found)} chunks of rounds {sorted(rounds)}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=Path("../shared/data/scifact"))
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="grk-replicas-"))
    work.mkdir(parents=True, exist_ok=True)
    with (args.dataset / "corpus.jsonl").open(encoding="utf-8") as fh:
        records = list(itertools.islice(fh, args.docs))
    (work / "corpus.jsonl").write_text("".join(records), encoding="utf-8")
    with (args.dataset / "queries.jsonl").open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in fh if line.strip()]
    notes = work / "notes"
    write_notes(notes, 0)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    print(
        f"# backends_serve.py: {args.docs} SciFact documents + {NOTES} notes, "
        f"{args.clients} clients, {args.duration:.0f} s; load average "
        f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())}"
    )

    with server_process() as url:
        config = work / "grk.toml"
        config.write_text(
            f'index_dir = "{work / "index"}"\ncollection = "shared"\n'
            f'[collections.shared]\nbackend = "qdrant"\nurl = "{url}"\ntimeout_s = 60\n'
        )
        grk = [*GRK, "--config", str(config)]
        t0 = time.perf_counter()
        for folder in (work / "corpus.jsonl", notes):
            subprocess.run([*grk, "ingest", "-q", str(folder)], env=env, check=True)
        print(f"ingested in {time.perf_counter() - t0:.1f} s")
        ports = [free_port(), free_port()]
        servers = [
            subprocess.Popen([*grk, "serve", "--port", str(p)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for p in ports
        ]  # fmt: skip
        try:
            bases = [f"http://127.0.0.1:{p}" for p in ports]
            for base, server in zip(bases, servers, strict=True):
                wait_up(base, server)
            tally = run(bases, grk, env, notes, queries, args.clients, args.duration)
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=30)
    report(tally, bases, args)


def run(
    bases: list[str],
    grk: list[str],
    env: dict[str, str],
    notes: Path,
    queries: list[str],
    clients: int,
    duration: float,
) -> Tally:
    tally = Tally()
    deadline = time.perf_counter() + duration
    counter = itertools.count()

    def client(checker: bool) -> None:
        https = [httpx.Client(base_url=b, timeout=120) for b in bases]
        try:
            while time.perf_counter() < deadline:
                n = next(counter)
                base, http = bases[n % 2], https[n % 2]
                body: dict[str, Any] = {"query": queries[n % len(queries)], "top_k": 10}
                if checker:
                    body = {"query": "lighthouse keeper lamp", "top_k": 100, "collapse": False}
                t0 = time.perf_counter()
                try:
                    response = http.post("/v1/search", json=body)
                except httpx.HTTPError as exc:
                    tally.error(type(exc).__name__)
                    continue
                took = time.perf_counter() - t0
                if response.status_code != 200:
                    tally.error(str(response.status_code))
                    continue
                with tally.lock:
                    tally.latency.setdefault(base, []).append(took)
                if checker:
                    wrong = check_notes(response.json()["hits"])
                    with tally.lock:
                        tally.checked += 1
                        if wrong:
                            tally.broken.append(wrong)
        finally:
            for http in https:
                http.close()

    def writer() -> None:
        for round_no in itertools.count(1):
            if time.perf_counter() >= deadline:
                return
            write_notes(notes, round_no)
            done = subprocess.run([*grk, "ingest", "-q", str(notes)], env=env, check=False,
                                  capture_output=True)  # fmt: skip
            with tally.lock:
                tally.rounds.append(done.returncode)

    threads = [threading.Thread(target=client, args=(i == 0,)) for i in range(clients)]
    threads.append(threading.Thread(target=writer))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def report(tally: Tally, bases: list[str], args: argparse.Namespace) -> None:
    print("\n| server | searches | p50 ms | p95 ms |")
    print("|---|---:|---:|---:|")
    for number, base in enumerate(bases, start=1):
        lat = sorted(tally.latency.get(base, []))
        if lat:
            p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
            print(f"| grk serve {number} | {len(lat)} | {statistics.median(lat) * 1e3:.0f} |"
                  f" {p95 * 1e3:.0f} |")  # fmt: skip
    errors = sum(tally.errors.values())
    print(f"\nsearch errors: {errors} {tally.errors or ''}")
    print(f"note checks: {tally.checked}, documents shown twice or in part: {len(tally.broken)}"
          f" {tally.broken[:3] or ''}")  # fmt: skip
    failed = sum(1 for status in tally.rounds if status != 0)
    print(f"writer rounds: {len(tally.rounds)}, failed: {failed}")
    print(f"load average at the end: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
