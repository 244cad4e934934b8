"""`grk ingest`: files, folders, JSONL record files and URLs into a collection."""

from __future__ import annotations

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode

__all__ = ["ingest"]


@click.command()
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
