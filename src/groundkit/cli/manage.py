"""`grk collections`, `status`, `delete`, `reindex` and `config show`."""

from __future__ import annotations

import json
import sys

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, UsageError

__all__ = ["collections", "config", "delete", "reindex", "status"]


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def collections(obj: Context, as_json: bool) -> None:
    """List the collections in the index dir."""
    from groundkit.collection import list_collections

    names = list_collections(obj.settings().settings.index_dir)
    click.echo(json.dumps({"collections": names}) if as_json else "\n".join(names))


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def status(obj: Context, as_json: bool) -> None:
    """Counts, sizes and index health of a collection."""
    with obj.open() as collection:
        render.status(collection.status(), as_json=as_json)


@click.command()
@click.argument("document", required=False)
@click.option("--all", "whole", is_flag=True, help="Delete the whole collection and its files.")
@click.option("--yes", "-y", is_flag=True, help="With --all: do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def delete(obj: Context, document: str | None, whole: bool, yes: bool, as_json: bool) -> None:
    """Delete a document (by path, document id or external id), or with --all a collection.

    --all asks first; where nobody can answer (stdin is not a terminal) it needs --yes.
    """
    if (document is None) == (not whole):
        raise UsageError(ErrorCode.USAGE, "give either a DOCUMENT or --all")
    settings = obj.settings().settings
    if whole:
        from groundkit.collection import delete_collection, list_collections

        # A collection that is not there is reported as such before anyone is asked.
        exists = settings.collection in list_collections(settings.index_dir)
        if exists and not yes and not _confirmed(settings.collection):
            click.echo("nothing was deleted", err=True)
            click.get_current_context().exit(ExitCode.RUNTIME)
        delete_collection(settings.collection, settings.index_dir)
        result = {"deleted_collection": settings.collection}
    else:
        assert document is not None
        with obj.open() as collection:
            result = {"deleted_document": collection.delete_document(document)}
    click.echo(json.dumps(result) if as_json else f"deleted {next(iter(result.values()))}")


def _confirmed(name: str) -> bool:
    """Ask on the terminal; refuse outright when there is none (a script, a pipe, CI), since a
    script that forgot --yes must not be answered by whatever happens to be on its stdin."""
    if sys.stdin is None or not sys.stdin.isatty():
        raise UsageError(
            ErrorCode.USAGE,
            f"grk delete --all would delete the collection {name!r} without asking anyone",
            hint="pass --yes to delete it from a script; nothing was deleted",
        )
    # The prompt goes to stderr: with --json, stdout carries only the JSON result.
    return click.confirm(
        f"Delete the collection {name!r} and every file it owns?", default=False, err=True
    )


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def reindex(obj: Context, as_json: bool) -> None:
    """Rebuild the derived indexes from the SQLite store."""
    with obj.open() as collection:
        count = collection.reindex()
    click.echo(json.dumps({"chunks_indexed": count}) if as_json else f"reindexed {count} chunks")


@click.group()
def config() -> None:
    """Inspect configuration."""


@config.command("show")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def config_show(obj: Context, as_json: bool) -> None:
    """Every setting in effect and where its value came from."""
    render.config(obj.settings().rows(), as_json=as_json)
