"""An eval run as a schema-versioned JSON document, and the regression gate between two runs.

The JSON keeps every query's per-stage ranking and scores, so any later comparison (the gate,
the HTML report, a notebook) is computed from the file alone.
"""

from __future__ import annotations

import json
import secrets
import statistics
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from groundkit.config import Settings
from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.metrics import percentile
from groundkit.eval.runner import BASELINE, METRICS, EvalRun, StageRun
from groundkit.eval.stats import RESAMPLES, SEED, Delta, paired_bootstrap
from groundkit.version import __version__

__all__ = ["SCHEMA", "Regression", "build_report", "compare", "read_report", "write_report"]

SCHEMA = "groundkit.eval.run/1"
# The gate watches these; the other metrics are reported, but testing 18 of them at 95% would
# flag a harmless change now and then by chance alone.
GATED = ("ndcg@10", "mrr@10", "set_recall@10", "hit_rate@10")


def primary_level(kind: str) -> str:
    return "chunk" if kind == "golden" else "document"


def _code_version() -> dict[str, Any]:
    here = Path(__file__).resolve().parent
    out: dict[str, Any] = {"groundkit": __version__, "git": None, "dirty": None}
    try:
        rev = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            check=False,
            capture_output=True,
            text=True,
            timeout=5,
        )
        if rev.returncode == 0:
            out["git"] = rev.stdout.strip()
            changes = subprocess.run(
                ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                check=False,
                capture_output=True,
                text=True,
                timeout=5,
            )
            out["dirty"] = bool(changes.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass  # not a checkout: the package version alone names the code
    return out


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _per_query(stage: StageRun, level: str, metric: str) -> dict[str, float]:
    return {q.query_id: q.metrics[level][metric] for q in stage.queries if level in q.metrics}


def _stage_summary(run: EvalRun, stage: StageRun, base: StageRun | None) -> dict[str, Any]:
    categories = {q.id: q.category for q in run.dataset.queries}
    primary = primary_level(run.dataset.kind)
    latencies = [q.latency_ms for q in stage.queries]
    no_answer = [q for q in stage.queries if categories[q.query_id] == "no_answer"]
    answerable = [q for q in stage.queries if categories[q.query_id] != "no_answer"]
    summary: dict[str, Any] = {
        "metrics": {
            level: {m: _mean(list(_per_query(stage, level, m).values())) for m in METRICS}
            for level in run.dataset.levels
        },
        "latency_ms": {
            "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95),
            "mean": statistics.fmean(latencies),
        },
        "abstention": {
            "no_answer_queries": len(no_answer),
            "abstention_rate": _mean([float(q.abstained) for q in no_answer]),
            "false_abstention_rate": _mean([float(q.abstained) for q in answerable]),
        },
        "by_category": {},
    }
    for category in sorted(set(categories.values())):
        mine = [q for q in stage.queries if categories[q.query_id] == category]
        scored = [q.metrics[primary] for q in mine if primary in q.metrics]
        summary["by_category"][category] = {
            "queries": len(mine),
            **{
                m: _mean([s[m] for s in scored])
                for m in ("ndcg@10", "mrr@10", "hit_rate@5", "set_recall@10")
            },
            "abstention_rate": _mean([float(q.abstained) for q in mine]),
        }
    if base is not None:
        versus: dict[str, dict[str, Any]] = {}
        for level in run.dataset.levels:
            versus[level] = {}
            for metric in METRICS:
                delta = _paired(_per_query(base, level, metric), _per_query(stage, level, metric))
                versus[level][metric] = delta.to_dict() if delta else None
        summary["versus_baseline"] = versus
        headline = versus[primary]["ndcg@10"]
        summary["verdict"] = headline["verdict"] if headline else None
    return summary


def _paired(base: Mapping[str, float], other: Mapping[str, float]) -> Delta | None:
    shared = sorted(base.keys() & other.keys())
    if not shared:
        return None
    return paired_bootstrap([base[q] for q in shared], [other[q] for q in shared])


def build_report(
    run: EvalRun, settings: Settings, *, created: datetime | None = None
) -> dict[str, Any]:
    created = created or datetime.now(UTC)
    dataset = run.dataset
    base = next((s for s in run.stages if s.stage == BASELINE), None)
    stages = {s.stage: _stage_summary(run, s, None if s is base else base) for s in run.stages}
    per_stage = {s.stage: {q.query_id: q for q in s.queries} for s in run.stages}
    queries = []
    for query in dataset.queries:
        queries.append(
            {
                "id": query.id,
                "query": query.text,
                "category": query.category,
                "gold": [list(span) for span in run.judgments.spans.get(query.id, ())],
                "stages": {
                    stage: {
                        "latency_ms": round(runs[query.id].latency_ms, 3),
                        "abstained": runs[query.id].abstained,
                        "ranked": runs[query.id].ranked,
                        "metrics": runs[query.id].metrics,
                    }
                    for stage, runs in per_stage.items()
                },
            }
        )
    categories: dict[str, int] = {}
    for query in dataset.queries:
        categories[query.category] = categories.get(query.category, 0) + 1
    return {
        "schema": SCHEMA,
        "run_id": f"{created:%Y%m%dT%H%M%SZ}-{dataset.name}-{secrets.token_hex(2)}",
        "created_at": created.isoformat(timespec="seconds"),
        "code": _code_version(),
        "dataset": {
            "name": dataset.name,
            "kind": dataset.kind,
            "split": dataset.split,
            "hash": dataset.hash,
            "documents": run.status["documents"],
            "chunks": run.status["chunks"],
            "queries": len(dataset.queries),
            "categories": categories,
        },
        "config": {
            "stages": [s.stage for s in run.stages],
            "skipped": run.skipped,
            "levels": list(dataset.levels),
            "primary_level": primary_level(dataset.kind),
            "depth": run.depth,
            "embedder": run.status["embedder"],
            "chunk": settings.chunk.to_dict(),
            "search": settings.search.to_dict(),
            "rerank": settings.rerank.to_dict(),
            "bootstrap": {"resamples": RESAMPLES, "seed": SEED, "level": 0.95},
        },
        "ingest_s": run.ingest_s,
        "stages": stages,
        "queries": queries,
    }


def write_report(report: dict[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{report['run_id']}.json"
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_report(path: str | Path) -> dict[str, Any]:
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(
            ErrorCode.EVAL_RESULTS, f"cannot read eval results {path}: {exc}"
        ) from None
    if not isinstance(report, dict) or report.get("schema") != SCHEMA:
        raise UsageError(
            ErrorCode.EVAL_RESULTS,
            f"{path} is not a {SCHEMA} eval result",
            hint="compare against a JSON file written by this version of grk eval",
        )
    return report


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


def _scores(report: dict[str, Any], stage: str, level: str, metric: str) -> dict[str, float]:
    out = {}
    for query in report["queries"]:
        run = query["stages"].get(stage)
        if run and level in run["metrics"]:
            out[query["id"]] = run["metrics"][level][metric]
    return out


def compare(current: dict[str, Any], baseline: dict[str, Any]) -> list[Regression]:
    """Every gated metric of every baseline stage; a row regressed when the current run is worse
    beyond the 95% interval of the paired difference, or the stage did not run."""
    if current["dataset"]["hash"] != baseline["dataset"]["hash"]:
        raise UsageError(
            ErrorCode.EVAL_INCOMPARABLE,
            "the baseline was measured on different data"
            f" ({baseline['dataset']['name']} {baseline['dataset']['hash'][:12]},"
            f" now {current['dataset']['name']} {current['dataset']['hash'][:12]})",
            hint="compare runs of the same dataset, or record a new baseline",
        )
    rows = []
    for stage, summary in baseline["stages"].items():
        for level in baseline["config"]["levels"]:
            for metric in GATED:
                old = summary["metrics"][level][metric]
                if stage not in current["stages"]:
                    rows.append(Regression(stage, level, metric, old, None, None))
                    continue
                new = current["stages"][stage]["metrics"][level][metric]
                delta = _paired(
                    _scores(baseline, stage, level, metric), _scores(current, stage, level, metric)
                )
                rows.append(Regression(stage, level, metric, old, new, delta))
    return rows
