"""What an import names and what a module exports, as values: a module of the repository, a
package file read for the value flow (``dependencies.py``), else the package (``Ext``); exports
followed through re-exports (``export ... from``, ``export *``) and CommonJS ``module.exports``
(``module.exports = require("./lib/express")``: that module's). The evaluator
(``evaluate.py``) asks these for every import and module member it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.dependencies import is_dependency
from groundkit.codemap.extract.typescript.layout import package_name
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.memo import DEPTH
from groundkit.codemap.extract.typescript.values.objects import Ext, Mod, Unknown, Value

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["export", "exported", "imported", "resolve"]


def resolve(ev: Evaluator, importer: str, spec: str) -> Value:
    """What a specifier names, as a value: a module of the repository, a package's file
    whose code is read (``dependencies.py``), else the package (``Ext``)."""
    packages = ev.packages
    if packages is not None and is_dependency(importer):
        if not spec.startswith("."):
            return Ext(package_name(spec))  # a package's own dependency: not read
        found_file = packages.relative(importer, spec)
        return Mod(found_file) if found_file is not None else Unknown()
    value = imported(ev, importer, spec)
    if type(value) is Ext and packages is not None:
        entry = packages.entry(importer, spec)
        if entry is not None and entry in packages.read():
            ev.consulted = True  # which packages are read depends on every file's imports
            return Mod(entry)
    return value


def imported(ev: Evaluator, importer: str, spec: str) -> Value:
    """What an import names in the map: a module of the repository, else the package."""
    found = ev.layout.resolve(importer, spec)
    ev.deps.update("ts:" + p for p in found.consulted)
    if found.target is not None:
        ev.deps.add("ts:" + found.target)
        return Mod(found.target)
    if found.external is not None:
        return Ext(found.external)
    return Unknown()


def export(
    ev: Evaluator, path: str, name: str, seen: frozenset[tuple[str, str]] = frozenset()
) -> Value:
    """What module ``path`` exports as ``name`` (``default``: else ``module.exports``)."""
    if not seen:  # asked from outside: worked out once
        key = ("export", path, name)
        kept = ev.memo.hit(key)
        if kept is not None:
            return kept
        return ev.memo.once(key, lambda: _export(ev, path, name, seen), Unknown())
    return _export(ev, path, name, seen)


def _export(ev: Evaluator, path: str, name: str, seen: frozenset[tuple[str, str]]) -> Value:
    if (path, name) in seen or len(seen) > DEPTH:
        return Unknown()
    seen = seen | {(path, name)}
    iface = ev.interface(path)
    found = iface.exports.get(name)
    if found is None and name == "default":
        found = iface.exports.get("=")
    if found is not None:
        value = exported(ev, path, found, seen)
        whole = found is iface.exports.get("=")
        if whole and type(value) is Mod and "=" in ev.interface(value.path).exports:
            # module.exports = require("./lib/express"): that module's module.exports
            return export(ev, value.path, "=", seen)
        return value
    for spec in iface.stars:
        if name == "default":
            break
        target = resolve(ev, path, spec)
        if type(target) is Mod:
            value = export(ev, target.path, name, seen)
            if type(value) is not Unknown:
                return value
    return Unknown()


def exported(
    ev: Evaluator,
    path: str,
    found: facts.Expr | facts.Local | facts.From,
    seen: frozenset[tuple[str, str]],
) -> Value:
    if isinstance(found, facts.Local):
        names = ev.interface(path).names
        return (
            ev.value(names[found.name], (path, -1), found.name)
            if found.name in names
            else Unknown()
        )
    if isinstance(found, facts.From):
        target = resolve(ev, path, found.spec)
        if type(target) is Mod:
            return export(ev, target.path, found.name, seen)
        return Ext(target.package, (found.name,)) if type(target) is Ext else Unknown()
    return ev.value(found, (path, -1))
