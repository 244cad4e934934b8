"""Run each retrieval stage over a dataset and score every query.

The dataset is ingested into a collection of its own, so the eval never touches the user's
collections. Each stage then asks every query once, timed one by one after a few untimed
warm-up queries (the first query of a stage pays for loading models).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from groundkit.collection import Collection, open_collection
from groundkit.config import Settings
from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.datasets import Dataset, Judgments, Level, resolve
from groundkit.eval.metrics import collapse, hit_rate_at, mrr_at, ndcg_at, set_recall_at
from groundkit.types import CollectionStatus, ConcreteMode, SearchMode

__all__ = [
    "METRICS",
    "STAGES",
    "EvalRun",
    "QueryRun",
    "StagePlan",
    "StageRun",
    "StageSpec",
    "choose_stages",
    "run_eval",
    "score",
]


@dataclass(frozen=True, slots=True)
class StageSpec:
    """How a stage searches."""

    mode: ConcreteMode
    rerank: bool


STAGES: dict[str, StageSpec] = {
    "bm25": StageSpec(SearchMode.BM25, rerank=False),
    "dense": StageSpec(SearchMode.DENSE, rerank=False),
    "hybrid": StageSpec(SearchMode.HYBRID, rerank=False),
    "rerank": StageSpec(SearchMode.HYBRID, rerank=True),
}
BASELINE = "bm25"
METRICS = (
    "hit_rate@1",
    "hit_rate@5",
    "hit_rate@10",
    "set_recall@1",
    "set_recall@5",
    "set_recall@10",
    "mrr@10",
    "ndcg@10",
    "ndcg@10_binary",
)
WARMUP = 3


def score(ranked: Sequence[str], qrels: dict[str, int]) -> dict[str, float]:
    """Every metric of ``METRICS`` for one query that has something relevant."""
    out = {f"hit_rate@{k}": hit_rate_at(ranked, qrels, k) for k in (1, 5, 10)}
    out |= {f"set_recall@{k}": set_recall_at(ranked, qrels, k) for k in (1, 5, 10)}
    out["mrr@10"] = mrr_at(ranked, qrels, 10)
    out["ndcg@10"] = ndcg_at(ranked, qrels, 10)
    out["ndcg@10_binary"] = ndcg_at(ranked, qrels, 10, graded=False)
    return out


@dataclass(frozen=True, slots=True)
class QueryRun:
    """One query under one stage: what came back (cut to ten ids per level) and how it scored."""

    query_id: str
    ranked: dict[Level, list[str]]
    latency_ms: float
    abstained: bool
    # Per level; absent for a level where the query has nothing relevant (no-answer queries).
    metrics: dict[Level, dict[str, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StageRun:
    stage: str
    queries: list[QueryRun]


@dataclass(frozen=True, slots=True)
class EvalRun:
    dataset: Dataset
    judgments: Judgments
    stages: list[StageRun]
    skipped: dict[str, str]  # stage: why it did not run
    status: CollectionStatus  # of the eval collection
    depth: int
    ingest_s: float


@dataclass(frozen=True, slots=True)
class StagePlan:
    """The stages to run, in ``STAGES`` order, and why each other stage does not."""

    run: list[str]
    skipped: dict[str, str]


def choose_stages(
    requested: Sequence[str] | None, collection: Collection, settings: Settings
) -> StagePlan:
    """The stages to run and, for the others, why not. A stage asked for by name that cannot run
    is an error; by default every available stage runs."""
    unavailable: dict[str, str] = {}
    if collection.embedder_identity is None:
        for stage in ("dense", "hybrid", "rerank"):
            unavailable[stage] = "no embedder: the collection has no vectors"
    if not settings.rerank.model:
        unavailable.setdefault("rerank", "rerank.model is not configured")
    if requested is None:
        return StagePlan([s for s in STAGES if s not in unavailable], unavailable)
    unknown = [s for s in requested if s not in STAGES]
    if unknown:
        raise UsageError(
            ErrorCode.USAGE, f"unknown stage {unknown[0]!r}; stages are {', '.join(STAGES)}"
        )
    for stage in requested:
        if stage in unavailable:
            raise UsageError(
                ErrorCode.EVAL_STAGE_UNAVAILABLE,
                f"stage {stage!r} cannot run: {unavailable[stage]}",
            )
    chosen = [s for s in STAGES if s in requested or s == BASELINE]  # bm25 is always the baseline
    return StagePlan(chosen, {s: "not requested" for s in STAGES if s not in chosen})


def _run_stage(
    collection: Collection, dataset: Dataset, judgments: Judgments, stage: str, depth: int
) -> StageRun:
    spec = STAGES[stage]
    for query in dataset.queries[:WARMUP]:
        collection.search(query.text, top_k=depth, mode=spec.mode, rerank=spec.rerank)
    runs = []
    for query in dataset.queries:
        t0 = time.perf_counter()
        hits = collection.search(query.text, top_k=depth, mode=spec.mode, rerank=spec.rerank)
        latency_ms = (time.perf_counter() - t0) * 1e3
        ranked: dict[Level, list[str]] = {
            "chunk": [h.citation.chunk_id for h in hits],
            "document": collapse(
                dataset.document_key(h.citation.source, h.citation.external_id) for h in hits
            ),
        }
        metrics = {}
        for level in dataset.levels:
            qrels = judgments.qrels[level].get(query.id)
            if qrels and any(g > 0 for g in qrels.values()):
                metrics[level] = score(ranked[level], qrels)
        cut: dict[Level, list[str]] = {level: ranked[level][:10] for level in dataset.levels}
        runs.append(QueryRun(query.id, cut, latency_ms, not hits, metrics))
    return StageRun(stage, runs)


def run_eval(
    dataset: Dataset,
    settings: Settings,
    work_dir: Path,
    *,
    embedder: Embedder | None = None,
    stages: Sequence[str] | None = None,
    depth: int = 100,
    on_stage: Callable[[str], None] | None = None,
) -> EvalRun:
    """Ingest ``dataset`` into ``work_dir`` (incrementally, when it is kept between runs) and
    run the chosen stages. With no ``embedder`` only bm25 runs."""
    settings = settings.replace(index_dir=str(work_dir), collection="eval")
    with open_collection(settings=settings, create=True, embedder=embedder) as collection:
        t0 = time.perf_counter()
        report = collection.ingest(list(dataset.inputs), dense=embedder is not None)
        ingest_s = time.perf_counter() - t0
        if report.skipped:
            first = report.skipped[0]
            raise UsageError(
                ErrorCode.EVAL_DATASET,
                f"{len(report.skipped)} dataset inputs could not be ingested;"
                f" {first.source}: {first.reason}",
            )
        judgments = resolve(dataset, collection.documents(), collection.chunks())
        plan = choose_stages(stages, collection, settings)
        runs = []
        for stage in plan.run:
            if on_stage:
                on_stage(stage)
            runs.append(_run_stage(collection, dataset, judgments, stage, depth))
        return EvalRun(
            dataset,
            judgments,
            runs,
            plan.skipped,
            collection.status(),
            depth,
            round(ingest_s, 3),
        )
