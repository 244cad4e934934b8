"""Where names live while one file is read: a frame per running scope, with the variable each
name is bound to at this point of the code.

Python decides at compile time which names are a function's own (any name bound anywhere in it,
unless declared ``global``/``nonlocal``); a read of such a name sees the bindings that reach it
along the code. A read of a name that is not local goes out: a class body and a comprehension
run in place, so they see the enclosing frame as it is now; a function or a lambda runs later,
so it sees the enclosing function's last bindings (``Final``), or the module's, through
``Global``.
"""

from __future__ import annotations

import ast
from bisect import bisect_left

from groundkit.codemap.extract.python.parse.facts import Kind

__all__ = ["Frame", "bound_names"]


class Frame:
    """One scope while its code is walked."""

    __slots__ = (
        "declared_global",
        "declared_nonlocal",
        "env",
        "finals",
        "fixed",
        "flag_names",
        "globals_read",
        "index",
        "kind",
        "late_writes",
        "local_names",
        "parent",
    )

    def __init__(
        self, index: int, kind: int, parent: Frame | None, local_names: set[str] | None = None
    ) -> None:
        self.index = index
        self.kind = kind
        self.parent = parent
        self.env: dict[str, int] = {}  # name -> the variable bound to it here and now
        self.local_names = local_names if local_names is not None else set()
        self.declared_global: set[str] = set()
        self.declared_nonlocal: set[str] = set()
        # What later-running code sees of a name: a variable made on first use, whose sources
        # (the last bindings, writes from inner functions) are filled in when the frame ends.
        self.finals: dict[str, int] = {}
        self.late_writes: dict[str, list[int]] = {}  # nonlocal writes from inner functions
        self.globals_read: dict[str, int] = {}  # module names read here, one variable each
        self.fixed: frozenset[str] = frozenset()  # parameters the body never binds again
        self.flag_names: set[str] = set()  # names a flag's test made a copy of here

    @property
    def runs_later(self) -> bool:
        return self.kind in (Kind.FUNCTION, Kind.METHOD, Kind.LAMBDA)

    def function(self) -> Frame | None:
        """The nearest function or lambda frame at or around this one (comprehensions are
        part of theirs); None at module level or in a class body."""
        frame: Frame | None = self
        while frame is not None and frame.kind == Kind.COMP:
            frame = frame.parent
        return frame if frame is not None and frame.runs_later else None


def bound_names(
    body: list[ast.stmt], walrus: tuple[int, ...] | None = None
) -> tuple[set[str], set[str], set[str]]:
    """The names a function body binds (its locals), and those it declares ``global`` and
    ``nonlocal``; nested functions and classes bind only their own name here. ``walrus``: the
    lines, in order, where ``(x := ...)`` may occur (an expression reaching one of them is
    searched for it); None: any line may."""
    found = _Found()
    _scan(body, found, walrus)
    return found.bound - found.glob - found.nonlocal_, found.glob, found.nonlocal_


class _Found:
    __slots__ = ("bound", "glob", "nonlocal_")

    def __init__(self) -> None:
        self.bound: set[str] = set()
        self.glob: set[str] = set()
        self.nonlocal_: set[str] = set()


def _scan(stmts: list[ast.stmt], found: _Found, walrus: tuple[int, ...] | None) -> None:
    """Statements only: a binding is a statement's target (or a walrus, searched apart)."""
    bound = found.bound
    for stmt in stmts:
        kind = type(stmt)
        if kind is ast.Assign:
            for target in stmt.targets:  # type: ignore[attr-defined]
                _targets(target, bound)
        elif kind is ast.AugAssign or kind is ast.AnnAssign:
            _targets(stmt.target, bound)  # type: ignore[attr-defined]
        elif kind is ast.For or kind is ast.AsyncFor:
            _targets(stmt.target, bound)  # type: ignore[attr-defined]
            _scan(stmt.body, found, walrus)  # type: ignore[attr-defined]
            _scan(stmt.orelse, found, walrus)  # type: ignore[attr-defined]
        elif kind is ast.While or kind is ast.If:
            _scan(stmt.body, found, walrus)  # type: ignore[attr-defined]
            _scan(stmt.orelse, found, walrus)  # type: ignore[attr-defined]
        elif kind is ast.With or kind is ast.AsyncWith:
            for item in stmt.items:  # type: ignore[attr-defined]
                if item.optional_vars is not None:
                    _targets(item.optional_vars, bound)
            _scan(stmt.body, found, walrus)  # type: ignore[attr-defined]
        elif kind is ast.Try or kind is ast.TryStar:
            _scan(stmt.body, found, walrus)  # type: ignore[attr-defined]
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                if handler.name:
                    bound.add(handler.name)
                _scan(handler.body, found, walrus)
            _scan(stmt.orelse, found, walrus)  # type: ignore[attr-defined]
            _scan(stmt.finalbody, found, walrus)  # type: ignore[attr-defined]
        elif kind is ast.Match:
            for case in stmt.cases:  # type: ignore[attr-defined]
                for node in ast.walk(case.pattern):
                    name = getattr(node, "name", None) or getattr(node, "rest", None)
                    if isinstance(name, str):
                        bound.add(name)
                _scan(case.body, found, walrus)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            bound.add(stmt.name)  # type: ignore[attr-defined]
        elif kind is ast.Import or kind is ast.ImportFrom:
            for alias in stmt.names:  # type: ignore[attr-defined]
                if alias.name != "*":
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif kind is ast.Global:
            found.glob.update(stmt.names)  # type: ignore[attr-defined]
        elif kind is ast.Nonlocal:
            found.nonlocal_.update(stmt.names)  # type: ignore[attr-defined]
        elif kind is ast.Delete:
            for target in stmt.targets:  # type: ignore[attr-defined]
                _targets(target, bound)
        if walrus != () and kind is not ast.FunctionDef and kind is not ast.AsyncFunctionDef:
            _walruses(stmt, bound, walrus)


def _targets(target: ast.expr, bound: set[str]) -> None:
    if isinstance(target, ast.Name):
        bound.add(target.id)
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            _targets(element, bound)
    elif isinstance(target, ast.Starred):
        _targets(target.value, bound)


def _walruses(stmt: ast.stmt, bound: set[str], lines: tuple[int, ...] | None) -> None:
    """``(x := ...)`` in a statement's own expressions (not in nested bodies, scanned apart;
    in a comprehension it still binds here), searched only where it may be: ``:=`` is one
    token, on a line of the expression's."""
    for field in ("value", "test", "iter", "targets", "target", "items", "exc", "msg", "subject"):
        part = getattr(stmt, field, None)
        parts = part if isinstance(part, list) else [part]
        for item in parts:
            if not isinstance(item, ast.AST):
                continue
            if lines is not None:
                # a ``with`` item has no lines of its own: the statement's
                start = getattr(item, "lineno", stmt.lineno)
                end = getattr(item, "end_lineno", None) or stmt.end_lineno or start
                at = bisect_left(lines, start)
                if at == len(lines) or lines[at] > end:
                    continue
            for node in ast.walk(item):
                if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                    bound.add(node.target.id)
