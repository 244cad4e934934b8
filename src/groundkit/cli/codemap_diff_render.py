"""How ``grk diff`` looks on a terminal: a reviewer's order, each edge listed once."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from groundkit.cli.codemap_render import echo_safe, hidden
from groundkit.codemap.model import EdgeKind

if TYPE_CHECKING:
    from groundkit.codemap.diff import MapDiff
    from groundkit.codemap.model import Edge

__all__ = ["diff"]


def _edge_line(edge: Edge) -> str:
    return (
        f"{edge.kind} {edge.source.qualname} -> {edge.target.qualname}"
        f"  ({edge.location})  {edge.short_id}"
    )


def diff(result: MapDiff) -> None:
    """The summary, then code that moved (one line per function renamed or moved, and per run
    of calls that left one function for another), added and removed edges by module (those
    crossing into another area marked), new import cycles, the crossings counted by areas,
    routes, changed edges, and the nodes."""
    moved = len(result.edges_moved)
    listed = "" if result.list_moves else " (--moves lists them)"
    moves = f"; {moved:,} edge(s) only moved{listed}"
    if result.empty:
        echo_safe("no architecture change" + (moves if moved else ""))
    else:
        went = (
            f"; code moved: {_moves_counted(result):,}"
            if result.edges_carried or result.nodes_moved
            else ""
        )
        echo_safe(
            f"edges: +{len(result.edges_added):,} -{len(result.edges_removed):,}"
            f" ~{len(result.edges_changed):,}; nodes: +{len(result.nodes_added):,}"
            f" -{len(result.nodes_removed):,}" + went + (moves if moved else "")
        )
    _code_moved(result)
    _by_module(result)
    if result.new_cycles:
        echo_safe(f"\nnew import cycles: {len(result.new_cycles)}")
        for cycle in result.new_cycles:
            echo_safe(f"  {' -> '.join((*cycle, cycle[0]))}")
    _crossings(result)
    for title, routes in (("added", result.routes_added), ("removed", result.routes_removed)):
        if routes:
            echo_safe(f"\nroutes {title}: {len(routes)}")
            for node in routes:
                echo_safe(f"  {'+' if title == 'added' else '-'} {node.qualname}")
    if result.edges_changed:
        echo_safe(f"\nedges changed: {len(result.edges_changed)}")
        for before, after in result.edges_changed:
            echo_safe(f"  ~ {_edge_line(after)}: {_changes(before, after)}")
    for title, nodes in (("added", result.nodes_added), ("removed", result.nodes_removed)):
        if nodes:
            echo_safe(f"\nnodes {title}: {len(nodes)}")
            for node in nodes:
                echo_safe(f"  {'+' if title == 'added' else '-'} {node.qualname} ({node.kind})")
    if result.list_moves and moved:
        echo_safe(f"\nedges moved: {moved}")
        for before, after in result.edges_moved:
            echo_safe(f"  {_edge_line(after)} (was {before.location})")
    hidden(result.filter, result.hidden)


def _moves_counted(result: MapDiff) -> int:
    return len(result.files_moved) + len(result.moved_alone()) + len(result.code_moves())


def _code_moved(result: MapDiff) -> None:
    """Files moved whole, renamed or moved functions, and calls that moved between functions:
    a line each."""
    code = result.code_moves()
    if not (result.nodes_moved or code):
        return
    echo_safe(f"\ncode moved: {_moves_counted(result):,}")
    for move in result.files_moved:
        named = (
            f" ({move.module_before} -> {move.module_after})"
            if move.module_before != move.module_after
            else ""
        )
        echo_safe(
            f"  ~ {move.before} -> {move.after}{named}: {len(move.nodes):,} node(s),"
            f" {result.carried_with(move):,} edge(s) went with it"
        )
    for before, after in result.moved_alone():
        where = f", {before.path} -> {after.path}" if before.path != after.path else ""
        echo_safe(
            f"  ~ {before.qualname} -> {after.qualname} ({after.kind}{where}):"
            f" {result.carried_by(before, after)} edge(s) went with it"
        )
    added = {n.key for n in result.nodes_added}
    for source, target, count in code:
        new = " (new)" if target in added else ""
        echo_safe(f"  ~ {count} edge(s) left {source.qualname} for {target.qualname}{new}")


def _by_module(result: MapDiff) -> None:
    """Added and removed edges (containment aside) under the module they start in; an added
    edge that crosses into another area says so where it is listed."""
    groups: dict[str, list[tuple[str, Edge]]] = defaultdict(list)
    for sign, edges in (("+", result.edges_added), ("-", result.edges_removed)):
        for edge in edges:
            if edge.kind != EdgeKind.DEFINES:
                groups[result.module_of(edge)].append((sign, edge))
    for module, rows in sorted(groups.items()):
        plus = sum(1 for sign, _ in rows if sign == "+")
        echo_safe(f"\n{module}: +{plus} -{len(rows) - plus}")
        for sign, edge in rows:
            pair = result.crossing(edge) if sign == "+" else None
            across = f"  [new: {pair[0]} -> {pair[1]}]" if pair else ""
            echo_safe(f"  {sign} {_edge_line(edge)}{across}")


def _crossings(result: MapDiff) -> None:
    """The added edges that cross between areas, counted by the two areas (each edge is
    listed above, marked)."""
    if not result.new_crossings:
        return
    pairs: Counter[tuple[str, str]] = Counter()
    for edge in result.new_crossings:
        pair = result.crossing(edge)
        if pair is not None:
            pairs[pair] += 1
    echo_safe(f"\nnew edges between areas: {len(result.new_crossings)} (marked above)")
    for (here, there), count in sorted(pairs.items()):
        echo_safe(f"  {here} -> {there}: {count}")


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
