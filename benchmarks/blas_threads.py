"""Exact vector search with and without BLAS threads, on a quiet and on a busy machine.

    .venv/bin/python benchmarks/blas_threads.py [--sizes 10731,100000] [--queries 200] [--busy 2]

For each size, seeded random unit vectors (float32, 384 dimensions) are scored against 200
random unit queries in a fresh process per configuration, and the p50/p95 of one query
(scores and top 10 by ``argpartition``, as ``VectorIndex.search`` does) are printed for:

- ``matmul, BLAS default``: ``matrix @ query`` with OpenBLAS's own thread count (one per core);
- ``matmul, OPENBLAS_NUM_THREADS=1``: the same with the variable set before numpy is imported
  (what ``groundkit.index.vectors`` does, unless the variable is already set);
- ``einsum``: ``np.einsum("ij,j->i", matrix, query)``, numpy's own loop, no BLAS at all.

Each process imports onnxruntime first (as a process that embeds queries has it loaded). Every
configuration runs on a quiet machine and then with ``--busy`` processes spinning on a core each
(the machine has 2 cores, shared with others: "quiet" is only as quiet as they leave it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r"""
import json, os, sys, time
import onnxruntime  # loaded, as in a process that embeds its queries
import numpy as np
n, queries, way = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(7)
m = rng.standard_normal((n, 384), dtype=np.float32)
m /= np.linalg.norm(m, axis=1, keepdims=True)
qs = rng.standard_normal((queries + 10, 384), dtype=np.float32)
times = []
for i, q in enumerate(qs):
    start = time.perf_counter()
    s = np.einsum("ij,j->i", m, q) if way == "einsum" else m @ q
    top = np.argpartition(-s, 9)[:10]
    if i >= 10:
        times.append(time.perf_counter() - start)
times.sort()
print(json.dumps([times[len(times) // 2] * 1e3, times[int(len(times) * 0.95)] * 1e3]))
"""

SPIN = "while True: pass"

WAYS = {
    "matmul, BLAS default": ("matmul", {}),
    "matmul, OPENBLAS_NUM_THREADS=1": ("matmul", {"OPENBLAS_NUM_THREADS": "1"}),
    "einsum (no BLAS)": ("einsum", {}),
}


def run(n: int, queries: int, way: str, extra: dict[str, str]) -> list[float]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env.update(extra)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), str(queries), way],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[float] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10731,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--busy", type=int, default=2, help="spinning processes for 'busy'")
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}; load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("\n| vectors | way | quiet p50 ms | quiet p95 ms | busy p50 ms | busy p95 ms |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in (int(s) for s in args.sizes.split(",")):
        for name, (way, extra) in WAYS.items():
            quiet = run(n, args.queries, way, extra)
            spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.busy)]
            try:
                time.sleep(0.5)
                busy = run(n, args.queries, way, extra)
            finally:
                for p in spinners:
                    p.kill()
                    p.wait()
            print(
                f"| {n:,} | {name} | {quiet[0]:.3f} | {quiet[1]:.3f} | {busy[0]:.3f} |"
                f" {busy[1]:.3f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
