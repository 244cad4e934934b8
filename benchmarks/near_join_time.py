"""The near-duplicate join's CPU on a collection's stored fingerprints, user and system apart.

Usage:
    .venv/bin/python benchmarks/near_join_time.py --store DIR/gk-100000/scale/store.sqlite \
        [--documents 100000] [--rounds 3]

Reads every chunk's fingerprint from ``store.sqlite`` (opened read-only; ``scale.py`` leaves one
per size in its workdir), then runs ``near_flags`` on them once in each of ``--rounds`` fresh
processes, as an ingest runs it once after the store: a second run in one process reuses memory
the first one faulted in, which an ingest does not. Prints user and system CPU µs per document
and the page faults. Compare revisions with ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time


def once(store: str) -> dict[str, float]:
    from groundkit.retrieve.near_join import near_flags

    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    folds = [fold for (fold,) in connection.execute("SELECT fold FROM chunks ORDER BY rowid")]
    connection.close()
    before, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    flagged = len(near_flags(folds))
    after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - wall
    return {
        "user": after.ru_utime - before.ru_utime,
        "system": after.ru_stime - before.ru_stime,
        "wall": wall,
        "faults": after.ru_minflt - before.ru_minflt,
        "chunks": len(folds),
        "flagged": flagged,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="a collection's store.sqlite")
    parser.add_argument("--documents", type=int, default=100_000, help="per-document divisor")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(once(args.store)))
        return 0
    runs = []
    for _ in range(args.rounds):
        out = subprocess.run(
            [sys.executable, __file__, "--store", args.store, "--child"],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        )
        runs.append(json.loads(out.stdout))
    per = 1e6 / args.documents
    print(f"{runs[0]['chunks']:,} chunks, {runs[0]['flagged']:,} flagged; load {os.getloadavg()}")
    print("| run | user µs/doc | system µs/doc | wall µs/doc | page faults |")
    print("|---|---:|---:|---:|---:|")
    for i, run in enumerate(runs, 1):
        cells = [run["user"] * per, run["system"] * per, run["wall"] * per]
        print(f"| {i} | " + " | ".join(f"{c:.1f}" for c in cells) + f" | {run['faults']:,.0f} |")
    total = statistics.median((r["user"] + r["system"]) * per for r in runs)
    print(f"median user + system: {total:.1f} µs per document")
    return 0


if __name__ == "__main__":
    sys.exit(main())
