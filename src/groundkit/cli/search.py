"""`grk search` and `grk show`: ranked hits with citations, and a citation read back."""

from __future__ import annotations

import json
from typing import Any

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, UsageError
from groundkit.types import SearchMode

__all__ = ["search", "show"]


@click.command()
@click.argument("query", required=False)
@click.option("--top-k", "-k", type=int, help="How many hits [default: 10].")
@click.option("--source", help="Only sources matching this glob (e.g. '*/guides/*.md').")
@click.option("--where", multiple=True, metavar="KEY=VALUE", help="Metadata equality filter.")
@click.option(
    "--mode",
    type=click.Choice([m.value for m in SearchMode]),
    help="Retrieval mode [default: hybrid when the collection has vectors, else bm25].",
)
@click.option("--rerank", is_flag=True, default=None, help="Rerank with rerank.model.")
@click.option(
    "--queries",
    type=click.Path(exists=True, dir_okay=False),
    help='Batch: a JSONL file of {"id" or "_id", "text"}; prints one JSON line each.',
)
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON.")
@pass_ctx
def search(
    obj: Context,
    query: str | None,
    top_k: int | None,
    source: str | None,
    where: tuple[str, ...],
    mode: str | None,
    rerank: bool | None,
    queries: str | None,
    as_json: bool,
) -> None:
    """Search a collection. The query is plain words, never query syntax."""
    if (query is None) == (queries is None):
        raise UsageError(ErrorCode.USAGE, "give either a QUERY or --queries FILE")
    filters = _parse_where(where)
    more = {"search.top_k": top_k, "search.mode": mode, "search.rerank": rerank}
    with obj.open(more=more) as collection:
        if queries is None:
            assert query is not None
            hits = collection.search(query, source=source, where=filters)
            render.hits(hits, as_json=as_json)
            return
        failed = 0
        for query_id, text in _read_queries(queries):  # every line is checked before any search
            try:
                hits = collection.search(text, source=source, where=filters)
            except UsageError as exc:
                if exc.code != ErrorCode.INVALID_QUERY:
                    raise  # the set-up is wrong, not this query: fail once
                # this query is bad; the others still get answers
                failed += 1
                click.echo(json.dumps({"query_id": query_id, "error": exc.to_dict()}))
                continue
            click.echo(
                json.dumps({"query_id": query_id, "hits": [render.batch_hit(h) for h in hits]})
            )
        if failed:
            click.get_current_context().exit(ExitCode.PARTIAL)


@click.command()
@click.argument("chunk_id")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def show(obj: Context, chunk_id: str, as_json: bool) -> None:
    """Print a cited chunk read back from the store, and whether its source still matches."""
    with obj.open() as collection:
        render.resolved(collection.show(chunk_id), as_json=as_json)


def _parse_where(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(ErrorCode.USAGE, f"--where wants KEY=VALUE, got {pair!r}")
        out[key] = raw  # text; the store matches it against numbers and booleans too
    return out


def _read_queries(path: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                query_id = obj.get("id", obj.get("_id"))
                text = obj["text"]
            except (json.JSONDecodeError, AttributeError, KeyError, TypeError):
                obj = None
            if obj is None or query_id is None or not isinstance(text, str):
                raise UsageError(
                    ErrorCode.USAGE,
                    f'line {lineno} of --queries is not {{"id" or "_id", "text"}}',
                )
            out.append((str(query_id), text))
    return out
