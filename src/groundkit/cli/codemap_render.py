"""How the code map's answers look on a terminal (a diff: ``codemap_diff_render``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from groundkit.codemap.model import EdgeFlag
from groundkit.text import for_terminal
from groundkit.types import Skipped

if TYPE_CHECKING:
    from groundkit.codemap.build import MapReport
    from groundkit.codemap.chains import Chains
    from groundkit.codemap.filters import EdgeFilter
    from groundkit.codemap.model import Edge, Node
    from groundkit.codemap.traverse import Blast, Trace

__all__ = [
    "blast",
    "echo_safe",
    "hidden",
    "map_report",
    "nothing_to_map",
    "overview",
    "passed_over",
    "read_for_data",
    "trace",
]

_LISTED = 15


def echo_safe(text: str, *, err: bool = False) -> None:
    """Everything this module prints: a path or a name holding a control character (a file
    named ``mod\\x1b[2J.py``) is shown escaped, never acted on by the terminal or hidden."""
    click.echo(for_terminal(text), err=err)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())) or "none"


def map_report(name: str, report: MapReport, *, verbose: bool = False) -> None:
    echo_safe(
        f"mapped {name!r}: {report.files:,} files in {report.seconds:.2f} s"
        f" ({report.files_per_second:,.0f} files/s); parsed {report.parsed:,},"
        f" unchanged {report.unchanged:,}, removed {report.removed:,},"
        f" re-resolved {report.resolved:,}"
    )
    echo_safe(f"files: {_counts(report.languages)}")
    echo_safe(f"nodes: {_counts(report.nodes)}")
    echo_safe(f"edges: {_counts(report.edges)}")
    echo_safe(f"unresolved calls: {report.unresolved_calls:,} (counted, never guessed)")
    read_for_data(report.read_for_data, verbose=verbose)
    passed_over(report.passed_over, verbose=verbose)
    if report.skipped:
        echo_safe(f"skipped {len(report.skipped)} (meant to be mapped, and could not be):")
        for item in report.skipped:
            echo_safe(f"  {item.source}: {item.reason}")


_EXAMPLES = 3


def passed_over(
    items: Sequence[Skipped], *, verbose: bool, err: bool = False, more: str = "--verbose"
) -> None:
    """What was not mapped on purpose: by reason, with a few paths (every path with
    ``verbose``; ``more`` names the option that lists them)."""
    if not items:
        return
    hint = "" if verbose else f"; {more} lists each"
    echo_safe(f"passed over {len(items):,} (not mapped, on purpose{hint}):", err=err)
    _grouped(items, verbose=verbose, err=err)


def _grouped(items: Sequence[Skipped], *, verbose: bool, err: bool) -> None:
    """``items`` by reason, with a few paths each (every path with ``verbose``)."""
    by_reason: dict[str, list[str]] = defaultdict(list)
    for item in items:
        # Grouped by what the reason says before its detail: "documentation (.md)" and
        # "documentation (.rst)" are one line of the summary.
        by_reason[item.reason if verbose else item.reason.split(" (")[0]].append(item.source)
    for reason, paths in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if verbose:
            echo_safe(f"  {reason}:", err=err)
            for path in paths:
                echo_safe(f"    {path}", err=err)
            continue
        shown = ", ".join(paths[:_EXAMPLES]) + (", ..." if len(paths) > _EXAMPLES else "")
        echo_safe(f"  {len(paths):>5}  {reason}: {shown}", err=err)


def read_for_data(items: Sequence[Skipped], *, verbose: bool, more: str = "--verbose") -> None:
    """The files read for what they declare (tables, settings) though no extractor parses
    them: by what they are, with a few paths (every path with ``verbose``)."""
    if not items:
        return
    hint = "" if verbose else f"; {more} lists each"
    what = "not code; read for the tables and settings they hold"
    echo_safe(f"read for data {len(items):,} ({what}{hint}):")
    _grouped(items, verbose=verbose, err=False)


def nothing_to_map(path: str, report: MapReport, *, verbose: bool = False) -> None:
    from groundkit.codemap.extract import LANGUAGES

    echo_safe(
        f"nothing to map in {path!r}: no file in a language the map reads"
        f" ({', '.join(language.name for language in LANGUAGES)}); no map was made",
        err=True,
    )
    passed_over(report.passed_over, verbose=verbose, err=True)
    for item in report.skipped:
        echo_safe(f"  skipped {item.source}: {item.reason}", err=True)


def _node(node: Node) -> str:
    where = f" {node.path}:{node.line}" if node.path and node.line else ""
    return f"{node.qualname} ({node.kind}{where})"


def trace(result: Trace, checks: Sequence[str] | None) -> None:
    echo_safe(f"trace {_node(result.start)}, depth {result.depth}, {', '.join(result.kinds)}")
    if not result.steps:
        echo_safe("  (no outgoing edges: chain_end)")
    for i, step in enumerate(result.steps):
        edge = step.edge
        stop = f"  [{step.stop}]" if step.stop else ""
        check = f"  {checks[i]}" if checks is not None else ""
        echo_safe(
            f"{'  ' * step.depth}{edge.kind} {edge.target.qualname}"
            f"  ({edge.provenance} {edge.confidence:.2f}{_partial(edge)}, {edge.location})"
            f"  {edge.short_id}{stop}{check}"
        )
    if result.truncated:
        echo_safe("  ... (truncated: narrow --kinds or lower --depth)")
    hidden(result.filter, result.hidden)


def chains(result: Chains) -> None:
    count = len(result.paths)
    echo_safe(
        f"paths from {_node(result.start)} to {_node(result.goal)}: {count}"
        f"{' (at most 20, shortest first)' if count >= 20 else ''}, depth ≤ {result.depth}"
    )
    if not result.paths:
        echo_safe(f"  (none along {', '.join(result.kinds)})")
    for number, path in enumerate(result.paths, start=1):
        weakest = min(e.confidence for e in path)
        echo_safe(f"\n  {number}. {len(path)} hop(s), confidence {weakest:.2f}")
        for edge in path:
            echo_safe(
                f"     {edge.source.qualname} {edge.kind} {edge.target.qualname}"
                f"  ({edge.provenance} {edge.confidence:.2f}{_partial(edge)}, {edge.location})"
            )
            echo_safe(f"        {edge.quote}")
    if result.truncated:
        echo_safe("  ... (truncated: narrow --kinds or lower --depth)")


def hidden(edge_filter: EdgeFilter, count: int) -> None:
    """What a filter hid, said whenever a filter was given (0 included: it hid nothing)."""
    if edge_filter.active:
        echo_safe(f"filter ({edge_filter.describe()}) hid {count:,} edge(s)")


def _partial(edge: Edge) -> str:
    """Said in words: one of several targets chosen at run time (docs/codemap.md)."""
    return " partial" if EdgeFlag.PARTIAL in edge.flags else ""


def blast(result: Blast) -> None:
    count = len(result.dependents)
    echo_safe(
        f"blast radius of {_node(result.start)}: {count} dependent(s), depth ≤ {result.depth}"
    )
    for dep in result.dependents:
        echo_safe(
            f"  {dep.depth:>2}  {dep.confidence:.2f}  {dep.node.qualname} ({dep.node.kind})"
            f"  via {dep.via.short_id}: {dep.via.evidence}"
        )
    hidden(result.filter, result.hidden)


def overview(name: str, data: dict[str, Any]) -> None:
    edges = sum(data["edges"].values())
    nodes = sum(data["nodes"].values())
    echo_safe(
        f"map {name!r}: {data['files']:,} files, {nodes:,} nodes, {edges:,} edges,"
        f" {data['unresolved_calls']:,} unresolved calls"
    )
    echo_safe(f"nodes: {_counts(data['nodes'])}")
    echo_safe(f"edges: {_counts(data['edges'])}")
    echo_safe(f"\nareas ({len(data['areas'])}):")
    for area in data["areas"]:
        echo_safe(f"  {area['area']:<32} {_counts(area['nodes'])}")
    echo_safe(f"\nboundaries (edges between areas; top {_LISTED}):")
    for row in data["boundaries"][:_LISTED]:
        echo_safe(f"  {row['from']} -> {row['to']}: {row['kind']} {row['edges']:,}")
    hubs = data["hubs"]
    for title, key in (
        ("called the most", "fan_in"),
        ("calling the most", "fan_out"),
        ("imported the most", "most_imported"),
    ):
        echo_safe(f"\nhubs, {title}:")
        for hub in hubs[key]:
            echo_safe(f"  {hub['edges']:>5}  {hub['name']} ({hub['kind']})")
    cycles = data["import_cycles"]
    echo_safe(f"\nimport cycles: {len(cycles)}")
    for group in cycles[:_LISTED]:
        echo_safe(
            f"  {len(group)} modules: {', '.join(group[:8])}{' ...' if len(group) > 8 else ''}"
        )
    entry = data["entry_points"]
    echo_safe(f"\nentry points: {len(entry['routes'])} route(s), {len(entry['scripts'])} script(s)")
    for script in entry["scripts"]:
        echo_safe(f"  script {script['name']} = {script['target']} ({script['from']})")
    for route in entry["routes"][:_LISTED]:
        echo_safe(f"  {route['route']}  ({route['path']}:{route['line']})")
    if data["skipped"]:
        echo_safe(f"\nskipped at the last mapping: {len(data['skipped'])}")
        for item in data["skipped"][:_LISTED]:
            echo_safe(f"  {item['path']}: {item['reason']}")
    if data.get("generated"):
        made = data["generated"]
        echo_safe(f"\ngenerated source (mapped, flagged): {len(made)}")
        for item in made[:_LISTED]:
            echo_safe(f"  {item['path']}: {item['reason']}")
    if data.get("read_for_data"):
        echo_safe("")
        read_for_data(
            [Skipped(i["path"], i["reason"]) for i in data["read_for_data"]],
            verbose=False,
            more="--json",
        )
    if data.get("passed_over"):
        echo_safe("")
        passed_over(
            [Skipped(i["path"], i["reason"]) for i in data["passed_over"]],
            verbose=False,
            more="--json",
        )
