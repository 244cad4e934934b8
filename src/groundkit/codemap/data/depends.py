"""FastAPI's dependency injection, read as calls: the dependency a function declares runs, per
request, before it (``codemap.data``; the edge is ``calls``, provenance ``fastapi-depends``).

Declared as a parameter's default (``db: Session = Depends(get_db)``, ``Security(f)`` too),
inside the parameter's annotation (``Annotated[Session, Depends(get_db)]``; ``Depends()`` with
no argument: the annotated class), through a module-level alias of such an annotation
(``CurrentUser = Annotated[User, Depends(get_current_user)]``, imported or not), and in a
route decorator's ``dependencies=[Depends(f)]``. A dependency is named as the file's imports
spell it and joined to the repository's function of that name map-wide; one not found (a
library's, a value made at run time) is counted, never guessed. Not read: a router's or an
app's ``dependencies=`` (they run for routes declared elsewhere).
"""

from __future__ import annotations

import ast
import sys
from typing import TYPE_CHECKING

from groundkit.codemap.data import CALL, Access
from groundkit.codemap.model import Provenance

if TYPE_CHECKING:
    from groundkit.codemap.data.python import _Reader

__all__ = ["dependency_of", "read_depends"]

_DEPENDS = frozenset(
    f"fastapi.{where}{name}"
    for where in ("", "params.", "param_functions.")
    for name in ("Depends", "Security")
)
# Annotations from these are never an alias of a dependency.
_NOT_ALIASES = frozenset(sys.stdlib_module_names) | {
    "fastapi",
    "pydantic",
    "sqlalchemy",
    "sqlmodel",
    "starlette",
    "typing_extensions",
}


def read_depends(reader: _Reader, tree: ast.Module) -> None:
    aliases: set[str] = set()
    for node in tree.body:
        target, value = _alias_parts(node)
        if target is None or value is None:
            continue
        name = f"{reader.module.qualname}.{target}"
        for dependency, _ in _annotated(reader, value):
            reader.data.aliases.append((name, dependency))
            aliases.add(name)
    for found in ast.walk(tree):
        if isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef):
            _function(reader, found, aliases)


def _alias_parts(node: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return (target.id if isinstance(target, ast.Name) else None), node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id, node.value  # X: TypeAlias = Annotated[...]
    if sys.version_info >= (3, 12) and isinstance(node, ast.TypeAlias):
        return node.name.id, node.value
    return None, None


def _function(
    reader: _Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, aliases: set[str]
) -> None:
    caller = reader.owner(node.lineno)
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    pairs = list(zip(positional, [*defaults, *args.defaults], strict=True))
    pairs += list(zip(args.kwonlyargs, args.kw_defaults, strict=True))
    found: list[tuple[str, str, ast.AST]] = []  # (what, dotted name, where)
    for arg, default in pairs:
        annotation = arg.annotation
        if isinstance(default, ast.Call):
            dependency = dependency_of(reader, default, _plain(annotation))
            if dependency:
                found.append(("function", dependency, default))
        if annotation is None:
            continue
        inner = _annotated(reader, annotation)
        found += [("function", name, where) for name, where in inner]
        if inner or not isinstance(annotation, ast.Name | ast.Attribute):
            continue
        dotted = reader.dotted(annotation)
        if dotted is None or dotted.split(".", 1)[0] in _NOT_ALIASES:
            continue
        own = dotted.startswith(reader.module.qualname + ".")
        if not own or dotted in aliases:  # another file's name may be an alias there
            found.append(("alias", dotted, arg))
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        for keyword in decorator.keywords:
            if keyword.arg == "dependencies" and isinstance(keyword.value, ast.List | ast.Tuple):
                for item in keyword.value.elts:
                    dependency = (
                        dependency_of(reader, item, None) if isinstance(item, ast.Call) else None
                    )
                    if dependency:
                        found.append(("function", dependency, item))
    for what, name, where in found:
        location, quote = reader.where(where)
        access = Access(caller, what, name, CALL, Provenance.FASTAPI_DEPENDS, location, quote)
        reader.data.accesses.append(access)


def _plain(annotation: ast.expr | None) -> ast.expr | None:
    """The class an annotation names (``Annotated``'s first argument)."""
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        elts = annotation.slice.elts
        return elts[0] if elts else None
    return annotation


def _annotated(reader: _Reader, node: ast.expr) -> list[tuple[str, ast.AST]]:
    """``Annotated[T, Depends(f)]``: each dependency it declares, with where."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple):
        return []
    head = reader.dotted(node.value) or ""
    if not head.endswith(".Annotated"):
        return []
    if not node.slice.elts:
        return []
    first, *rest = node.slice.elts
    out: list[tuple[str, ast.AST]] = []
    for item in rest:
        if isinstance(item, ast.Call):
            dependency = dependency_of(reader, item, first)
            if dependency:
                out.append((dependency, item))
    return out


def dependency_of(reader: _Reader, call: ast.Call, annotation: ast.expr | None) -> str | None:
    if reader.dotted(call.func) not in _DEPENDS:
        return None
    given = call.args[0] if call.args else None
    given = given or next((k.value for k in call.keywords if k.arg == "dependency"), None)
    if given is None:
        given = annotation  # Depends(): the annotated class is the dependency
    if given is None:
        return None
    dotted = reader.dotted(given)
    if dotted is None:
        reader.data.unresolved["Depends(...) of a value without a name"] += 1
    return dotted
