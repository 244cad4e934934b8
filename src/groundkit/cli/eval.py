"""`grk eval`: measure every retrieval stage against the bm25 baseline, write the JSON and HTML
reports, and optionally gate on a baseline run."""

from __future__ import annotations

import json
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import click

from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, GroundkitError

if TYPE_CHECKING:
    from groundkit.embed.base import Embedder
    from groundkit.eval.results import EvalReport, Regression

__all__ = ["eval_command"]

_SHOWN = ("ndcg@10", "mrr@10", "set_recall@10", "hit_rate@1")


def _embedder(obj: Context, fake: bool, dense: bool) -> tuple[Embedder | None, str | None]:
    """The embedder for the dense stages, or None and why not."""
    if fake:
        from groundkit.testing import FakeEmbedder

        return FakeEmbedder(), None
    if not dense:
        return None, "--no-dense"
    from groundkit.embed.factory import create_embedder

    try:
        return create_embedder(obj.settings().settings.embed), None
    except GroundkitError as exc:
        if exc.code in (ErrorCode.MISSING_EXTRA, ErrorCode.EMBEDDER_UNAVAILABLE):
            return None, exc.message
        raise


def _summary(report: EvalReport) -> list[str]:
    level = report.config.primary_level
    ds = report.dataset
    lines = [
        f"{ds.name}{' ' + ds.split if ds.split else ''}: {ds.queries} queries,"
        f" {ds.documents} documents, {ds.chunks} chunks; {level}-level scores"
    ]
    head = (
        f"{'stage':<8}" + "".join(f"{m:>14}" for m in _SHOWN) + "  p50 ms  p95 ms  nDCG@10 vs bm25"
    )
    lines.append(head)
    for stage, s in report.stages.items():
        m, lat = s.metrics[level], s.latency_ms
        cells = "".join(_cell(m[k], 14, 4) for k in _SHOWN)
        versus = "baseline"
        d = s.versus_baseline[level]["ndcg@10"] if s.versus_baseline else None
        if d:
            versus = f"{d.delta:+.4f} [{d.low:+.4f}, {d.high:+.4f}] {d.verdict}"
        lines.append(f"{stage:<8}{cells}{lat.p50:>8.1f}{lat.p95:>8.1f}  {versus}")
    for stage, why in report.config.skipped.items():
        lines.append(f"{stage:<8}not run: {why}")
    abst = [(n, s.abstention) for n, s in report.stages.items()]
    if any(a.no_answer_queries for _, a in abst):
        lines.append(
            "abstention on no-answer queries: "
            + ", ".join(f"{n} {_cell(a.abstention_rate, 0, 2)}" for n, a in abst)
            + "; false abstention on answerable ones: "
            + ", ".join(f"{n} {_cell(a.false_abstention_rate, 0, 2)}" for n, a in abst)
        )
    return lines


def _cell(value: float | None, width: int, digits: int) -> str:
    """A mean that may be None (nothing to average, e.g. no answerable query): shown as -."""
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def _gate_lines(rows: list[Regression]) -> list[str]:
    lines = [f"{'stage':<8}{'level':<10}{'metric':<15}{'baseline':>9}{'now':>9}  delta [95% CI]"]
    for r in rows:
        where = f"{r.stage:<8}{r.level:<10}{r.metric:<15}{_cell(r.baseline, 9, 4)}"
        if r.delta is None:
            lines.append(f"{where}  missing: REGRESSED")
            continue
        d = r.delta
        mark = "  REGRESSED" if r.regressed else ""
        lines.append(
            f"{where}{_cell(r.current, 9, 4)}  {d.delta:+.4f} [{d.low:+.4f}, {d.high:+.4f}]{mark}"
        )
    return lines


@click.group("eval", invoke_without_command=True)
@click.option(
    "--golden", "golden_dir", metavar="DIR", help="Golden corpus [default: the one shipped]."
)
@click.option("--beir", "beir_dir", metavar="DIR", help="A BEIR-format dataset folder instead.")
@click.option("--split", default="test", show_default=True, help="The BEIR qrels split.")
@click.option(
    "--stages", help="Comma-separated: bm25,dense,hybrid,rerank [default: all that can run]."
)
@click.option("--dense/--no-dense", default=True, help="Embed for the dense stages [default: on].")
@click.option(
    "--fake-embedder",
    is_flag=True,
    help="Use the deterministic bag-of-words test embedder: exercises the harness, not a model.",
)
@click.option(
    "--depth",
    type=click.IntRange(10, 1000),
    default=100,
    show_default=True,
    help="Chunks fetched per query before collapsing to documents.",
)
@click.option("--out", default="evals/results", show_default=True, help="Where reports go.")
@click.option(
    "--work-dir", help="Keep the eval collection here and reuse it [default: a temp dir]."
)
@click.option(
    "--compare",
    "baseline",
    metavar="BASELINE.json",
    help="Exit 4 when a gated metric falls below this run's beyond its 95% CI.",
)
@click.option(
    "--answers",
    is_flag=True,
    hidden=True,
    help="Deprecated spelling of `grk eval echo`.",
)
@click.option("--profile", hidden=True, help="With --answers: the profile measured.")
@click.option("--rounds", type=click.IntRange(1, 8), default=3, hidden=True)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def eval_command(
    obj: Context,
    golden_dir: str | None,
    beir_dir: str | None,
    split: str,
    stages: str | None,
    dense: bool,
    fake_embedder: bool,
    depth: int,
    out: str,
    work_dir: str | None,
    baseline: str | None,
    answers: bool,
    profile: str | None,
    rounds: int,
    as_json: bool,
) -> None:
    """Score bm25, dense, hybrid and rerank on a dataset, each against bm25.

    `grk eval answers` measures answer quality with a profile's model; `grk eval echo` runs the
    answer path's echo check.
    """
    if click.get_current_context().invoked_subcommand is not None:
        return  # the subcommand does the work
    from groundkit.errors import UsageError
    from groundkit.eval.datasets import golden_corpus, load_beir, load_golden
    from groundkit.eval.html import render_html
    from groundkit.eval.record import to_plain
    from groundkit.eval.results import build_report, compare, read_report, write_report
    from groundkit.eval.runner import run_eval

    if answers:  # the old spelling of `grk eval echo`, kept working
        click.echo(
            "note: `grk eval --answers` is deprecated; use `grk eval echo --profile NAME`",
            err=True,
        )
        if not profile:
            raise UsageError(ErrorCode.USAGE, "--answers needs --profile NAME")
        from groundkit.cli.answer import echo_check_command

        echo_check_command(obj, profile, rounds, as_json)
        return
    if golden_dir and beir_dir:
        raise UsageError(ErrorCode.USAGE, "give --golden or --beir, not both")
    dataset = load_beir(beir_dir, split) if beir_dir else load_golden(golden_dir or golden_corpus())
    previous = read_report(baseline) if baseline else None  # a bad baseline fails before the run
    settings = obj.settings().settings
    embedder, why_not = _embedder(obj, fake_embedder, dense)

    def say(message: str) -> None:
        if not as_json:
            click.echo(message, err=True)

    if why_not:
        say(f"dense stages off: {why_not}")
    with ExitStack() as stack:
        where = (
            Path(work_dir) if work_dir else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        )
        say(f"ingesting {dataset.name} ({len(dataset.queries)} queries)...")
        run = run_eval(
            dataset,
            settings,
            where,
            embedder=embedder,
            stages=stages.split(",") if stages else None,
            depth=depth,
            on_stage=lambda stage: say(f"running {stage}..."),
        )
    report = build_report(run, settings)
    json_path = write_report(report, Path(out))
    html_path = json_path.with_suffix(".html")
    html_path.write_text(render_html(report), encoding="utf-8")
    rows = compare(report, previous) if previous else []
    regressed = [r for r in rows if r.regressed]
    if as_json:
        summary = {
            "run_id": report.run_id,
            "json": str(json_path),
            "html": str(html_path),
            "stages": to_plain(report.stages),
            "skipped": report.config.skipped,
            "regressions": [
                {
                    "stage": r.stage,
                    "level": r.level,
                    "metric": r.metric,
                    "baseline": r.baseline,
                    "current": r.current,
                    "delta": r.delta.to_dict() if r.delta else None,
                }
                for r in regressed
            ],
        }
        click.echo(json.dumps(summary))
    else:
        click.echo("\n".join(_summary(report)))
        click.echo(f"report: {json_path}\n        {html_path}")
        if rows:
            click.echo("\n".join(["", f"against {baseline}:", *_gate_lines(rows)]))
            click.echo(f"{len(regressed)} regression(s)" if regressed else "no regression")
    if regressed:
        click.get_current_context().exit(ExitCode.REGRESSION)


@eval_command.command("echo")
@click.option("--profile", required=True, help="The provider profile whose model is measured.")
@click.option(
    "--rounds",
    type=click.IntRange(1, 8),
    default=3,
    show_default=True,
    help="Positive/decoy/canary rounds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_ctx
def echo_command(obj: Context, profile: str, rounds: int, as_json: bool) -> None:
    """The echo check: a synthetic corpus with fresh markers, asked through the real answer
    boundary, counting cited, abstained, refused and leaked answers (docs/answer.md)."""
    from groundkit.cli.answer import echo_check_command

    echo_check_command(obj, profile, rounds, as_json)


@eval_command.command("answers")
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    required=True,
    help="A provider profile whose model answers (repeat to compare models).",
)
@click.option(
    "--golden", "golden_dir", metavar="DIR", help="Golden corpus [default: evals/golden]."
)
@click.option("--beir", "beir_dir", metavar="DIR", help="A BEIR-format dataset folder instead.")
@click.option("--split", default="test", show_default=True, help="The BEIR qrels split.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N questions.")
@click.option(
    "--quotes",
    default="free,constrained",
    show_default=True,
    help="Quote modes to measure, comma-separated: free, constrained, pick.",
)
@click.option(
    "--top-k", type=click.IntRange(1, 50), default=3, show_default=True, help="Passages per answer."
)
@click.option("--out", default="evals/results", show_default=True, help="Where reports go.")
@click.option(
    "--compare",
    "baseline",
    metavar="BASELINE.json",
    help="Exit 4 when a system's validated or relevant-citation rate falls beyond its 95% CI.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def answers_command(
    obj: Context,
    profiles: tuple[str, ...],
    golden_dir: str | None,
    beir_dir: str | None,
    split: str,
    limit: int | None,
    quotes: str,
    top_k: int,
    out: str,
    baseline: str | None,
    as_json: bool,
) -> None:
    """Ask a dataset's questions through the answer path and count answered, abstained, refused
    (by rule) and failed, the share citing a relevant document, and seconds per answer."""
    from groundkit.cli.answer import answer_eval_command
    from groundkit.errors import UsageError

    if golden_dir and beir_dir:
        raise UsageError(ErrorCode.USAGE, "give --golden or --beir, not both")
    modes = [m.strip() for m in quotes.split(",") if m.strip()]
    if not modes or any(m not in ("free", "constrained", "pick") for m in modes):
        raise UsageError(ErrorCode.USAGE, "--quotes takes free, constrained and/or pick")
    status = answer_eval_command(
        obj,
        profiles,
        golden=golden_dir,
        beir=beir_dir,
        split=split,
        limit=limit,
        quotes=modes,
        top_k=top_k,
        out=out,
        baseline=baseline,
        as_json=as_json,
    )
    if status:
        click.get_current_context().exit(status)
