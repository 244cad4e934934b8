"""A self-contained HTML page for one eval run: no script, no font, no request, so it opens
offline and can be mailed around. Charts are inline SVG drawn from the run's JSON."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from groundkit.eval.datasets import Level
    from groundkit.eval.schema import DeltaRecord, EvalReport, QueryRecord

__all__ = ["render_html"]

HEADLINE = ("ndcg@10", "mrr@10", "set_recall@10", "hit_rate@1", "hit_rate@10")
DELTA_METRICS = ("ndcg@10", "mrr@10", "set_recall@10", "hit_rate@10")
_COLOURS = {"better": "#1a7f37", "worse": "#cf222e", "indistinguishable": "#6e7781"}
_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#1f2328;
padding:0 1rem}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;
border-bottom:1px solid #d0d7de}table{border-collapse:collapse;margin:.5rem 0}
td,th{padding:.25rem .6rem;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap}
th{background:#f6f8fa}td.l,th.l{text-align:left}.q{display:block;min-width:20rem;max-width:34rem;white-space:normal}
.better{color:#1a7f37}.worse{color:#cf222e}.indistinguishable{color:#6e7781}
.meta{color:#57606a}code{font-size:12px}svg text{font:11px system-ui,sans-serif}
"""


def _f(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(head: list[str], rows: list[list[str]], left: int = 1) -> str:
    th = "".join(f'<th class="{"l" if i < left else ""}">{h}</th>' for i, h in enumerate(head))
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{"l" if i < left else ""}">{c}</td>' for i, c in enumerate(r))
        + "</tr>"
        for r in rows
    )
    return f"<table><tr>{th}</tr>{body}</table>"


def _stage_table(report: EvalReport, level: Level) -> str:
    rows = []
    for stage, s in report.stages.items():
        m, lat, ab = s.metrics[level], s.latency_ms, s.abstention
        verdict = s.verdict
        rows.append(
            [
                f"<b>{escape(stage)}</b>",
                *(_f(m[k]) for k in HEADLINE),
                _f(lat.p50, 1),
                _f(lat.p95, 1),
                _f(ab.abstention_rate, 2),
                _f(ab.false_abstention_rate, 2),
                f'<span class="{verdict}">{verdict}</span>' if verdict else "baseline",
            ]
        )
    head = ["stage", *HEADLINE, "p50 ms", "p95 ms", "abstain", "false abstain", "nDCG@10 vs bm25"]
    return _table(head, rows)


def _deltas(report: EvalReport) -> list[tuple[str, str, DeltaRecord]]:
    level = report.config.primary_level
    rows = []
    for stage, s in report.stages.items():
        for metric in DELTA_METRICS:
            d = s.versus_baseline[level][metric] if s.versus_baseline else None
            if d:
                rows.append((stage, metric, d))
    return rows


def _ci_chart(report: EvalReport) -> str:
    """One row per (stage, metric): the paired difference from bm25 with its 95% interval."""
    rows = _deltas(report)
    if not rows:
        return "<p>Only the baseline ran: nothing to compare.</p>"
    span: float = max(0.05, *(max(abs(d.low), abs(d.high)) for _, _, d in rows)) * 1.1
    width, left, row_h = 640, 170, 22
    plot = width - left - 60
    centre = left + plot / 2

    def x(v: float) -> float:
        return centre + v / span * plot / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{row_h * len(rows) + 30}"'
        ' role="img" aria-label="difference from bm25 with 95% confidence intervals">',
        f'<line x1="{centre}" y1="0" x2="{centre}" y2="{row_h * len(rows)}" stroke="#8c959f"/>',
    ]
    for i, (stage, metric, d) in enumerate(rows):
        y = i * row_h + row_h / 2
        colour = _COLOURS[d.verdict]
        parts += [
            f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{escape(stage)} {metric}</text>',
            f'<line x1="{x(d.low):.1f}" y1="{y}" x2="{x(d.high):.1f}" y2="{y}"'
            f' stroke="{colour}" stroke-width="3"/>',
            f'<circle cx="{x(d.delta):.1f}" cy="{y}" r="4" fill="{colour}"/>',
            f'<text x="{width - 55}" y="{y + 4}">{d.delta:+.3f}</text>',
        ]
    axis_y = row_h * len(rows) + 16
    for v in (-span, 0.0, span):
        parts.append(f'<text x="{x(v):.1f}" y="{axis_y}" text-anchor="middle">{v:+.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _categories(report: EvalReport) -> str:
    stages = list(report.stages)
    categories = sorted(report.dataset.categories)
    rows = []
    for category in categories:
        first = report.stages[stages[0]].by_category[category]
        cells = []
        for stage in stages:
            c = report.stages[stage].by_category[category]
            if category == "no_answer":
                cells.append(f"abstain {_f(c.abstention_rate, 2)}")
            else:
                cells.append(f"{_f(c.ndcg_at_10, 3)} / {_f(c.hit_rate_at_5, 2)}")
        rows.append([escape(category), str(first.queries), *cells])
    note = (
        "<p class=meta>nDCG@10 / hit_rate@5 per stage; abstention rate for no-answer queries.</p>"
    )
    return note + _table(["category", "queries", *stages], rows, left=1)


def _first_relevant(query: QueryRecord, stage: str, level: Level) -> str:
    metrics = query.stages[stage].metrics.get(level)
    if not metrics:
        return "-"
    return str(round(1 / metrics["mrr@10"])) if metrics["mrr@10"] else ">10"


def _ndcg_cell(query: QueryRecord, stage: str, level: Level) -> str:
    ndcg = query.stages[stage].metrics[level]["ndcg@10"]
    return f"{ndcg:.3f} (#{_first_relevant(query, stage, level)})"


def _worst(report: EvalReport, limit: int = 12) -> str:
    level = report.config.primary_level
    stages = list(report.stages)
    answerable = [q for q in report.queries if all(level in q.stages[s].metrics for s in stages)]
    answerable.sort(key=lambda q: max(q.stages[s].metrics[level]["ndcg@10"] for s in stages))
    rows = [
        [
            f'<span class="q">{escape(q.query)}</span>',
            escape(q.category),
            *(_ndcg_cell(q, s, level) for s in stages),
        ]
        for q in answerable[:limit]
    ]
    note = (
        "<p class=meta>Lowest best-stage nDCG@10; in brackets, the rank of the first relevant"
        " hit.</p>"
    )
    return note + _table(["query", "category", *stages], rows, left=2)


def _slowest(report: EvalReport, limit: int = 10) -> str:
    stages = list(report.stages)
    ordered = sorted(report.queries, key=lambda q: -max(q.stages[s].latency_ms for s in stages))
    rows = [
        [
            f'<span class="q">{escape(q.query)}</span>',
            *(f"{q.stages[s].latency_ms:.1f}" for s in stages),
        ]
        for q in ordered[:limit]
    ]
    return _table(["query", *(f"{s} ms" for s in stages)], rows)


def render_html(report: EvalReport) -> str:
    ds, cfg, code = report.dataset, report.config, report.code
    title = f"grk eval · {ds.name}" + (f" ({ds.split})" if ds.split else "")
    skipped = "".join(
        f"<li><b>{escape(s)}</b>: {escape(why)}</li>" for s, why in cfg.skipped.items()
    )
    levels = "".join(
        f"<h3>{escape(level)} level</h3>{_stage_table(report, level)}" for level in cfg.levels
    )
    git = code.git[:12] + (" (uncommitted changes)" if code.dirty else "") if code.git else "-"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>{_CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p class="meta">run <code>{escape(report.run_id)}</code> · {escape(report.created_at)} ·
groundkit {escape(code.groundkit)} · git {escape(git)} ·
dataset <code>{escape(ds.hash[:16])}</code>: {ds.documents} documents, {ds.chunks} chunks,
{ds.queries} queries · embedder {escape(str(cfg.embedder))} · depth {cfg.depth} ·
primary level: {escape(cfg.primary_level)}</p>
{f"<p>Stages not run:</p><ul>{skipped}</ul>" if skipped else ""}
<h2>Stages</h2>
{levels}
<h2>Difference from bm25 (paired bootstrap, 95% CI)</h2>
<p class="meta">{escape(cfg.primary_level)} level; green: better, red: worse,
grey: indistinguishable (the interval crosses zero).</p>
{_ci_chart(report)}
<h2>By category</h2>
{_categories(report)}
<h2>Worst queries</h2>
{_worst(report)}
<h2>Slowest queries</h2>
{_slowest(report)}
</body></html>
"""
