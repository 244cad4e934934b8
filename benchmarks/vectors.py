"""The vector index alone, on synthetic vectors: build, open, exact search and size by row count.

    .venv/bin/python benchmarks/vectors.py [--sizes 10000,20000,50000,100000,300000] [--ann]

Vectors are seeded standard normals, L2-normalised, float32, 384 dimensions (all-MiniLM-L6-v2's
width). Exact search time depends only on the row count, not on what the vectors hold. Open and
search are measured in a fresh Python process per size, so its memory is the index's alone; the
page cache is warm (the files were just written). Also measured: opening a whole collection that
holds 20,000 vectors, and, with ``--ann``, the index's own HNSW path (``ann_threshold``, usearch)
against its exact search at the sizes from 50,000.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import groundkit
from groundkit.index.vectors import VectorIndex

DIMS, SEED, QUERIES, BATCH = 384, 7, 100, 10_000


def unit_rows(rng: np.random.Generator, n: int) -> npt.NDArray[np.float32]:
    rows = rng.standard_normal((n, DIMS), dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def folder_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def build(path: Path, matrix: npt.NDArray[np.float32]) -> float:
    """``VectorIndex.sync`` in batches of BATCH rows, as an ingest's journal replay would call it
    (two chunks per document); returns the seconds spent in sync."""
    index = VectorIndex.fresh(path)
    spent = 0.0
    for start in range(0, len(matrix), BATCH):
        rows = [
            (i + 1, i // 2 + 1, matrix[i].tobytes())  # what Store.vectors() yields
            for i in range(start, min(start + BATCH, len(matrix)))
        ]
        t0 = time.perf_counter()
        index.sync((), rows)
        spent += time.perf_counter() - t0
    return spent


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        kb = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
    return kb / 1e3


def probe(path: Path) -> dict[str, Any]:
    """Run in a fresh process: open time, exact search latency and resident memory."""
    queries = unit_rows(np.random.default_rng(SEED + 1), QUERIES)
    before = rss_mb()
    t0 = time.perf_counter()
    index = VectorIndex(path)
    out = {"first_open_ms": (time.perf_counter() - t0) * 1e3}
    out["open_ms"] = median_ms(lambda: VectorIndex(path))
    rng = np.random.default_rng(SEED + 2)
    allowed = sorted(rng.choice(index.rows, size=max(1, index.rows // 100), replace=False) + 1)
    k10 = latencies(queries, lambda q: index.search(q, 10))
    out.update(p50_k10=percentile(k10, 50), p95_k10=percentile(k10, 95))
    out["p50_k100"] = percentile(latencies(queries, lambda q: index.search(q, 100)), 50)
    filtered = latencies(queries, lambda q: index.search(q, 10, allowed))
    out["p50_k10_filter"] = percentile(filtered, 50)
    out["rss_mb"] = rss_mb() - before
    return out


def probe_ann(path: Path) -> dict[str, Any]:
    """Run in a fresh process: the same index opened with its HNSW index on, against exact."""
    rng = np.random.default_rng(SEED + 3)
    before = rss_mb()
    t0 = time.perf_counter()
    ann = VectorIndex(path, ann_threshold=1)
    out = {"first_open_ms": (time.perf_counter() - t0) * 1e3}
    assert ann._ann is not None, "the HNSW index was not opened"
    out["open_ms"] = median_ms(lambda: VectorIndex(path, ann_threshold=1))
    random = unit_rows(rng, QUERIES)
    k10 = latencies(random, lambda q: ann.search(q, 10))
    out.update(p50_k10=percentile(k10, 50), p95_k10=percentile(k10, 95))
    out["p50_k100"] = percentile(latencies(random, lambda q: ann.search(q, 100)), 50)
    out["rss_mb"] = rss_mb() - before
    exact = VectorIndex(path)
    # Random queries have no near neighbours (the hard case for HNSW); the second set are noisy
    # copies of indexed rows (cosine ~0.75 to their source), nearer to how real queries meet a
    # corpus.
    picks = rng.choice(exact.rows, QUERIES, replace=False)
    near = np.asarray(exact._matrix[np.sort(picks)])
    near = near + rng.standard_normal(near.shape, dtype=np.float32) * 0.045
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    for name, queries in (("random", random), ("near", near)):
        for k in (10, 100):
            found = sum(
                len({c for c, _ in ann.search(q, k)} & {c for c, _ in exact.search(q, k)})
                for q in queries
            )
            out[f"recall{k}_{name}"] = found / (k * len(queries))
    return out


def median_ms(fn: Callable[[], object], runs: int = 10) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def latencies(
    queries: npt.NDArray[np.float32], search: Callable[[npt.NDArray[np.float32]], object]
) -> list[float]:
    """Milliseconds per query, after a few warm-up queries (the first pages the matrix in)."""
    for q in queries[:5]:
        search(q)
    out = []
    for q in queries:
        t0 = time.perf_counter()
        search(q)
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def small_sync_ms(path: Path, start_id: int, ann_threshold: int | None, runs: int = 3) -> float:
    """Median time of appending one two-chunk document, as a small re-ingest would."""
    rng, times = np.random.default_rng(SEED + 4), []
    for i in range(runs):
        index = VectorIndex(path, ann_threshold=ann_threshold)
        rows = [
            (start_id + 2 * i + j, start_id + i, v.tobytes())
            for j, v in enumerate(unit_rows(rng, 2))
        ]
        t0 = time.perf_counter()
        index.sync((), rows)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def fresh_process(flag: str, path: Path) -> dict[str, Any]:
    got = subprocess.run(
        [sys.executable, __file__, flag, str(path)], check=True, capture_output=True, text=True
    )
    result: dict[str, Any] = json.loads(got.stdout)
    return result


def bench_collection_open(work: Path, n: int = 20_000) -> dict[str, float]:
    """A real collection with ``n`` one-chunk records, embedded by the fake embedder at 384
    dimensions: store, lexical index and vector index all opened, as `grk search` does."""
    from groundkit.testing import FakeEmbedder

    rng = np.random.default_rng(SEED)
    words = [f"w{i}" for i in range(5000)]
    records = work / "records.jsonl"
    with open(records, "w", encoding="utf-8") as fh:
        for i in range(n):
            text = " ".join(rng.choice(words, 40))
            fh.write(json.dumps({"_id": str(i), "title": f"record {i}", "text": text}) + "\n")
    index_dir = work / "collections"
    with groundkit.open_collection(
        "synthetic", index_dir=index_dir, embedder=FakeEmbedder(DIMS)
    ) as coll:
        coll.ingest([str(records)], dense=True)
        vectors = coll.status()["dense_index_vectors"]
    opens = []
    for _ in range(20):
        t0 = time.perf_counter()
        groundkit.open_collection("synthetic", index_dir=index_dir, create=False).close()
        opens.append((time.perf_counter() - t0) * 1e3)
    code = (
        "import sys, time, groundkit\nt0 = time.perf_counter()\n"
        "groundkit.open_collection('synthetic', index_dir=sys.argv[1], create=False).close()\n"
        "print((time.perf_counter() - t0) * 1e3)"
    )
    fresh = subprocess.run(
        [sys.executable, "-c", code, str(index_dir)], check=True, capture_output=True, text=True
    )
    return {
        "vectors": vectors,
        "open_ms": statistics.median(opens),
        "fresh_ms": float(fresh.stdout),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,20000,50000,100000,300000")
    parser.add_argument("--ann", action="store_true", help="also measure the HNSW path (usearch)")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)  # fresh-process parts
    parser.add_argument("--probe-ann", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe or args.probe_ann:
        print(json.dumps(probe(args.probe) if args.probe else probe_ann(args.probe_ann)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"command: .venv/bin/python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}")
    print(
        f"machine: nproc={os.cpu_count()}, {platform.platform()}, python"
        f" {platform.python_version()}, numpy {np.__version__}; groundkit {groundkit.__version__}"
        f", commit {git_revision()}"
    )
    rows, ann = [], {}
    with tempfile.TemporaryDirectory(prefix="grk-vectors-") as tmp:
        work = Path(tmp)
        for n in sizes:
            path = work / f"v{n}"
            build_s = build(path, unit_rows(np.random.default_rng(SEED), n))
            rows.append({"n": n, "build_s": build_s, "disk_mb": folder_mb(path)})
            rows[-1].update(fresh_process("--probe", path))
            rows[-1]["sync_ms"] = small_sync_ms(path, n + 1, None)
            if args.ann and n >= 50_000:
                t0 = time.perf_counter()
                VectorIndex(path, ann_threshold=1).sync((), [])  # builds the HNSW index
                ann[n] = {"build_s": time.perf_counter() - t0}
                ann[n].update(fresh_process("--probe-ann", path))
                ann[n]["sync_ms"] = small_sync_ms(path, n + 100, 1)
                ann[n]["disk_mb"] = sum(f.stat().st_size for f in path.glob("ann.*")) / 1e6
            shutil.rmtree(path)
        coll = bench_collection_open(work)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end (1/5/15 min): {load}\n")
    print("Exact search (`VectorIndex(path)`, no ann_threshold), single query:\n")
    print(
        "| vectors | build s | first open ms | open ms | p50 k=10 ms | p95 k=10 ms |"
        " p50 k=100 ms | p50 k=10, 1% filter ms | add 1 doc ms | RSS MB | disk MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [f"{r['n']:,}", f"{r['build_s']:.2f}", f"{r['first_open_ms']:.2f}"]
        cells += [f"{r[k]:.2f}" for k in ("open_ms", "p50_k10", "p95_k10", "p50_k100")]
        cells += [f"{r['p50_k10_filter']:.2f}", f"{r['sync_ms']:.1f}"]
        cells += [f"{r['rss_mb']:.0f}", f"{r['disk_mb']:.0f}"]
        print("| " + " | ".join(cells) + " |")
    # Exact search is one pass over the matrix: fit p50 = a + b * n and solve for the budgets.
    slope, intercept = np.polyfit([r["n"] for r in rows], [r["p50_k10"] for r in rows], 1)
    print(
        f"\n- exact search p50 (k=10) ~ {intercept:.2f} ms + {slope * 1e5:.2f} ms per 100k vectors"
        " (least squares over the sizes)"
        + "".join(
            f"; {ms} ms at about {(ms - intercept) / slope:,.0f} vectors"
            for ms in (5, 8)
            if slope > 0
        )
    )
    print(
        f"- a collection of {coll['vectors']:,} vectors (synthetic one-chunk records, fake"
        f" embedder at {DIMS} dims): open, warm median of 20 = {coll['open_ms']:.2f} ms;"
        f" first open in a fresh process = {coll['fresh_ms']:.2f} ms (target <= 100 ms:"
        f" {'met' if max(coll['open_ms'], coll['fresh_ms']) <= 100 else 'MISSED'})"
    )
    try:
        usearch = f"usearch {version('usearch')}"
    except PackageNotFoundError:
        usearch = "usearch not installed"
    if not ann:
        print(f"- {usearch}; run with --ann to measure the HNSW path (sizes >= 50,000)")
        return 0
    print(
        f"\nHNSW (`VectorIndex(path, ann_threshold=1)`, {usearch}: cos, f32, connectivity 16,"
        " expansion_search 128), single query, unfiltered; recall against the exact search of"
        " the same index:\n"
    )
    print(
        "| vectors | build s | first open ms | open ms | p50 k=10 ms | p95 k=10 ms |"
        " p50 k=100 ms | add 1 doc ms | RSS MB | disk MB | recall@10 random q |"
        " recall@10 near q | recall@100 random q | recall@100 near q |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, a in ann.items():
        cells = [f"{n:,}", f"{a['build_s']:.1f}", f"{a['first_open_ms']:.2f}"]
        cells += [f"{a[k]:.2f}" for k in ("open_ms", "p50_k10", "p95_k10", "p50_k100")]
        cells += [f"{a['sync_ms']:.1f}", f"{a['rss_mb']:.0f}", f"{a['disk_mb']:.0f}"]
        cells += [f"{a[k]:.3f}" for k in ("recall10_random", "recall10_near")]
        cells += [f"{a[k]:.3f}" for k in ("recall100_random", "recall100_near")]
        print("| " + " | ".join(cells) + " |")
    return 0


def git_revision() -> str:
    git = ["git", "-C", str(Path(__file__).resolve().parent)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, check=False)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "../src"], capture_output=True, check=False
    )
    return (head.stdout.decode().strip() or "unknown") + (" (src modified)" if dirty.stdout else "")


if __name__ == "__main__":
    sys.exit(main())
