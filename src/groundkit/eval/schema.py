"""The `grk eval` run report as frozen structs: the JSON file is these structs, key for key.

``build_report`` makes an ``EvalReport``; ``read_report`` decodes a file straight into one, so a
file with a missing key, a wrong type or another schema is refused where it is read, naming the
place (``$.stages.dense.latency_ms.p50``), instead of failing later with a ``KeyError``. The
structs refuse unknown keys too: a changed shape needs a new ``SCHEMA``.

Metric maps stay dicts keyed by metric name (``"ndcg@10"``): the metric names are data, listed
once in ``eval.runner.METRICS``.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from groundkit.eval.datasets import GoldSpan, Level
from groundkit.eval.record import Record
from groundkit.eval.stats import Delta, Verdict

__all__ = [
    "SCHEMA",
    "Abstention",
    "Bootstrap",
    "CategorySummary",
    "CodeVersion",
    "DatasetInfo",
    "DeltaRecord",
    "EvalReport",
    "Latency",
    "QueryRecord",
    "QueryStage",
    "RunConfig",
    "StageSummary",
]

SCHEMA: Final = "groundkit.eval.run/1"

# A recorded setting (chunk, search, rerank sections). Kept as plain values rather than the
# settings structs, so a report stays readable after a setting is renamed or retired.
SettingValue = str | int | float | bool | None


class CodeVersion(Record, frozen=True):
    groundkit: str
    git: str | None  # None outside a git checkout
    dirty: bool | None  # uncommitted changes to tracked files


class DatasetInfo(Record, frozen=True):
    name: str
    kind: Literal["golden", "beir"]
    split: str | None
    hash: str
    documents: int
    chunks: int
    queries: int
    categories: dict[str, int]  # queries per category


class Bootstrap(Record, frozen=True):
    resamples: int
    seed: int
    level: float


class RunConfig(Record, frozen=True):
    stages: tuple[str, ...]  # that ran, in order
    skipped: dict[str, str]  # stage: why it did not run
    levels: tuple[Level, ...]
    primary_level: Level
    depth: int
    embedder: str | None
    chunk: dict[str, SettingValue]
    search: dict[str, SettingValue]
    rerank: dict[str, SettingValue]
    bootstrap: Bootstrap


class Latency(Record, frozen=True):
    p50: float
    p95: float
    mean: float


class Abstention(Record, frozen=True):
    no_answer_queries: int
    abstention_rate: float | None  # on no-answer queries; None when there are none
    false_abstention_rate: float | None  # on answerable ones


class CategorySummary(Record, frozen=True):
    """A stage's mean scores over one category's queries (None: nothing to score)."""

    queries: int
    ndcg_at_10: float | None = msgspec.field(name="ndcg@10")
    mrr_at_10: float | None = msgspec.field(name="mrr@10")
    hit_rate_at_5: float | None = msgspec.field(name="hit_rate@5")
    set_recall_at_10: float | None = msgspec.field(name="set_recall@10")
    abstention_rate: float | None


class DeltaRecord(Record, frozen=True):
    """A paired difference from the baseline, as ``eval.stats.Delta`` with its verdict."""

    delta: float
    low: float
    high: float
    level: float
    verdict: Verdict

    @classmethod
    def of(cls, d: Delta) -> DeltaRecord:
        return cls(delta=d.delta, low=d.low, high=d.high, level=d.level, verdict=d.verdict)


class StageSummary(Record, frozen=True, omit_defaults=True):
    metrics: dict[Level, dict[str, float | None]]  # level: metric: mean over queries
    latency_ms: Latency
    abstention: Abstention
    by_category: dict[str, CategorySummary]
    # The baseline stage has neither key; a delta is None when no query could be paired.
    versus_baseline: dict[Level, dict[str, DeltaRecord | None]] | None = None
    verdict: Verdict | None = None  # of nDCG@10 at the primary level


class QueryStage(Record, frozen=True):
    """One query under one stage."""

    latency_ms: float
    abstained: bool
    ranked: dict[Level, tuple[str, ...]]  # the first ten ids per level
    metrics: dict[Level, dict[str, float]]  # no level where the query has nothing relevant


class QueryRecord(Record, frozen=True):
    id: str
    query: str
    category: str
    gold: tuple[GoldSpan, ...]  # written as [source, start, end, grade] arrays
    stages: dict[str, QueryStage]


class EvalReport(Record, frozen=True):
    schema: Literal["groundkit.eval.run/1"]  # required: a file without it is not a run
    run_id: str
    created_at: str  # ISO 8601, seconds, UTC
    code: CodeVersion
    dataset: DatasetInfo
    config: RunConfig
    ingest_s: float
    stages: dict[str, StageSummary]  # in the order they ran; the baseline first
    queries: tuple[QueryRecord, ...]
