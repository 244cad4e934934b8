"""Which file a module specifier names, as TypeScript resolves it.

Relative specifiers against the importing file's folder; bare ones through the nearest
``tsconfig.json`` (or ``jsconfig.json``): ``paths`` first (the longest matching pattern, its
substitutions in order), then ``baseUrl``, then the repository's own workspace packages (a
``package.json`` ``name``), else an ``external`` package named by its top-level name. A path is
tried as written with TypeScript's extension substitution (``./a.js`` is ``a.ts`` when that
exists), with each extension added, then as a folder (its ``package.json`` ``types``/``main``,
then ``index``). Every candidate tried before the hit is reported, so the importing file is
resolved again when one of them appears.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from groundkit.codemap.extract.base import Project, Unparsable
from groundkit.codemap.extract.typescript.config import (
    Options,
    is_config,
    join,
    merge,
    parse_config,
)
from groundkit.codemap.extract.typescript.parse.facts import Package, TsConfig

__all__ = ["Layout", "Resolution", "module_name"]

_ADDED = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs")
_REPLACED = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".jsx": (".ts", ".tsx", ".d.ts"),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}
# ``./Card.vue`` names the component's file (bundlers resolve it as written, never by adding
# ``.vue``); its module is named without the suffix, as a ``.ts`` file's is.
_AS_IS = (".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".vue")
_TYPES = (".d.ts", ".d.mts", ".d.cts")
_STRIPPED = (*_TYPES, ".tsx", ".ts", ".mts", ".cts", ".jsx", ".js", ".mjs", ".vue")
_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_PACKAGE_ENTRY = ("types", "typings", "module", "main")
Config = TsConfig | Package


@lru_cache(maxsize=8192)  # asked once per node key and router name: thousands per file
def module_name(path: str) -> str:
    """``src/api/client.ts`` -> ``src/api/client``: a module is its path without extension."""
    for ext in (*_STRIPPED, ".cjs"):
        if path.endswith(ext):
            return path[: -len(ext)]
    return path


def package_name(spec: str) -> str:
    """``@scope/pkg/sub`` -> ``@scope/pkg``; ``lodash/fp`` -> ``lodash``; ``node:fs`` -> ``fs``."""
    spec = spec.removeprefix("node:")
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") and len(parts) > 1 else parts[0]


@dataclass(frozen=True, slots=True)
class Resolution:
    target: str | None  # a file of the repository
    external: str | None  # else a package outside it
    consulted: tuple[str, ...]  # paths whose appearance or change may change this answer


class Layout:
    def __init__(self, project: Project) -> None:
        self.project = project
        paths = project.paths()
        self.configs = {p for p in paths if is_config(p)}
        self.sources = {p for p in paths if p not in self.configs}
        self._options: dict[str, Options] = {}
        self._workspaces: dict[str, str] | None = None
        self._unclaimed: dict[str, Config | None] = {}
        self._claimed: dict[str, Config | None] = {}

    # -- configuration ----------------------------------------------------------------------------
    def _config(self, path: str) -> Config | None:
        if path in self.configs:
            if path not in self._claimed:
                data = self.project.facts(path).interface
                self._claimed[path] = data if isinstance(data, TsConfig | Package) else None
            return self._claimed[path]
        if not path.endswith(".json") or path.rpartition("/")[2] == "package.json":
            return None
        # A config that `extends` names outside the claimed names (configs/base.json): read
        # as it is now. (Editing it re-resolves nothing by itself; its extender's edit does.)
        if path not in self._unclaimed:
            text = self.project.read_text(path)
            try:
                facts = parse_config(path, text).interface if text is not None else None
            except Unparsable:
                facts = None
            self._unclaimed[path] = facts
        return self._unclaimed[path]

    def options(self, folder: str) -> Options:
        """The options of the nearest tsconfig.json/jsconfig.json at or above ``folder``."""
        if folder in self._options:
            return self._options[folder]
        found: Options | None = None
        probed: list[str] = []
        for name in _CONFIG_NAMES:
            candidate = f"{folder}/{name}" if folder else name
            probed.append(candidate)
            if candidate in self.configs:
                found = self._load(candidate, ())
                break
        if found is None:
            parent = posixpath.dirname(folder) if folder else None
            found = self.options(parent) if parent is not None else Options()
        found = Options(found.base_url, found.paths, found.paths_dir, (*probed, *found.consulted))
        self._options[folder] = found
        return found

    def _load(self, path: str, seen: tuple[str, ...]) -> Options:
        data = self._config(path)
        consulted = (path,)
        if not isinstance(data, TsConfig) or path in seen:
            return Options(consulted=consulted)
        folder = posixpath.dirname(path)
        base = Options()
        for parent in data.extends:
            if not parent.startswith("."):
                continue  # a package's shared config (@tsconfig/...): not in the repository
            target = join(folder, parent)
            if target is None:
                continue
            if target not in self.configs and not target.endswith(".json"):
                target += ".json"
            loaded = self._load(target, (*seen, path))
            base = Options(  # a later config in `extends` overrides an earlier one
                loaded.base_url if loaded.base_url is not None else base.base_url,
                loaded.paths or base.paths,
                loaded.paths_dir if loaded.paths else base.paths_dir,
                (*base.consulted, *loaded.consulted),
            )
        return merge(base, data, folder, (*base.consulted, *consulted))

    def workspaces(self) -> dict[str, str]:
        """Package name -> its folder, for every ``package.json`` of the repository."""
        if self._workspaces is None:
            self._workspaces = {}
            for path in sorted(self.configs):
                data = self._config(path)
                if isinstance(data, Package) and data.name:
                    self._workspaces.setdefault(data.name, posixpath.dirname(path))
        return self._workspaces

    # -- specifiers -------------------------------------------------------------------------------
    def resolve(self, importer: str, spec: str) -> Resolution:
        spec = spec.split("?", maxsplit=1)[0]
        folder = posixpath.dirname(importer)
        if spec.startswith(("./", "../")) or spec in (".", ".."):
            target = join(folder, spec)
            if target is None:
                return Resolution(None, None, ())
            hit, tried = self._path(target)
            return Resolution(hit, None, tried)
        if spec.startswith("/") or not spec:
            return Resolution(None, None, ())
        if spec.startswith("#"):
            return self._imported(folder, spec)
        options = self.options(folder)
        consulted: list[str] = list(options.consulted)
        pattern_matched = False
        for sub in _substitutions(options, spec):
            pattern_matched = True
            target = join(options.substitution_base, sub)
            if target is not None:
                hit, tried = self._path(target)
                consulted.extend(tried)
                if hit is not None:
                    return Resolution(hit, None, tuple(consulted))
        if options.base_url is not None:
            target = join(options.base_url, spec)
            if target is not None:
                hit, tried = self._path(target)
                consulted.extend(tried)
                if hit is not None:
                    return Resolution(hit, None, tuple(consulted))
        return self._package(spec, consulted, pattern_matched)

    def _package(self, spec: str, consulted: list[str], aliased: bool) -> Resolution:
        name = package_name(spec)
        workspaces = self.workspaces()
        consulted.append("package.json")  # stands for every package.json (see keys())
        if name in workspaces and not spec.startswith("node:"):
            folder = workspaces[name]
            rest = spec[len(name) :].lstrip("/")
            exported, tried_exports = self._exported(folder, rest)
            if exported is not None:
                return Resolution(exported, None, (*consulted, *tried_exports))
            target = join(folder, rest) if rest else folder
            hit, tried = self._path(target) if target is not None else (None, ())
            return Resolution(hit, None, (*consulted, *tried_exports, *tried))
        if aliased:
            return Resolution(None, None, tuple(consulted))  # an alias of the repository's own
        return Resolution(None, name, tuple(consulted))

    def _imported(self, folder: str, spec: str) -> Resolution:
        """``#db`` through the ``imports`` of the nearest ``package.json`` at or above the
        importing file's folder (node's subpath imports): its targets in order, the first that
        is a file of the repository; else unresolved (never a package's: ``#`` names none)."""
        consulted = ["package.json"]  # stands for every package.json (see keys())
        while True:
            data = self._config(f"{folder}/package.json" if folder else "package.json")
            if isinstance(data, Package):
                break
            if not folder:
                return Resolution(None, None, tuple(consulted))
            folder = posixpath.dirname(folder)
        for target in _matched([(k, tuple(v)) for k, v in data.imports.items()], spec):
            joined = join(folder, target)
            hit, tried = self._path(joined) if joined is not None else (None, ())
            consulted.extend(tried)
            if hit is not None:
                return Resolution(hit, None, tuple(consulted))
        return Resolution(None, None, tuple(consulted))

    def _exported(self, folder: str, rest: str) -> tuple[str | None, tuple[str, ...]]:
        """``rest`` of the package in ``folder`` through its ``package.json`` ``exports``:
        the subpath's targets in order, the first that is a file of the repository."""
        data = self._config(f"{folder}/package.json" if folder else "package.json")
        if not isinstance(data, Package) or not data.exports:
            return None, ()
        tried: list[str] = []
        for target in _exported_targets(data.exports, f"./{rest}" if rest else "."):
            joined = join(folder, target)
            hit, candidates = self._path(joined) if joined is not None else (None, ())
            tried.extend(candidates)
            if hit is not None:
                return hit, tuple(tried)
        return None, tuple(tried)

    def _path(self, target: str) -> tuple[str | None, tuple[str, ...]]:
        tried: list[str] = []
        for candidate in self._candidates(target):
            tried.append(candidate)
            if candidate in self.sources:
                return candidate, tuple(tried)
        return None, tuple(tried)

    def _candidates(self, target: str) -> list[str]:
        out: list[str] = []
        for ext, replacements in _REPLACED.items():
            if target.endswith(ext):
                out.extend(target[: -len(ext)] + r for r in replacements)
        if target.endswith(_AS_IS):
            out.append(target)
        out.extend(target + ext for ext in _ADDED)
        package = f"{target}/package.json" if target else "package.json"
        data = self._config(package)
        if isinstance(data, Package):
            out.append(package)
            for key in _PACKAGE_ENTRY:
                entry = data.entries.get(key)
                joined = join(target, entry) if entry is not None else None
                if joined is not None:
                    out.extend(c for c in self._file_candidates(joined) if c not in out)
        index = f"{target}/index" if target else "index"
        out.extend(index + ext for ext in _ADDED)
        return out

    def _file_candidates(self, target: str) -> list[str]:
        out = [
            target[: -len(e)] + r for e, rs in _REPLACED.items() if target.endswith(e) for r in rs
        ]
        return [*out, target, *(target + ext for ext in _ADDED)]


def _exported_targets(exports: dict[str, list[str]], subpath: str) -> list[str]:
    """``exports``' targets of a subpath, as ``paths`` are matched (``_matched``)."""
    return _matched([(k, tuple(v)) for k, v in exports.items()], subpath)


def _substitutions(options: Options, spec: str) -> list[str]:
    """``paths``' substitutions of a specifier (``_matched``)."""
    return _matched(options.paths, spec)


def _matched(patterns: Iterable[tuple[str, tuple[str, ...]]], spec: str) -> list[str]:
    """The targets of the exact pattern, else of the one with the longest prefix before its
    ``*`` (``@/*``, ``./features/*.js``), each ``*`` of a target replaced by what it matched."""
    best: tuple[int, str, tuple[str, ...]] | None = None
    for pattern, subs in patterns:
        if "*" not in pattern:
            if pattern == spec:
                return list(subs)
            continue
        prefix, _, suffix = pattern.partition("*")
        fits = spec.startswith(prefix) and spec.endswith(suffix)
        if fits and len(spec) >= len(prefix + suffix) and (best is None or len(prefix) > best[0]):
            best = (len(prefix), spec[len(prefix) : len(spec) - len(suffix)], subs)
    if best is None:
        return []
    return [s.replace("*", best[1]) for s in best[2]]
