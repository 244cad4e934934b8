"""`grk ingest`: files, folders, JSONL record files and URLs into a collection."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from groundkit.cli import render
from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.cli.progress import progress_display
from groundkit.types import IngestReport

if TYPE_CHECKING:
    from groundkit.pipeline import Interrupted

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
    "--sentences/--no-sentences",
    default=None,
    help="With --dense, also embed the sentences an answer may quote: a faster `grk answer`,"
    " a slower ingest (ingest.sentences).",
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
@click.option(
    "--watch",
    is_flag=True,
    help="Keep running: ingest again whatever changes, until Ctrl-C (needs the watch extra).",
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
    sentences: bool | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    watch: bool,
    verbose: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Ingest files, folders, JSONL record files and http(s) URLs (only what changed).

    Exit status 3 when an input meant to be ingested could not be (unreadable, undecodable, too
    large); files of a type groundkit does not read are passed over, which is not a failure.
    Exit status 2 when the inputs hold nothing to ingest at all (no collection is made).
    With --watch, one summary line per round, and exit status 130 on Ctrl-C.
    """
    from groundkit.pipeline import Interrupted

    obj.check_inputs(inputs)  # a path that is not there: a usage error, and no collection made
    more = {"chunk.size": chunk_size, "ingest.dense": dense, "ingest.sentences": sentences}
    if watch:
        try:
            _watch(
                obj, inputs, more, include, exclude, verbose=verbose, quiet=quiet, as_json=as_json
            )
        except (KeyboardInterrupt, Interrupted) as stop:
            if isinstance(stop, Interrupted):
                _say_what_was_kept(stop)
            click.echo("stopped watching", err=True)
            click.get_current_context().exit(ExitCode.INTERRUPTED)
        return
    try:
        report = _ingest(obj, more, inputs, include, exclude, show=not quiet and not as_json)
    except Interrupted as stop:
        render.ingest_report(stop.report, as_json=as_json, verbose=verbose)
        _say_what_was_kept(stop)
        click.get_current_context().exit(ExitCode.INTERRUPTED)
    except KeyboardInterrupt:
        click.echo(
            "interrupted: a run's documents are stored together or not at all, so the collection"
            " holds what it held before, or all of this run's documents (with the search index"
            " brought in line on the next command). Run the same command to finish.",
            err=True,
        )
        click.get_current_context().exit(ExitCode.INTERRUPTED)
    render.ingest_report(report, as_json=as_json, verbose=verbose)
    if report.partial:
        click.get_current_context().exit(ExitCode.PARTIAL)


def _ingest(
    obj: Context,
    more: dict[str, Any],
    inputs: Sequence[str],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    *,
    show: bool,
    names_from: str | None = None,
    something: bool = True,
) -> IngestReport:
    """One ingest of ``inputs`` into the collection (made if need be), with the progress
    display when ``show``. ``something``: finding nothing at all to ingest is a usage error
    (a watch round may find nothing: the folder may be filled later)."""
    from groundkit.ops import collections as ops

    with obj.collections(more) as local:
        name = local.settings.collection
        existed = name in ops.collection_names(local)
        with progress_display(enabled=show) as progress:
            order = ops.IngestOrder(
                name,
                inputs,
                include=include,
                exclude=exclude,
                names_from=names_from,
                progress=progress,
            )
            report = ops.ingest(local, order)
        if something and _found_nothing(report):
            if not existed:
                ops.drop_collection(local, name)  # made by this run, and empty
            raise _nothing_to_ingest(inputs, report, made=not existed)
        return report


def _found_nothing(report: IngestReport) -> bool:
    """No document found, changed, gone or failed: the inputs hold nothing groundkit reads."""
    found = report.new + report.changed + report.unchanged + report.removed
    return found == 0 and not report.skipped


def _nothing_to_ingest(inputs: Sequence[str], report: IngestReport, *, made: bool) -> Exception:
    """Exit 2, as for a path that is not there: the command must change (another folder, an
    --include that matches), since nothing could be ingested; not 3, which says some inputs
    were ingested and others failed."""
    from groundkit.errors import ErrorCode, UsageError

    kept = "no collection was made" if made else "the collection is as it was"
    passed = ""
    if report.passed_over:
        first = report.passed_over[0]
        passed = f"{report.ignored} passed over, such as {first.source} ({first.reason}); "
    return UsageError(
        ErrorCode.USAGE,
        "nothing to ingest in " + ", ".join(inputs[:5]) + ": no file or record groundkit reads",
        hint=f"{passed}nothing was stored and {kept}",
    )


def _say_what_was_kept(stop: Interrupted) -> None:
    click.echo(
        f"interrupted: the documents and {stop.report.chunks_embedded} new vectors are kept;"
        f" {stop.missing} chunks still have none. Run the same command to resume.",
        err=True,
    )


def _watch(
    obj: Context,
    inputs: Sequence[str],
    more: dict[str, Any],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    *,
    verbose: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Run ``grk ingest`` now and again on every change (see ``groundkit.cli.watch``); returns
    only by raising, ``KeyboardInterrupt`` on Ctrl-C."""
    from groundkit.cli.watch import Watched, watch
    from groundkit.errors import ErrorCode, GroundkitError, Kind, UsageError
    from groundkit.ingest.fetch import split_inputs
    from groundkit.ingest.walk import Filters, name_base

    named = split_inputs(inputs)
    if named.urls or named.unsupported:
        raise UsageError(
            ErrorCode.USAGE,
            "--watch watches files and folders, not URLs",
            hint="ingest the URLs in a run of their own, without --watch",
        )
    typed = {os.path.abspath(path): path for path in named.paths}
    index_dir = os.path.realpath(obj.settings(more).settings.index_dir)
    watched = Watched(tuple(typed), Filters(include, exclude), index_dir)
    # A round ingests only the inputs that changed, but names files as the whole command does.
    base = name_base(named.paths)
    done = 0  # rounds that ran; one that could not run is tried again under the same number

    def run_round(roots: Sequence[str]) -> bool:
        nonlocal done
        try:
            report = _ingest(
                obj,
                more,
                roots,
                include,
                exclude,
                show=not quiet and not as_json,
                names_from=base,
                something=False,
            )
        except GroundkitError as error:
            if error.outcome.kind is not Kind.FAILURE:
                raise
            # Another writer, a full disk...: say so, keep watching, try again shortly.
            click.echo(f"round {done + 1}: {error.message}; trying again", err=True)
            return False
        done += 1
        _round_line(done, [typed[root] for root in roots], report, as_json, verbose)
        return True

    if not as_json:
        click.echo(f"watching {', '.join(named.paths)}; Ctrl-C stops", err=True)
    watch(watched, run_round)


def _round_line(
    number: int, roots: list[str], report: IngestReport, as_json: bool, verbose: bool
) -> None:
    if as_json:
        click.echo(json.dumps({"round": number, "inputs": roots, **report.to_dict()}))
        return
    if number > 1 and not verbose:  # the walk passes over the same files each round: once is enough
        report = dataclasses.replace(report, passed_over=())
    click.echo(f"{datetime.now():%H:%M:%S} round {number}: ", nl=False)
    render.ingest_report(report, as_json=False, verbose=verbose)
