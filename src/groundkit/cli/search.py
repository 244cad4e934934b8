"""`grk search` and `grk show`: ranked hits with citations, and a citation read back."""

from __future__ import annotations

import json
import re
from typing import Any

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, UsageError
from groundkit.source_files import Unread, read_regular
from groundkit.types import SearchMode, Verification

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
    "--collapse/--no-collapse",
    default=None,
    help="Fold near-duplicate hits (the same passage stored twice) into the best one"
    " [default: search.collapse, on].",
)
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
    collapse: bool | None,
    queries: str | None,
    as_json: bool,
) -> None:
    """Search a collection. The query is plain words, never query syntax.

    Each hit is shown as path:line with its chunk id (for `grk show`), and, when more than one
    stage ranked it, its rank in each (bm25, dense, rerank); --json adds the raw scores.
    """
    from groundkit.ops import collections as ops  # loaded with the command

    if (query is None) == (queries is None):
        raise UsageError(ErrorCode.USAGE, "give either a QUERY or --queries FILE")
    filters = _parse_where(where)
    more = {
        "search.top_k": top_k,
        "search.mode": mode,
        "search.rerank": rerank,
        "search.collapse": collapse,
    }
    with obj.collections(more) as collections:
        if queries is None:
            assert query is not None
            found = ops.search(collections, ops.SearchQuery(query, source=source, where=filters))
            render.hits(
                found.hits,
                missing_vectors=found.missing_vectors,
                no_searchable_words=found.no_searchable_words,
                pending=found.pending,
                as_json=as_json,
            )
            return
        missing = ops.unranked(collections)
        if not as_json:
            render.missing_vectors_warning(missing)
        failed = 0
        for query_id, text in _read_queries(queries):  # every line is checked before any search
            try:
                found = ops.search(collections, ops.SearchQuery(text, source=source, where=filters))
            except UsageError as exc:
                if exc.code != ErrorCode.INVALID_QUERY:
                    raise  # the set-up is wrong, not this query: fail once
                # this query is bad; the others still get answers
                failed += 1
                click.echo(json.dumps({"query_id": query_id, "error": exc.to_dict()}))
                continue
            click.echo(
                render.batch_line(
                    query_id, found.hits, missing, found.no_searchable_words, found.pending
                )
            )
        if failed:
            click.get_current_context().exit(ExitCode.PARTIAL)


@click.command()
@click.argument("chunk_id")
@click.option(
    "--check",
    is_flag=True,
    help="Exit 1 unless the source still holds the cited text (verified), for CI.",
)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def show(obj: Context, chunk_id: str, check: bool, as_json: bool) -> None:
    """Print a cited chunk read back from the store, and whether its source still holds it.

    verified: the source still holds the cited text (an edit elsewhere in the file does not
    matter; if the text moved, where it is now is shown); drifted: it no longer does; missing:
    the file (or record) is gone; unreadable: it cannot be read as it was ingested;
    not_checked: a URL, never fetched again, or, for a collection on a Qdrant cluster, a source
    file that is not on this machine (it could not be checked here). With --check, anything but
    verified exits 1.
    """
    from groundkit.ops import collections as ops  # loaded with the command

    loaded = obj.settings()
    named = loaded.sources["collection"] != "default"  # -c, GRK_COLLECTION or grk.toml
    with obj.collections() as collections:
        if named:
            found = ops.show(collections, chunk_id)
        else:
            found = ops.show_anywhere(collections, chunk_id)
    if found.citation.collection != loaded.settings.collection and not as_json:
        click.echo(f"(in collection {found.citation.collection!r})", err=True)
    render.resolved(found, as_json=as_json)
    if check and found.verification != Verification.VERIFIED:
        # 1, as diff exits 1 when files differ: something changed (2 stays a usage error).
        click.get_current_context().exit(ExitCode.RUNTIME)


def _parse_where(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(ErrorCode.USAGE, f"--where wants KEY=VALUE, got {pair!r}")
        out[key] = raw  # text; the store matches it against numbers and booleans too
    return out


# A queries file of a million lines is 100 MB; `--queries /dev/zero` would read until memory ends.
MAX_QUERIES_BYTES = 200_000_000


def _read_queries(path: str) -> list[tuple[str, str]]:
    data = read_regular(path, MAX_QUERIES_BYTES)
    if isinstance(data, Unread):
        raise UsageError(ErrorCode.USAGE, f"--queries cannot be read: {data.reason}")
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(ErrorCode.USAGE, "--queries is not UTF-8 text") from None
    out: list[tuple[str, str]] = []
    # Lines as a text file splits them: a U+2028 inside a JSON string is not a line break.
    for lineno, line in enumerate(re.split(r"\r\n|\r|\n", content), start=1):
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
