"""What trace, blast, symbol lookup and the overview read of a map: ``MapGraph``.

Two implementations answer it: ``MapStore`` (the map's SQLite file) and ``MemoryGraph`` (plain
dicts, for tests and for graphs that were never stored). They return the same lists in the same
order for the same nodes and edges; ``groundkit.testing.MapGraphContract`` is the suite both pass.

Orders are part of the contract, since trace and blast print in them: each method says its sort
keys. Where the keys tie (two edges leaving one line for two targets of the same name), ids
decide: node ids, or for edges the order of the store's primary key (source, kind, target).
An edge is returned only while both its ends are nodes of the map; ``counts`` counts it anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from groundkit.codemap.model import Edge, Node

__all__ = ["MapGraph"]


class MapGraph(Protocol):
    """The read side of a code map. Kinds are passed as strings (``NodeKind``/``EdgeKind``
    values are strings too)."""

    # -- nodes ------------------------------------------------------------------------------------
    def node(self, node_id: str) -> Node | None:
        """The node with this id, if the map has it."""
        ...

    def nodes(self) -> list[Node]:
        """Every node, by kind, name, path."""
        ...

    def nodes_named(self, name: str) -> list[Node]:
        """The nodes whose qualified name is ``name``, by kind, path."""
        ...

    def nodes_of_kind(self, kind: str) -> list[Node]:
        """The nodes of one kind, by name, path."""
        ...

    def nodes_in_file(self, path: str) -> list[Node]:
        """The nodes a file defines, by name, kind."""
        ...

    def nodes_ending_with(self, suffix: str) -> list[Node]:
        """The nodes whose name ends with ``suffix`` and is longer than it, by name, kind, path."""
        ...

    def node_names(self) -> list[tuple[str, str, str]]:
        """(name, kind, path) of every node, by name (then node id), for suggestions."""
        ...

    # -- edges ------------------------------------------------------------------------------------
    def edges(self, kinds: Sequence[str] | None = None) -> list[Edge]:
        """Every edge (of these kinds), by source id, kind, target id."""
        ...

    def edges_from(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        """The edges of these kinds leaving a node, by line, column, target name (then kind,
        target id): the order a reader of the source meets them."""
        ...

    def edges_to(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        """The edges of these kinds arriving at a node, by source name, kind (then source id)."""
        ...

    def edges_to_many(self, node_ids: Sequence[str], kinds: Sequence[str]) -> dict[str, list[Edge]]:
        """``edges_to`` of each node (every id a key, in ``edges_to``'s order), in as few
        queries as the graph can: a walk asks once per level, not once per node."""
        ...

    # -- the map as a whole -----------------------------------------------------------------------
    def counts(self) -> dict[str, Any]:
        """``files``, ``nodes`` and ``edges`` (each a count per kind) and ``unresolved_calls``."""
        ...

    def skipped(self) -> list[tuple[str, str]]:
        """(path, reason) of each file the last build skipped, by path."""
        ...
