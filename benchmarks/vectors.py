"""The vector index alone, on synthetic vectors: build, open, exact search and size by row count.

    .venv/bin/python benchmarks/vectors.py [--sizes 10000,20000,50000,100000,300000]
        [--ann] [--ann-sizes 100000,300000] [--like benchmarks/.work/scifact/gk-dense/scifact]

Vectors are seeded standard normals, L2-normalised, float32, 384 dimensions (all-MiniLM-L6-v2's
width). Exact search time depends only on the row count, not on what the vectors hold. Open and
search are measured in a fresh Python process per size, so its memory is the index's alone; the
page cache is warm (the files were just written). Also measured: opening a whole collection that
holds 20,000 vectors.

With ``--ann``, the index's own HNSW path (``VectorIndex(ann_threshold=...)``, usearch) is
measured against its exact search. HNSW recall depends on the data, so it is measured on the
isotropic vectors (the worst case: no structure) and, with ``--like COLLECTION``, on vectors
drawn from a Gaussian with the mean and covariance of that collection's real chunk vectors, and
on those real vectors themselves; the queries are 200 real chunk vectors held out of the fit.
``--sweep --like COLLECTION`` instead measures usearch's connectivity and expansion_search alone.
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
from beir import git_revision, head_moved  # same folder; run as a script
from groundkit.index.store import Store
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
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    index = VectorIndex(path)
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


def probe_ann(path: Path, queries_file: Path) -> dict[str, Any]:
    """Run in a fresh process: the index opened with its HNSW index on, against exact search."""
    queries = np.load(queries_file)
    t0 = time.perf_counter()
    ann = VectorIndex(path, ann_threshold=1)
    out = {"first_open_ms": (time.perf_counter() - t0) * 1e3}
    ann._ensure_loaded()  # the arrays and HNSW load on first use; a private look, on purpose
    assert ann._ann is not None, "the HNSW index was not opened"
    out["open_ms"] = median_ms(lambda: VectorIndex(path, ann_threshold=1))
    out["p50_k10"] = percentile(latencies(queries, lambda q: ann.search(q, 10)), 50)
    out["p50_k100"] = percentile(latencies(queries, lambda q: ann.search(q, 100)), 50)
    exact = VectorIndex(path)
    out["exact_p50_k10"] = percentile(latencies(queries, lambda q: exact.search(q, 10)), 50)
    for k in (10, 100):
        found = sum(
            len({c for c, _ in ann.search(q, k)} & {c for c, _ in exact.search(q, k)})
            for q in queries
        )
        out[f"recall{k}"] = found / (k * len(queries))
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


def small_sync_ms(path: Path, first_id: int, ann_threshold: int | None, runs: int = 3) -> float:
    """Median time of appending one two-chunk document, as a small re-ingest would."""
    rng, times = np.random.default_rng(SEED + 4), []
    for i in range(runs):
        index = VectorIndex(path, ann_threshold=ann_threshold)
        vectors = unit_rows(rng, 2)
        rows = [(first_id + 2 * i + j, first_id + i, v.tobytes()) for j, v in enumerate(vectors)]
        t0 = time.perf_counter()
        index.sync((), rows)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def fresh_process(*args: str) -> dict[str, Any]:
    got = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True
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
        vectors = coll.status().dense_index_vectors
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


def real_vectors(collection: Path) -> npt.NDArray[np.float32]:
    """Every chunk vector in a collection's store (the source of truth), one row each."""
    store = Store(collection / "store.sqlite")
    try:
        rows = [np.frombuffer(blob, np.float32) for _, _, blob in store.vectors()]
    finally:
        store.close()
    return np.stack(rows)


def like_rows(real: npt.NDArray[np.float32], rng: np.random.Generator, n: int):
    """``n`` unit rows from a Gaussian with the mean and covariance of ``real``."""
    mean = real.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(real, rowvar=False))
    factor = (vectors * np.sqrt(np.clip(values, 0, None))).T.astype(np.float32)
    rows = np.empty((n, real.shape[1]), np.float32)
    for start in range(0, n, BATCH):
        z = rng.standard_normal((min(BATCH, n - start), real.shape[1]), dtype=np.float32)
        rows[start : start + len(z)] = mean + z @ factor
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def ann_case(work: Path, matrix: npt.NDArray[np.float32], queries_file: Path) -> dict[str, Any]:
    """Build the exact index, then its HNSW index, and measure both in a fresh process."""
    path = work / "ann"
    build(path, matrix)
    t0 = time.perf_counter()
    VectorIndex(path, ann_threshold=1).sync((), [])  # crossing the threshold builds HNSW
    out: dict[str, Any] = {"n": len(matrix), "build_s": time.perf_counter() - t0}
    out["disk_mb"] = sum(f.stat().st_size for f in path.rglob("ann.*")) / 1e6
    out.update(fresh_process("--probe-ann", str(path), "--queries", str(queries_file)))
    out["sync_ms"] = small_sync_ms(path, len(matrix) + 1, 1)
    shutil.rmtree(path)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,20000,50000,100000,300000")
    parser.add_argument("--ann", action="store_true", help="also measure the HNSW path (usearch)")
    parser.add_argument("--ann-sizes", default="100000,300000")
    parser.add_argument("--like", type=Path, help="a collection folder whose vectors to mimic")
    parser.add_argument(
        "--sweep", action="store_true", help="only: usearch knobs on the --like fit at 100,000"
    )
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)  # fresh-process parts
    parser.add_argument("--probe-ann", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--queries", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe or args.probe_ann:
        print(
            json.dumps(probe(args.probe) if args.probe else probe_ann(args.probe_ann, args.queries))
        )
        return 0
    if args.sweep:
        if args.like is None:
            parser.error("--sweep needs --like COLLECTION")
        print(
            f"command: .venv/bin/python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}"
        )
        print(f"commit {git_revision()}, usearch {version('usearch')}, nproc={os.cpu_count()}")
        sweep(args.like)
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    revision = git_revision()
    rows, ann = [], []
    with tempfile.TemporaryDirectory(prefix="grk-vectors-") as tmp:
        work = Path(tmp)
        for n in sizes:
            path = work / f"v{n}"
            build_s = build(path, unit_rows(np.random.default_rng(SEED), n))
            rows.append({"n": n, "build_s": build_s, "disk_mb": folder_mb(path)})
            rows[-1].update(fresh_process("--probe", str(path)))
            rows[-1]["sync_ms"] = small_sync_ms(path, n + 1, None)
            shutil.rmtree(path)
        coll = bench_collection_open(work)
        if args.ann:
            ann = bench_ann(args, work)
    print(f"command: .venv/bin/python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}")
    moved = head_moved(revision)
    print(
        f"machine: nproc={os.cpu_count()}, {platform.platform()}, python"
        f" {platform.python_version()}, numpy {np.__version__}; groundkit {groundkit.__version__}"
        f", commit {revision}{moved}; load average at the end (1/5/15 min):"
        f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n"
    )
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
        print(f"- {usearch}; run with --ann to measure the HNSW path")
        return 0
    print(
        f"\nHNSW (`VectorIndex(path, ann_threshold=1)`, {usearch}: cos, f32, connectivity 32,"
        " expansion_search 256), single query, unfiltered, against exact search of the same"
        " index in the same process. 'add 1 doc' appends two vectors with HNSW on.\n"
    )
    print(
        "| data | vectors | HNSW build s | first open ms | open ms | p50 k=10 ms |"
        " p50 k=100 ms | exact p50 k=10 ms | add 1 doc ms | HNSW MB | recall@10 | recall@100 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for a in ann:
        cells = [a["data"], f"{a['n']:,}", f"{a['build_s']:.1f}", f"{a['first_open_ms']:.2f}"]
        cells += [f"{a[k]:.2f}" for k in ("open_ms", "p50_k10", "p50_k100", "exact_p50_k10")]
        cells += [f"{a['sync_ms']:.0f}", f"{a['disk_mb']:.0f}"]
        cells += [f"{a['recall10']:.3f}", f"{a['recall100']:.3f}"]
        print("| " + " | ".join(cells) + " |")
    return 0


def sweep(like: Path, n: int = 100_000) -> None:
    """usearch's own knobs, outside groundkit, on the Gaussian fit at ``n``: recall@10 and p50 by
    connectivity and expansion_search, to choose the values ann.py fixes."""
    from usearch.index import Index

    real = real_vectors(like)
    held = np.random.default_rng(SEED + 5).permutation(len(real))
    queries, kept = real[held[:200]], real[held[200:]]
    matrix = like_rows(kept, np.random.default_rng(SEED), n)
    exact = [set(np.argpartition(-(matrix @ q), 10)[:10].tolist()) for q in queries]
    print(f"\nusearch alone on the Gaussian fit to {like.name}, {n:,} vectors, 200 held-out real")
    print("queries, k=10 (cos, f32, threads=0 for the build):\n")
    print("| connectivity | build s | expansion_search | recall@10 | p50 ms |")
    print("|---:|---:|---:|---:|---:|")
    for connectivity in (16, 32):
        index = Index(ndim=DIMS, metric="cos", dtype="f32", connectivity=connectivity)
        t0 = time.perf_counter()
        index.add(np.arange(n, dtype=np.uint64), matrix, threads=0)
        build_s = time.perf_counter() - t0
        for expansion in (128, 256, 512):
            index.expansion_search = expansion
            found = [set(index.search(q, 10).keys.tolist()) for q in queries]
            recall = sum(len(e & f) for e, f in zip(exact, found, strict=True)) / (
                10 * len(queries)
            )
            p50 = percentile(latencies(queries, lambda q, i=index: i.search(q, 10)), 50)
            print(f"| {connectivity} | {build_s:.0f} | {expansion} | {recall:.3f} | {p50:.2f} |")


def bench_ann(args, work: Path) -> list[dict[str, Any]]:
    sizes = [int(s) for s in args.ann_sizes.split(",")]
    rng = np.random.default_rng(SEED + 5)
    queries_file = work / "queries.npy"
    out = []
    np.save(queries_file, unit_rows(rng, QUERIES))
    for n in sizes:
        case = ann_case(work, unit_rows(np.random.default_rng(SEED), n), queries_file)
        out.append({"data": "isotropic, random queries", **case})
    if args.like is None:
        return out
    real = real_vectors(args.like)
    held = rng.permutation(len(real))
    queries, kept = real[held[:200]], real[held[200:]]
    np.save(queries_file, queries)
    name = f"{args.like.name} chunk vectors"
    out.append({"data": f"{name}, real", **ann_case(work, kept, queries_file)})
    for n in sizes:
        case = ann_case(work, like_rows(kept, np.random.default_rng(SEED), n), queries_file)
        out.append({"data": f"Gaussian fit to {name}", **case})
    return out


if __name__ == "__main__":
    sys.exit(main())
