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
from collections.abc import Iterator

from groundkit.codemap.extract.python.parse.facts import Kind

__all__ = ["Frame", "bound_names"]


class Frame:
    """One scope while its code is walked."""

    __slots__ = (
        "declared_global",
        "declared_nonlocal",
        "env",
        "finals",
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


def bound_names(body: list[ast.stmt]) -> tuple[set[str], set[str], set[str]]:
    """The names a function body binds (its locals), and those it declares ``global`` and
    ``nonlocal``; nested functions and classes bind only their own name here."""
    bound: set[str] = set()
    glob: set[str] = set()
    nonlocal_: set[str] = set()
    for node in _own_nodes(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            if node.name != "*":
                bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
        elif isinstance(node, ast.Global):
            glob.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            nonlocal_.update(node.names)
    return bound - glob - nonlocal_, glob, nonlocal_


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a body that belongs to its scope: not inside a nested def, class, lambda
    or comprehension (whose targets are their own; a walrus inside one still binds here)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack.extend(node.decorator_list)
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if isinstance(node, ast.ClassDef):
            stack.extend(node.decorator_list)
            stack.extend(node.bases)
            stack.extend(k.value for k in node.keywords)
            continue
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            continue
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            stack.append(node.generators[0].iter)
            stack.extend(
                n
                for n in ast.walk(node)
                if isinstance(n, ast.NamedExpr)  # (x := ...) binds in the enclosing function
            )
            continue
        if isinstance(node, ast.NamedExpr):
            stack.append(node.target)
            stack.append(node.value)
            continue
        stack.extend(ast.iter_child_nodes(node))
