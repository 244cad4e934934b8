"""How the code map's answers look on a terminal."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from groundkit.codemap.model import EdgeFlag, EdgeKind
from groundkit.text import for_terminal

if TYPE_CHECKING:
    from groundkit.codemap.build import MapReport
    from groundkit.codemap.diff import MapDiff
    from groundkit.codemap.model import Edge, Node
    from groundkit.codemap.traverse import Blast, Trace

__all__ = ["blast", "diff", "map_report", "nothing_to_map", "overview", "trace"]

_LISTED = 15


def _echo(text: str, *, err: bool = False) -> None:
    """Everything this module prints: a path or a name holding a control character (a file
    named ``mod\\x1b[2J.py``) is shown escaped, never acted on by the terminal or hidden."""
    click.echo(for_terminal(text), err=err)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())) or "none"


def map_report(name: str, report: MapReport) -> None:
    _echo(
        f"mapped {name!r}: {report.files:,} files in {report.seconds:.2f} s"
        f" ({report.files_per_second:,.0f} files/s); parsed {report.parsed:,},"
        f" unchanged {report.unchanged:,}, removed {report.removed:,},"
        f" re-resolved {report.resolved:,}"
    )
    _echo(f"nodes: {_counts(report.nodes)}")
    _echo(f"edges: {_counts(report.edges)}")
    _echo(f"unresolved calls: {report.unresolved_calls:,} (counted, never guessed)")
    if report.skipped:
        _echo(f"skipped {len(report.skipped)}:")
        for item in report.skipped:
            _echo(f"  {item.source}: {item.reason}")


def nothing_to_map(path: str, report: MapReport) -> None:
    from groundkit.codemap.extract import LANGUAGES

    _echo(
        f"nothing to map in {path!r}: no file in a language the map reads"
        f" ({', '.join(language.name for language in LANGUAGES)}); no map was made",
        err=True,
    )
    for item in report.skipped:
        _echo(f"  skipped {item.source}: {item.reason}", err=True)


def _node(node: Node) -> str:
    where = f" {node.path}:{node.line}" if node.path and node.line else ""
    return f"{node.qualname} ({node.kind}{where})"


def trace(result: Trace, checks: Sequence[str] | None) -> None:
    _echo(f"trace {_node(result.start)}, depth {result.depth}, {', '.join(result.kinds)}")
    if not result.steps:
        _echo("  (no outgoing edges: chain_end)")
    for i, step in enumerate(result.steps):
        edge = step.edge
        stop = f"  [{step.stop}]" if step.stop else ""
        check = f"  {checks[i]}" if checks is not None else ""
        _echo(
            f"{'  ' * step.depth}{edge.kind} {edge.target.qualname}"
            f"  ({edge.provenance} {edge.confidence:.2f}{_partial(edge)}, {edge.location})"
            f"  {edge.short_id}{stop}{check}"
        )
    if result.truncated:
        _echo("  ... (truncated: narrow --kinds or lower --depth)")


def _partial(edge: Edge) -> str:
    """Said in words: one of several targets chosen at run time (docs/codemap.md)."""
    return " partial" if EdgeFlag.PARTIAL in edge.flags else ""


def blast(result: Blast) -> None:
    count = len(result.dependents)
    _echo(
        f"blast radius of {_node(result.start)}: {count} dependent(s), depth ≤ {result.depth}"
    )
    for dep in result.dependents:
        _echo(
            f"  {dep.depth:>2}  {dep.confidence:.2f}  {dep.node.qualname} ({dep.node.kind})"
            f"  via {dep.via.short_id}: {dep.via.evidence}"
        )


def overview(name: str, data: dict[str, Any]) -> None:
    edges = sum(data["edges"].values())
    nodes = sum(data["nodes"].values())
    _echo(
        f"map {name!r}: {data['files']:,} files, {nodes:,} nodes, {edges:,} edges,"
        f" {data['unresolved_calls']:,} unresolved calls"
    )
    _echo(f"nodes: {_counts(data['nodes'])}")
    _echo(f"edges: {_counts(data['edges'])}")
    _echo(f"\nareas ({len(data['areas'])}):")
    for area in data["areas"]:
        _echo(f"  {area['area']:<32} {_counts(area['nodes'])}")
    _echo(f"\nboundaries (edges between areas; top {_LISTED}):")
    for row in data["boundaries"][:_LISTED]:
        _echo(f"  {row['from']} -> {row['to']}: {row['kind']} {row['edges']:,}")
    hubs = data["hubs"]
    for title, key in (
        ("called the most", "fan_in"),
        ("calling the most", "fan_out"),
        ("imported the most", "most_imported"),
    ):
        _echo(f"\nhubs, {title}:")
        for hub in hubs[key]:
            _echo(f"  {hub['edges']:>5}  {hub['name']} ({hub['kind']})")
    cycles = data["import_cycles"]
    _echo(f"\nimport cycles: {len(cycles)}")
    for group in cycles[:_LISTED]:
        _echo(
            f"  {len(group)} modules: {', '.join(group[:8])}{' ...' if len(group) > 8 else ''}"
        )
    entry = data["entry_points"]
    _echo(
        f"\nentry points: {len(entry['routes'])} route(s), {len(entry['scripts'])} script(s)"
    )
    for script in entry["scripts"]:
        _echo(f"  script {script['name']} = {script['target']} ({script['from']})")
    for route in entry["routes"][:_LISTED]:
        _echo(f"  {route['route']}  ({route['path']}:{route['line']})")
    if data["skipped"]:
        _echo(f"\nskipped at the last mapping: {len(data['skipped'])}")
        for item in data["skipped"][:_LISTED]:
            _echo(f"  {item['path']}: {item['reason']}")


def _edge_line(edge: Edge) -> str:
    return (
        f"{edge.kind} {edge.source.qualname} -> {edge.target.qualname}"
        f"  ({edge.location})  {edge.short_id}"
    )


def diff(result: MapDiff) -> None:
    """A reviewer's order: the summary, then added and removed edges by module, new import
    cycles, new crossings between areas, routes, changed edges, and the nodes."""
    moved = len(result.edges_moved)
    listed = "" if result.list_moves else " (--moves lists them)"
    moves = f"; {moved:,} edge(s) only moved{listed}"
    if result.empty:
        _echo("no architecture change" + (moves if moved else ""))
    else:
        _echo(
            f"edges: +{len(result.edges_added):,} -{len(result.edges_removed):,}"
            f" ~{len(result.edges_changed):,}; nodes: +{len(result.nodes_added):,}"
            f" -{len(result.nodes_removed):,}" + (moves if moved else "")
        )
    _diff_by_module(result)
    if result.new_cycles:
        _echo(f"\nnew import cycles: {len(result.new_cycles)}")
        for cycle in result.new_cycles:
            _echo(f"  {' -> '.join((*cycle, cycle[0]))}")
    if result.new_crossings:
        _echo(f"\nnew edges between areas: {len(result.new_crossings)}")
        for edge in result.new_crossings:
            _echo(f"  + {_edge_line(edge)}")
    for title, routes in (("added", result.routes_added), ("removed", result.routes_removed)):
        if routes:
            _echo(f"\nroutes {title}: {len(routes)}")
            for node in routes:
                _echo(f"  {'+' if title == 'added' else '-'} {node.qualname}")
    if result.edges_changed:
        _echo(f"\nedges changed: {len(result.edges_changed)}")
        for before, after in result.edges_changed:
            _echo(f"  ~ {_edge_line(after)}: {_changes(before, after)}")
    for title, nodes in (("added", result.nodes_added), ("removed", result.nodes_removed)):
        if nodes:
            _echo(f"\nnodes {title}: {len(nodes)}")
            for node in nodes:
                _echo(f"  {'+' if title == 'added' else '-'} {node.qualname} ({node.kind})")
    if result.list_moves and moved:
        _echo(f"\nedges moved: {moved}")
        for before, after in result.edges_moved:
            _echo(f"  {_edge_line(after)} (was {before.location})")


def _diff_by_module(result: MapDiff) -> None:
    """Added and removed edges (containment aside) under the module they start in."""
    groups: dict[str, list[tuple[str, Edge]]] = defaultdict(list)
    for sign, edges in (("+", result.edges_added), ("-", result.edges_removed)):
        for edge in edges:
            if edge.kind != EdgeKind.DEFINES:
                groups[result.module_of(edge)].append((sign, edge))
    for module, rows in sorted(groups.items()):
        plus = sum(1 for sign, _ in rows if sign == "+")
        _echo(f"\n{module}: +{plus} -{len(rows) - plus}")
        for sign, edge in rows:
            _echo(f"  {sign} {_edge_line(edge)}")


def _changes(before: Edge, after: Edge) -> str:
    from groundkit.codemap.diff import changed_fields

    return ", ".join(
        f"{name} {_field(before, name)} -> {_field(after, name)}"
        for name in changed_fields(before, after)
    )


def _field(edge: Edge, name: str) -> str:
    if name == "confidence":
        return f"{edge.confidence:.2f}"
    return repr(edge.quote) if name == "statement" else str(edge.provenance)
