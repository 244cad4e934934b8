"""Which module each Python file is: package roots found from the files themselves.

A file inside a package (a folder with ``__init__.py``, or below one) is named from the topmost
folder of that package chain: ``src/shop/api.py`` is ``shop.api`` (a src layout), several roots
are fine. A file in no package is named by its path from the mapped folder, as Python 3 imports
namespace packages: ``tests/test_api.py`` is ``tests.test_api``; its bare name (``test_api``)
also resolves, for code run with that folder on ``sys.path`` (pytest, scripts). When the mapped
folder is itself a package (mapping ``django/`` alone), imports that name it (``django.db``)
still resolve and relative imports count it as the package it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Layout", "ModuleInfo"]


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    name: str  # dotted module name
    root: str  # the folder its name is relative to ("" for the mapped folder itself)
    is_package: bool  # an __init__.py
    full_name: str  # with the mapped folder's own name first, when that folder is a package
    alias: str | None = None  # the bare name of a module in no package


class Layout:
    def __init__(self, paths: Iterable[str], top_name: str = "") -> None:
        paths = list(paths)
        packages = {p.rpartition("/")[0] for p in paths if p.rpartition("/")[2] == "__init__.py"}
        self.alias = top_name if "" in packages and top_name else None
        self.modules: dict[str, ModuleInfo] = {}
        self.by_name: dict[str, list[str]] = {}
        self._by_alias: dict[str, list[str]] = {}
        for path in paths:
            info = _module(path, packages, self.alias)
            if info is None:
                continue
            self.modules[path] = info
            self.by_name.setdefault(info.name, []).append(path)
            if info.alias:
                self._by_alias.setdefault(info.alias, []).append(path)
        for found in (*self.by_name.values(), *self._by_alias.values()):
            found.sort()

    def find(self, name: str, near: str | None = None) -> str | None:
        """The file of module ``name``; when several roots hold one, the one under ``near``'s
        root, else none (never a guess)."""
        found = self.by_name.get(name)
        if not found and self.alias and name.startswith(self.alias + "."):
            found = self.by_name.get(name[len(self.alias) + 1 :])
        if not found:
            found = self._by_alias.get(name)
            if found and near is not None:
                # A bare name is what the importing file's own folder (on sys.path) holds.
                folder = near.rpartition("/")[0]
                found = [p for p in found if p.rpartition("/")[0] == folder] or found
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


def _module(path: str, packages: set[str], alias: str | None) -> ModuleInfo | None:
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    # The nearest folder above the file that is a package, then the top of its chain.
    top = len(parts) - 1
    while top > 0 and "/".join(parts[:top]) not in packages:
        top -= 1
    in_package = top > 0 or "" in packages
    while top > 0 and "/".join(parts[:top]) in packages:
        top -= 1
    if not in_package:
        top = 0
    names = parts[top:]
    is_package = names[-1] == "__init__"
    if is_package:
        names = names[:-1]
    root = "/".join(parts[:top])
    inside_alias = top == 0 and alias is not None
    if not names:  # the mapped folder's own __init__.py
        return ModuleInfo(alias, "", True, alias) if alias else None
    name = ".".join(names)
    full = f"{alias}.{name}" if inside_alias else name
    bare = names[-1] if not in_package and len(names) > 1 else None
    return ModuleInfo(name, root, is_package, full, bare)
