"""An answer-quality run as JSON and HTML, with bootstrap intervals and a regression gate.

Rates are means over questions with a 95% bootstrap interval (the same resampling as the
retrieval report: ``eval.stats``). ``compare`` pairs two runs question by question and flags a
system whose validated-answer or relevant-citation rate is lower beyond its interval.
"""

from __future__ import annotations

import json
import secrets
import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.answers import OUTCOMES, AnswerOutcome, AnswerRun
from groundkit.eval.stats import Delta, paired_bootstrap
from groundkit.version import __version__

__all__ = [
    "ANSWER_SCHEMA_ID",
    "AnswerRegression",
    "build_answer_report",
    "compare_answers",
    "read_answer_report",
    "render_answer_html",
    "write_answer_report",
]

ANSWER_SCHEMA_ID = "groundkit.eval.answers/1"
GATED = ("validated", "cites_relevant")


def _validated(o: dict[str, Any]) -> float:
    return float(o["outcome"] in ("answered", "abstained"))


def _cites(o: dict[str, Any]) -> float:
    return float(bool(o["cites_relevant"]))


_PER_QUERY = {"validated": _validated, "cites_relevant": _cites}


def _interval(values: list[float]) -> dict[str, float]:
    d = paired_bootstrap([0.0] * len(values), values)  # a mean's interval: the delta from zero
    return {"mean": d.delta, "low": d.low, "high": d.high}


def _system(rows: list[dict[str, Any]], info: dict[str, Any]) -> dict[str, Any]:
    counts = Counter(r["outcome"] for r in rows)
    refusals = Counter(r["reason"] for r in rows if r["outcome"] == "refused")
    failures = Counter(r["reason"] for r in rows if r["outcome"] == "failed")
    answered = [r for r in rows if r["outcome"] == "answered"]
    items = sum(r["items"] for r in answered)
    speeds = [r["tokens_per_second"] for r in rows if r["tokens_per_second"]]
    enum = [r["enum_bytes"] for r in rows if r["enum_bytes"] is not None]
    return {
        **info,
        "questions": len(rows),
        "counts": {k: counts.get(k, 0) for k in OUTCOMES},
        "refusals": dict(refusals.most_common()),
        "failures": dict(failures.most_common()),
        "cut_off": sum(r["cut_off"] for r in rows),
        "rates": {
            "validated": _interval([_validated(r) for r in rows]),
            "cites_relevant": _interval([_cites(r) for r in rows]),
            "cites_relevant_of_answered": (
                sum(bool(r["cites_relevant"]) for r in answered) / len(answered)
                if answered
                else None
            ),
            "items_all_relevant": sum(r["items_all_relevant"] for r in answered) / items
            if items
            else None,
            "relevant_in_evidence": _share([r["relevant_in_evidence"] for r in rows]),
        },
        "median_seconds": statistics.median(r["seconds"] for r in rows) if rows else None,
        "median_tokens_per_second": statistics.median(speeds) if speeds else None,
        "median_enum_bytes": statistics.median(enum) if enum else None,
        "spans_omitted": sum(r["spans_omitted"] or 0 for r in rows),
    }


def _share(flags: list[bool | None]) -> float | None:
    known = [f for f in flags if f is not None]
    return sum(known) / len(known) if known else None


def build_answer_report(run: AnswerRun) -> dict[str, Any]:
    rows = [o.to_dict() for o in run.outcomes]
    systems = {
        name: _system([r for r in rows if r["system"] == name], info)
        for name, info in run.systems.items()
    }
    ds = run.dataset
    return {
        "schema": ANSWER_SCHEMA_ID,
        "run_id": datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3),
        "groundkit": __version__,
        "dataset": {
            "name": ds.name,
            "kind": ds.kind,
            "split": ds.split,
            "hash": ds.hash,
            "questions": len(run.questions),
        },
        "config": {"top_k": run.top_k, "ingest_s": run.ingest_s, "retrieval": "bm25"},
        "systems": systems,
        "outcomes": rows,
    }


def write_answer_report(report: dict[str, Any], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"answers-{report['run_id']}.json"
    path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    path.with_suffix(".html").write_text(render_answer_html(report), encoding="utf-8")
    return path


def read_answer_report(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(
            ErrorCode.EVAL_RESULTS, f"cannot read the answer report {path} ({exc})"
        ) from None
    if not isinstance(data, dict) or data.get("schema") != ANSWER_SCHEMA_ID:
        raise UsageError(ErrorCode.EVAL_RESULTS, f"{path} is not a `grk eval answers` report")
    return data


@dataclass(frozen=True, slots=True)
class AnswerRegression:
    system: str
    metric: str
    baseline: float
    current: float | None
    delta: Delta | None  # None: the system is missing from the new run

    @property
    def regressed(self) -> bool:
        return self.delta is None or self.delta.verdict == "worse"


def compare_answers(current: dict[str, Any], baseline: dict[str, Any]) -> list[AnswerRegression]:
    """Each gated rate of each system of ``baseline``, paired by question with ``current``."""
    if current["dataset"]["hash"] != baseline["dataset"]["hash"]:
        raise UsageError(
            ErrorCode.EVAL_INCOMPARABLE, "the two answer runs are on different datasets"
        )
    out = []
    for system in baseline["systems"]:
        old = {r["query_id"]: r for r in baseline["outcomes"] if r["system"] == system}
        new = {r["query_id"]: r for r in current["outcomes"] if r["system"] == system}
        shared = [q for q in old if q in new]
        for metric in GATED:
            score = _PER_QUERY[metric]
            before = [score(old[q]) for q in old]
            base = sum(before) / len(before) if before else 0.0
            if not shared:
                out.append(AnswerRegression(system, metric, base, None, None))
                continue
            a, b = [score(old[q]) for q in shared], [score(new[q]) for q in shared]
            out.append(
                AnswerRegression(system, metric, base, sum(b) / len(b), paired_bootstrap(a, b))
            )
    return out


def summary_rows(report: dict[str, Any]) -> list[list[str]]:
    """One row per system: the figures the CLI and the HTML page both show."""
    rows = []
    for name, s in report["systems"].items():
        v, c = s["rates"]["validated"], s["rates"]["cites_relevant"]
        n = s["counts"]
        rows.append(
            [
                name,
                str(s["questions"]),
                f"{v['mean']:.2f} [{v['low']:.2f}, {v['high']:.2f}]",
                str(n["answered"]),
                str(n["abstained"]),
                str(n["refused"]),
                str(n["failed"]),
                f"{c['mean']:.2f} [{c['low']:.2f}, {c['high']:.2f}]",
                _num(s["rates"]["items_all_relevant"]),
                _num(s["median_seconds"], 1),
                _num(s["median_tokens_per_second"], 1),
                str(s["cut_off"]),
            ]
        )
    return rows


SUMMARY_HEAD = [
    "system",
    "questions",
    "validated [95% CI]",
    "answered",
    "abstained",
    "refused",
    "failed",
    "cites relevant [95% CI]",
    "items all relevant",
    "median s",
    "tokens/s",
    "cut off",
]


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def render_answer_html(report: dict[str, Any]) -> str:
    """A self-contained page: the summary, then each system's refusal reasons."""
    head = "".join(f"<th>{escape(h)}</th>" for h in SUMMARY_HEAD)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
        for row in summary_rows(report)
    )
    reasons = "".join(
        f"<h3>{escape(name)}</h3><ul>"
        + "".join(f"<li>{n} &times; {escape(r)}</li>" for r, n in s["refusals"].items())
        + "</ul>"
        for name, s in report["systems"].items()
        if s["refusals"]
    )
    ds = report["dataset"]
    title = f"Answer quality: {ds['name']}{' ' + ds['split'] if ds['split'] else ''}"
    return (
        "<!doctype html><meta charset=utf-8><title>"
        + escape(title)
        + "</title><style>body{font:14px system-ui,sans-serif;margin:2rem}"
        "td,th{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style>"
        f"<h1>{escape(title)}</h1><p>run {escape(report['run_id'])}, {ds['questions']}"
        f" questions, top {report['config']['top_k']} passages, bm25</p>"
        f"<table><tr>{head}</tr>{body}</table><h2>Refusal reasons</h2>{reasons or '<p>none</p>'}"
    )


def outcome_counts(outcomes: list[AnswerOutcome]) -> dict[str, int]:
    return dict(Counter(o.outcome for o in outcomes))
