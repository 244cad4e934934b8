"""Files that moved between two maps: a file renamed or moved to another folder (a package
moved under ``src/``), found before anything else the diff tells apart.

A node's identity holds its file, so a moved file is every node in it removed and added again,
and every edge that touches one of them too: moving requests' package under ``src/`` was 195
nodes and 1,177 edges each way. A file that left one path and one that came at another are the
same file when at least half of the old file's nodes come back in the new one under the same
kind and the same name *within the file* (the name with the file's own module name taken off,
so ``app.core.process`` in ``app/core.py`` and ``app.jobs.process`` in ``app/jobs.py`` are both
``process``). A file that holds nothing but itself (an empty ``__init__.py``) moved when exactly
one such file of its file name left and one came. Best-matched pairs first, one partner each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from groundkit.codemap.model import Node, NodeKey, NodeKind

__all__ = ["FileMove", "inner_name", "moved_files"]

_FILE_NODES = (NodeKind.MODULE, NodeKind.PACKAGE)
Inner = tuple[str, str]  # (kind, name within the file)


@dataclass(frozen=True, slots=True)
class FileMove:
    """One file that moved: its paths and module names before and after, and its nodes' keys
    (before -> after)."""

    before: str
    after: str
    module_before: str
    module_after: str
    nodes: dict[NodeKey, NodeKey]


def moved_files(nodes_added: Sequence[Node], nodes_removed: Sequence[Node]) -> list[FileMove]:
    added_paths = {n.path for n in nodes_added}
    removed_paths = {n.path for n in nodes_removed}
    # Only a path that is gone (or came) whole can be a move's end.
    gone = _by_file(n for n in nodes_removed if n.path and n.path not in added_paths)
    came = _by_file(n for n in nodes_added if n.path and n.path not in removed_paths)
    scores: list[tuple[int, str, str]] = []
    index: dict[Inner, list[str]] = defaultdict(list)
    for path, (_, inner) in came.items():
        for name in inner:
            index[name].append(path)
    for path, (_, inner) in gone.items():
        shared: dict[str, int] = defaultdict(int)
        for name in inner:
            for other in index.get(name, ()):
                shared[other] += 1
        for other, score in shared.items():
            if score > 1 and score * 2 >= len(inner):
                scores.append((score, path, other))
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for _, path, other in sorted(scores, key=lambda s: (-s[0], s[1], s[2])):
        if path not in pairs and other not in taken:
            pairs[path] = other
            taken.add(other)
    pairs.update(_bare_files(gone, came, pairs, taken))
    return [_move(gone[a], came[b], a, b) for a, b in sorted(pairs.items())]


_Holding = tuple[str, dict[Inner, NodeKey]]  # (module name, inner name -> key)


def _by_file(nodes: Iterable[Node]) -> dict[str, _Holding]:
    grouped: dict[str, list[Node]] = defaultdict(list)
    for node in nodes:
        if node.kind != NodeKind.EXTERNAL:
            grouped[node.path].append(node)
    out: dict[str, _Holding] = {}
    for path, found in grouped.items():
        module = next((n.qualname for n in found if n.kind in _FILE_NODES), "")
        out[path] = (module, {(str(n.kind), inner_name(n.qualname, module)): n.key for n in found})
    return out


def inner_name(qualname: str, module: str) -> str:
    if module and qualname == module:
        return ""
    if module and qualname.startswith(module + "."):
        return qualname[len(module) + 1 :]
    return qualname


def _bare_files(
    gone: dict[str, _Holding], came: dict[str, _Holding], pairs: dict[str, str], taken: set[str]
) -> dict[str, str]:
    """Files holding only themselves, moved under the same file name: one of that name gone
    and one come."""

    def bare(held: dict[str, _Holding], skip: set[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for path, (_, inner) in held.items():
            if path not in skip and len(inner) == 1:
                out[PurePosixPath(path).name].append(path)
        return out

    before, after = bare(gone, set(pairs)), bare(came, taken)
    return {
        paths[0]: after[name][0]
        for name, paths in before.items()
        if len(paths) == 1 and len(after.get(name, [])) == 1
    }


def _move(before: _Holding, after: _Holding, path_before: str, path_after: str) -> FileMove:
    nodes = {key: after[1][name] for name, key in before[1].items() if name in after[1]}
    return FileMove(path_before, path_after, before[0], after[0], nodes)
