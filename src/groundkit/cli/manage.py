"""`grk collections`, `status`, `delete`, `reindex` and `config show`."""

from __future__ import annotations

import contextlib
import json
import os
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
    from groundkit.ops import collections as ops  # loaded with the command

    with obj.collections() as local:
        names = ops.collection_names(local)
        where = local.settings.index_dir
    if as_json:
        click.echo(json.dumps({"collections": names}))
    elif names:
        click.echo("\n".join(names))
    else:
        click.echo(f"no collections yet in {where}; make one with `grk ingest PATH`")


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def status(obj: Context, as_json: bool) -> None:
    """Counts, sizes and index health of a collection."""
    from groundkit.ops import collections as ops  # loaded with the command

    with obj.collections() as local:
        info = ops.status(local)
        config = local.settings.collection_config(info.collection)
    where = None
    if config.backend == "qdrant" and config.path is None:
        where = "on the cluster (see its own metrics)"
    elif config.backend == "qdrant" and config.path is not None:
        folder = os.path.expanduser(config.path)
        where = f"{render.size_text(_folder_bytes(folder))} in {config.path} (qdrant-edge, here)"
    render.status(info, as_json=as_json, where=where)


def _folder_bytes(folder: str) -> int:
    """What a folder's files take on disk (a Qdrant ``path`` collection's shard): blocks, not
    lengths, since the engine makes large sparse files it has barely written."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):  # a file removed while counting
                total += os.stat(os.path.join(root, name)).st_blocks * 512
    return total


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
    from groundkit.ops import collections as ops  # loaded with the command

    if (document is None) == (not whole):
        raise UsageError(ErrorCode.USAGE, "give either a DOCUMENT or --all")
    with obj.collections() as local:
        name = local.settings.collection
        if whole:
            # A collection that is not there is reported as such before anyone is asked.
            exists = name in ops.collection_names(local)
            if exists and not yes and not _confirmed(name):
                click.echo("nothing was deleted", err=True)
                click.get_current_context().exit(ExitCode.RUNTIME)
            ops.drop_collection(local, name)
            result = {"deleted_collection": name}
        else:
            assert document is not None
            result = {"deleted_document": ops.delete_document(local, name, document)}
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
    from groundkit.ops import collections as ops  # loaded with the command

    with obj.collections() as local:
        count = ops.reindex(local)
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
