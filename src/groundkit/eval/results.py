"""An eval run as a schema-versioned JSON document, and the regression gate between two runs.

The JSON keeps every query's per-stage ranking and scores, so any later comparison (the gate,
the HTML report, a notebook) is computed from the file alone. Its shape is ``eval.schema``: the
report is an ``EvalReport`` in memory and on the way back in.
"""

from __future__ import annotations

import secrets
import statistics
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from groundkit.config import Settings
from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.datasets import Level
from groundkit.eval.metrics import percentile
from groundkit.eval.record import decode_file, encode
from groundkit.eval.runner import BASELINE, METRICS, EvalRun, QueryRun, StageRun
from groundkit.eval.schema import (
    SCHEMA,
    Abstention,
    Bootstrap,
    CategorySummary,
    CodeVersion,
    DatasetInfo,
    DeltaRecord,
    EvalReport,
    Latency,
    QueryRecord,
    QueryStage,
    RunConfig,
    StageSummary,
)
from groundkit.eval.stats import RESAMPLES, SEED, Delta, paired_bootstrap
from groundkit.version import __version__

__all__ = [
    "SCHEMA",
    "EvalReport",
    "Regression",
    "build_report",
    "compare",
    "read_report",
    "write_report",
]

# The gate watches these; the other metrics are reported, but testing 18 of them at 95% would
# flag a harmless change now and then by chance alone.
GATED = ("ndcg@10", "mrr@10", "set_recall@10", "hit_rate@10")


def primary_level(kind: str) -> Level:
    return "chunk" if kind == "golden" else "document"


def _git(here: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(here), *args], check=False, capture_output=True, text=True, timeout=5
    )


def _code_version() -> CodeVersion:
    here = Path(__file__).resolve().parent
    git: str | None = None
    dirty: bool | None = None
    try:
        rev = _git(here, "rev-parse", "HEAD")
        if rev.returncode == 0:
            git = rev.stdout.strip()
            changes = _git(here, "status", "--porcelain", "--untracked-files=no")
            dirty = bool(changes.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass  # not a checkout: the package version alone names the code
    return CodeVersion(groundkit=__version__, git=git, dirty=dirty)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _per_query(stage: StageRun, level: Level, metric: str) -> dict[str, float]:
    return {q.query_id: q.metrics[level][metric] for q in stage.queries if level in q.metrics}


def _category(mine: list[QueryRun], primary: Level) -> CategorySummary:
    scored = [q.metrics[primary] for q in mine if primary in q.metrics]
    return CategorySummary(
        queries=len(mine),
        ndcg_at_10=_mean([s["ndcg@10"] for s in scored]),
        mrr_at_10=_mean([s["mrr@10"] for s in scored]),
        hit_rate_at_5=_mean([s["hit_rate@5"] for s in scored]),
        set_recall_at_10=_mean([s["set_recall@10"] for s in scored]),
        abstention_rate=_mean([float(q.abstained) for q in mine]),
    )


def _versus(
    run: EvalRun, stage: StageRun, base: StageRun
) -> dict[Level, dict[str, DeltaRecord | None]]:
    versus: dict[Level, dict[str, DeltaRecord | None]] = {}
    for level in run.dataset.levels:
        versus[level] = {}
        for metric in METRICS:
            delta = _paired(_per_query(base, level, metric), _per_query(stage, level, metric))
            versus[level][metric] = DeltaRecord.of(delta) if delta else None
    return versus


def _stage_summary(run: EvalRun, stage: StageRun, base: StageRun | None) -> StageSummary:
    categories = {q.id: q.category for q in run.dataset.queries}
    primary = primary_level(run.dataset.kind)
    latencies = [q.latency_ms for q in stage.queries]
    no_answer = [q for q in stage.queries if categories[q.query_id] == "no_answer"]
    answerable = [q for q in stage.queries if categories[q.query_id] != "no_answer"]
    versus = _versus(run, stage, base) if base is not None else None
    headline = versus[primary]["ndcg@10"] if versus else None
    return StageSummary(
        metrics={
            level: {m: _mean(list(_per_query(stage, level, m).values())) for m in METRICS}
            for level in run.dataset.levels
        },
        latency_ms=Latency(
            p50=percentile(latencies, 50),
            p95=percentile(latencies, 95),
            mean=statistics.fmean(latencies),
        ),
        abstention=Abstention(
            no_answer_queries=len(no_answer),
            abstention_rate=_mean([float(q.abstained) for q in no_answer]),
            false_abstention_rate=_mean([float(q.abstained) for q in answerable]),
        ),
        by_category={
            category: _category(
                [q for q in stage.queries if categories[q.query_id] == category], primary
            )
            for category in sorted(set(categories.values()))
        },
        versus_baseline=versus,
        verdict=headline.verdict if headline else None,
    )


def _paired(base: Mapping[str, float], other: Mapping[str, float]) -> Delta | None:
    shared = sorted(base.keys() & other.keys())
    if not shared:
        return None
    return paired_bootstrap([base[q] for q in shared], [other[q] for q in shared])


def _query_records(run: EvalRun) -> tuple[QueryRecord, ...]:
    per_stage = {s.stage: {q.query_id: q for q in s.queries} for s in run.stages}
    return tuple(
        QueryRecord(
            id=query.id,
            query=query.text,
            category=query.category,
            gold=run.judgments.spans.get(query.id, ()),
            stages={
                stage: QueryStage(
                    latency_ms=round(runs[query.id].latency_ms, 3),
                    abstained=runs[query.id].abstained,
                    ranked={level: tuple(ids) for level, ids in runs[query.id].ranked.items()},
                    metrics=runs[query.id].metrics,
                )
                for stage, runs in per_stage.items()
            },
        )
        for query in run.dataset.queries
    )


def build_report(
    run: EvalRun, settings: Settings, *, created: datetime | None = None
) -> EvalReport:
    created = created or datetime.now(UTC)
    dataset = run.dataset
    base = next((s for s in run.stages if s.stage == BASELINE), None)
    categories: dict[str, int] = {}
    for query in dataset.queries:
        categories[query.category] = categories.get(query.category, 0) + 1
    return EvalReport(
        schema=SCHEMA,
        run_id=f"{created:%Y%m%dT%H%M%SZ}-{dataset.name}-{secrets.token_hex(2)}",
        created_at=created.isoformat(timespec="seconds"),
        code=_code_version(),
        dataset=DatasetInfo(
            name=dataset.name,
            kind=dataset.kind,
            split=dataset.split,
            hash=dataset.hash,
            documents=run.status.documents,
            chunks=run.status.chunks,
            queries=len(dataset.queries),
            categories=categories,
        ),
        config=RunConfig(
            stages=tuple(s.stage for s in run.stages),
            skipped=run.skipped,
            levels=dataset.levels,
            primary_level=primary_level(dataset.kind),
            depth=run.depth,
            embedder=run.status.embedder,
            chunk=settings.chunk.to_dict(),
            search=settings.search.to_dict(),
            rerank=settings.rerank.to_dict(),
            bootstrap=Bootstrap(resamples=RESAMPLES, seed=SEED, level=0.95),
        ),
        ingest_s=run.ingest_s,
        stages={s.stage: _stage_summary(run, s, None if s is base else base) for s in run.stages},
        queries=_query_records(run),
    )


def write_report(report: EvalReport, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{report.run_id}.json"
    path.write_text(encode(report) + "\n", encoding="utf-8")
    return path


def read_report(path: str | Path) -> EvalReport:
    """A run report written by ``write_report``. Raises ``UsageError`` (``eval.invalid_results``)
    for a file that cannot be read or is not a complete, well-typed ``SCHEMA`` report."""
    return decode_file(
        path,
        EvalReport,
        f"{SCHEMA} eval result",
        hint="compare against a JSON file written by this version of grk eval",
    )


@dataclass(frozen=True, slots=True)
class Regression:
    """One gated metric of one stage, compared with the baseline run on the same queries."""

    stage: str
    level: str
    metric: str
    baseline: float | None
    current: float | None
    delta: Delta | None  # None when the stage is missing from the current run

    @property
    def regressed(self) -> bool:
        return self.delta is None or self.delta.verdict == "worse"


def _scores(report: EvalReport, stage: str, level: Level, metric: str) -> dict[str, float]:
    out = {}
    for query in report.queries:
        run = query.stages.get(stage)
        if run and level in run.metrics:
            out[query.id] = run.metrics[level][metric]
    return out


def compare(current: EvalReport, baseline: EvalReport) -> list[Regression]:
    """Every gated metric of every baseline stage; a row regressed when the current run is worse
    beyond the 95% interval of the paired difference, or the stage did not run."""
    old_data, new_data = baseline.dataset, current.dataset
    if new_data.hash != old_data.hash:
        raise UsageError(
            ErrorCode.EVAL_INCOMPARABLE,
            "the baseline was measured on different data"
            f" ({old_data.name} {old_data.hash[:12]}, now {new_data.name} {new_data.hash[:12]})",
            hint="compare runs of the same dataset, or record a new baseline",
        )
    rows = []
    for stage, summary in baseline.stages.items():
        for level in baseline.config.levels:
            for metric in GATED:
                old = summary.metrics[level][metric]
                if stage not in current.stages:
                    rows.append(Regression(stage, level, metric, old, None, None))
                    continue
                new = current.stages[stage].metrics[level][metric]
                delta = _paired(
                    _scores(baseline, stage, level, metric), _scores(current, stage, level, metric)
                )
                rows.append(Regression(stage, level, metric, old, new, delta))
    return rows
