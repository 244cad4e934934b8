"""`grk ingest`: files, folders, JSONL record files and URLs into a collection."""

from __future__ import annotations

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.cli.progress import progress_display

__all__ = ["ingest"]


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--chunk-size", type=int, help="Most characters per chunk.")
@click.option(
    "--dense/--no-dense",
    default=None,
    help="Also embed every chunk with the configured embedder (turns dense search on).",
)
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="Walk only files matching GLOB (gitignore syntax, relative to each folder; repeatable).",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Do not walk what matches GLOB (gitignore syntax; repeatable). See also .grkignore.",
)
@click.option("--verbose", "-v", is_flag=True, help="List everything passed over, and why.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def ingest(
    obj: Context,
    inputs: tuple[str, ...],
    chunk_size: int | None,
    dense: bool | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    verbose: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Ingest files, folders, JSONL record files and http(s) URLs (only what changed).

    Exit status 3 when an input meant to be ingested could not be (unreadable, undecodable, too
    large); files of a type groundkit does not read are passed over, which is not a failure.
    """
    from groundkit.pipeline import Interrupted

    obj.check_inputs(inputs)  # a path that is not there: a usage error, and no collection made
    more = {"chunk.size": chunk_size, "ingest.dense": dense}
    try:
        with (
            obj.open(create=True, more=more) as collection,
            progress_display(enabled=not quiet and not as_json) as progress,
        ):
            report = collection.ingest(
                list(inputs), progress=progress, include=include, exclude=exclude
            )
    except Interrupted as stop:
        render.ingest_report(stop.report, as_json=as_json, verbose=verbose)
        click.echo(
            f"interrupted: the documents and {stop.report.chunks_embedded} new vectors are kept;"
            f" {stop.missing} chunks still have none. Run the same command to resume.",
            err=True,
        )
        click.get_current_context().exit(ExitCode.INTERRUPTED)
    render.ingest_report(report, as_json=as_json, verbose=verbose)
    if report.partial:
        click.get_current_context().exit(ExitCode.PARTIAL)
