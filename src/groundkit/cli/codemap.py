"""`grk map`, `grk map show`, `grk trace`, `grk blast`, `grk diff`, `grk edge`: the code map.

Thin: each command parses, calls ``groundkit.codemap``, and prints text or the versioned JSON
envelope (``"schema": "groundkit.codemap/1"``). Rendering for people lives in
``codemap_render``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from groundkit.cli import codemap_render as show
from groundkit.cli.context import pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, UsageError
from groundkit.text import for_terminal

if TYPE_CHECKING:
    from groundkit.cli.context import Context
    from groundkit.config import Settings

__all__ = [
    "blast_command",
    "diff_command",
    "edge_command",
    "edge_filter",
    "filter_options",
    "map_group",
    "trace_command",
]

_DEFAULT_KINDS = "calls,imports,http_call,handles"

_F = TypeVar("_F", bound=Callable[..., Any])


def filter_options(fn: _F) -> _F:
    """``--min-confidence``, ``--certain``, ``--exclude GLOB``: the filter trace, blast, ask
    and diff share (``codemap.filters.EdgeFilter``)."""
    fn = click.option(
        "--exclude",
        "exclude",
        multiple=True,
        metavar="GLOB",
        help="Leave out edges to or from files matching GLOB (repeatable; e.g. 'tests/**').",
    )(fn)
    fn = click.option(
        "--certain", is_flag=True, help="Only certain edges (leave out partial ones)."
    )(fn)
    return click.option(
        "--min-confidence",
        type=click.FloatRange(0.0, 1.0),
        default=None,
        metavar="X",
        help="Leave out edges whose confidence is below X (0 to 1).",
    )(fn)


def edge_filter(min_confidence: float | None, certain: bool, exclude: tuple[str, ...]) -> Any:
    """The ``EdgeFilter`` the filter options ask for."""
    from groundkit.codemap.filters import EdgeFilter

    return EdgeFilter.of(min_confidence, certain, exclude)


class _MapGroup(click.Group):
    """`grk map PATH` builds; `grk map show|list ...` are subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["build", *args]
        return super().parse_args(ctx, args)


def map_name(settings: Settings, name: str | None) -> str:
    """The map a command names, or the current folder's, or the only one there is."""
    from groundkit.ops.codemap import map_list, map_of_folder

    if name is None:
        maps = map_list(settings).names
        if found := map_of_folder(settings.index_dir, Path.cwd()):
            name = found
        elif len(maps) == 1:
            name = maps[0]
        else:
            raise UsageError(
                ErrorCode.USAGE,
                "which map? " + (f"there are {len(maps)}" if maps else "there is none yet"),
                hint=("name one with --map: " + ", ".join(maps)) if maps else "grk map PATH",
            )
    return name


@click.group("map", cls=_MapGroup)
def map_group() -> None:
    """Map a repository's architecture (grk map PATH), then look at it (grk map show)."""


@map_group.command("build")
@click.argument("path", default=".", type=click.Path(file_okay=False))
@click.option("--name", help="Name of the map [default: the project's name].")
@click.option("--include", multiple=True, metavar="GLOB", help="Map only matching files.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip matching files.")
@click.option(
    "--replace", is_flag=True, help="Make --name the map of PATH even if it is another folder's."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--verbose", "-v", is_flag=True, help="List each file passed over, with why.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def build(
    obj: Context,
    path: str,
    name: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    replace: bool,
    quiet: bool,
    verbose: bool,
    as_json: bool,
) -> None:
    """Build or update the map of PATH (only changed files are parsed again)."""
    from groundkit.cli.progress import progress_display
    from groundkit.ops import codemap as ops

    settings = obj.settings().settings
    with progress_display(enabled=not quiet and not as_json) as progress:
        built, report = ops.build(
            settings,
            path,
            name,
            include=include,
            exclude=exclude,
            progress=progress,
            replace=replace,
        )
    if as_json:
        click.echo(json.dumps(ops.envelope("map", built, report)))
    elif report.nothing_to_map:
        show.nothing_to_map(path, report, verbose=verbose)
    else:
        show.map_report(built, report, verbose=verbose)
    if report.partial or report.nothing_to_map:
        click.get_current_context().exit(ExitCode.PARTIAL)


@map_group.command("show")
@click.argument("name", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "mermaid", "dot", "json"]),
    default="text",
    help="text: the overview; mermaid/dot/json: the graph to draw.",
)
@click.option(
    "--level",
    type=click.Choice(["module", "area"]),
    default="area",
    help="Graph level for --format mermaid/dot/json.",
)
@click.option("--json", "as_json", is_flag=True, help="The overview as JSON.")
@pass_ctx
def show_map(obj: Context, name: str | None, fmt: str, level: str, as_json: bool) -> None:
    """Areas, boundaries, hubs, import cycles and entry points; or the graph to draw."""
    from groundkit.ops import codemap as ops

    settings = obj.settings().settings
    chosen = map_name(settings, name)
    if fmt in ("mermaid", "dot", "json") and not as_json:
        click.echo(ops.export(settings, chosen, fmt, level))  # type: ignore[arg-type]
        return
    found = ops.overview(settings, chosen)
    if as_json or fmt == "json":
        click.echo(
            json.dumps(ops.envelope("overview", chosen, found), sort_keys=True, ensure_ascii=False)
        )
    else:
        show.overview(chosen, found.to_dict())


@map_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def list_maps(obj: Context, as_json: bool) -> None:
    """The maps in the index dir, each with the folder it is of."""
    from groundkit.codemap.roots import shown_path
    from groundkit.ops.codemap import map_list

    found = map_list(obj.settings().settings)
    if as_json:
        click.echo(json.dumps(found.with_roots(), sort_keys=True, ensure_ascii=False))
        return
    width = max((len(name) for name in found.names), default=0)
    for name in found.names:
        root = found.roots.get(name)
        shown = shown_path(root) if root else "(no folder)"
        # A folder outside the current one reads better whole than as ../../..
        show.echo_safe(f"{name:<{width}}  {root if shown.startswith('..') else shown}")


@click.command("trace")
@click.argument("symbol")
@click.option("--map", "map_name_", help="Map to use [default: the current folder's].")
@click.option("--depth", type=int, default=10, show_default=True)
@click.option("--kinds", default=_DEFAULT_KINDS, show_default=True, help="Edge kinds.")
@click.option("--evidence", is_flag=True, help="Re-check each edge against the files.")
@filter_options
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def trace_command(
    obj: Context,
    symbol: str,
    map_name_: str | None,
    depth: int,
    kinds: str,
    evidence: bool,
    min_confidence: float | None,
    certain: bool,
    exclude: tuple[str, ...],
    as_json: bool,
) -> None:
    """Where SYMBOL leads: outgoing paths, each ending with why it stops."""
    from groundkit.ops import codemap as ops

    settings = obj.settings().settings
    chosen = map_name(settings, map_name_)
    found = ops.trace(
        settings,
        chosen,
        symbol,
        depth=depth,
        kinds=_split(kinds),
        evidence=evidence,
        edge_filter=edge_filter(min_confidence, certain, exclude),
    )
    if as_json:
        click.echo(json.dumps(ops.envelope("trace", chosen, found)))
    else:
        show.trace(found.trace, found.checks)


@click.command("blast")
@click.argument("symbol")
@click.option("--map", "map_name_", help="Map to use [default: the current folder's].")
@click.option("--depth", type=int, default=10, show_default=True)
@filter_options
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def blast_command(
    obj: Context,
    symbol: str,
    map_name_: str | None,
    depth: int,
    min_confidence: float | None,
    certain: bool,
    exclude: tuple[str, ...],
    as_json: bool,
) -> None:
    """What depends on SYMBOL: each dependent once, with depth, via edge and confidence."""
    from groundkit.ops import codemap as ops

    settings, chosen = _chosen(obj, map_name_)
    shown = edge_filter(min_confidence, certain, exclude)
    found = ops.blast(settings, chosen, symbol, depth=depth, edge_filter=shown)
    _answer("blast", chosen, found, as_json, lambda: show.blast(found))


@click.command("diff")
@click.argument("before")
@click.argument("after")
@click.option("--repo", default=".", help="The git repository [default: .].")
@click.option("--include", multiple=True, metavar="GLOB", help="Map only matching files.")
@click.option("--moves", is_flag=True, help="List the edges that only moved, too.")
@filter_options
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def diff_command(
    obj: Context,
    before: str,
    after: str,
    repo: str,
    include: tuple[str, ...],
    moves: bool,
    min_confidence: float | None,
    certain: bool,
    exclude: tuple[str, ...],
    as_json: bool,
) -> None:
    """The architecture change from BEFORE to AFTER: two git revisions (read from git's
    objects, the work tree untouched), or two saved map files."""
    from groundkit.cli.codemap_diff_render import diff as show_diff
    from groundkit.ops import codemap as ops

    settings = obj.settings().settings
    shown_filter = edge_filter(min_confidence, certain, exclude)
    if Path(before).is_file() and Path(after).is_file():
        result = ops.diff_maps(settings, Path(before), Path(after), edge_filter=shown_filter)
    else:
        result = ops.diff_revisions_of(
            settings, (before, after), repo=repo, include=include, edge_filter=shown_filter
        )
    shown = dataclasses.replace(result, list_moves=moves)
    _answer("diff", None, shown, as_json, lambda: show_diff(shown))


@click.command("edge")
@click.argument("edge_id")
@click.option("--map", "map_name_", help="Map to use [default: the current folder's].")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def edge_command(obj: Context, edge_id: str, map_name_: str | None, as_json: bool) -> None:
    """One edge's evidence, re-checked against the working tree."""
    from groundkit.ops import codemap as ops

    settings, chosen = _chosen(obj, map_name_)
    found = ops.edge(settings, chosen, edge_id)

    def text() -> None:
        click.echo(for_terminal(found.edge.evidence))
        click.echo(
            f"{found.edge.provenance} {found.edge.confidence:.2f};"
            f" verification: {found.verification}"
        )

    _answer("edge", chosen, found, as_json, text)


def _chosen(obj: Context, name: str | None) -> tuple[Settings, str]:
    settings = obj.settings().settings
    return settings, map_name(settings, name)


def _answer(
    kind: str, name: str | None, found: Any, as_json: bool, text: Callable[[], None]
) -> None:
    """``found`` in the versioned JSON envelope, or for a person (``text``)."""
    from groundkit.ops.codemap import envelope

    if as_json:
        click.echo(json.dumps(envelope(kind, name, found)))
    else:
        text()


def _split(kinds: str) -> list[str]:
    return [k.strip() for k in kinds.split(",") if k.strip()]
