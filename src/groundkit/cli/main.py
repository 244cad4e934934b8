"""`grk`: the command line over the library API."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from groundkit.answer.logguard import install_log_guard
from groundkit.cli import render
from groundkit.cli.ai import ai_group
from groundkit.cli.answer import answer_command
from groundkit.cli.auth import auth_group
from groundkit.cli.codemap import register as register_codemap
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode, report_error, wants_json
from groundkit.cli.eval import eval_command
from groundkit.cli.serve import register as register_serve
from groundkit.errors import ErrorCode, GroundkitError, UsageError

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--index-dir", help="Folder holding the collections [default: ./.groundkit].")
@click.option("--collection", "-c", help="Collection to use [default: default].")
@click.option("--config", "config_file", help="Config file [default: ./grk.toml if present].")
@click.version_option(package_name="groundkit", prog_name="grk")
@click.pass_context
def cli(
    ctx: click.Context, index_dir: str | None, collection: str | None, config_file: str | None
) -> None:
    """groundkit: search your own documents; every hit cites text a machine re-checks."""
    ctx.obj = Context({"index_dir": index_dir, "collection": collection}, config_file)


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--chunk-size", type=int, help="Most characters per chunk.")
@click.option(
    "--dense/--no-dense",
    default=None,
    help="Also embed every chunk with the configured embedder (turns dense search on).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def ingest(
    obj: Context,
    inputs: tuple[str, ...],
    chunk_size: int | None,
    dense: bool | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Ingest files, folders, JSONL record files and http(s) URLs (only what changed)."""
    more = {"chunk.size": chunk_size, "ingest.dense": dense}
    with (
        obj.open(create=True, more=more) as collection,
        render.progress_bar(enabled=not quiet and not as_json) as progress,
    ):
        report = collection.ingest(list(inputs), progress=progress)
    render.ingest_report(report, as_json=as_json)
    if report.partial:
        click.get_current_context().exit(ExitCode.PARTIAL)


@cli.command()
@click.argument("query", required=False)
@click.option("--top-k", "-k", type=int, help="How many hits [default: 10].")
@click.option("--source", help="Only sources matching this glob (e.g. '*/guides/*.md').")
@click.option("--where", multiple=True, metavar="KEY=VALUE", help="Metadata equality filter.")
@click.option(
    "--mode",
    type=click.Choice(["bm25", "dense", "hybrid"]),
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


@cli.command()
@click.argument("chunk_id")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def show(obj: Context, chunk_id: str, as_json: bool) -> None:
    """Print a cited chunk read back from the store, and whether its source still matches."""
    with obj.open() as collection:
        render.resolved(collection.show(chunk_id), as_json=as_json)


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def collections(obj: Context, as_json: bool) -> None:
    """List the collections in the index dir."""
    from groundkit.collection import list_collections

    names = list_collections(obj.settings().settings.index_dir)
    click.echo(json.dumps({"collections": names}) if as_json else "\n".join(names))


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def status(obj: Context, as_json: bool) -> None:
    """Counts, sizes and index health of a collection."""
    with obj.open() as collection:
        render.status(collection.status(), as_json=as_json)


@cli.command()
@click.argument("document", required=False)
@click.option("--all", "whole", is_flag=True, help="Delete the whole collection and its files.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def delete(obj: Context, document: str | None, whole: bool, as_json: bool) -> None:
    """Delete a document (by path, document id or external id), or with --all a collection."""
    if (document is None) == (not whole):
        raise UsageError(ErrorCode.USAGE, "give either a DOCUMENT or --all")
    settings = obj.settings().settings
    if whole:
        from groundkit.collection import delete_collection

        delete_collection(settings.collection, settings.index_dir)
        result = {"deleted_collection": settings.collection}
    else:
        assert document is not None
        with obj.open() as collection:
            result = {"deleted_document": collection.delete_document(document)}
    click.echo(json.dumps(result) if as_json else f"deleted {next(iter(result.values()))}")


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def reindex(obj: Context, as_json: bool) -> None:
    """Rebuild the derived indexes from the SQLite store."""
    with obj.open() as collection:
        count = collection.reindex()
    click.echo(json.dumps({"chunks_indexed": count}) if as_json else f"reindexed {count} chunks")


@cli.group()
def config() -> None:
    """Inspect configuration."""


@config.command("show")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def config_show(obj: Context, as_json: bool) -> None:
    """Every setting in effect and where its value came from."""
    render.config(obj.settings().rows(), as_json=as_json)


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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    install_log_guard()  # secret-shaped values never reach a log, whatever the command
    as_json = wants_json(args)
    try:
        # Without standalone mode click returns a command's ctx.exit() status instead of exiting.
        status = cli.main(args=args, prog_name="grk", standalone_mode=False)
    except GroundkitError as exc:
        return report_error(exc, as_json=as_json)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        return ExitCode.RUNTIME
    except click.ClickException as exc:
        return report_error(exc, as_json=as_json)
    except Exception as exc:  # a bug: still answer in the promised shape, without internals
        error = GroundkitError(
            ErrorCode.INTERNAL,
            f"internal error ({type(exc).__name__})",
            hint="this is a bug in groundkit; please report it with the command you ran",
        )
        return report_error(error, as_json=as_json)
    return status if isinstance(status, int) else ExitCode.OK


cli.add_command(eval_command)
cli.add_command(answer_command)
cli.add_command(ai_group)
cli.add_command(auth_group)
register_serve(cli, pass_ctx)
register_codemap(cli, pass_ctx)

if __name__ == "__main__":
    sys.exit(main())
