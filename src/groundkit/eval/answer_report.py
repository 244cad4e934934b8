"""An answer-quality run as JSON and HTML, with bootstrap intervals and a regression gate.

Rates are means over questions with a 95% bootstrap interval (the same resampling as the
retrieval report: ``eval.stats``). ``compare`` pairs two runs question by question and flags a
system whose validated-answer or relevant-citation rate is lower beyond its interval. The
report's shape is ``eval.answer_schema``.
"""

from __future__ import annotations

import secrets
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.answer_schema import (
    ANSWER_SCHEMA_ID,
    AnswerConfig,
    AnswerDatasetInfo,
    AnswerEvalReport,
    Interval,
    OutcomeCounts,
    Rates,
    SystemSummary,
)
from groundkit.eval.answers import AnswerOutcome, AnswerRun, SystemInfo
from groundkit.eval.record import decode_file, encode
from groundkit.eval.stats import Delta, paired_bootstrap
from groundkit.version import __version__

__all__ = [
    "ANSWER_SCHEMA_ID",
    "AnswerEvalReport",
    "AnswerRegression",
    "build_answer_report",
    "compare_answers",
    "read_answer_report",
    "render_answer_html",
    "write_answer_report",
]

GATED = ("validated", "cites_relevant")


def _validated(o: AnswerOutcome) -> float:
    return float(o.outcome in ("answered", "abstained"))


def _cites(o: AnswerOutcome) -> float:
    return float(bool(o.cites_relevant))


_PER_QUERY: dict[str, Callable[[AnswerOutcome], float]] = {
    "validated": _validated,
    "cites_relevant": _cites,
}


def _interval(values: list[float]) -> Interval:
    d = paired_bootstrap([0.0] * len(values), values)  # a mean's interval: the delta from zero
    return Interval(mean=d.delta, low=d.low, high=d.high)


def _counts(rows: list[AnswerOutcome]) -> OutcomeCounts:
    n = Counter(r.outcome for r in rows)
    return OutcomeCounts(
        answered=n["answered"],
        abstained=n["abstained"],
        refused=n["refused"],
        failed=n["failed"],
        no_evidence=n["no_evidence"],
        unavailable=n["unavailable"],
    )


def _rates(rows: list[AnswerOutcome]) -> Rates:
    answered = [r for r in rows if r.outcome == "answered"]
    items = sum(r.items for r in answered)
    return Rates(
        validated=_interval([_validated(r) for r in rows]),
        cites_relevant=_interval([_cites(r) for r in rows]),
        cites_relevant_of_answered=(
            sum(bool(r.cites_relevant) for r in answered) / len(answered) if answered else None
        ),
        items_all_relevant=sum(r.items_all_relevant for r in answered) / items if items else None,
        relevant_in_evidence=_share([r.relevant_in_evidence for r in rows]),
        contains_answer=_share([r.contains_answer for r in rows]),
        shown_contains_answer=_share([r.shown_contains_answer for r in rows]),
    )


def _reasons(rows: list[AnswerOutcome], outcome: str) -> dict[str, int]:
    """Reasons of one outcome, most common first (refused and failed always carry one)."""
    found = Counter(r.reason or "unknown" for r in rows if r.outcome == outcome)
    return dict(found.most_common())


def _median(values: list[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _system(rows: list[AnswerOutcome], info: SystemInfo) -> SystemSummary:
    return SystemSummary(
        provider=info.provider,
        model=info.model,
        quotes=info.quotes,
        load_seconds=info.load_seconds,
        questions=len(rows),
        counts=_counts(rows),
        refusals=_reasons(rows, "refused"),
        failures=_reasons(rows, "failed"),
        cut_off=sum(r.cut_off for r in rows),
        rates=_rates(rows),
        median_seconds=_median([r.seconds for r in rows]),
        median_tokens_per_second=_median(
            [r.tokens_per_second for r in rows if r.tokens_per_second]
        ),
        median_enum_bytes=_median([r.enum_bytes for r in rows if r.enum_bytes is not None]),
        spans_omitted=sum(r.spans_omitted or 0 for r in rows),
    )


def _share(flags: list[bool | None]) -> float | None:
    known = [f for f in flags if f is not None]
    return sum(known) / len(known) if known else None


def build_answer_report(run: AnswerRun) -> AnswerEvalReport:
    ds = run.dataset
    return AnswerEvalReport(
        schema=ANSWER_SCHEMA_ID,
        run_id=datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3),
        groundkit=__version__,
        dataset=AnswerDatasetInfo(
            name=ds.name, kind=ds.kind, split=ds.split, hash=ds.hash, questions=len(run.questions)
        ),
        config=AnswerConfig(top_k=run.top_k, ingest_s=run.ingest_s, retrieval="bm25"),
        systems={
            name: _system([o for o in run.outcomes if o.system == name], info)
            for name, info in run.systems.items()
        },
        outcomes=tuple(run.outcomes),
    )


def write_answer_report(report: AnswerEvalReport, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"answers-{report.run_id}.json"
    path.write_text(encode(report, ensure_ascii=True), encoding="utf-8")
    path.with_suffix(".html").write_text(render_answer_html(report), encoding="utf-8")
    return path


def read_answer_report(path: str | Path) -> AnswerEvalReport:
    """A report written by ``write_answer_report``. Raises ``UsageError``
    (``eval.invalid_results``) for a file that cannot be read or is not a complete report."""
    return decode_file(
        path,
        AnswerEvalReport,
        "`grk eval answers` report",
        hint="compare against a JSON file written by this version of grk eval answers",
    )


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


def compare_answers(
    current: AnswerEvalReport, baseline: AnswerEvalReport
) -> list[AnswerRegression]:
    """Each gated rate of each system of ``baseline``, paired by question with ``current``."""
    if current.dataset.hash != baseline.dataset.hash:
        raise UsageError(
            ErrorCode.EVAL_INCOMPARABLE, "the two answer runs are on different datasets"
        )
    out = []
    for system in baseline.systems:
        old = {r.query_id: r for r in baseline.outcomes if r.system == system}
        new = {r.query_id: r for r in current.outcomes if r.system == system}
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


def summary_rows(report: AnswerEvalReport) -> list[list[str]]:
    """One row per system: the figures the CLI and the HTML page both show."""
    rows = []
    for name, s in report.systems.items():
        v, c, n = s.rates.validated, s.rates.cites_relevant, s.counts
        rows.append(
            [
                name,
                str(s.questions),
                f"{v.mean:.2f} [{v.low:.2f}, {v.high:.2f}]",
                str(n.answered),
                str(n.abstained),
                str(n.refused),
                str(n.failed),
                f"{c.mean:.2f} [{c.low:.2f}, {c.high:.2f}]",
                _num(s.rates.items_all_relevant),
                _num(s.median_seconds, 1),
                _num(s.median_tokens_per_second, 1),
                str(s.cut_off),
                _num(s.rates.contains_answer),
                _num(s.rates.shown_contains_answer),
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
    "contains answer",
    "shown contains answer",
]


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def render_answer_html(report: AnswerEvalReport) -> str:
    """A self-contained page: the summary, then each system's refusal reasons."""
    head = "".join(f"<th>{escape(h)}</th>" for h in SUMMARY_HEAD)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
        for row in summary_rows(report)
    )
    reasons = "".join(
        f"<h3>{escape(name)}</h3><ul>"
        + "".join(f"<li>{n} &times; {escape(r)}</li>" for r, n in s.refusals.items())
        + "</ul>"
        for name, s in report.systems.items()
        if s.refusals
    )
    ds = report.dataset
    title = f"Answer quality: {ds.name}{' ' + ds.split if ds.split else ''}"
    return (
        "<!doctype html><meta charset=utf-8><title>"
        + escape(title)
        + "</title><style>body{font:14px system-ui,sans-serif;margin:2rem}"
        "td,th{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style>"
        f"<h1>{escape(title)}</h1><p>run {escape(report.run_id)}, {ds.questions}"
        f" questions, top {report.config.top_k} passages, bm25</p>"
        f"<table><tr>{head}</tr>{body}</table><h2>Refusal reasons</h2>{reasons or '<p>none</p>'}"
    )


def outcome_counts(outcomes: list[AnswerOutcome]) -> dict[str, int]:
    return dict(Counter(o.outcome for o in outcomes))
