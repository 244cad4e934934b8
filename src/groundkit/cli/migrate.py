"""`grk migrate COLLECTION --to qdrant`: move an embedded collection up to a Qdrant cluster."""

from __future__ import annotations

import json

import click

from groundkit.cli.context import Context, pass_ctx
from groundkit.cli.progress import progress_display

__all__ = ["migrate"]


@click.command()
@click.argument("collection")
@click.option(
    "--to",
    "to",
    type=click.Choice(["qdrant"]),
    required=True,
    help="Where to: the Qdrant collection [collections.NAME] in grk.toml names.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def migrate(obj: Context, collection: str, to: str, quiet: bool, as_json: bool) -> None:
    """Copy an embedded COLLECTION (documents, chunks, vectors: nothing is embedded again) to the
    Qdrant collection grk.toml places it on, then check the copy: the same counts, and a sample
    of citations read back alike from both. Exit 1 when the check fails; run it again to resume.
    From then on every command uses the collection on Qdrant; the embedded folder is left as it
    was: `grk --embedded` reaches it (`grk --embedded -c NAME delete --all` deletes it)."""
    from groundkit.backends.qdrant.migrate import failed
    from groundkit.ops.migrate import to_qdrant

    settings = obj.settings().settings
    with progress_display(enabled=not quiet and not as_json) as progress:
        done = to_qdrant(settings, collection, progress)
    error = failed(done, collection)
    if as_json:  # one JSON object, the check's verdict in it
        click.echo(json.dumps({"collection": collection, "to": to, **done.to_dict()}))
        if error is not None:
            click.get_current_context().exit(int(error.outcome.exit_status))
        return
    counts = ", ".join(f"{k} {a} = {b}" for k, (a, b) in done.counts.items())
    click.echo(
        f"copied {done.documents} documents ({done.chunks} chunks, {done.vectors} vectors);"
        f" {done.passed_over} were there already"
    )
    click.echo(f"checked: {counts}; {done.verified} of {done.sampled} citations alike")
    if error is not None:
        raise error
    click.echo(
        f"every command now uses {collection!r} on Qdrant; the embedded copy is still in the"
        f" index dir: reach it with `grk --embedded -c {collection} ...` (delete it with"
        f" `grk --embedded -c {collection} delete --all` once you no longer want it)"
    )
