"""groundkit at scale against its floor: raw tantivy (same analyzer) and bm25s, in one run.

    .venv/bin/python benchmarks/scale.py [--sizes 5000,25000,100000] [--workdir DIR]
        [--scifact ../shared/data/scifact] [--queries 300] [--repeat 3] [--bm25s-max 100000]
        [--ingest-only]

For each size N it builds a synthetic corpus: SciFact sentences recombined with a fixed seed into
N records of about 1,590 characters (a title sentence and a text), written as JSONL shards of 100
records (``DIR/corpus-N/shard-NNNNN.jsonl``). Then, in this process, back to back:

- ingest: groundkit ``Collection.ingest`` of the folder (BM25 only), wall time and CPU time per
  document (this process and its helper processes), with a helper process per core (at most
  8: what ``ingest.helpers = -1`` starts when it starts them; on two cores it does only when
  making files is most of the writer's work, which it is not here) and again with
  ``ingest.helpers = 0`` (one process); raw tantivy, one and two writer threads, of the same
  records (each record's ``title + "\\n" + text`` as one document with a u64 id fast field;
  reading and parsing the shards included);
- disk: the collection folder (store + lexical index) and the tantivy folder;
- open: ``open_collection(create=False)`` + ``close`` (median of 20), and tantivy ``Index.open``
  + ``searcher()`` (median of 20); the first open of each in a fresh process;
- queries: the first ``--queries`` SciFact queries, ``--repeat`` passes, each query run on every
  system back to back (groundkit with folding on, as users get it, and off; tantivy's
  OR-of-terms query with ids read from the fast field; bm25s on the whole records while N is at
  most ``--bm25s-max``), p50/p95 at top 10 and 100;
- RSS: the peak resident memory of a fresh process that opens the index and runs 50 queries;
- re-ingest, nothing changed: the same folder ingested again;
- 50 documents visible: one record in each of 50 shards gets a new sentence; the time from the
  start of ``ingest`` until a search for the new sentence's marker finds all 50, against tantivy
  deleting and adding those 50 documents, committing and reloading.

``--ingest-only`` stops after the ingest table at each size (a few minutes at 100k, not twenty).

500,000 documents are not in the default sizes: add them with ``--sizes 5000,25000,100000,500000``
(about 0.8 GB of corpus and, by the 100k figures, some 4 GB of store and ten minutes of ingest
on a 2-core machine; bm25s is left out above ``--bm25s-max``).

Load average is printed with each size: the machine is shared, so ratios measured in the same
run are the figures to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import tantivy

from groundkit.index.lexical import analyzer

REPO = Path(__file__).resolve().parent.parent
SHARD = 100
TARGET_CHARS = 1590
SEED = 20240


# -- the corpus ------------------------------------------------------------------------------------
def sentences(scifact: Path) -> list[str]:
    out: list[str] = []
    with (scifact / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            for part in re.split(r"(?<=[.!?])\s+", record["text"]):
                if 20 <= len(part) <= 600:
                    out.append(part.strip())
    return out


def records(pool: list[str], n: int, seed: int = SEED) -> Iterator[dict[str, str]]:
    rng = random.Random(seed)
    for i in range(n):
        title = rng.choice(pool)[:150]
        parts: list[str] = []
        size = len(title) + 1
        while size < TARGET_CHARS:
            part = rng.choice(pool)
            parts.append(part)
            size += len(part) + 1
        yield {"_id": f"r{i}", "title": title, "text": " ".join(parts)}


def build_corpus(pool: list[str], n: int, folder: Path) -> None:
    if (folder / ".done").is_file():
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shard: list[str] = []
    for i, record in enumerate(records(pool, n)):
        shard.append(json.dumps(record))
        if len(shard) == SHARD or i == n - 1:
            (folder / f"shard-{i // SHARD:05}.jsonl").write_text("\n".join(shard) + "\n")
            shard = []
    (folder / ".done").write_text("ok")  # hidden: not ingested


def read_records(folder: Path) -> Iterator[dict[str, str]]:
    for path in sorted(folder.glob("shard-*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)


# -- raw tantivy, the floor ------------------------------------------------------------------------
def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("id", stored=True, indexed=True, fast=True)
    builder.add_text_field("text", tokenizer_name="en", index_option="freq")
    return builder.build()


class Floor:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.schema = _schema()
        self.analyzer = analyzer()  # groundkit's own: the same tokens by construction

    def build(self, folder: Path, threads: int) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir(parents=True)
        index = tantivy.Index(self.schema, path=str(self.path))
        index.register_tokenizer("en", self.analyzer)
        writer = index.writer(64_000_000 * threads, threads)
        for i, record in enumerate(read_records(folder)):
            doc = tantivy.Document()
            doc.add_unsigned("id", i)
            doc.add_text("text", record["title"] + "\n" + record["text"])
            writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()

    def open(self) -> tuple[tantivy.Index, tantivy.Searcher]:
        index = tantivy.Index.open(str(self.path))
        index.register_tokenizer("en", self.analyzer)
        return index, index.searcher()

    def search(self, searcher: tantivy.Searcher, query: str, k: int) -> list[tuple[int, float]]:
        terms = list(dict.fromkeys(self.analyzer.analyze(query)))
        if not terms:
            return []
        should = [
            (tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "text", t)) for t in terms
        ]
        result = searcher.search(tantivy.Query.boolean_query(should), k, count=False)
        ids = searcher.fast_field_values("id", [addr for _, addr in result.hits])
        return [(int(i or 0), s) for (s, _), i in zip(result.hits, ids, strict=True)]

    def update(self, index: tantivy.Index, changed: dict[int, str]) -> None:
        writer = index.writer(64_000_000, 1)
        writer.delete_documents_by_query(
            tantivy.Query.term_set_query(self.schema, "id", list(changed))
        )
        for i, text in changed.items():
            doc = tantivy.Document()
            doc.add_unsigned("id", i)
            doc.add_text("text", text)
            writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()
        index.reload()


# -- measuring -------------------------------------------------------------------------------------
def cpu() -> float:
    """CPU time of this process and of its children that ended (ingest's helper processes)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run: Callable[[], object]) -> tuple[float, float]:
    wall, used = time.perf_counter(), cpu()
    run()
    return time.perf_counter() - wall, cpu() - used


def median_ms(run: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def disk(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


CHILD = """
import json, sys, time
sys.path.insert(0, {bench!r})
kind, path, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
start = time.perf_counter()
if kind == "gk":
    import groundkit
    t0 = time.perf_counter()
    coll = groundkit.open_collection("scale", index_dir=path, create=False)
    opened = time.perf_counter() - t0
    for q in queries:
        coll.search(q, top_k=10)
else:
    from scale import Floor
    floor = Floor(__import__("pathlib").Path(path))
    t0 = time.perf_counter()
    index, searcher = floor.open()
    opened = time.perf_counter() - t0
    for q in queries:
        floor.search(searcher, q, 10)
# VmHWM, not ru_maxrss: the latter keeps the peak of the (large) parent across fork and exec.
status = open("/proc/self/status").read().split("VmHWM:")[1]
rss = int(status.split()[0]) / 1024
print(json.dumps({{"open_ms": opened * 1e3, "rss_mb": rss}}))
"""


def child(kind: str, path: Path, queries: list[str]) -> dict[str, float]:
    code = CHILD.format(bench=str(Path(__file__).parent))
    out = subprocess.run(
        [sys.executable, "-c", code, kind, str(path), json.dumps(queries[:50])],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


# -- one size ----------------------------------------------------------------------------------
def run_size(args: argparse.Namespace, pool: list[str], n: int, queries: list[str]) -> list[str]:
    import groundkit

    work = Path(args.workdir)
    corpus = work / f"corpus-{n}"
    build_corpus(pool, n, corpus)
    index_dir = work / f"gk-{n}"
    shutil.rmtree(index_dir, ignore_errors=True)
    rows: list[str] = [f"\n## {n:,} documents (load average before: {load()})\n"]
    out: dict[str, tuple[float, float]] = {}

    defaults = groundkit.Settings()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    helped = defaults.replace(ingest=defaults.ingest.replace(helpers=min(cores or 1, 8)))
    coll = groundkit.open_collection("scale", index_dir=index_dir, settings=helped)
    report = None

    def ingest() -> None:
        nonlocal report
        report = coll.ingest([str(corpus)])

    out["gk"] = timed(ingest)
    coll.close()
    assert report is not None
    chunks = report.chunks_written
    alone_dir = work / f"gk-{n}-alone"
    shutil.rmtree(alone_dir, ignore_errors=True)
    alone = groundkit.open_collection(
        "scale",
        index_dir=alone_dir,
        settings=defaults.replace(ingest=defaults.ingest.replace(helpers=0)),
    )
    out["gk0"] = timed(lambda: alone.ingest([str(corpus)]))
    alone.close()
    shutil.rmtree(alone_dir, ignore_errors=True)
    floors = {}
    for threads in (1, 2):
        floor = Floor(work / f"tantivy-{n}-{threads}")
        floors[threads] = floor
        out[f"t{threads}"] = timed(lambda f=floor, t=threads: f.build(corpus, t))
    floor = floors[2]
    rows.append(f"chunks: {chunks:,}; load average after ingest: {load()}\n")
    rows.append("| ingest | wall s | CPU s | CPU us/doc | wall vs tantivy 2 threads |")
    rows.append("|---|---:|---:|---:|---:|")
    labels = (
        ("gk", "groundkit, helpers (one per core)"),
        ("gk0", "groundkit, no helpers"),
        ("t1", "tantivy, 1 thread"),
        ("t2", "tantivy, 2"),
    )
    for name, label in labels:
        wall, used = out[name]
        ratio = wall / out["t2"][0]
        rows.append(f"| {label} | {wall:.2f} | {used:.2f} | {used / n * 1e6:.0f} | {ratio:.2f} |")

    if args.ingest_only:
        rows.append(f"load average at the end: {load()}")
        return rows
    gk_disk, t_disk = disk(index_dir / "scale"), disk(floor.path)
    store_mb = (index_dir / "scale" / "store.sqlite").stat().st_size / 1e6
    rows.append(
        f"\ndisk: groundkit {gk_disk / 1e6:.1f} MB (store.sqlite {store_mb:.1f} MB), tantivy"
        f" {t_disk / 1e6:.1f} MB, ratio {gk_disk / t_disk:.2f}"
    )

    def gk_open() -> None:
        groundkit.open_collection("scale", index_dir=index_dir, create=False).close()

    gk_open_ms = median_ms(gk_open, 20)
    t_open_ms = median_ms(floor.open, 20)
    gk_child, t_child = child("gk", index_dir, queries), child("t", floor.path, queries)
    rows.append(
        f"open (median of 20, warm): groundkit {gk_open_ms:.2f} ms, tantivy {t_open_ms:.2f} ms,"
        f" ratio {gk_open_ms / t_open_ms:.1f}; first open in a fresh process: groundkit"
        f" {gk_child['open_ms']:.2f} ms, tantivy {t_child['open_ms']:.2f} ms"
    )
    rows.append(
        f"RSS of a fresh process, open + 50 queries: groundkit {gk_child['rss_mb']:.0f} MB,"
        f" tantivy {t_child['rss_mb']:.0f} MB"
    )
    rows.extend(query_table(args, coll_path=index_dir, floor=floor, corpus=corpus, n=n, qs=queries))

    coll = groundkit.open_collection("scale", index_dir=index_dir, create=False)
    again = [timed(lambda: coll.ingest([str(corpus)]))[0] for _ in range(2)]
    rows.append(f"\nre-ingest, nothing changed: {statistics.median(again):.3f} s (median of 2)")
    rows.append(visibility(coll, floor, corpus))
    coll.close()
    rows.append(f"load average at the end: {load()}")
    return rows


def query_table(
    args: argparse.Namespace, *, coll_path: Path, floor: Floor, corpus: Path, n: int, qs: list[str]
) -> list[str]:
    import groundkit

    coll = groundkit.open_collection("scale", index_dir=coll_path, create=False)
    _, searcher = floor.open()
    systems: dict[str, Callable[[str, int], object]] = {
        "groundkit (folding on)": lambda q, k: coll.search(q, top_k=k),
        "groundkit (folding off)": lambda q, k: coll.search(q, top_k=k, collapse=False),
        "groundkit + to_dict (on)": lambda q, k: [h.to_dict() for h in coll.search(q, top_k=k)],
        "tantivy": lambda q, k: floor.search(searcher, q, k),
    }
    if n <= args.bm25s_max:
        import bm25s
        import Stemmer

        stemmer = Stemmer.Stemmer("english")
        # The text groundkit stores for a record (ingest/loaders.py): title, newline, text.
        texts = [r["title"] + "\n" + r["text"] for r in read_records(corpus)]
        retriever = bm25s.BM25()
        tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
        retriever.index(tokens, show_progress=False)
        del texts, tokens

        def bm25(q: str, k: int) -> object:
            t = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, show_progress=False)
            # n_threads left at its default (0: in this thread), as bm25s's README calls it.
            return retriever.retrieve(t, k=k, show_progress=False)

        systems["bm25s"] = bm25
    times: dict[tuple[str, int], list[float]] = {(s, k): [] for s in systems for k in (10, 100)}
    for k in (10, 100):
        for q in qs[:20]:
            for run in systems.values():
                run(q, k)
        for _ in range(args.repeat):
            for q in qs:
                for name, run in systems.items():
                    start = time.perf_counter()
                    run(q, k)
                    times[name, k].append(time.perf_counter() - start)
    coll.close()
    rows = [
        f"\nqueries: {len(qs)} SciFact queries x {args.repeat} passes, interleaved"
        f" (load average: {load()})\n",
        "| system | p50 top 10 ms | p95 top 10 ms | p50 top 100 ms | p95 top 100 ms |"
        " p50 ratio 10 / 100 vs bm25s | vs tantivy |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    p50 = {key: pct(v, 0.5) for key, v in times.items()}
    for name in systems:
        vs_b = (
            f"{p50[name, 10] / p50['bm25s', 10]:.2f} / {p50[name, 100] / p50['bm25s', 100]:.2f}"
            if "bm25s" in systems
            else "-"
        )
        t10, t100 = p50["tantivy", 10], p50["tantivy", 100]
        vs_t = f"{p50[name, 10] / t10:.2f} / {p50[name, 100] / t100:.2f}"
        rows.append(
            f"| {name} | {p50[name, 10]:.3f} | {pct(times[name, 10], 0.95):.3f} |"
            f" {p50[name, 100]:.3f} | {pct(times[name, 100], 0.95):.3f} | {vs_b} | {vs_t} |"
        )
    return rows


def visibility(coll: object, floor: Floor, corpus: Path) -> str:
    """Change one record in each of 50 shards; time until search finds all 50."""
    shards = sorted(corpus.glob("shard-*.jsonl"))
    (corpus / ".done").unlink()  # the corpus is no longer the seed's: the next run makes it again
    step = max(1, len(shards) // 50)
    chosen = shards[::step][:50]
    marker = f"zq{random.Random().randrange(10**9)}x"
    changed: dict[int, str] = {}
    for path in chosen:
        lines = path.read_text().splitlines()
        record = json.loads(lines[0])
        record["text"] += f" A new sentence about {marker}."
        lines[0] = json.dumps(record)
        path.write_text("\n".join(lines) + "\n")
        changed[int(record["_id"][1:])] = record["title"] + "\n" + record["text"]
    # Files written within the same second as their reading are hashed anyway; let time move on.
    past = time.time() - 10
    for path in chosen:
        os.utime(path, (past, past))
    start = time.perf_counter()
    coll.ingest([str(corpus)])  # type: ignore[attr-defined]
    found = coll.search(marker, top_k=100, collapse=False)  # type: ignore[attr-defined]
    gk = time.perf_counter() - start
    index, _ = floor.open()
    start = time.perf_counter()
    floor.update(index, changed)
    hits = floor.search(index.searcher(), marker, 100)
    t = time.perf_counter() - start
    assert len(found) == len(chosen) == len(hits), (len(found), len(hits))
    return (
        f"50 changed documents visible: groundkit {gk:.3f} s, tantivy {t:.3f} s, ratio {gk / t:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,25000,100000")
    parser.add_argument("--workdir", default=str(REPO / "benchmarks" / ".work" / "scale"))
    parser.add_argument("--scifact", default=str(REPO.parent / "shared" / "data" / "scifact"))
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bm25s-max", type=int, default=100_000)
    parser.add_argument(
        "--ingest-only", action="store_true", help="only the ingest table at each size"
    )
    args = parser.parse_args()
    scifact = Path(args.scifact)
    pool = sentences(scifact)
    with (scifact / "queries.jsonl").open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in fh][: args.queries]
    import groundkit

    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(
        f"scale benchmark at {head}; groundkit {groundkit.__version__}, tantivy"
        f" {getattr(tantivy, '__version__', '?')}, nproc {os.cpu_count()}, {len(pool):,}"
        f" sentences, seed {SEED}"
    )
    for n in (int(s) for s in args.sizes.split(",")):
        for row in run_size(args, pool, n, queries):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
