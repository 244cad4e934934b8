"""One cold `grk search` process on an embedded collection and on a Qdrant `path` collection.

    .venv/bin/python benchmarks/backends_cli.py [--source ../shared/data/scifact/corpus.jsonl]
        [--workdir DIR] [--runs 7] [--src PATH] [--ingest-src PATH] [--hits FILE] [--queries 300]
        [--open] [--compare A B]

The same source is ingested (BM25 only) into the embedded default and into a collection that
``grk.toml`` places on Qdrant's engine in the process (``path = ...``, qdrant-edge). Then
``--runs`` processes of each, alternating, run ``grk search QUERY`` as a user would; printed per
backend: the median wall seconds and the median CPU seconds (user + system, from ``wait4``),
and the ratio of Qdrant's to the embedded one.

``--src`` runs another checkout's ``src`` (default: this checkout's) with this venv, for a
before/after; the ingests are that code's too (``--ingest-src``: another's), since the code that
writes a shard decides how it lies on disk. Each ingesting ``src`` gets its own folder under
``--workdir``, kept: a second run skips the ingests (delete the folder after changing how the code
writes). One untimed process of each comes first, and byte-code caches are on (as they are for a
user), whatever the environment says.

``--hits FILE`` writes, instead of timing, the hits of the first ``--queries`` SciFact queries
(``queries.jsonl`` beside the source) on the `path` collection at top 10 and 100 as JSON lines,
every field of every hit: run it with two ``--src`` and one ``--ingest-src`` and ``cmp`` the
files (``--compare A B`` counts how two such files differ: lists, orders, scores).
``--open`` times, beside the searches, processes that only open and close the `path`
collection's shard with qdrant-edge (no groundkit): what the engine costs of a search.

Two ingests of the same code into qdrant-edge need not score alike to the last bit (some
scores differ in their last float bits, enough to reorder near ties): compare searches of one
shard.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

QUERY = "blood pressure in elderly patients"

_HITS = """
import json, sys
import groundkit
from groundkit.config import parse_settings

work, queries, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
edge = {"backend": "qdrant", "path": work + "/edge-shard"}
settings = parse_settings({"index_dir": work + "/index", "collections": {"edge": edge}})
with open(queries, encoding="utf-8") as f:
    texts = [json.loads(line)["text"] for line in f][:n]
with groundkit.open_collection("edge", settings=settings) as coll, open(out, "w") as f:
    for i, q in enumerate(texts):
        for k in (10, 100):
            hits = [h.to_dict() for h in coll.search(q, top_k=k)]
            f.write(json.dumps({"query": i, "top_k": k, "hits": hits}) + "\\n")
"""


_OPEN = "import sys, qdrant_edge; qdrant_edge.EdgeShard.load(sys.argv[1]).close()"


def compare(first: str, second: str) -> None:
    """How two ``--hits`` files differ: whole lists, orders of chunks, and scores."""
    pairs = list(zip(_lines(first), _lines(second), strict=True))
    lists = sum(a != b for a, b in pairs)
    orders = sum(
        [h["chunk_id"] for h in a["hits"]] != [h["chunk_id"] for h in b["hits"]] for a, b in pairs
    )
    scores = [
        (x["score"], y["score"])
        for a, b in pairs
        for x, y in zip(a["hits"], b["hits"], strict=False)
        if x["chunk_id"] == y["chunk_id"]
    ]
    moved = [abs(x - y) / abs(x) for x, y in scores if x != y]
    print(f"lists differing {lists} of {len(pairs)}; orders differing {orders}")
    most = max(moved, default=0.0)
    print(
        f"scores of one chunk at one rank: {len(scores)}, {len(moved)} differ, most by {most:.1e}"
    )


def _lines(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def cold(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process running ``command``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default="../shared/data/scifact/corpus.jsonl")
    ap.add_argument("--workdir", type=Path, default=Path("benchmarks/.work/backends_cli"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--src", default=str(Path(__file__).resolve().parents[1] / "src"))
    ap.add_argument("--ingest-src", help="a checkout's src folder to ingest with (default --src)")
    ap.add_argument("--hits", help="write the path collection's hits here, and exit")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--open", action="store_true", help="also time opening the shard alone")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two --hits files")
    a = ap.parse_args()
    if a.compare:
        compare(*a.compare)
        return
    grk = str(Path(sys.executable).parent / "grk")
    src = str(Path(a.src).resolve())
    maker = str(Path(a.ingest_src or a.src).resolve())
    work = a.workdir.resolve() / hashlib.blake2b(maker.encode(), digest_size=4).hexdigest()
    work.mkdir(parents=True, exist_ok=True)
    (work / "grk.toml").write_text(
        f'[collections.edge]\nbackend = "qdrant"\npath = "{work / "edge-shard"}"\n'
    )
    # Timed as a user runs it: with byte-code caches (an environment may turn them off).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src
    index = ["--index-dir", str(work / "index")]
    systems = {"embedded": [grk], "qdrant-edge": [grk, "-c", "edge"]}
    if not (work / "edge-shard").exists():
        for base in systems.values():
            source = str(Path(a.source).resolve())
            ingest = [*base, "ingest", source, *index, "--quiet"]
            subprocess.run(ingest, cwd=work, env={**env, "PYTHONPATH": maker}, check=True)
    if a.hits:
        queries = str(Path(a.source).resolve().parent / "queries.jsonl")
        out = str(Path(a.hits).resolve())
        run = [sys.executable, "-c", _HITS, str(work), queries, out, str(a.queries)]
        subprocess.run(run, cwd=work, env=env, check=True)
        return
    shard = str(work / "edge-shard")
    opener = [sys.executable, "-c", _OPEN, shard]
    if a.open:
        systems["shard open+close"] = opener
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in systems}
    search = ["search", QUERY, *index]
    commands = {n: base if base is opener else [*base, *search] for n, base in systems.items()}
    for command in commands.values():  # untimed: byte-compiles the code, warms the page cache
        cold(command, work, env)
    load = os.getloadavg()[0]
    for _ in range(a.runs):
        for name, command in commands.items():
            times[name].append(cold(command, work, env))
    after = os.getloadavg()[0]
    print(f"{a.runs} cold processes each, alternating; load {load:.1f} before, {after:.1f} after")
    print("| process | median wall s | median CPU s |")
    print("|---|---:|---:|")
    medians = {}
    for name, runs in times.items():
        medians[name] = (
            statistics.median(w for w, _ in runs),
            statistics.median(c for _, c in runs),
        )
        print(f"| {name} | {medians[name][0]:.3f} | {medians[name][1]:.3f} |")
    wall = medians["qdrant-edge"][0] / medians["embedded"][0]
    cpu = medians["qdrant-edge"][1] / medians["embedded"][1]
    print(f"qdrant-edge / embedded: wall {wall:.2f}x, CPU {cpu:.2f}x")


if __name__ == "__main__":
    main()
