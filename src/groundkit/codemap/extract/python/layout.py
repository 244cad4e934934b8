"""Which module each Python file is: package roots found from the files themselves.

A file's package is the chain of folders above it that hold an ``__init__.py``; the folder above
the topmost is its root (``src/`` in a src layout, the repository in a flat one, ``tests/`` for a
test tree without ``__init__``; several roots are fine). A repository whose own top folder is a
package (mapping ``django/`` itself) names its modules from that folder's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Layout", "ModuleInfo"]


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    name: str  # dotted module name
    root: str  # the folder its name is relative to ("" for the repository itself)
    is_package: bool  # an __init__.py


class Layout:
    def __init__(self, paths: Iterable[str], top_name: str = "") -> None:
        paths = list(paths)
        packages = {p.rpartition("/")[0] for p in paths if p.rpartition("/")[2] == "__init__.py"}
        self.modules: dict[str, ModuleInfo] = {}
        self.by_name: dict[str, list[str]] = {}
        for path in paths:
            info = _module(path, packages, top_name)
            if info is None:
                continue
            self.modules[path] = info
            self.by_name.setdefault(info.name, []).append(path)
        for found in self.by_name.values():
            found.sort()

    def find(self, name: str, near: str | None = None) -> str | None:
        """The file of module ``name``; when several roots hold one, the one under ``near``'s
        root, else none (never a guess)."""
        found = self.by_name.get(name)
        if not found:
            return None
        if len(found) == 1:
            return found[0]
        if near is not None and near in self.modules:
            root = self.modules[near].root
            mine = [p for p in found if self.modules[p].root == root]
            if len(mine) == 1:
                return mine[0]
        return None


def _module(path: str, packages: set[str], top_name: str) -> ModuleInfo | None:
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    folder = len(parts) - 1  # parts[:folder] is the file's folder
    while folder > 0 and "/".join(parts[:folder]) in packages:
        folder -= 1
    names = parts[folder:]
    is_package = names[-1] == "__init__"
    if is_package:
        names = names[:-1]
    root = "/".join(parts[:folder])
    if folder == 0 and "" in packages and top_name:
        names = [top_name, *names]
    if not names:  # the repository's own __init__.py with no name to give it
        return None
    return ModuleInfo(".".join(names), root, is_package)
