"""BEIR-style lexical retrieval benchmark: groundkit against bm25s and rank-bm25 in one run.

    .venv/bin/python benchmarks/beir.py --dataset ../shared/data/scifact --split train

Scoring is per document: groundkit returns chunks, which are collapsed to their documents in
rank order (a document keeps its best chunk's rank), as BEIR does. The references index whole
documents (title + " " + text). Run ``--self-check`` to test the metric functions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import platform
import re
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import groundkit
from groundkit.config import ChunkConfig, Settings
from groundkit.index.lexical import LexicalIndex

Qrels = dict[str, dict[str, int]]  # query id -> {corpus id: grade}
_WORD = re.compile(r"\w+")


# -- metrics (pure) -------------------------------------------------------------------------------
def collapse(doc_ids: Iterable[str]) -> list[str]:
    """Documents in rank order, each at its first (best) occurrence."""
    return list(dict.fromkeys(doc_ids))


def ndcg_at(ranked: Sequence[str], rels: dict[str, int], k: int) -> float:
    """Graded nDCG@k: gain = qrels grade, discount log2(rank + 1), ideal from the qrels."""
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted((g for g in rels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranked: Sequence[str], rels: dict[str, int], k: int) -> float:
    relevant = {d for d, g in rels.items() if g > 0}
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at(ranked: Sequence[str], rels: dict[str, int], k: int) -> float:
    for i, d in enumerate(ranked[:k]):
        if rels.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def evaluate(run: dict[str, list[str]], qrels: Qrels) -> tuple[float, float, float]:
    """Mean nDCG@10, Recall@100 and MRR@10 over the queries of ``run``."""
    n = len(run)
    return (
        sum(ndcg_at(run[q], qrels[q], 10) for q in run) / n,
        sum(recall_at(run[q], qrels[q], 100) for q in run) / n,
        sum(mrr_at(run[q], qrels[q], 10) for q in run) / n,
    )


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def self_check() -> None:
    # Ranking x, a, y, b with grades a=2, b=1, worked by hand:
    # DCG = 2/log2(3) + 1/log2(5) = 1.692536; IDCG = 2 + 1/log2(3) = 2.630930; ratio 0.643322.
    rels = {"a": 2, "b": 1, "z": 0}
    ranked = collapse(["x", "a", "x", "y", "a", "b"])
    assert ranked == ["x", "a", "y", "b"]
    assert abs(ndcg_at(ranked, rels, 10) - 0.643322) < 1e-6
    assert abs(ndcg_at(["a", "b"], rels, 10) - 1.0) < 1e-12
    assert abs(ndcg_at(ranked, rels, 1) - 0.0) < 1e-12
    assert recall_at(ranked, rels, 100) == 1.0
    assert recall_at(ranked, rels, 2) == 0.5
    assert mrr_at(ranked, rels, 10) == 0.5
    assert mrr_at(ranked, rels, 1) == 0.0
    assert ndcg_at([], rels, 10) == recall_at([], rels, 100) == mrr_at([], rels, 10) == 0.0
    assert percentile([5, 1, 3, 2, 4], 50) == 3
    assert percentile(list(range(1, 21)), 95) == 19
    print("self-check passed")


# -- data and helpers -----------------------------------------------------------------------------
def load_beir(root: Path, split: str) -> tuple[list[dict[str, str]], dict[str, str], Qrels]:
    with open(root / "corpus.jsonl", encoding="utf-8") as fh:
        corpus = [json.loads(line) for line in fh if line.strip()]
    qrels: Qrels = {}
    with open(root / "qrels" / f"{split}.tsv", encoding="utf-8") as fh:
        next(fh)  # header
        for line in fh:
            qid, did, grade = line.rstrip("\n").split("\t")
            qrels.setdefault(qid, {})[did] = int(grade)
    with open(root / "queries.jsonl", encoding="utf-8") as fh:
        records = (json.loads(line) for line in fh if line.strip())
        queries = {str(q["_id"]): q["text"] for q in records if str(q["_id"]) in qrels}
    return corpus, queries, qrels


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


@dataclass
class Row:
    name: str
    ndcg: float
    recall: float
    mrr: float
    index_s: float
    open_ms: float
    p50_ms: float
    p95_ms: float
    size_mb: float


def run_queries(
    queries: dict[str, str], search: Callable[[str], list[str]], warmup: int = 20
) -> tuple[dict[str, list[str]], list[float]]:
    """Each query once, timed, after a few untimed warm-up queries."""
    for text in list(queries.values())[:warmup]:
        search(text)
    run, lat = {}, []
    for qid, text in queries.items():
        t0 = time.perf_counter()
        run[qid] = search(text)
        lat.append(time.perf_counter() - t0)
    return run, lat


def make_row(name: str, run, lat, qrels, index_s, open_ms, size) -> Row:
    ndcg, recall, mrr = evaluate(run, qrels)
    p50, p95 = percentile(lat, 50) * 1e3, percentile(lat, 95) * 1e3
    return Row(name, ndcg, recall, mrr, index_s, open_ms, p50, p95, size / 1e6)


# -- groundkit ------------------------------------------------------------------------------------
def bench_groundkit(args, corpus_path: Path, queries, qrels, work: Path):
    settings = Settings(chunk=ChunkConfig(size=args.chunk_size, min_size=200))
    index_dir = work / "gk"
    coll = groundkit.open_collection("scifact", index_dir=index_dir, settings=settings)
    t0 = time.perf_counter()
    report = coll.ingest([str(corpus_path)])
    ingest_s = time.perf_counter() - t0
    coll.close()
    cold = subprocess.run(
        [sys.executable, "-c", _COLD_OPEN, str(index_dir)], check=True, capture_output=True
    )
    cold_ms = float(cold.stdout) * 1e3

    def open_close() -> None:
        groundkit.open_collection("scifact", index_dir=index_dir, create=False).close()

    open_ms = statistics.median(timed(open_close) for _ in range(20)) * 1e3
    coll = groundkit.open_collection("scifact", index_dir=index_dir, create=False)
    status = coll.status()

    def search(text: str) -> list[str]:
        hits = coll.search(text, top_k=args.fetch_chunks)
        return collapse(str(h.citation.external_id) for h in hits)

    run, lat = run_queries(queries, search)
    short = sum(len(docs) < 100 for docs in run.values())
    extra = {
        "report": report,
        "status": status,
        "cold_ms": cold_ms,
        "short": short,
        "index_dir": index_dir,
    }
    for k in (10, 100):
        _, lat_k = run_queries(queries, lambda q, k=k: coll.search(q, top_k=k))
        extra[f"p50@{k}"] = percentile(lat_k, 50) * 1e3
    lexical = LexicalIndex(coll.path / "lexical")  # the tantivy index alone: no store, no snippets
    _, lat_lex = run_queries(
        queries, lambda q: lexical.search(lexical.tokens(q), args.fetch_chunks)
    )
    extra["p50_lexical"] = percentile(lat_lex, 50) * 1e3
    coll.close()
    row = make_row("groundkit (chunks)", run, lat, qrels, ingest_s, open_ms, status["size_bytes"])
    return row, extra


_COLD_OPEN = """import sys, time, groundkit
t0 = time.perf_counter()
groundkit.open_collection("scifact", index_dir=sys.argv[1], create=False).close()
print(time.perf_counter() - t0)"""


def bench_grk_process(index_dir: Path, query: str, runs: int = 10) -> float:
    grk = str(Path(sys.executable).parent / "grk")
    cmd = [grk, "--index-dir", str(index_dir), "--collection", "scifact", "search", query, "--json"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_reingest(args, corpus_path: Path, work: Path) -> dict[str, object]:
    """Ingest a copy, change every 100th record, ingest the same path again."""
    copy = work / "corpus-edit.jsonl"
    shutil.copyfile(corpus_path, copy)
    settings = Settings(chunk=ChunkConfig(size=args.chunk_size, min_size=200))
    coll = groundkit.open_collection("edit", index_dir=work / "gk", settings=settings)
    full_s = timed(lambda: coll.ingest([str(copy)]))
    same_s = timed(lambda: coll.ingest([str(copy)]))
    lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
    for i in range(0, len(lines), 100):
        record = json.loads(lines[i])
        record["text"] += " This sentence was appended by the benchmark."
        lines[i] = json.dumps(record, ensure_ascii=False) + "\n"
    copy.write_text("".join(lines), encoding="utf-8")
    t0 = time.perf_counter()
    report = coll.ingest([str(copy)])
    changed_s = time.perf_counter() - t0
    coll.close()
    return {"full_s": full_s, "same_s": same_s, "changed_s": changed_s, "report": report}


# -- references -----------------------------------------------------------------------------------
def doc_text(record: dict[str, str]) -> str:
    return f"{record.get('title') or ''} {record['text']}"


def bench_bm25s(corpus, queries, qrels, work: Path) -> Row:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    ids = [str(r["_id"]) for r in corpus]
    t0 = time.perf_counter()
    tokens = bm25s.tokenize(
        [doc_text(r) for r in corpus], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()  # defaults: method="lucene", k1=1.5, b=0.75
    retriever.index(tokens, show_progress=False)
    index_s = time.perf_counter() - t0
    save_dir = work / "bm25s"
    retriever.save(save_dir, show_progress=False)
    load = lambda: bm25s.BM25.load(save_dir, show_progress=False)  # noqa: E731
    open_ms = statistics.median(timed(load) for _ in range(20)) * 1e3

    def search(text: str) -> list[str]:
        q = bm25s.tokenize(
            [text], stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )
        docs, scores = retriever.retrieve(q, k=100, show_progress=False)
        return [ids[d] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    run, lat = run_queries(queries, search)
    return make_row("bm25s (docs)", run, lat, qrels, index_s, open_ms, folder_bytes(save_dir))


def simple_tokens(text: str, stemmer, stopwords: frozenset[str]) -> list[str]:
    words = [w for w in _WORD.findall(text.lower()) if w not in stopwords]
    return stemmer.stemWords(words)


def bench_rank_bm25(corpus, queries, qrels) -> Row:
    import numpy as np
    import Stemmer
    from bm25s.stopwords import STOPWORDS_EN
    from rank_bm25 import BM25Okapi

    stemmer, stop = Stemmer.Stemmer("english"), frozenset(STOPWORDS_EN)
    ids = [str(r["_id"]) for r in corpus]
    t0 = time.perf_counter()
    model = BM25Okapi([simple_tokens(doc_text(r), stemmer, stop) for r in corpus])
    index_s = time.perf_counter() - t0  # defaults: k1=1.5, b=0.75, epsilon=0.25
    blob = pickle.dumps(model)  # rank-bm25 has no on-disk format; a pickle stands in for one
    open_ms = statistics.median(timed(lambda: pickle.loads(blob)) for _ in range(5)) * 1e3

    def search(text: str) -> list[str]:
        scores = model.get_scores(simple_tokens(text, stemmer, stop))
        top = np.argpartition(-scores, 100)[:100]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [ids[i] for i in top if scores[i] > 0]

    run, lat = run_queries(queries, search, warmup=3)
    return make_row("rank-bm25 (docs)", run, lat, qrels, index_s, open_ms, len(blob))


def bench_fts5(corpus, queries, qrels, work: Path) -> Row:
    from bm25s.stopwords import STOPWORDS_EN

    path, stop = work / "fts5.sqlite", frozenset(STOPWORDS_EN)
    t0 = time.perf_counter()
    conn = sqlite3.connect(path)
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='porter unicode61')")
    conn.executemany(
        "INSERT INTO docs(rowid, body) VALUES (?, ?)",
        ((i, doc_text(r)) for i, r in enumerate(corpus)),
    )
    conn.commit()
    conn.close()
    index_s = time.perf_counter() - t0

    def open_close() -> None:
        sqlite3.connect(path).execute("SELECT rowid FROM docs LIMIT 1").fetchall()

    open_ms = statistics.median(timed(open_close) for _ in range(20)) * 1e3
    conn = sqlite3.connect(path)
    ids = [str(r["_id"]) for r in corpus]

    def search(text: str) -> list[str]:
        terms = dict.fromkeys(w for w in _WORD.findall(text.lower()) if w not in stop)
        if not terms:
            return []
        match = " OR ".join(f'"{t}"' for t in terms)  # quoted: words, never query syntax
        sql = "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 100"
        return [ids[r] for (r,) in conn.execute(sql, (match,))]

    run, lat = run_queries(queries, search)
    conn.close()
    return make_row("sqlite fts5 (docs)", run, lat, qrels, index_s, open_ms, path.stat().st_size)


# -- report ---------------------------------------------------------------------------------------
def print_table(rows: list[Row]) -> None:
    print("| system | nDCG@10 | R@100 | MRR@10 | ingest/index s | open ms | p50 ms | p95 ms | MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r.name} | {r.ndcg:.4f} | {r.recall:.4f} | {r.mrr:.4f} | {r.index_s:.2f}"
            f" | {r.open_ms:.2f} | {r.p50_ms:.2f} | {r.p95_ms:.2f} | {r.size_mb:.1f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="BEIR folder: corpus.jsonl, queries.jsonl")
    parser.add_argument("--split", default="train", help="qrels/<split>.tsv [default: train]")
    parser.add_argument("--chunk-size", type=int, default=1000)
    parser.add_argument("--fetch-chunks", type=int, default=200, help="chunks fetched per query")
    parser.add_argument("--workdir", type=Path, help="keep indexes here [default: a temp dir]")
    parser.add_argument("--limit-queries", type=int, help="evaluate only the first N queries")
    parser.add_argument("--with-fts5", action="store_true", help="also measure SQLite FTS5")
    parser.add_argument("--self-check", action="store_true", help="test the metrics and exit")
    args = parser.parse_args()
    self_check()
    if args.self_check:
        return 0
    if args.dataset is None:
        parser.error("--dataset is required")

    corpus, queries, qrels = load_beir(args.dataset, args.split)
    if args.limit_queries:
        queries = dict(list(queries.items())[: args.limit_queries])
    corpus_path = (args.dataset / "corpus.jsonl").resolve()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="grk-beir-"))
    if args.workdir:
        shutil.rmtree(work / "gk", ignore_errors=True)  # always a fresh collection
        work.mkdir(parents=True, exist_ok=True)
    try:
        gk, extra = bench_groundkit(args, corpus_path, queries, qrels, work)
        grk_s = bench_grk_process(extra["index_dir"], next(iter(queries.values())))
        edit = bench_reingest(args, corpus_path, work)
        rows = [
            gk,
            bench_bm25s(corpus, queries, qrels, work),
            bench_rank_bm25(corpus, queries, qrels),
        ]
        if args.with_fts5:
            rows.append(bench_fts5(corpus, queries, qrels, work))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)

    from importlib.metadata import version

    argv = " ".join(shlex.quote(a) for a in sys.argv)
    print(f"command: .venv/bin/python {argv}")
    print(
        f"machine: nproc={os.cpu_count()}, {platform.platform()}, python {platform.python_version()}"
        f"; groundkit {groundkit.__version__}, tantivy {version('tantivy')}, bm25s {version('bm25s')}"
    )
    status, report = extra["status"], extra["report"]
    print(
        f"data: {args.dataset.name} split={args.split}: {len(corpus)} documents, {len(queries)}"
        f" queries with qrels; groundkit chunk.size={args.chunk_size} min_size=200 ->"
        f" {status['chunks']} chunks ({report.new} documents ingested)"
    )
    print(
        f"groundkit fetches {args.fetch_chunks} chunks per query and collapses them to documents;"
        f" {extra['short']} of {len(queries)} queries kept fewer than 100 documents\n"
    )
    print_table(rows)
    full, changed = edit["full_s"], edit["changed_s"]
    er = edit["report"]
    print(
        f"\n- groundkit open: warm median of 20 = {gk.open_ms:.2f} ms;"
        f" first open in a fresh process = {extra['cold_ms']:.2f} ms"
    )
    print(
        f"- groundkit query p50 by top_k (chunks, with citations and snippets):"
        f" 10 -> {extra['p50@10']:.2f} ms, 100 -> {extra['p50@100']:.2f} ms,"
        f" {args.fetch_chunks} -> {gk.p50_ms:.2f} ms; the tantivy index alone at"
        f" {args.fetch_chunks}: {extra['p50_lexical']:.2f} ms"
    )
    print(f"- whole-process `grk search QUERY --json` (top_k 10): median of 10 = {grk_s:.3f} s")
    print(
        f"- re-ingest after a 1% change (every 100th record): {changed:.3f} s ="
        f" {changed / full:.1%} of a full ingest of the same file ({full:.2f} s);"
        f" changed={er.changed} unchanged={er.unchanged} new={er.new} removed={er.removed};"
        f" re-ingest with no change: {edit['same_s']:.3f} s"
    )
    bm = rows[1]
    checks = [
        ("nDCG@10 >= bm25s", gk.ndcg >= bm.ndcg),
        (f"query p50 <= 2 ms (at top_k {args.fetch_chunks})", gk.p50_ms <= 2),
        ("query p50 <= 2 ms (at top_k 10)", extra["p50@10"] <= 2),
        ("open <= 50 ms (warm)", gk.open_ms <= 50),
        ("open <= 50 ms (fresh process)", extra["cold_ms"] <= 50),
        ("grk search process <= 0.5 s", grk_s <= 0.5),
        ("ingest <= 10 s", gk.index_s <= 10),
        ("1% re-ingest <= 5% of full", changed / full <= 0.05),
    ]
    print("- targets: " + "; ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
