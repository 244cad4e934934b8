"""`grk ask SYMBOL QUESTION`: a model explains a symbol's code-map edges, quoting only them.

The same boundary as `grk answer`: the map must be opted in (`grk ai enable map:NAME`), every
quote is checked byte for byte against an edge that was sent, one bad citation refuses the
whole answer, and with AI off or on any failure the edges are shown with the reason (exit 0).
"""

from __future__ import annotations

from functools import partial

import click

from groundkit.cli.answer_render import render_report, report_options
from groundkit.cli.codemap import edge_filter, filter_options
from groundkit.cli.context import Context, pass_ctx

__all__ = ["ask_command"]


@click.command("ask")
@click.argument("symbol")
@click.argument("question")
@click.option("--map", "map_name", help="Map to use [default: the current folder's].")
@click.option(
    "--scope",
    type=click.Choice(["trace", "blast", "both"]),
    default=None,
    help="Which edges: where the symbol leads (trace), what depends on it (blast), or both"
    " [default: as the question asks: blast for 'who calls this?', trace for 'what does it"
    " call?', else both].",
)
@click.option(
    "--to",
    "to",
    metavar="TARGET",
    help="Send the hops of the paths to TARGET instead (table:NAME, env:NAME or any symbol),"
    " as `grk trace --to` lists them.",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 100),
    default=None,
    help="How far the walks (or, with --to, a path) go [default: 2; with --to, 10].",
)
@click.option(
    "--top-k",
    "-k",
    type=click.IntRange(1, 500),
    default=20,
    show_default=True,
    help="How many edges, in order (path confidence, depth, identity), may be sent.",
)
@click.option("--profile", help="Provider profile [default: the one the map allows].")
@click.option("--judge", is_flag=True, help="Ask the model for an advisory faithfulness check.")
@filter_options
@report_options
@pass_ctx
def ask_command(
    obj: Context,
    symbol: str,
    question: str,
    map_name: str | None,
    scope: str | None,
    to: str | None,
    depth: int | None,
    top_k: int,
    profile: str | None,
    judge: bool,
    min_confidence: float | None,
    certain: bool,
    exclude: tuple[str, ...],
    show_reply: bool,
    as_json: bool,
) -> None:
    """Answer QUESTION about SYMBOL from the edges of its trace and blast, or with --to from
    the hops of its paths to TARGET.

    Only the edges' one-line evidence and their numbers are sent. Symbol errors are those of
    `grk trace` (exit 5 not found, 6 ambiguous), before anything is sent.
    """
    from groundkit.answer.code import CHAIN_DEPTH, scope_for
    from groundkit.answer.logguard import install_log_guard
    from groundkit.cli import answer as answer_cli
    from groundkit.cli.answer_spinner import model_spinner
    from groundkit.cli.codemap import map_name as chosen_map
    from groundkit.ops import answer as ops

    install_log_guard()
    settings = obj.settings().settings
    request = ops.SymbolQuestion(
        chosen_map(settings, map_name),
        symbol,
        question,
        profile=profile,
        scope=scope or scope_for(question),  # type: ignore[arg-type]  # click.Choice checked it
        depth=depth or (2 if to is None else CHAIN_DEPTH),
        top_k=top_k,
        judge=judge,
        edge_filter=edge_filter(min_confidence, certain, exclude),
        to=to,
    )
    report = ops.ask(
        settings,
        request,
        answer_cli.make_ai_environment(),
        busy_for=partial(model_spinner, enabled=not as_json),
    )
    render_report(report, as_json=as_json, show_reply=show_reply)
    if request.edge_filter.active and to is None and not as_json:
        from groundkit.cli.codemap_render import hidden
        from groundkit.ops.codemap import hidden_by

        left_out = hidden_by(
            settings,
            request.map,
            symbol,
            request.edge_filter,
            scope=request.scope,
            depth=request.depth,
        )
        hidden(request.edge_filter, left_out)
