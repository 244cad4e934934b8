"""A SciFact collection whose BM25 index is one segment against the two a first ingest writes.

    .venv/bin/python benchmarks/lexical_segments.py [--scifact ../shared/data/scifact] \\
        [--ingests 2] [--queries 300] [--rounds 4] [--workdir DIR]

A first ingest of at least ``index.lexical.PARALLEL_FROM`` documents has the lexical feed write on
every core (two threads here), and each thread writes a segment of its own; tantivy's Python
binding offers no merge. This ingests SciFact's ``corpus.jsonl`` ``--ingests`` times as users get
it, and as many times with the feed's threshold out of reach (one thread: one segment), each
timed by the wall clock, alternating. Then, on the last collection of each, the p50 of
``Collection.search(q, top_k=k, mode="bm25")`` over the first ``--queries`` SciFact queries, each
collection in its own warm loop (20 queries to warm up), ``--rounds`` times alternating, at top
10 and 100, and whether the two give the same scores. The machine is shared: compare within a run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scifact", default=str(REPO.parent / "shared" / "data" / "scifact"))
    parser.add_argument("--ingests", type=int, default=2)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workdir", help="keep the collections here [default: a temp dir]")
    args = parser.parse_args()

    import groundkit
    from groundkit.index import feed

    scifact = Path(args.scifact)
    with (scifact / "queries.jsonl").open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in fh][: args.queries]
    work = Path(args.workdir or tempfile.mkdtemp(prefix="lexical-segments-"))
    usual = feed.PARALLEL_FROM
    walls: dict[str, list[float]] = {"every core": [], "one thread": []}
    for _ in range(args.ingests):
        for name, took in walls.items():
            feed.PARALLEL_FROM = usual if name == "every core" else sys.maxsize
            folder = work / name.replace(" ", "-")
            shutil.rmtree(folder, ignore_errors=True)
            start = time.perf_counter()
            with groundkit.open_collection("sci", index_dir=folder) as coll:
                coll.ingest([str(scifact / "corpus.jsonl")])
            took.append(time.perf_counter() - start)
    feed.PARALLEL_FROM = usual
    colls = {
        name: groundkit.open_collection("sci", index_dir=work / name.replace(" ", "-"))
        for name in walls
    }

    def p50(coll: groundkit.Collection, k: int) -> float:
        for q in queries[:20]:
            coll.search(q, top_k=k, mode="bm25")
        times = []
        for q in queries:
            start = time.perf_counter()
            coll.search(q, top_k=k, mode="bm25")
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e3

    print(
        f"SciFact, {args.ingests} ingests each, {len(queries)} queries x {args.rounds} rounds;"
        f" load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())}\n"
    )
    print("| feed writes on | segments | ingest s | p50 top 10 ms | p50 top 100 ms |")
    print("|---|---:|---:|---:|---:|")
    found: dict[tuple[str, int], list[float]] = {(n, k): [] for n in colls for k in (10, 100)}
    for k in (10, 100):
        for _ in range(args.rounds):
            for name, coll in colls.items():
                found[name, k].append(p50(coll, k))
    for name, coll in colls.items():
        segments = coll._backend.lexical._searcher.num_segments  # type: ignore[attr-defined]
        ingest = ", ".join(f"{w:.2f}" for w in walls[name])
        tops = [statistics.median(found[name, k]) for k in (10, 100)]
        print(f"| {name} | {segments} | {ingest} | {tops[0]:.3f} | {tops[1]:.3f} |")
    same = all(
        [h.score for h in colls["every core"].search(q, top_k=100, mode="bm25")]
        == [h.score for h in colls["one thread"].search(q, top_k=100, mode="bm25")]
        for q in queries
    )
    print(f"\nscores the same at top 100 on every query: {same}")
    for coll in colls.values():
        coll.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
