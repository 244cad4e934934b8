"""BM25 search latency on a collection you already have: top 10 and 100, folding on and off.

    .venv/bin/python benchmarks/collection_latency.py --index-dir DIR --collection NAME \\
        [--query "..." ...] [--queries-file FILE] [--repeat 5]

Opens the collection as it is (migrating it, as any command would, but changing nothing else),
runs each query ``--repeat`` times after one untimed pass, with ``Collection.search`` in bm25
mode, and prints p50/p95 in ms. ``--queries-file``: one query per line. Without queries, ten
questions about command-line tools are used (what the documentation folder of issue 11 holds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import groundkit

DEFAULT_QUERIES = [
    "bash trap signal EXIT",
    "pip install from a requirements file with hashes",
    "git rebase interactive squash",
    "node stream backpressure",
    "environment variables in a subshell",
    "git log format",
    "uninstall a package",
    "readline key bindings",
    "http server request headers",
    "merge conflict resolution",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--query", action="append", default=[])
    parser.add_argument("--queries-file")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    queries = list(args.query)
    if args.queries_file:
        queries += [q for q in Path(args.queries_file).read_text().splitlines() if q.strip()]
    queries = queries or DEFAULT_QUERIES
    with groundkit.open_collection(args.collection, index_dir=args.index_dir, create=False) as c:
        status = c.status()
        print(f"{args.collection}: {status.documents:,} documents, {status.chunks:,} chunks;")
        print(f"{len(queries)} queries x {args.repeat}\n")
        print("| top_k | folding | p50 ms | p95 ms |")
        print("|---:|---|---:|---:|")
        for k in (10, 100):
            for collapse in (True, False):
                for q in queries:
                    c.search(q, top_k=k, mode="bm25", collapse=collapse)
                spent = []
                for _ in range(args.repeat):
                    for q in queries:
                        start = time.perf_counter()
                        c.search(q, top_k=k, mode="bm25", collapse=collapse)
                        spent.append(time.perf_counter() - start)
                spent.sort()
                p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
                print(
                    f"| {k} | {'on' if collapse else 'off'} |"
                    f" {statistics.median(spent) * 1e3:.2f} | {p95 * 1e3:.2f} |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
