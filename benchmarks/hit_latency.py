"""BM25 query latency on SciFact: groundkit's ``Collection.search`` against bm25s, in one run.

    .venv/bin/python benchmarks/hit_latency.py [--scifact ../shared/data/scifact] \\
        [--queries 300] [--repeat 5] [--workdir DIR] [--profile K] [--hits FILE]
    PYTHONPATH=/path/to/checkout-of-REV/src .venv/bin/python benchmarks/hit_latency.py  # before

Ingests SciFact's ``corpus.jsonl`` as a user would: ``grk ingest corpus.jsonl`` into a fresh
collection, default settings (the loader stores ``title + "\n" + text``). bm25s indexes the very
same text per record, called as its README shows: ``bm25s.tokenize(texts, stopwords="en",
stemmer=...)``, ``BM25()`` defaults (lucene), ``retrieve(tokens, k=k)`` with its default
``n_threads=0`` (in the calling thread). A row with ``n_threads=1`` is kept, labelled: it starts a
thread pool on every call, which makes bm25s about twice as slow at top 100.

Then it runs the first ``--queries`` SciFact queries ``--repeat`` times, at top 10 and top 100,
each system in its own warm loop (20 queries to warm up, then all), as the shared yardstick
``query_floor.py`` does and as a user runs one system: groundkit in mode bm25 (the
yardstick's ``Collection.search(q, top_k=k, mode="bm25")``) with folding on (what users get) and
off, groundkit reading every hit's citation, snippet and metadata (what ``grk search``
shows; a hit reads its row and makes them when they are read), and bm25s (tokenising the query
included, as groundkit's time includes its analyzer), with ``n_threads=0`` and ``1``. Two rows
marked interleaved run groundkit and bm25s back to back on each query instead: each evicts the
other's arrays from the caches, which slows the smaller system most; their ratio is to each
other. Prints p50/p95 and the ratio of p50s to bm25s's (``n_threads=0``). ``--profile K``
prints a cProfile of groundkit at top K instead. ``--hits FILE`` writes every query's hits at
top 10 and top 100, folding on, as JSON lines (each hit as ``Hit.to_dict`` gives it: rank,
score, citation, text, snippet, metadata, ranks, folded hits) instead of timing: run it on two
revisions with the same ``--workdir`` (the second run's ingest changes nothing) and ``cmp`` the
files to show that a change left the results as they were. Two fresh ingests may differ: each
indexing thread writes a segment of its own, and tantivy orders tied scores by segment.

The machine is shared: the ratios measured in the same run are the figures to quote.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scifact", default=str(REPO.parent / "shared" / "data" / "scifact"))
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir", help="keep the collection here [default: a temp dir]")
    parser.add_argument("--profile", type=int, help="profile groundkit at this top_k and exit")
    parser.add_argument("--hits", help="write the hits at top 10 and 100 here, and exit")
    args = parser.parse_args()

    import bm25s
    import Stemmer

    import groundkit

    scifact = Path(args.scifact)
    with (scifact / "corpus.jsonl").open(encoding="utf-8") as fh:
        corpus = [json.loads(line) for line in fh]
    with (scifact / "queries.jsonl").open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in fh][: args.queries]

    work = Path(args.workdir or tempfile.mkdtemp(prefix="hit-latency-"))
    work.mkdir(parents=True, exist_ok=True)
    index_dir = work / "gk"
    grk = str(Path(sys.executable).with_name("grk"))
    command = [grk, "--index-dir", str(index_dir), "--collection", "scifact", "ingest", "-q"]
    subprocess.run(
        [*command, str(scifact / "corpus.jsonl")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    coll = groundkit.open_collection("scifact", index_dir=index_dir, create=False)

    if args.hits:
        with open(args.hits, "w", encoding="utf-8") as out:
            for k in (10, 100):
                for i, q in enumerate(queries):
                    hits = [h.to_dict() for h in coll.search(q, top_k=k)]
                    out.write(json.dumps({"query": i, "top_k": k, "hits": hits}) + "\n")
        return 0

    if args.profile:
        for q in queries[:20]:
            coll.search(q, top_k=args.profile, mode="bm25")
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.repeat):
            for q in queries:
                coll.search(q, top_k=args.profile, mode="bm25")
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0

    stemmer = Stemmer.Stemmer("english")
    # The text groundkit stores for a record (ingest/loaders.py): the title, a newline, the text.
    texts = [f"{r['title']}\n{r['text']}" if r.get("title") else r["text"] for r in corpus]
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )

    def bm25(q: str, k: int, threads: int = 0) -> object:
        t = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, show_progress=False)
        return retriever.retrieve(t, k=k, show_progress=False, n_threads=threads)

    def shown(q: str, k: int) -> object:
        return [(h.citation, h.snippet, h.metadata) for h in coll.search(q, top_k=k, mode="bm25")]

    own: dict[str, Callable[[str, int], object]] = {
        "groundkit, folding on": lambda q, k: coll.search(q, top_k=k, mode="bm25"),
        "groundkit, folding off": lambda q, k: coll.search(q, top_k=k, mode="bm25", collapse=False),
        "groundkit, citations, snippets and metadata read": shown,
        "bm25s": bm25,
        "bm25s, n_threads=1 (a thread pool per call)": lambda q, k: bm25(q, k, 1),
    }
    # The interleaved rows: groundkit and bm25s back to back on each query, each query's first
    # system in turn. Kept to show the effect: a system run between two queries of another
    # evicts its arrays from the caches, which slows the smaller one most (bm25s up to 2x).
    mixed: dict[str, Callable[[str, int], object]] = {
        "groundkit, folding on (interleaved with bm25s)": own["groundkit, folding on"],
        "bm25s (interleaved with groundkit)": bm25,
    }
    systems = {**own, **mixed}
    times: dict[tuple[str, int], list[float]] = {(s, k): [] for s in systems for k in (10, 100)}
    for k in (10, 100):
        # Each system in its own warm loop, as the yardstick (../shared/yardsticks/
        # query_floor.py) times it and as a user runs one system: 20 queries to warm up, then
        # every query, --repeat times.
        for name, run in own.items():
            for q in queries[:20]:
                run(q, k)
            for _, q in product(range(args.repeat), queries):
                start = time.perf_counter()
                run(q, k)
                times[name, k].append(time.perf_counter() - start)
        runs = list(mixed.items())
        for i, (_, q) in enumerate(product(range(args.repeat), queries)):
            turn = i % len(runs)
            for name, run in runs[turn:] + runs[:turn]:
                start = time.perf_counter()
                run(q, k)
                times[name, k].append(time.perf_counter() - start)
    coll.close()
    p50 = {key: pct(v, 0.5) for key, v in times.items()}
    print(
        f"groundkit {groundkit.__version__} from {Path(groundkit.__file__).parent}; bm25s"
        f" {bm25s.__version__}; {len(queries)} SciFact queries x {args.repeat}, each system in"
        " its own warm loop but the rows marked interleaved;"
        f" load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())}\n"
    )
    print(
        "| system | p50 top 10 ms | p95 top 10 ms | p50 top 100 ms | p95 top 100 ms |"
        " p50 vs bm25s, top 10 / 100 |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in systems:
        base = "bm25s (interleaved with groundkit)" if name in mixed else "bm25s"
        ratio = f"{p50[name, 10] / p50[base, 10]:.2f} / {p50[name, 100] / p50[base, 100]:.2f}"
        print(
            f"| {name} | {p50[name, 10]:.3f} | {pct(times[name, 10], 0.95):.3f} |"
            f" {p50[name, 100]:.3f} | {pct(times[name, 100], 0.95):.3f} | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
