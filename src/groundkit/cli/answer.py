"""`grk answer`: the evidence, and an explanation only where every citation checks out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import click

from groundkit.cli.answer_render import render_report, report_options
from groundkit.cli.context import Context, pass_ctx
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment
    from groundkit.answer.extractive import Answerer
    from groundkit.answer.service import QuoteMode

__all__ = [
    "answer_command",
    "answer_eval_command",
    "echo_check_command",
    "make_ai_environment",
    "profile_chat",
    "render_report",
]


def make_ai_environment() -> AIEnvironment:
    """The process edges (keychain, opt-in file, transport). Tests replace this function."""
    from groundkit.answer.access import AIEnvironment  # loaded with the command, not with grk

    return AIEnvironment()


@click.command("answer")
@click.argument("question")
@click.option(
    "--mode",
    type=click.Choice([m.value for m in SearchMode]),
    help="Retrieval mode [default: hybrid when the collection has vectors, else bm25].",
)
@click.option("--top-k", "-k", type=int, help="How many passages to retrieve [default: 10].")
@click.option("--rewrite", is_flag=True, help="Let the model rewrite the question into a query.")
@click.option("--judge", is_flag=True, help="Ask the model for an advisory faithfulness check.")
@click.option("--profile", help="Provider profile [default: the one the collection allows].")
@click.option(
    "--with-code",
    "with_code",
    metavar="MAP",
    help="Add the code map's edges that best match the question after the passages.",
)
@click.option(
    "--code-top-k",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="How many edges --with-code adds.",
)
@report_options
@pass_ctx
def answer_command(obj: Context, show_reply: bool, as_json: bool, **asked: Any) -> None:
    """Answer QUESTION from a collection; every quote is checked against the stored text.

    With --with-code MAP, the map's best-matching edges join the passages, and a quote of one is
    checked against the map (the map needs its own opt-in: grk ai enable map:MAP).
    With AI off, or on any failure, the evidence is shown with the reason.
    """
    from groundkit.answer.logguard import install_log_guard
    from groundkit.cli.answer_spinner import model_spinner
    from groundkit.ops import answer as ops

    install_log_guard()
    # The other options are the question's own fields: question, mode, top_k, rewrite...
    request = ops.Question(**asked)
    more = {"search.top_k": request.top_k, "search.mode": request.mode}
    with obj.collections(more) as local:
        report = ops.answer(
            local,
            request,
            make_ai_environment(),
            busy_for=partial(model_spinner, enabled=not as_json),
        )
    render_report(report, as_json=as_json, show_reply=show_reply)


def profile_chat(obj: Context, profile: str) -> Answerer:
    """PROFILE's model, built as `grk answer` builds it (key, endpoint rules, redaction), for
    the eval commands, whose corpora are their own (no collection opt-in is involved)."""
    from groundkit.answer.providers import build_chat
    from groundkit.answer.redact import build_patterns
    from groundkit.config import unknown_profile

    settings = obj.settings().settings
    config = settings.profiles.get(profile)
    if config is None:
        raise unknown_profile(profile, settings.profiles)
    environment = make_ai_environment()
    return build_chat(
        profile,
        config,
        keys=environment.keys,
        patterns=build_patterns(settings.answer.redact_patterns, settings.answer.redact_names),
        transport=environment.transport,
        environ=environment.environ,
    )


def echo_check_command(obj: Context, profile: str, rounds: int, as_json: bool) -> None:
    """The body of `grk eval echo`: the echo check with PROFILE's model.

    The corpus is synthetic and lives in a temporary directory, so no collection's opt-in is
    involved; the profile's key, endpoint rules and redaction apply exactly as for `grk answer`.
    """
    import tempfile
    from pathlib import Path

    from groundkit.answer.logguard import install_log_guard
    from groundkit.eval.echo import render_echo, run_echo_check

    install_log_guard()
    chat = profile_chat(obj, profile)
    with tempfile.TemporaryDirectory(prefix="grk-echo-") as workdir:
        report = run_echo_check(chat, workdir=Path(workdir), rounds=rounds)
    click.echo(json.dumps(report.to_dict()) if as_json else render_echo(report))


def answer_eval_command(
    obj: Context,
    profiles: Sequence[str],
    *,
    golden: str | None,
    beir: str | None,
    split: str,
    limit: int | None,
    quotes: Sequence[str],
    top_k: int,
    out: str,
    baseline: str | None,
    as_json: bool,
) -> int:
    """The body of `grk eval answers`; returns the exit status (4: a regression)."""
    import tempfile
    from pathlib import Path

    from groundkit.answer.logguard import install_log_guard
    from groundkit.cli.errors import ExitCode
    from groundkit.eval.answer_report import (
        SUMMARY_HEAD,
        build_answer_report,
        compare_answers,
        read_answer_report,
        summary_rows,
        write_answer_report,
    )
    from groundkit.eval.answers import AnswerOutcome, run_answer_eval
    from groundkit.eval.datasets import load_beir, load_golden
    from groundkit.eval.record import to_plain

    install_log_guard()
    dataset = load_beir(beir, split) if beir else load_golden(golden or "evals/golden")
    previous = read_answer_report(baseline) if baseline else None
    settings = obj.settings().settings
    chats = [(name, profile_chat(obj, name)) for name in profiles]
    total = len(dataset.queries[:limit] if limit else dataset.queries) * len(chats) * len(quotes)
    done = [0]

    def progress(o: AnswerOutcome) -> None:  # a long run says where it is, on stderr
        done[0] += 1
        if not as_json:
            click.echo(f"[{done[0]}/{total}] {o.system} {o.query_id}: {o.outcome}", err=True)

    with tempfile.TemporaryDirectory(prefix="grk-answers-") as workdir:
        run = run_answer_eval(
            dataset,
            settings,
            Path(workdir),
            chats,
            quotes=cast("Sequence[QuoteMode]", quotes),
            limit=limit,
            top_k=top_k,
            on_answer=progress,
        )
    report = build_answer_report(run)
    path = write_answer_report(report, Path(out))
    rows = compare_answers(report, previous) if previous else []
    regressed = [r for r in rows if r.regressed]
    if as_json:
        click.echo(
            json.dumps(
                {
                    "run_id": report.run_id,
                    "json": str(path),
                    "html": str(path.with_suffix(".html")),
                    "systems": to_plain(report.systems),
                    "regressions": [
                        {
                            "system": r.system,
                            "metric": r.metric,
                            "baseline": r.baseline,
                            "current": r.current,
                            "delta": r.delta.to_dict() if r.delta else None,
                        }
                        for r in regressed
                    ],
                }
            )
        )
    else:
        widths = [
            max(len(h), *(len(r[i]) for r in summary_rows(report)))
            for i, h in enumerate(SUMMARY_HEAD)
        ]
        for row in [SUMMARY_HEAD, *summary_rows(report)]:
            click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
        for name, system in report.systems.items():
            for reason, n in system.refusals.items():
                click.echo(f"{name}: {n} refused: {reason}")
        click.echo(f"report: {path}\n        {path.with_suffix('.html')}")
        for r in rows:
            mark = " REGRESSED" if r.regressed else ""
            now = "missing" if r.current is None else f"{r.current:.3f}"
            click.echo(f"against {baseline}: {r.system} {r.metric} {r.baseline:.3f} -> {now}{mark}")
    return int(ExitCode.REGRESSION) if regressed else 0
