"""What a diff tells apart from "removed, then added": code that moved.

A function renamed, or moved to another module, is one node removed and one added, and every
edge it carried (its calls, its callers' calls of it, its containment) removed and added again.
A method extraction moves a run of calls from one function into a new one. A reviewer reads
either as one change; ``carry`` finds them:

0. *Moved files*: a file renamed or moved to another folder, its nodes with it
   (``files_moved``).
1. *Moved nodes*: a removed node and an added node of the same kind are the same code when
   at least half of the removed node's outgoing edges reappear on the added one, with the same
   kind, the same target (itself mapped when it moved too) and the same statement quoted. The
   best-matched pairs are taken first, one partner each; the pass repeats while it finds more
   (a class follows its renamed methods). A node with no outgoing edge moved when exactly one
   added node of its kind has its last name and no outgoing edge either.
2. *Carried edges*: a removed edge and an added edge whose ends are the same nodes once moved
   nodes are mapped (the callers of a renamed function).
3. *Code moved between functions*: a removed edge and an added edge of the same kind, target
   and quoted statement that leave different nodes (the calls a method extraction took).

Everything here is by identity and quotes; nothing is guessed from how names look, except the
last-name rule for nodes that carry no edge at all.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from groundkit.codemap.files_moved import FileMove, moved_files
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKey, NodeKind

__all__ = ["Carried", "carry"]

_MOVABLE = (NodeKind.MODULE, NodeKind.PACKAGE, NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)
_ROUNDS = 4
Signature = tuple[str, NodeKey, str]  # (kind, target, quote)


@dataclass(frozen=True, slots=True)
class Carried:
    """``moved``: (before, after) node pairs; ``edges``: (before, after) edge pairs that moved
    with them or between functions; the rest stays added or removed."""

    moved: tuple[tuple[Node, Node], ...]
    edges: tuple[tuple[Edge, Edge], ...]
    nodes_added: tuple[Node, ...]
    nodes_removed: tuple[Node, ...]
    edges_added: tuple[Edge, ...]
    edges_removed: tuple[Edge, ...]
    files: tuple[FileMove, ...] = ()  # files moved whole (their nodes are in ``moved`` too)


def carry(
    nodes_added: Sequence[Node],
    nodes_removed: Sequence[Node],
    edges_added: Sequence[Edge],
    edges_removed: Sequence[Edge],
) -> Carried:
    files = moved_files(nodes_added, nodes_removed)
    seeded = {before: after for move in files for before, after in move.nodes.items()}
    mapping = _moved_nodes(nodes_added, nodes_removed, edges_added, edges_removed, seeded)
    pairs = _carried_edges(mapping, edges_added, edges_removed)
    taken_removed = {id(a) for a, _ in pairs}
    taken_added = {id(b) for _, b in pairs}
    rest_added = [e for e in edges_added if id(e) not in taken_added]
    rest_removed = [e for e in edges_removed if id(e) not in taken_removed]
    between = _moved_between(rest_added, rest_removed)
    taken_removed |= {id(a) for a, _ in between}
    taken_added |= {id(b) for _, b in between}
    by_key = {n.key: n for n in nodes_added}
    moved = tuple(
        (before, by_key[mapping[before.key]]) for before in nodes_removed if before.key in mapping
    )
    after_keys = set(mapping.values())
    return Carried(
        moved,
        tuple(sorted([*pairs, *between], key=lambda p: (p[1].key, p[0].key))),
        tuple(n for n in nodes_added if n.key not in after_keys),
        tuple(n for n in nodes_removed if n.key not in mapping),
        tuple(e for e in edges_added if id(e) not in taken_added),
        tuple(e for e in edges_removed if id(e) not in taken_removed),
        tuple(files),
    )


def _moved_nodes(
    nodes_added: Sequence[Node],
    nodes_removed: Sequence[Node],
    edges_added: Sequence[Edge],
    edges_removed: Sequence[Edge],
    seeded: dict[NodeKey, NodeKey],
) -> dict[NodeKey, NodeKey]:
    """Removed node key -> added node key, for the nodes that are the same code (``seeded``:
    those of the files that moved whole)."""
    added = {n.key for n in nodes_added if n.kind in _MOVABLE}
    removed = {n.key for n in nodes_removed if n.kind in _MOVABLE}
    out_added: dict[NodeKey, list[Edge]] = defaultdict(list)
    for edge in edges_added:
        if edge.source in added:
            out_added[edge.source].append(edge)
    out_removed: dict[NodeKey, list[Edge]] = defaultdict(list)
    for edge in edges_removed:
        if edge.source in removed:
            out_removed[edge.source].append(edge)
    mapping: dict[NodeKey, NodeKey] = dict(seeded)
    for _ in range(_ROUNDS):
        found = _match_round(mapping, added, removed, out_added, out_removed)
        if not found:
            break
        mapping.update(found)
    mapping.update(_bare_moves(mapping, added, removed, out_added, out_removed))
    return mapping


def _match_round(
    mapping: dict[NodeKey, NodeKey],
    added: set[NodeKey],
    removed: set[NodeKey],
    out_added: dict[NodeKey, list[Edge]],
    out_removed: dict[NodeKey, list[Edge]],
) -> dict[NodeKey, NodeKey]:
    taken = set(mapping.values())
    by_signature: dict[Signature, list[NodeKey]] = defaultdict(list)
    for source, edges in out_added.items():
        if source not in taken:
            for edge in edges:
                by_signature[(str(edge.kind), edge.target, edge.quote)].append(source)
    scores: list[tuple[int, NodeKey, NodeKey]] = []
    for source, edges in out_removed.items():
        if source in mapping:
            continue
        shared: Counter[NodeKey] = Counter()
        for edge in edges:
            target = mapping.get(edge.target, edge.target)
            for candidate in set(by_signature.get((str(edge.kind), target, edge.quote), ())):
                if candidate.kind == source.kind:
                    shared[candidate] += 1
        for candidate, score in shared.items():
            if score * 2 >= len(edges):
                scores.append((score, source, candidate))
    found: dict[NodeKey, NodeKey] = {}
    for _, source, candidate in sorted(scores, key=lambda s: (-s[0], s[1], s[2])):
        if source not in found and candidate not in taken:
            found[source] = candidate
            taken.add(candidate)
    return found


def _bare_moves(
    mapping: dict[NodeKey, NodeKey],
    added: set[NodeKey],
    removed: set[NodeKey],
    out_added: dict[NodeKey, list[Edge]],
    out_removed: dict[NodeKey, list[Edge]],
) -> dict[NodeKey, NodeKey]:
    """Nodes with no outgoing edge (containment aside), moved under the same last name: one
    removed and one added of that kind and name."""
    taken = set(mapping.values())

    def bare(edges: list[Edge]) -> bool:
        return all(e.kind == EdgeKind.DEFINES for e in edges)

    def groups(
        keys: set[NodeKey], out: dict[NodeKey, list[Edge]]
    ) -> dict[tuple[str, str], list[NodeKey]]:
        found: dict[tuple[str, str], list[NodeKey]] = defaultdict(list)
        for key in keys:
            if bare(out.get(key, [])):
                found[(str(key.kind), key.qualname.rsplit(".", 1)[-1])].append(key)
        return found

    before = groups({k for k in removed if k not in mapping}, out_removed)
    after = groups({k for k in added if k not in taken}, out_added)
    return {
        keys[0]: after[name][0]
        for name, keys in before.items()
        if len(keys) == 1 and len(after.get(name, [])) == 1
    }


def _carried_edges(
    mapping: dict[NodeKey, NodeKey], edges_added: Sequence[Edge], edges_removed: Sequence[Edge]
) -> list[tuple[Edge, Edge]]:
    if not mapping:
        return []
    added = {e.key: e for e in edges_added}
    # A node has one owner: a function moved to another module is defined by that module now.
    owned = {e.target: e for e in edges_added if e.kind == EdgeKind.DEFINES}
    out = []
    for edge in edges_removed:
        source = mapping.get(edge.source, edge.source)
        target = mapping.get(edge.target, edge.target)
        if (source, target) == (edge.source, edge.target):
            continue
        after = added.get((edge.kind, source, target))
        if after is None and edge.kind == EdgeKind.DEFINES and target != edge.target:
            after = owned.get(target)
        if after is not None:
            out.append((edge, after))
    return out


def _moved_between(
    edges_added: Sequence[Edge], edges_removed: Sequence[Edge]
) -> list[tuple[Edge, Edge]]:
    """Edges that left one node and now leave another, with the same statement: each removed
    edge paired with one added edge of the same kind, target and quote."""
    pool: dict[Signature, list[Edge]] = defaultdict(list)
    for edge in edges_added:
        if edge.kind != EdgeKind.DEFINES and edge.quote:
            pool[(str(edge.kind), edge.target, edge.quote)].append(edge)
    out = []
    for edge in edges_removed:
        if edge.kind == EdgeKind.DEFINES or not edge.quote:
            continue
        waiting = pool.get((str(edge.kind), edge.target, edge.quote))
        if waiting:
            after = next((e for e in waiting if e.source != edge.source), None)
            if after is not None:
                waiting.remove(after)
                out.append((edge, after))
    return out
