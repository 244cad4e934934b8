"""BEIR-style lexical retrieval benchmark: groundkit against bm25s and rank-bm25 in one run.

    .venv/bin/python benchmarks/beir.py --dataset ../shared/data/scifact --split train

Scoring is per document: groundkit returns chunks, which are collapsed to their documents in
rank order (a document keeps its best chunk's rank), as BEIR does. The references index whole
documents (title + " " + text). ``--self-check`` tests the metric functions on a worked case.
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
from importlib.metadata import version
from pathlib import Path
from typing import Any

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
    return next((1.0 / (i + 1) for i, d in enumerate(ranked[:k]) if rels.get(d, 0) > 0), 0.0)


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
    assert ndcg_at(["a", "b"], rels, 10) == 1.0
    assert ndcg_at(ranked, rels, 1) == 0.0
    assert (recall_at(ranked, rels, 100), recall_at(ranked, rels, 2)) == (1.0, 0.5)
    assert (mrr_at(ranked, rels, 10), mrr_at(ranked, rels, 1)) == (0.5, 0.0)
    assert ndcg_at([], rels, 10) == recall_at([], rels, 100) == mrr_at([], rels, 10) == 0.0
    assert (percentile([5, 1, 3, 2, 4], 50), percentile(range(1, 21), 95)) == (3, 19)
    print("self-check passed")


# -- harness --------------------------------------------------------------------------------------
def load_beir(root: Path, split: str) -> tuple[list[dict[str, str]], dict[str, str], Qrels]:
    """Corpus records, the queries that have qrels in ``split``, and those qrels."""
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


def median_ms(fn: Callable[[], object], runs: int = 20) -> float:
    return statistics.median(timed(fn) for _ in range(runs)) * 1e3


def run_queries(
    queries: dict[str, str], search: Callable[[str], Any], warmup: int = 20
) -> tuple[dict[str, Any], list[float]]:
    """Each query once, timed one by one, after a few untimed warm-up queries."""
    for text in list(queries.values())[:warmup]:
        search(text)
    run, lat = {}, []
    for qid, text in queries.items():
        t0 = time.perf_counter()
        run[qid] = search(text)
        lat.append(time.perf_counter() - t0)
    return run, lat


@dataclass
class Row:
    """One system's line of the table; quality is (nDCG@10, Recall@100, MRR@10)."""

    name: str
    quality: tuple[float, float, float]
    index_s: float
    open_ms: float
    p50_ms: float
    p95_ms: float
    size_mb: float


def make_row(name, run, lat, qrels, index_s, open_ms, size_bytes) -> Row:
    per_query = [
        (ndcg_at(d, qrels[q], 10), recall_at(d, qrels[q], 100), mrr_at(d, qrels[q], 10))
        for q, d in run.items()
    ]
    quality = tuple(sum(col) / len(per_query) for col in zip(*per_query, strict=True))
    p50, p95 = percentile(lat, 50) * 1e3, percentile(lat, 95) * 1e3
    return Row(name, quality, index_s, open_ms, p50, p95, size_bytes / 1e6)


# -- groundkit ------------------------------------------------------------------------------------
_FRESH_OPEN = """import sys, time, groundkit
t0 = time.perf_counter()
groundkit.open_collection("scifact", index_dir=sys.argv[1], create=False).close()
print(time.perf_counter() - t0)"""


def bench_groundkit(args, corpus_path: Path, queries, qrels, index_dir: Path):
    settings = Settings(chunk=ChunkConfig(size=args.chunk_size, min_size=200))
    coll = groundkit.open_collection("scifact", index_dir=index_dir, settings=settings)
    t0 = time.perf_counter()
    report = coll.ingest([str(corpus_path)])
    ingest_s = time.perf_counter() - t0
    coll.close()
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH_OPEN, str(index_dir)], check=True, capture_output=True
    )
    out: dict[str, Any] = {"report": report, "fresh_open_ms": float(fresh.stdout) * 1e3}
    open_ms = median_ms(
        lambda: groundkit.open_collection("scifact", index_dir=index_dir, create=False).close()
    )
    coll = groundkit.open_collection("scifact", index_dir=index_dir, create=False)
    out["chunks"] = coll.status()["chunks"]
    fetch = args.fetch_chunks
    run, lat = run_queries(
        queries,
        lambda q: collapse(str(h.citation.external_id) for h in coll.search(q, top_k=fetch)),
    )
    out["short"] = sum(len(docs) < 100 for docs in run.values())
    for k in (10, 100):
        run_k, lat_k = run_queries(queries, lambda q, k=k: coll.search(q, top_k=k))
        out[f"p50@{k}"] = percentile(lat_k, 50)
    out["short@100"] = sum(
        len({h.citation.external_id for h in hits}) < 100 for hits in run_k.values()
    )
    lexical = LexicalIndex(coll.path / "lexical")  # the tantivy index alone: no store, no snippets
    out["p50_lexical"] = percentile(
        run_queries(queries, lambda q: lexical.search(lexical.tokens(q), fetch))[1], 50
    )
    coll.close()
    path = coll.path
    out["store_mb"] = (path / "store.sqlite").stat().st_size / 1e6
    out["lexical_mb"] = folder_bytes(path / "lexical") / 1e6
    row = make_row("groundkit (chunks)", run, lat, qrels, ingest_s, open_ms, folder_bytes(path))
    return row, out


def bench_grk_process(index_dir: Path, query: str, runs: int = 10) -> float:
    grk = str(Path(sys.executable).parent / "grk")
    cmd = [grk, "--index-dir", str(index_dir), "--collection", "scifact", "search", query, "--json"]
    return statistics.median(
        timed(lambda: subprocess.run(cmd, check=True, capture_output=True)) for _ in range(runs)
    )


def bench_reingest(args, corpus_path: Path, work: Path, rounds: int = 3) -> dict[str, Any]:
    """Ingest a copy; then, ``rounds`` times, append a sentence to every 100th record and ingest
    the same path again. Times are medians over the rounds; the counts are the last round's."""
    copy = work / "corpus-edit.jsonl"
    shutil.copyfile(corpus_path, copy)
    settings = Settings(chunk=ChunkConfig(size=args.chunk_size, min_size=200))
    coll = groundkit.open_collection("edit", index_dir=work / "gk", settings=settings)
    full_s = timed(lambda: coll.ingest([str(copy)]))
    same_s = statistics.median(timed(lambda: coll.ingest([str(copy)])) for _ in range(rounds))
    changed, report = [], None
    for n in range(rounds):
        lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
        for i in range(0, len(lines), 100):
            record = json.loads(lines[i])
            record["text"] += f" Sentence {n} was appended by the benchmark."
            lines[i] = json.dumps(record, ensure_ascii=False) + "\n"
        copy.write_text("".join(lines), encoding="utf-8")
        t0 = time.perf_counter()
        report = coll.ingest([str(copy)])
        changed.append(time.perf_counter() - t0)
    coll.close()
    changed_s = statistics.median(changed)
    return {"full_s": full_s, "same_s": same_s, "changed_s": changed_s, "report": report}


# -- references -----------------------------------------------------------------------------------
def doc_text(record: dict[str, str]) -> str:
    return f"{record.get('title') or ''} {record['text']}"


def bench_bm25s(corpus, queries, qrels, work: Path) -> Row:
    import bm25s
    import Stemmer

    stemmer, ids = Stemmer.Stemmer("english"), [str(r["_id"]) for r in corpus]
    t0 = time.perf_counter()
    texts = [doc_text(r) for r in corpus]
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25()  # defaults: method="lucene", k1=1.5, b=0.75
    retriever.index(tokens, show_progress=False)
    index_s = time.perf_counter() - t0
    retriever.save(work / "bm25s", show_progress=False)
    open_ms = median_ms(lambda: bm25s.BM25.load(work / "bm25s", show_progress=False))

    def search(text: str) -> list[str]:
        q = bm25s.tokenize(
            text, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )
        docs, scores = retriever.retrieve(q, k=100, show_progress=False)
        return [ids[d] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    run, lat = run_queries(queries, search)
    return make_row("bm25s (docs)", run, lat, qrels, index_s, open_ms, folder_bytes(work / "bm25s"))


def bench_rank_bm25(corpus, queries, qrels) -> Row:
    import numpy as np
    import Stemmer
    from bm25s.stopwords import STOPWORDS_EN
    from rank_bm25 import BM25Okapi

    stemmer, stop = Stemmer.Stemmer("english"), frozenset(STOPWORDS_EN)
    ids = [str(r["_id"]) for r in corpus]

    def tokens(text: str) -> list[str]:
        return stemmer.stemWords([w for w in _WORD.findall(text.lower()) if w not in stop])

    t0 = time.perf_counter()
    model = BM25Okapi([tokens(doc_text(r)) for r in corpus])  # k1=1.5, b=0.75, epsilon=0.25
    index_s = time.perf_counter() - t0
    blob = pickle.dumps(model)  # rank-bm25 has no on-disk format; a pickle stands in for one
    open_ms = median_ms(lambda: pickle.loads(blob), runs=5)

    def search(text: str) -> list[str]:
        scores = model.get_scores(tokens(text))
        top = np.argpartition(-scores, 100)[:100]
        return [ids[i] for i in top[np.argsort(-scores[top], kind="stable")] if scores[i] > 0]

    run, lat = run_queries(queries, search, warmup=3)
    return make_row("rank-bm25 (docs)", run, lat, qrels, index_s, open_ms, len(blob))


def bench_fts5(corpus, queries, qrels, work: Path) -> Row:
    from bm25s.stopwords import STOPWORDS_EN

    path, stop, ids = work / "fts5.sqlite", frozenset(STOPWORDS_EN), [str(r["_id"]) for r in corpus]
    t0 = time.perf_counter()
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='porter unicode61')")
        rows = ((i, doc_text(r)) for i, r in enumerate(corpus))
        conn.executemany("INSERT INTO docs(rowid, body) VALUES (?, ?)", rows)
    conn.close()
    index_s = time.perf_counter() - t0
    open_ms = median_ms(lambda: sqlite3.connect(path).execute("SELECT 1 FROM docs LIMIT 1").close())
    conn = sqlite3.connect(path)
    sql = "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 100"

    def search(text: str) -> list[str]:
        terms = dict.fromkeys(w for w in _WORD.findall(text.lower()) if w not in stop)
        match = " OR ".join(f'"{t}"' for t in terms)  # quoted: words, never query syntax
        return [ids[r] for (r,) in conn.execute(sql, (match,))] if terms else []

    run, lat = run_queries(queries, search)
    conn.close()
    return make_row("sqlite fts5 (docs)", run, lat, qrels, index_s, open_ms, path.stat().st_size)


# -- report ---------------------------------------------------------------------------------------
def git_revision() -> str:
    """The commit the library was measured at, marked when ``src/`` has uncommitted changes."""
    git = ["git", "-C", str(Path(__file__).resolve().parent)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, check=False)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "../src"], capture_output=True, check=False
    )
    return (head.stdout.decode().strip() or "unknown") + (" (src modified)" if dirty.stdout else "")


def report(args, corpus, queries, rows: list[Row], gk: dict[str, Any], grk_s, edit) -> None:
    print(f"command: .venv/bin/python {' '.join(shlex.quote(a) for a in sys.argv)}")
    print(
        f"machine: nproc={os.cpu_count()}, {platform.platform()}, python"
        f" {platform.python_version()}; groundkit {groundkit.__version__}, tantivy"
        f" {version('tantivy')}, bm25s {version('bm25s')}, rank-bm25 {version('rank-bm25')};"
        f" commit {git_revision()}"
    )
    print(
        f"data: {args.dataset.name}, split {args.split}: {len(corpus)} documents, {len(queries)}"
        f" queries with qrels; groundkit chunk.size={args.chunk_size} min_size=200 ->"
        f" {gk['chunks']} chunks. groundkit fetches {args.fetch_chunks} chunks per query and"
        f" collapses them to documents. Queries left with fewer than 100 documents:"
        f" {gk['short']} (with 100 chunks: {gk['short@100']}).\n"
    )
    print("| system | nDCG@10 | R@100 | MRR@10 | ingest/index s | open ms | p50 ms | p95 ms | MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [f"{v:.4f}" for v in r.quality] + [f"{r.index_s:.2f}", f"{r.open_ms:.2f}"]
        cells += [f"{r.p50_ms:.2f}", f"{r.p95_ms:.2f}", f"{r.size_mb:.1f}"]
        print(f"| {r.name} | " + " | ".join(cells) + " |")
    g, bm, er = rows[0], rows[1], edit["report"]
    ratio = edit["changed_s"] / edit["full_s"]
    print(
        f"\n- groundkit open: warm median of 20 = {g.open_ms:.2f} ms; first open in a fresh"
        f" process = {gk['fresh_open_ms']:.2f} ms. Size: store.sqlite {gk['store_mb']:.1f} MB"
        f" (holds the document text), lexical/ {gk['lexical_mb']:.1f} MB"
    )
    print(
        f"- groundkit search p50 by top_k (with citations and snippets):"
        f" 10 -> {gk['p50@10'] * 1e3:.2f} ms, 100 -> {gk['p50@100'] * 1e3:.2f} ms,"
        f" {args.fetch_chunks} -> {g.p50_ms:.2f} ms; the tantivy index alone at"
        f" {args.fetch_chunks}: {gk['p50_lexical'] * 1e3:.2f} ms"
    )
    print(f"- whole-process `grk search QUERY --json` (top_k 10): median of 10 = {grk_s:.3f} s")
    print(
        f"- re-ingest after a 1% change (every 100th record, median of 3):"
        f" {edit['changed_s']:.3f} s ="
        f" {ratio:.1%} of a full ingest of the same file ({edit['full_s']:.2f} s);"
        f" changed={er.changed} unchanged={er.unchanged} new={er.new} removed={er.removed}."
        f" Re-ingest with nothing changed (median of 3): {edit['same_s']:.3f} s"
    )
    checks = {
        "nDCG@10 >= bm25s": g.quality[0] >= bm.quality[0],
        f"query p50 <= 2 ms at top_k {args.fetch_chunks}": g.p50_ms <= 2,
        "query p50 <= 2 ms at top_k 10": gk["p50@10"] <= 0.002,
        "open <= 50 ms (warm and fresh)": max(g.open_ms, gk["fresh_open_ms"]) <= 50,
        "grk search process <= 0.5 s": grk_s <= 0.5,
        "ingest <= 10 s": g.index_s <= 10,
        "1% re-ingest <= 5% of full": ratio <= 0.05,
    }
    print(
        "- targets: " + "; ".join(f"{k}: {'met' if ok else 'MISSED'}" for k, ok in checks.items())
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="BEIR folder: corpus.jsonl, queries.jsonl")
    parser.add_argument("--split", default="train", help="qrels/<split>.tsv [default: train]")
    parser.add_argument("--chunk-size", type=int, default=1000)
    parser.add_argument("--fetch-chunks", type=int, default=200, help="chunks fetched per query")
    parser.add_argument("--workdir", type=Path, help="keep the indexes here [default: temp dir]")
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
    if args.workdir:  # every index must be built by this run; the rest is overwritten
        shutil.rmtree(work / "gk", ignore_errors=True)
        (work / "fts5.sqlite").unlink(missing_ok=True)
        work.mkdir(parents=True, exist_ok=True)
    try:
        first, gk = bench_groundkit(args, corpus_path, queries, qrels, work / "gk")
        grk_s = bench_grk_process(work / "gk", next(iter(queries.values())))
        edit = bench_reingest(args, corpus_path, work)
        rows = [first, bench_bm25s(corpus, queries, qrels, work)]
        rows.append(bench_rank_bm25(corpus, queries, qrels))
        if args.with_fts5:
            rows.append(bench_fts5(corpus, queries, qrels, work))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    report(args, corpus, queries, rows, gk, grk_s, edit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
