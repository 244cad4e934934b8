"""The JavaScript of the packages a repository imports, read as facts for the value flow.

A value the repository hands to a package may come back to the repository's own functions
(Express registers a handler with the ``router`` package, which later calls it with the
request it was given). Reading the package's code lets the value flow follow such values; the
package's functions are never nodes and no edge starts or ends at one (``resolve/graph.py``
drops them), so a map still draws only edges between functions of the repository.

What is read: the packages a file of the repository imports by a bare specifier (``require
("router")``, found in its interface: module-level bindings, exports and pass sites) and that
the nearest ``package.json`` lists as a run-time dependency (not ``devDependencies``), resolved
as node resolves them (``node_modules`` in the importer's folder, then in each folder above;
the package's ``exports`` ``"."``, else ``main``, else ``index.js``), and the files those reach
by relative specifiers. A package's own bare imports are not followed (its dependencies'
dependencies), nor are packages a model already stands for (``library.MODELLED_PACKAGES``:
React's hooks, ``delegates``, Express's routers...), nor node's built-in modules.

Bounds, each skipping with a reason counted in ``skipped`` (never a hang): ``MAX_FILES`` files
per package, ``MAX_TOTAL`` in all, ``MAX_BYTES`` per file, a line longer than ``MAX_LINE``
characters (a minified bundle), a file that does not parse or passes its parse deadline; a
cycle of requires is read once. Parsed facts are kept in the map's memory while it stays
open (``Project.memory``), keyed by the file's text, so an update reads only changed files.
"""

from __future__ import annotations

import json
import operator
import posixpath
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec

from groundkit.codemap.extract.base import Project, Unparsable
from groundkit.codemap.extract.typescript.config import is_config, join, parse_config
from groundkit.codemap.extract.typescript.layout import Layout, package_name
from groundkit.codemap.extract.typescript.library import MODELLED_PACKAGES, NODE_BUILTINS
from groundkit.codemap.extract.typescript.parse import facts, parse_typescript

__all__ = ["MAX_FILES", "MAX_TOTAL", "Dependencies", "is_dependency"]

MAX_FILES = 48  # files read per package
MAX_TOTAL = 400  # files read for the whole repository
MAX_BYTES = 256_000
MAX_LINE = 4_000
PARSE_SECONDS = 2.0
_CODE = (".js", ".cjs", ".mjs")
_MEMORY = "typescript:dependency-facts"
_MODELLED_SCOPES = ("@types/", "@hey-api/", "@orval/")  # types only, or generated clients
_EMPTY = facts.Module({}, {}, [], {})


def is_dependency(path: str) -> bool:
    """Whether ``path`` is a package's file read for the value flow (never a node)."""
    return path.startswith("node_modules/") or "/node_modules/" in path


class Dependencies:
    """Which package files the value flow reads, and their facts (built once per run)."""

    def __init__(self, project: Project, layout: Layout) -> None:
        self.project = project
        self.layout = layout
        memory = project.memory()
        kept = memory.get(_MEMORY)
        self._cache: dict[str, tuple[str, facts.Module]] = kept if isinstance(kept, dict) else {}
        memory[_MEMORY] = self._cache
        self._modules: dict[str, facts.Module] = {}
        self._entries: dict[tuple[str, str], str | None] = {}
        self._manifests: dict[str, frozenset[str]] = {}
        self.skipped: dict[str, int] = {}
        self._files: list[str] | None = None
        self._read: frozenset[str] | None = None
        self._reasons: dict[str, str] = {}  # a package file not read -> why
        self._per_package: dict[str, int] = {}
        self._texts: dict[str, str | None] = {}  # a file's text (None: not readable)

    # -- what the flow reads ----------------------------------------------------------------------
    def files(self) -> list[str]:
        """Every package file read, in the order found (asked once the repository is known)."""
        if self._files is None:
            self._files = []
            if not self._installed():
                return self._files  # nothing installed (a fresh clone, a revision): no walk
            todo: list[str] = []
            for path in sorted(self.layout.sources):
                for spec in _specifiers(self.project.facts(path).interface):
                    if spec.startswith((".", "/", "#")):
                        continue  # the repository's own
                    entry = self.entry(path, spec)
                    if entry is not None:
                        todo.append(entry)
            seen: set[str] = set()
            while todo:
                path = todo.pop()
                if path in seen:
                    continue  # a cycle of requires: read once
                seen.add(path)
                self._files.append(path)
                for spec in _specifiers(self.interface(path)):
                    if spec.startswith("."):
                        found = self.relative(path, spec)
                        if found is not None:
                            todo.append(found)
        return self._files

    def read(self) -> frozenset[str]:
        """The package files whose facts the flow reads (found and parsed)."""
        if self._read is None:
            files = self.files()
            self._read = frozenset(p for p in files if self.interface(p) is not _EMPTY)
        return self._read

    def interface(self, path: str) -> facts.Module:
        """A package file's facts (empty when it was skipped)."""
        found = self._modules.get(path)
        if found is None:
            found = self._modules[path] = self._parse(path)
        return found

    # -- resolution -------------------------------------------------------------------------------
    def entry(self, importer: str, spec: str) -> str | None:
        """The package file a bare ``spec`` names from a file of the repository, or None when
        the package is not read (a model's, a built-in, not installed, past the bounds)."""
        name = package_name(spec)
        if spec.startswith((".", "/", "#")) or (
            spec.startswith("node:")
            or name in NODE_BUILTINS
            or name in MODELLED_PACKAGES
            or name.startswith(_MODELLED_SCOPES)
        ):
            return None
        folder = posixpath.dirname(importer)
        if name not in self._declared(folder):
            return None
        key = (folder, spec)
        if key not in self._entries:
            self._entries[key] = self._find(folder, name, spec[len(name) :].lstrip("/"))
        return self._entries[key]

    def _installed(self) -> bool:
        """Whether some ``package.json`` of the repository has a declared run-time dependency
        installed where node would find it (its folder's ``node_modules`` or one above)."""
        for config in sorted(self.layout.configs):
            folder, _, name = config.rpartition("/")
            if name != "package.json":
                continue
            for package in sorted(self._declared(folder)):
                at: str | None = folder
                while at is not None:
                    manifest = posixpath.join(at, "node_modules", package, "package.json")
                    if self._text(manifest) is not None:
                        return True
                    at = posixpath.dirname(at) if at else None
        return False

    def _declared(self, folder: str) -> frozenset[str]:
        """The run-time dependencies the nearest ``package.json`` at or above ``folder``
        declares (``dependencies``, ``peerDependencies``, ``optionalDependencies``): the code
        that runs with the repository's; ``devDependencies`` (test tools) are not read."""
        found = self._manifests.get(folder)
        if found is None:
            text = self._text(posixpath.join(folder, "package.json"))
            if text is None and folder:
                found = self._declared(posixpath.dirname(folder))
            else:
                found = _runtime_dependencies(text or "{}")
            self._manifests[folder] = found
        return found

    def relative(self, importer: str, spec: str) -> str | None:
        """A package file's relative import (``./lib/layer``), as node resolves it."""
        target = join(posixpath.dirname(importer), spec)
        return None if target is None else self._file(target)

    def _find(self, folder: str, name: str, rest: str) -> str | None:
        while True:
            root = posixpath.join(folder, "node_modules", name)
            manifest = self._text(root + "/package.json")
            if manifest is not None and rest:
                return self._file(posixpath.join(root, rest))
            if manifest is not None:
                return self._main(root, manifest)
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def _main(self, root: str, manifest: str) -> str | None:
        try:
            package = parse_config(root + "/package.json", manifest).interface
        except Unparsable:
            return None
        if not isinstance(package, facts.Package):
            return None
        for target in package.exports.get(".", []):
            hit = self._file(join(root, target) or "") if target.endswith(_CODE) else None
            if hit is not None:
                return hit
        main = package.entries.get("main")
        return self._file(join(root, main) or "" if main else root + "/index.js")

    def _file(self, target: str) -> str | None:
        if not target or is_config(target):
            return None
        for candidate in (
            target,
            *(target + ext for ext in _CODE),
            *(target + "/index" + ext for ext in _CODE),
        ):
            if candidate.endswith(_CODE) and self._text(candidate) is not None:
                return candidate
        return None

    # -- reading ----------------------------------------------------------------------------------
    def _text(self, path: str) -> str | None:
        # read once a run: a file is asked for as a candidate of each specifier naming it
        # (router's tracing.js 21 times on express), then parsed
        if path not in self._texts:
            self._texts[path] = self.project.read_text(path)
        return self._texts[path]

    def _parse(self, path: str) -> facts.Module:
        text = self._text(path)
        if text is None:
            return self._skip("not readable", path)
        kept = self._cache.get(path)
        if kept is not None and kept[0] == text:
            return kept[1]
        package = _package_of(path)
        count = self._per_package.get(package, 0)
        if count >= MAX_FILES:
            return self._skip("past the files read per package", path)
        if len(self._modules) >= MAX_TOTAL:
            return self._skip("past the package files read in all", path)
        self._per_package[package] = count + 1
        if len(text) > MAX_BYTES:
            return self._skip("too large", path)
        if any(len(line) > MAX_LINE for line in text.splitlines()):
            return self._skip("minified", path)
        try:
            parsed = parse_typescript(path, text, time.monotonic() + PARSE_SECONDS).interface
        except Unparsable:
            return self._skip("does not parse", path)
        module = parsed if type(parsed) is facts.Module else _EMPTY
        self._cache[path] = (text, module)
        return module

    def not_read(self, importer: str, spec: str) -> str | None:
        """Why the package file ``spec`` names from ``importer`` was found but not read (too
        large, minified, not parsable, past a bound), or None."""
        entry = self.entry(importer, spec)
        if entry is None or entry in self.read():
            return None
        return self._reasons.get(entry)

    def _skip(self, reason: str, path: str) -> facts.Module:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        self._reasons[path] = reason
        return _EMPTY


def _runtime_dependencies(text: str) -> frozenset[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return frozenset()
    names: set[str] = set()
    for field in ("dependencies", "peerDependencies", "optionalDependencies"):
        listed = data.get(field) if isinstance(data, dict) else None
        if isinstance(listed, dict):
            names.update(k for k in listed if isinstance(k, str))
    return frozenset(names)


def _package_of(path: str) -> str:
    rest = path.rpartition("node_modules/")[2]
    return package_name(rest)


def _specifiers(module: facts.Module) -> Iterator[str]:
    """The module specifiers a file's interface names (its requires and imports)."""
    stack: list[Any] = [  # (kinds tested by identity: no value or fact class is subclassed)
        *module.names.values(),
        *module.exports.values(),
        *module.passes,
        *module.stars,
    ]
    stars = frozenset(module.stars)
    children = _CHILDREN
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            if item.startswith("require:"):
                yield item.removeprefix("require:")
            elif item in stars:
                yield item
            continue
        if kind in _LEAVES:
            continue
        if kind is facts.Ref:  # its parts, read here in the order the stack would give them
            for part in reversed(item.parts):
                if part.startswith("require:"):
                    yield part.removeprefix("require:")
                elif part in stars:
                    yield part
            continue
        if kind in _SPECIFIED:
            yield item.spec
            continue
        read = children.get(kind)
        if read is None:
            read = children[kind] = _children_of(kind)
        stack.extend(read(item))


_SPECIFIED = frozenset({facts.Require, facts.Import, facts.Namespace, facts.DynImport, facts.From})
_LEAVES = frozenset({int, float, bool, type(None)})  # nothing under them
# Every interface of a large map is walked once: each kind's way to its children worked out
# once (a struct's fields in order, a list's items, a dict's values; nothing of a number).
_CHILDREN: dict[type, Callable[[Any], Iterable[object]]] = {}


def _children_of(kind: type) -> Callable[[Any], Iterable[object]]:
    if issubclass(kind, msgspec.Struct):
        fields = kind.__struct_fields__
        if len(fields) == 1:
            return lambda item: (getattr(item, fields[0]),)
        return operator.attrgetter(*fields) if fields else lambda item: ()
    if issubclass(kind, list | tuple):
        return lambda item: item
    if issubclass(kind, dict):
        return dict.values
    return lambda item: ()
