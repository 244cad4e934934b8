"""The same collection, embedded and on Qdrant, in one run: quality, overlap, latency, ingest.

    .venv/bin/python benchmarks/backends.py [--dataset ../shared/data/scifact] [--split train]
        [--workdir DIR] [--no-local] [--embedder model|fake]

SciFact's corpus is ingested as a user would (``grk ingest corpus.jsonl``, default settings)
into: the embedded default; Qdrant's own engine in this process (qdrant-edge, the ``path``
transport: its times are the engine's); and qdrant-client's local mode (the transport CI runs:
pure Python, so its times say nothing of Qdrant's speed; quality only). The dense vectors are
made once, by the embedded ingest with the default model (all-MiniLM-L6-v2 int8), and replayed
to the Qdrant collections: the model's time is the same for every backend, and is printed apart.
Query vectors are made once before any query is timed, for the same reason.

For every train query and each mode (bm25, hybrid), the systems run back to back (interleaved),
top 20 chunks collapsed to documents. Printed: nDCG@10 (graded, the eval module's), the median
per-query overlap of the top 10 documents with the embedded ranking, p50/p95 latency, and ingest
time (BM25 only: reading, chunking, writing). Then what Qdrant's frozen avgdl costs: BM25 on the
edge collection re-weighed with the exact mean length, and with half and twice it.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import groundkit
from groundkit.backends.qdrant.backend import QdrantBackend
from groundkit.backends.qdrant.edge import EdgeTransport
from groundkit.backends.qdrant.transport import ClientTransport, Spec, Transport
from groundkit.collection import Collection
from groundkit.config import EmbedConfig, Settings
from groundkit.embed.base import Embedder, EmbedderIdentity, InputType
from groundkit.embed.factory import create_embedder
from groundkit.eval.datasets import load_beir
from groundkit.eval.metrics import collapse, ndcg_at, percentile
from groundkit.testing.embedder import FakeEmbedder

Qrels = dict[str, dict[str, int]]
MODES = ("bm25", "hybrid")


class Replay:
    """The model's vectors, made once per text and replayed: every backend gets the same
    vectors, and only the first ingest pays for the model."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.cache: dict[tuple[str, str], npt.NDArray[np.float32]] = {}
        self.model_s = 0.0

    @property
    def identity(self) -> EmbedderIdentity:
        return self.inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        missing = [t for t in dict.fromkeys(texts) if (t, input_type) not in self.cache]
        if missing:
            t0 = time.perf_counter()
            made = self.inner.embed(missing, input_type)
            self.model_s += time.perf_counter() - t0
            for text, vector in zip(missing, made, strict=True):
                self.cache[(text, input_type)] = np.asarray(vector, np.float32)
        return np.stack([self.cache[(t, input_type)] for t in texts]).astype(np.float32)


def qdrant(name: str, transport: Transport, root: Path, embedder: Embedder) -> Collection:
    backend = QdrantBackend(name, transport, Spec(dense=None), create=True)
    return Collection(name, root / name, Settings(), embedder, backend=backend)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def ingest(collection: Collection, corpus: Path) -> tuple[float, float]:
    """(BM25 ingest seconds, dense seconds: embedding or replaying, and writing the vectors)."""
    _, plain = timed(lambda: collection.ingest([corpus]))
    _, dense = timed(lambda: collection.ingest([corpus], dense=True))
    return plain, dense


def run_queries(
    systems: dict[str, Collection], queries: dict[str, str], mode: str
) -> tuple[dict[str, dict[str, list[str]]], dict[str, list[float]]]:
    """Each query on every system back to back; document rankings and latencies per system."""
    runs: dict[str, dict[str, list[str]]] = {name: {} for name in systems}
    lat: dict[str, list[float]] = {name: [] for name in systems}
    for text in list(queries.values())[:20]:  # warm-up, untimed
        for collection in systems.values():
            collection.search(text, mode=mode, top_k=20)
    for qid, text in queries.items():
        for name, collection in systems.items():
            t0 = time.perf_counter()
            hits = collection.search(text, mode=mode, top_k=20)
            lat[name].append(time.perf_counter() - t0)
            runs[name][qid] = collapse(str(h.citation.external_id) for h in hits)[:10]
    return runs, lat


def ndcg(run: dict[str, list[str]], qrels: Qrels) -> float:
    return statistics.fmean(ndcg_at(run.get(q, []), qrels[q], 10) for q in qrels)


def overlap(run: dict[str, list[str]], reference: dict[str, list[str]]) -> float:
    """The median over queries of the share of the reference's top 10 the run also has."""
    shares = [
        len(set(run.get(q, [])) & set(docs)) / len(docs) for q, docs in reference.items() if docs
    ]
    return statistics.median(shares)


def footprint(collection: Collection) -> None:
    """What one chunk and one document cost a Qdrant collection, measured on this one: payload
    bytes (as JSON), sparse entries, dense dimensions. docs/scale.md's capacity plan uses them."""
    from groundkit.backends.qdrant.layout import visible
    from groundkit.backends.qdrant.sparse import Encoder
    from groundkit.backends.qdrant.writer import scroll_all

    backend = collection._backend
    assert isinstance(backend, QdrantBackend)
    committed = backend.reader.committed()
    encoder = Encoder()
    chunk_bytes, entries, doc_bytes = [], [], []
    for _, payload in scroll_all(backend.transport, visible(committed, "chunk")):
        chunk_bytes.append(len(json.dumps(payload)))
        entries.append(len(encoder.terms(payload["context"] + payload["text"]).counts))
    for _, payload in scroll_all(backend.transport, visible(committed, "doc")):
        doc_bytes.append(len(json.dumps(payload)))
    dims = backend.reader.meta().dense or 0
    print(
        f"\nper chunk point: payload {statistics.fmean(chunk_bytes):.0f} B (JSON), sparse"
        f" {statistics.fmean(entries):.1f} entries, dense {dims} dimensions; per document point:"
        f" payload {statistics.fmean(doc_bytes):.0f} B; {len(chunk_bytes) / len(doc_bytes):.2f}"
        " chunks per document"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="../shared/data/scifact")
    parser.add_argument("--split", default="train")
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--no-local", action="store_true", help="leave qdrant-client local out")
    parser.add_argument("--queries", type=int, default=None, help="only the first N (a smoke run)")
    parser.add_argument(
        "--embedder",
        choices=("model", "fake"),
        default="model",
        help="fake: groundkit.testing's hashed bag of words, 384 dimensions, for when the model"
        " cannot embed the corpus in the time there is; BM25 is the same, and hybrid still"
        " compares the backends' fusion on the same vectors, but its nDCG is not the model's",
    )
    args = parser.parse_args()
    root = Path(args.dataset)
    dataset = load_beir(root, args.split)
    assert dataset.qrels is not None
    qrels = {q: dict(r) for q, r in dataset.qrels.items()}
    queries = {q.id: q.text for q in dataset.queries if q.id in qrels}
    if args.queries:
        queries = dict(list(queries.items())[: args.queries])
        qrels = {q: qrels[q] for q in queries}
    work = Path(args.workdir or tempfile.mkdtemp(prefix="grk-backends-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    corpus = root / "corpus.jsonl"
    print(f"# backends.py: {len(queries)} {args.split} queries, corpus {corpus}")
    print(f"load average before: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}\n")

    model = Replay(
        create_embedder(EmbedConfig()) if args.embedder == "model" else FakeEmbedder(384)
    )
    print(f"embedder: {model.identity.provider}/{model.identity.model}")
    systems: dict[str, Collection] = {
        "embedded": groundkit.open_collection("scifact", index_dir=work / "index", embedder=model),
        "qdrant-edge": qdrant("scifact", EdgeTransport("scifact", work / "edge"), work, model),
    }
    if not args.no_local:
        local = ClientTransport("scifact", location=":memory:")
        systems["qdrant-local"] = qdrant("scifact", local, work, model)
    ingest_s: dict[str, tuple[float, float]] = {}
    for name, collection in systems.items():
        ingest_s[name] = ingest(collection, corpus)
        if name == "embedded":
            model_s = model.model_s
        plain, dense = ingest_s[name]
        print(f"ingested into {name}: {plain:.1f} s, vectors {dense:.1f} s")
    print(f"(the model's own time, in the embedded ingest's vectors: {model_s:.1f} s)\n")
    statuses = {name: c.status() for name, c in systems.items()}
    for name, st in statuses.items():
        print(f"{name}: {st.documents} documents, {st.chunks} chunks, {st.vectors} vectors")
    model.embed(list(queries.values()), "query")  # every query vector made before any timing

    rows = []
    results: dict[str, Any] = {}
    for mode in MODES:
        runs, lat = run_queries(systems, queries, mode)
        reference = runs["embedded"]
        for name in systems:
            quality = ndcg(runs[name], qrels)
            rows.append(
                (
                    mode,
                    name,
                    quality,
                    quality - ndcg(reference, qrels),
                    overlap(runs[name], reference),
                    percentile(lat[name], 50) * 1e3,
                    percentile(lat[name], 95) * 1e3,
                )
            )
    print("\n| mode | system | nDCG@10 | vs embedded | median top-10 overlap | p50 ms | p95 ms |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for mode, name, quality, delta, share, p50, p95 in rows:
        speed = (f"{p50:.2f}", f"{p95:.2f}") if name != "qdrant-local" else ("(not a speed)",) * 2
        cells = f"{quality:.4f} | {delta:+.4f} | {share:.2f} | {speed[0]} | {speed[1]}"
        print(f"| {mode} | {name} | {cells} |")
        results[f"{mode}/{name}"] = {
            "ndcg10": quality,
            "delta": delta,
            "overlap": share,
            "p50_ms": p50,
        }
    print("\n| system | ingest, BM25 only (s) | vectors: replayed and written (s) |")
    print("|---|---:|---:|")
    for name, (plain, dense) in ingest_s.items():
        note = " (not a speed)" if name == "qdrant-local" else ""
        shown = f"{dense:.1f} (model {model_s:.1f})" if name == "embedded" else f"{dense:.1f}"
        print(f"| {name}{note} | {plain:.1f} | {shown} |")

    footprint(systems["qdrant-edge"])

    # What the frozen avgdl costs: the edge collection's BM25 re-weighed.
    edge = systems["qdrant-edge"]
    backend = edge._backend
    assert isinstance(backend, QdrantBackend)
    frozen = backend.reader.meta().avgdl or 0.0
    print(f"\nfrozen avgdl (first chunks of the first ingest): {frozen:.2f}")
    with backend.write_lock(5.0):
        exact_count = backend.reweigh()
    exact = backend.reader.meta().avgdl or 0.0
    weighed: dict[str, float] = {}
    print("\n| avgdl | value | BM25 nDCG@10 | vs embedded |")
    print("|---|---:|---:|---:|")
    reference_quality = ndcg(
        run_queries({"e": systems["embedded"]}, queries, "bm25")[0]["e"], qrels
    )
    for label, value in (
        ("exact (grk reindex)", exact),
        ("half", exact / 2),
        ("twice", exact * 2),
        ("frozen", frozen),
    ):
        with backend.write_lock(5.0):
            backend.reweigh(value)
        run = run_queries({"q": edge}, queries, "bm25")[0]["q"]
        quality = ndcg(run, qrels)
        weighed[label] = quality
        print(f"| {label} | {value:.2f} | {quality:.4f} | {quality - reference_quality:+.4f} |")
    print(f"(re-weighed {exact_count} chunks each time)")
    print(f"\nload average at the end: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(json.dumps({"results": results, "avgdl": weighed}, indent=None))
    for collection in systems.values():
        collection.close()


if __name__ == "__main__":
    sys.exit(main())
