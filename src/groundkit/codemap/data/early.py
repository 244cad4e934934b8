"""A Python file's data facts read from the syntax tree its parse made, in the same process, so
that no file is parsed twice (issue 34: a second ``ast.parse`` was a fifth of a cold map's CPU).

The data pass needs what resolution decides: the file's module name (from the layout of every
file) and its nodes. Both are foreseen here from the files the run was given and the file's own
scopes, as ``resolve/graph.py`` makes them; ``collect.py`` takes the facts only when the nodes
resolution made are the ones foreseen, and otherwise parses the file again, as before. A file
whose facts would read another file (a resource's SQL) is left to that second pass too.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from groundkit.codemap.data import Data
from groundkit.codemap.data.python import OWNERS, python_data
from groundkit.codemap.extract.base import FileFacts
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse.facts import Facts, Kind
from groundkit.codemap.extract.python.resolve.graph import NODE_KINDS
from groundkit.codemap.model import Node, NodeKey, NodeKind

__all__ = ["Early", "EarlyData", "reuse"]

# A digest of the nodes, not the nodes: every file's waits for the data pass, after the solve
# (the nodes were 24 MB of a 2,810-file SDK's peak).
Signature = bytes


@dataclass(frozen=True, slots=True)
class Early:
    signature: Signature  # the nodes the facts were read with
    data: Data


class EarlyData:
    """Called by the parse stage for each Python file it parsed (in a worker, too)."""

    def __init__(self, paths: Iterable[str], top_name: str) -> None:
        self.layout = Layout(paths, top_name)

    def __call__(self, path: str, text: str, facts: FileFacts) -> Early | None:
        info = self.layout.modules.get(path)
        body, tree = facts.body, facts.syntax
        if info is None or not isinstance(body, Facts) or not isinstance(tree, ast.Module):
            return None
        nodes = _nodes(path, info.name, info.is_package, body)
        wanted: list[str] = []

        def read_file(other: str) -> str | None:
            wanted.append(other)
            return None

        try:
            data = python_data(path, text, nodes, read_file, tree=tree)
        except Exception:  # the second pass meets it again, as it always did
            return None
        return None if wanted else Early(signature(nodes), data)


def reuse(early: Early | None, nodes: list[Node]) -> Data | None:
    """The facts read at parse time, if they were read with the nodes resolution made."""
    return early.data if early is not None and early.signature == signature(nodes) else None


def signature(nodes: list[Node]) -> Signature:
    """All ``python_data`` reads of the nodes: the owners' keys and lines, in order."""
    read = "\n".join(
        f"{n.key.kind}\t{n.key.qualname}\t{n.key.path}\t{n.line}\t{n.end_line}"
        for n in nodes
        if n.kind in OWNERS
    )
    return hashlib.blake2b(read.encode(), digest_size=16).digest()


def _nodes(path: str, module: str, is_package: bool, facts: Facts) -> list[Node]:
    """The module's and its scopes' nodes, as ``PythonFile._nodes`` makes them."""
    kind = NodeKind.PACKAGE if is_package else NodeKind.MODULE
    scopes = facts.scopes
    found = [Node(NodeKey(kind, module, path), "python", 1, scopes[0].end)]
    seen = {found[0].key}
    for scope in scopes[1:]:
        node_kind = NODE_KINDS.get(Kind(scope.kind))
        if node_kind is None:
            continue
        key = NodeKey(node_kind, f"{module}.{scope.qual}", path)
        if key not in seen:
            seen.add(key)
            found.append(Node(key, "python", scope.line, scope.end))
    return found
