"""How `grk answer` and `grk ask` reports look on a terminal: the answer items with their markers,
each citation (a passage with its offsets, or an edge as ``file:line`` with the quoted part of its
evidence between ``«`` and ``»``), then the evidence that was sent.

Everything printed passes through the CLI's neutral output (``cli.output``), so stored text and
model prose can never drive the terminal; the quote marks are plain characters for that reason.
A refused reply (`--show-reply`) is escaped here as well (``for_terminal``, and a lone surrogate
as a ``backslashreplace`` escape): it failed a check, and is shown only because the user asked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from groundkit.text import for_terminal, json_safe

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.answer.contract import Answer, Cited
    from groundkit.answer.edges import EdgeItem
    from groundkit.answer.excerpt import Excerpt
    from groundkit.answer.passages import CitedQuote
    from groundkit.answer.report import AnswerReport

__all__ = ["highlight", "render_report", "report_options", "shown_reply"]

OPEN, CLOSE = "\u00ab", "\u00bb"  # « »


def report_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--show-reply`` and ``--json``: how `grk answer` and `grk ask` render their report."""
    command = click.option(
        "--json", "as_json", is_flag=True, help="Print the AnswerReport as JSON."
    )(command)
    return click.option(
        "--show-reply",
        is_flag=True,
        help="When the answer is refused, print the model's reply with the reason (text only).",
    )(command)


def highlight(text: str, start: int, end: int) -> str:
    """``text`` with ``[start, end)`` between « and »."""
    return f"{text[:start]}{OPEN}{text[start:end]}{CLOSE}{text[end:]}"


def shown_reply(raw: str) -> str:
    """A refused reply as it may be printed: nothing in it acts on a terminal, and text no
    encoder can write (a lone surrogate) is spelled out instead of failing the command."""
    printable = raw.encode("utf-8", "backslashreplace").decode("utf-8")
    return for_terminal(printable)


def render_report(report: AnswerReport, *, as_json: bool, show_reply: bool = False) -> None:
    """The report as text (``show_reply``: with the refused reply, if any), or as JSON (which
    never holds the refused reply)."""
    if as_json:
        click.echo(json_safe(json.dumps(report.to_dict(), ensure_ascii=False)))
        return
    ai = report.ai
    if report.rewritten_query is not None:
        click.echo(f"question: {report.query}")
        click.echo(f"searched: {report.rewritten_query}")
        click.echo("")
    if report.answer is not None and report.answer.composed != "prose":
        _sentences(report.answer, _chosen_by(report), report.excerpt)
    elif report.answer is not None:
        if report.answer.abstained:
            click.echo("The sources do not answer this.")
        for item in report.answer.items:
            markers = "".join(f"[{m}]" for m in item.markers)
            click.echo(f"{for_terminal(item.text)} {markers}")
        if report.answer.citations:
            click.echo("\ncitations:")
        for c in report.answer.citations:
            _citation(c)
    else:
        if report.extracted is not None:
            _sentences(report.extracted, _chosen_by(report), report.excerpt)
            click.echo("")
        reason = ai.error.message if ai.error else "nothing was retrieved"
        click.echo(f"no explanation ({ai.state}): {reason}")
        if ai.error and ai.error.hint:
            click.echo(f"hint: {ai.error.hint}")
        if show_reply and report.refused_reply is not None:
            _refused_reply(report.refused_reply)
        elif show_reply:
            click.echo("(--show-reply: there is no refused reply to show)")
    if ai.warning:
        click.echo(f"warning: {ai.warning}", err=True)
    if report.judge is not None:
        verdict = "faithful" if report.judge.faithful else "not faithful"
        click.echo(f"\njudge (advisory): {verdict}")
        for claim in report.judge.unsupported_claims:
            click.echo(f"  unsupported: {for_terminal(claim)}")
    elif report.judge_error is not None:
        click.echo(f"\njudge (advisory) failed: {report.judge_error.message}")
    _evidence(report)


def _refused_reply(raw: str) -> None:
    click.echo("\nthe model's reply, as it came back (--show-reply):")
    click.echo("-----")
    click.echo(shown_reply(raw))
    click.echo("-----")


def _chosen_by(report: AnswerReport) -> str:
    answer = report.answer
    if answer is not None and answer.composed == "picked":
        return f"sentences of the evidence chosen by {report.ai.model} (its choice, their words)"
    return "extracted from the evidence, no model: the sentences that best match the question"


def _sentences(answer: Answer, heading: str, excerpt: Excerpt | None = None) -> None:
    """Sentences of the evidence as an answer: the best passage's excerpt with them marked
    between « and », then any others, each under its ``path:line`` (a file's sentences follow
    one another under one heading, in reading order). Line breaks are kept: a sentence may
    bring the code it introduces."""
    from groundkit.answer.edges import CitedEdge

    shown = {m.marker for m in excerpt.marks} if excerpt is not None else set()
    if excerpt is not None and shown:
        click.echo(f"{heading}, marked in the best passage:")
        cited = excerpt.cited
        click.echo(f"  {_place(cited)}  [{cited.chunk_id}]  ({cited.verification})")
        marked = _marked(excerpt.text, [(m.start, m.end) for m in excerpt.marks])
        click.echo(_indented(marked, "    "))
    else:
        click.echo(f"{heading}:")
    if answer.abstained:
        click.echo("  none of the sentences answers this.")
    rest = [c for c in answer.citations if c.marker not in shown]
    if rest and shown:
        click.echo("  and elsewhere in the evidence:")
    last = None
    for c in rest:
        if isinstance(c, CitedEdge):
            path, line, text = c.edge.location.path, str(c.edge.location.line), c.edge.evidence
        else:
            path, line, text = c.source_name, _lines(c), c.cited_text
        if path != last:
            click.echo(f"  {path}")
            last = path
        head = f"    {line:>5}  "
        click.echo(head + _indented(text, " " * len(head)).lstrip())


def _marked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` between « and »."""
    out, at = [], 0
    for start, end in sorted(spans):
        if start < at:
            continue  # a sentence within one marked already
        out += [text[at:start], OPEN, text[start:end], CLOSE]
        at = end
    return "".join([*out, text[at:]])


def _indented(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line.strip() else "" for line in text.splitlines())


def _lines(c: CitedQuote) -> str:
    if c.line is None:
        return ""
    return f"{c.line}" if c.end_line in (None, c.line) else f"{c.line}-{c.end_line}"


def _place(c: CitedQuote) -> str:
    """``path:line`` (``path:line-end``), as `grk search` cites a passage."""
    return f"{c.source_name}:{_lines(c)}" if c.line is not None else c.source_name


def _citation(c: Cited) -> None:
    from groundkit.answer.edges import CitedEdge  # rendering only: `grk --help` stays light

    if isinstance(c, CitedEdge):
        e = c.edge
        click.echo(
            f"  [{c.marker}] {c.location}  {e.kind}  ({e.provenance} {e.confidence:.2f},"
            f" {c.verification})"
        )
        click.echo(f"      {e.source.qualname} -> {e.target.qualname}")
        click.echo(f"      {highlight(e.evidence, c.start, c.end)}")
        return
    click.echo(f"  [{c.marker}] {_place(c)}  [{c.chunk_id}]")
    click.echo(f'      "{c.cited_text}"')


def _evidence(report: AnswerReport) -> None:
    from groundkit.answer.edges import EdgeItem

    bundle = report.bundle
    click.echo("\n" + _evidence_head(bundle))
    if report.no_searchable_words:
        from groundkit.cli.render import NO_SEARCHABLE_WORDS

        click.echo(f"  {NO_SEARCHABLE_WORDS.replace('no hits', 'no passages', 1)}")
    elif not bundle.items and not bundle.truncated:
        found = "path" if bundle.goal else ("edges" if bundle.symbol else "passages")
        click.echo(f"  no {found} found")
    for item in bundle.items:
        if isinstance(item, EdgeItem):
            how = _how(item)
            click.echo(
                f"  {item.number}. {item.edge.location}  [{item.edge.kind}; {how};"
                f" {item.path_confidence:.2f}]"
            )
            click.echo(f"     {item.text}")
            continue
        where = item.source if item.line is None else f"{item.source}:{item.line}"
        click.echo(f"  {item.number}. {where}  [{item.chunk_id}]")
        click.echo(f"     {_one_line(item.text)}")
    if bundle.truncated:
        what = "edges" if bundle.symbol else ("items" if bundle.code_map else "passages")
        click.echo(f"  ({bundle.omitted} more {what} left out: {_cap(report)})")
    beyond = (bundle.code_found or 0) - len(bundle.items) - bundle.omitted
    if bundle.symbol is not None and beyond > 0:
        click.echo(f"  ({beyond} more edges beyond --top-k were not sent)")
    if report.quotes is not None and report.quotes.truncated:
        click.echo(
            f"  ({report.quotes.omitted} quotable spans left out of the constrained schema:"
            " its size limits, docs/answer.md)"
        )


def _cap(report: AnswerReport) -> str:
    """The setting that capped the evidence, as a person would change it."""
    bundle = report.bundle
    if bundle.capped_by == "n_ctx":
        where = f"[profiles.{report.ai.profile}]" if report.ai.profile else "the profile"
        return (
            f"the model's context holds {bundle.max_bytes} bytes of evidence beside its reply:"
            f" n_ctx and max_tokens in {where}"
        )
    return f"answer.max_bundle_bytes = {bundle.max_bytes}"


def _how(item: EdgeItem) -> str:
    """Why an edge was sent: its walk and depth, its path and hop, or the search."""
    if item.role == "chain":
        return f"path {item.chain} hop {item.depth}"
    return f"{item.role} d{item.depth}" if item.role != "search" else "search"


def _evidence_head(bundle: EvidenceBundle) -> str:
    if bundle.symbol is None:
        return "evidence:"  # passages, and with --with-code the matching edges after them
    if bundle.goal is not None:
        return (
            f"evidence: hops of the paths from {bundle.symbol} to {bundle.goal}"
            f" (map {bundle.code_map!r}):"
        )
    walks = {"both": "trace and blast", "trace": "trace", "blast": "blast"}
    walk = walks.get(bundle.code_scope or "", bundle.code_scope)
    return f"evidence: edges of the {walk} of {bundle.symbol} (map {bundle.code_map!r}):"


def _one_line(text: str, width: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "\u2026"
