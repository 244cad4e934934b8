"""`grk map`, `grk map show`, `grk trace`, `grk blast`, `grk diff`, `grk edge`: the code map.

Thin: each command parses, calls ``groundkit.codemap``, and prints text or the versioned JSON
envelope (``"schema": "groundkit.codemap/1"``). Rendering for people lives in
``codemap_render``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from groundkit.cli import codemap_render as show
from groundkit.cli.context import pass_ctx
from groundkit.cli.errors import ExitCode
from groundkit.errors import ErrorCode, UsageError

if TYPE_CHECKING:
    from groundkit.cli.context import Context
    from groundkit.codemap.api import CodeMap

__all__ = ["blast_command", "diff_command", "edge_command", "map_group", "trace_command"]

_DEFAULT_KINDS = "calls,imports,http_call,handles"


class _MapGroup(click.Group):
    """`grk map PATH` builds; `grk map show|list ...` are subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["build", *args]
        return super().parse_args(ctx, args)


def _open(obj: Context, name: str | None) -> CodeMap:
    from groundkit.codemap.api import list_codemaps, open_codemap

    settings = obj.settings().settings
    if name is None:
        maps = list_codemaps(settings.index_dir)
        here = Path.cwd().name
        if here in maps:
            name = here
        elif len(maps) == 1:
            name = maps[0]
        else:
            raise UsageError(
                ErrorCode.USAGE,
                "which map? " + (f"there are {len(maps)}" if maps else "there is none yet"),
                hint=("name one with --map: " + ", ".join(maps)) if maps else "grk map PATH",
            )
    return open_codemap(name, settings=settings)


@click.group("map", cls=_MapGroup)
def map_group() -> None:
    """Map a repository's architecture (grk map PATH), then look at it (grk map show)."""


@map_group.command("build")
@click.argument("path", default=".", type=click.Path(file_okay=False))
@click.option("--name", help="Name of the map [default: the folder's name].")
@click.option("--include", multiple=True, metavar="GLOB", help="Map only matching files.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip matching files.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def build(
    obj: Context,
    path: str,
    name: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    quiet: bool,
    as_json: bool,
) -> None:
    """Build or update the map of PATH (only changed files are parsed again)."""
    from groundkit.cli.progress import progress_display
    from groundkit.codemap.api import envelope, open_codemap

    folder = Path(os.path.abspath(path))
    map_name = name or folder.name
    settings = obj.settings().settings
    with (
        open_codemap(map_name, settings=settings, create=True) as codemap,
        progress_display(enabled=not quiet and not as_json) as progress,
    ):
        report = codemap.update(folder, include=include, exclude=exclude, progress=progress)
    if as_json:
        click.echo(json.dumps({**envelope("map", map_name), **report.to_dict()}))
    else:
        show.map_report(map_name, report)
    if report.partial:
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
    from groundkit.codemap.api import envelope

    with _open(obj, name) as codemap:
        if fmt in ("mermaid", "dot", "json") and not as_json:
            click.echo(codemap.export(fmt, level))  # type: ignore[arg-type]
            return
        data = codemap.overview().to_dict()
        if as_json or fmt == "json":
            out = {**envelope("overview", codemap.name), **data}
            click.echo(json.dumps(out, sort_keys=True, ensure_ascii=False))
        else:
            show.overview(codemap.name, data)


@map_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def list_maps(obj: Context, as_json: bool) -> None:
    """The maps in the index dir."""
    from groundkit.codemap.api import list_codemaps

    names = list_codemaps(obj.settings().settings.index_dir)
    click.echo(json.dumps({"maps": names}) if as_json else "\n".join(names))


@click.command("trace")
@click.argument("symbol")
@click.option("--map", "map_name", help="Map to use [default: the current folder's].")
@click.option("--depth", type=int, default=10, show_default=True)
@click.option("--kinds", default=_DEFAULT_KINDS, show_default=True, help="Edge kinds.")
@click.option("--evidence", is_flag=True, help="Re-check each edge against the files.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def trace_command(
    obj: Context,
    symbol: str,
    map_name: str | None,
    depth: int,
    kinds: str,
    evidence: bool,
    as_json: bool,
) -> None:
    """Where SYMBOL leads: outgoing paths, each ending with why it stops."""
    from groundkit.codemap.api import envelope

    with _open(obj, map_name) as codemap:
        result = codemap.trace(symbol, depth=depth, kinds=_split(kinds))
        checks = codemap.verify([s.edge for s in result.steps]) if evidence else None
        if as_json:
            data = result.to_dict()
            if checks is not None:
                for step, check in zip(data["steps"], checks, strict=True):
                    step["edge"]["verification"] = check
            click.echo(json.dumps({**envelope("trace", codemap.name), **data}))
        else:
            show.trace(result, checks)


@click.command("blast")
@click.argument("symbol")
@click.option("--map", "map_name", help="Map to use [default: the current folder's].")
@click.option("--depth", type=int, default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def blast_command(
    obj: Context, symbol: str, map_name: str | None, depth: int, as_json: bool
) -> None:
    """What depends on SYMBOL: each dependent once, with depth, via edge and confidence."""
    from groundkit.codemap.api import envelope

    with _open(obj, map_name) as codemap:
        result = codemap.blast(symbol, depth=depth)
        if as_json:
            click.echo(json.dumps({**envelope("blast", codemap.name), **result.to_dict()}))
        else:
            show.blast(result)


@click.command("diff")
@click.argument("before")
@click.argument("after")
@click.option("--repo", default=".", help="The git repository [default: .].")
@click.option("--include", multiple=True, metavar="GLOB", help="Map only matching files.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip matching files.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def diff_command(
    obj: Context,
    before: str,
    after: str,
    repo: str,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    as_json: bool,
) -> None:
    """The architecture change from BEFORE to AFTER: two git revisions (read from git's
    objects, the work tree untouched), or two saved map files."""
    from groundkit.codemap.api import (
        diff_map_files,
        diff_revisions,
        envelope,
        list_codemaps,
        open_codemap,
    )

    settings = obj.settings().settings
    if Path(before).is_file() and Path(after).is_file():
        result = diff_map_files(Path(before), Path(after))
    else:
        folder = Path(os.path.abspath(repo))
        cache = None
        if folder.name in list_codemaps(settings.index_dir):
            cache = open_codemap(folder.name, settings=settings)
        try:
            result = diff_revisions(
                folder,
                before,
                after,
                include=include,
                exclude=exclude,
                settings=settings,
                cache=cache,
            )
        finally:
            if cache is not None:
                cache.close()
    if as_json:
        click.echo(json.dumps({**envelope("diff", None), **result.to_dict()}))
    else:
        show.diff(result)


@click.command("edge")
@click.argument("edge_id")
@click.option("--map", "map_name", help="Map to use [default: the current folder's].")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def edge_command(obj: Context, edge_id: str, map_name: str | None, as_json: bool) -> None:
    """One edge's evidence, re-checked against the working tree."""
    from groundkit.codemap.api import envelope

    with _open(obj, map_name) as codemap:
        edge = codemap.edge(edge_id)
        check = codemap.verify([edge])[0]
    if as_json:
        data = {**envelope("edge", codemap.name), **edge.to_dict(), "verification": check}
        click.echo(json.dumps(data))
    else:
        click.echo(edge.evidence)
        click.echo(f"{edge.provenance} {edge.confidence:.2f}; verification: {check}")


def _split(kinds: str) -> list[str]:
    return [k.strip() for k in kinds.split(",") if k.strip()]
