"""One Python file to facts, with the standard library's ``ast``: no other file is looked at.

The facts are plain JSON (lists, dicts, strings, ints), read back from the map for files that did
not change. Their shapes (see ``facts.py`` for the value forms):

interface (what other modules may consult)
    ``names``   module-level bindings: name -> [value, ...] (every assignment seen)
    ``stars``   ``from m import *`` sources: [[module, level], ...]
    ``all``     ``__all__`` when it is a literal list of strings, else null
    ``classes`` qualname -> {``bases``: [ref, ...], ``names``: class-body bindings,
                ``attrs``: instance attributes (``self.x = ...``, annotated fields)}
    ``funcs``   qualname -> [kind, decorator names, return values]
body (what only this file's resolution needs)
    ``scopes``  [qualname, kind, parent, line, end_line, def line] per scope; 0 is the module.
                Kinds: module, class, function, method, and lambda/comp (not nodes: their calls
                belong to the enclosing scope, their parameters still shadow)
    ``bind``    scope index (as a string) -> function-scope bindings
    ``global``  scope index -> names declared ``global`` there
    ``calls``   [scope, ref or null, line, col, end_line, end_col, how, target, args, why]
                how "c" a call, "d" a decorator (target: the decorated scope), "a"/"s" an
                attribute read/written (an edge only to a property); args summarised for
                names that may be routes or HTTP clients; why, when ref is null: "lit" (a method
                of a literal) or "dyn" (no static name)
    ``imports`` [scope, module, level, name or null, asname or null, line, col, end_line,
                end_col, flags]
    ``lists``   module-level lists (Django urlconfs): name -> parts, each ["sites", [call-site
                index, ...]] (a literal list's calls), ["ref", ref] (another list added to it)
                or ["import", [name]] (the imported list that ``name +=`` extends)
    ``lines``   line number (as a string) -> the line as written, for evidence
"""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.base import FileFacts, Unparsable
from groundkit.codemap.extract.python.syntax import (
    COMPREHENSIONS,
    LITERALS,
    annotation_ref,
    literal_receiver,
    pieces,
    ref_of,
    strings,
)
from groundkit.codemap.lines import source_lines

__all__ = ["INTERESTING", "parse_python"]

# Calls whose arguments are kept: route declarations, router objects, HTTP clients, urlconfs.
INTERESTING = frozenset(
    "get post put patch delete head options trace request stream route api_route websocket"
    " include_router register_blueprint add_api_route add_url_rule add_route mount path re_path"
    " url include FastAPI APIRouter Flask Blueprint Starlette Router Client AsyncClient Session"
    " ClientSession TestClient as_view format".split()
)
_CLS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
UNKNOWN: list[Any] = [["unknown"], []]
_LIT: list[Any] = [["lit"], []]
_NONE: list[Any] = [["none"], []]


def parse_python(path: str, text: str) -> FileFacts:
    try:
        tree = ast.parse(text, filename=path, type_comments=False)
    except SyntaxError as exc:
        raise Unparsable(f"syntax error at line {exc.lineno}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes; absurd nesting
        raise Unparsable(f"cannot be parsed ({type(exc).__name__})") from None
    visitor = _Visitor(text)
    try:
        visitor.run(tree)
    except RecursionError:
        raise Unparsable("nested too deeply to analyse") from None
    return visitor.facts()


class _Scope:
    __slots__ = (
        "bindings",
        "cls",
        "first",
        "globals",
        "index",
        "kind",
        "nonlocals",
        "parent",
        "qual",
    )

    def __init__(self, index: int, qual: str, kind: str, parent: _Scope | None) -> None:
        self.index = index
        self.qual = qual
        self.kind = kind
        self.parent = parent
        self.bindings: dict[str, list[Any]] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.cls: str | None = None  # for a method: its class's qualname
        self.first: str | None = None  # for a method: the name of its self/cls parameter


class _Visitor:
    def __init__(self, text: str) -> None:
        self._site_of: dict[int, int] = {}  # id(ast.Call) -> its call-site index
        self._lambdas: dict[int, str] = {}  # id(ast.Lambda) -> its qualified name
        self._line_now = 0  # the statement being visited
        self.name_lines: dict[str, int] = {}  # module-level name -> its last binding's line
        self.patched: list[list[Any]] = []  # [ref, attribute or None]: classes changed outside
        self._attrs: list[tuple[str, str, list[Any], _Scope]] = []
        self.text_lines = source_lines(text)
        self.scopes: list[list[Any]] = []
        self.scope_objs: list[_Scope] = []
        self.calls: list[list[Any]] = []
        self.imports: list[list[Any]] = []
        self.lists: dict[str, list[Any]] = {}
        self.lines: dict[str, str] = {}
        self.classes: dict[str, dict[str, Any]] = {}
        self.funcs: dict[str, list[Any]] = {}
        self.stars: list[list[Any]] = []
        self.all: list[str] | None = None
        self.all_dynamic = False
        self.flags: list[str] = []  # type_checking / optional, while inside such a block
        self.returns: dict[int, list[Any]] = {}
        self.scope: _Scope = self._push("", "module", None, 1, len(self.text_lines) or 1)
        self.non_ascii = {i + 1 for i, line in enumerate(self.text_lines) if not line.isascii()}

    # -- output -----------------------------------------------------------------------------------
    def facts(self) -> FileFacts:
        module = self.scope_objs[0]
        interface = {
            "names": module.bindings,
            "stars": self.stars,
            "all": None if self.all_dynamic else self.all,
            "classes": self.classes,
            "funcs": self.funcs,
            "lines": self.name_lines,
            "patched": self.patched,
        }
        bind = {
            str(s.index): s.bindings
            for s in self.scope_objs
            if s.kind not in ("module", "class") and s.bindings
        }
        glob = {str(s.index): sorted(s.globals) for s in self.scope_objs if s.globals}
        body = {
            "scopes": self.scopes,
            "bind": bind,
            "global": glob,
            "calls": self.calls,
            "imports": self.imports,
            "lists": self.lists,
            "lines": self.lines,
        }
        return FileFacts(interface, body)

    def run(self, tree: ast.Module) -> None:
        self._body(tree.body)
        for cls, attr, value, scope in self._attrs:
            attrs = self.classes[cls]["attrs"]
            attrs.setdefault(attr, []).append(self._portable(value, scope))
        for scope in self.scope_objs:  # returns are portable only once every binding is known
            rets = self.returns.get(scope.index)
            if rets is not None and scope.qual in self.funcs:
                self.funcs[scope.qual][2] = [self._returned(v, scope) for v in rets]

    # -- scopes -----------------------------------------------------------------------------------
    def _push(
        self, qual: str, kind: str, parent: _Scope | None, line: int, end: int, at: int = 0
    ) -> _Scope:
        """``line``..``end``: the definition with its decorators; ``at``: its def/class line."""
        scope = _Scope(len(self.scope_objs), qual, kind, parent)
        self.scope_objs.append(scope)
        self.scopes.append([qual, kind, parent.index if parent else -1, line, end, at or line])
        self._line(at or line)
        return scope

    def _bind(self, name: str, value: list[Any]) -> None:
        scope = self.scope
        if name in scope.globals:
            scope = self.scope_objs[0]
        elif name in scope.nonlocals:
            holder = scope.parent
            while holder is not None and holder.kind in ("class", "comp"):
                holder = holder.parent
            if holder is not None and holder.kind != "module":
                holder.bindings.setdefault(name, []).append(UNKNOWN)  # rebound from inside
            return
        scope.bindings.setdefault(name, []).append(value)
        if scope.kind == "module":
            self.name_lines[name] = self._line_now

    def _line(self, line: int) -> None:
        key = str(line)
        if key not in self.lines and 0 < line <= len(self.text_lines):
            self.lines[key] = self.text_lines[line - 1].strip()[:240]

    def _col(self, line: int, col: int) -> int:
        if line in self.non_ascii and 0 < line <= len(self.text_lines):
            return len(self.text_lines[line - 1].encode("utf-8")[:col].decode("utf-8", "replace"))
        return col

    def _where(self, node: ast.AST) -> list[int]:
        line = node.lineno  # type: ignore[attr-defined]
        end = node.end_lineno or line  # type: ignore[attr-defined]
        self._line(line)
        return [
            line,
            self._col(line, node.col_offset),  # type: ignore[attr-defined]
            end,
            self._col(end, node.end_col_offset or 0),  # type: ignore[attr-defined]
        ]

    # -- statements -------------------------------------------------------------------------------
    def _body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self._line_now = stmt.lineno
            handler = _STATEMENTS.get(type(stmt))
            if handler is None:
                self._generic(stmt)
            else:
                handler(self, stmt)

    def _generic(self, node: ast.AST) -> None:
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.stmt):
                        self._body([item])
                    elif isinstance(item, ast.expr):
                        self._expr(item)
                    elif isinstance(item, ast.AST):
                        self._generic(item)
            elif isinstance(value, ast.stmt):
                self._body([value])
            elif isinstance(value, ast.expr):
                self._expr(value)
            elif isinstance(value, ast.AST):
                self._generic(value)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = self.scope
        qual = f"{outer.qual}.{node.name}" if outer.qual else node.name
        kind = "method" if outer.kind == "class" else "function"
        decorators = [ref_of(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
        names = [r[-1] for r in decorators if r]
        self._defaults(node.args)
        if node.returns is not None:
            self._expr(node.returns)
        line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        scope = self._push(qual, kind, outer, line, node.end_lineno or node.lineno, node.lineno)
        for deco in node.decorator_list:
            self._decorator(deco, scope.index)
        self._bind(node.name, self._decorated(qual, node.decorator_list))
        earlier = self.funcs.get(qual)  # a property's setter keeps the getter's decorators
        self.funcs[qual] = [kind, [*(earlier[1] if earlier else []), *names], []]
        self.scope = scope
        if kind == "method":
            scope.cls = outer.qual
        self._params(node.args, scope, names, node.name)
        self._body(node.body)
        self.scope = outer

    def _defaults(self, args: ast.arguments) -> None:
        for default in [*args.defaults, *args.kw_defaults]:
            if default is not None:
                self._expr(default)
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None and arg.annotation is not None:
                self._expr(arg.annotation)

    def _params(self, args: ast.arguments, scope: _Scope, decorators: list[str], name: str) -> None:
        positional = [*args.posonlyargs, *args.args]
        first = 0
        if scope.kind == "method" and positional and "staticmethod" not in decorators:
            is_cls = "classmethod" in decorators or name in _CLS_FIRST
            tag = "cls" if is_cls else "self"
            scope.first = positional[0].arg
            scope.bindings[positional[0].arg] = [[[tag, scope.cls], []]]
            first = 1
        for index, arg in enumerate([*positional[first:], *args.kwonlyargs]):
            ann = annotation_ref(arg.annotation)
            value = [["ann", ann], []] if ann else [["arg", index], []]
            scope.bindings.setdefault(arg.arg, []).append(value)
        for star in (args.vararg, args.kwarg):
            if star is not None:
                scope.bindings.setdefault(star.arg, []).append(_LIT)

    def _class(self, node: ast.ClassDef) -> None:
        outer = self.scope
        qual = f"{outer.qual}.{node.name}" if outer.qual else node.name
        bases = []
        for base in node.bases:
            self._expr(base)
            target = base.value if isinstance(base, ast.Subscript) else base
            ref = ref_of(target)
            if ref and "()" not in ref:
                bases.append(ref)
        for keyword in node.keywords:
            self._expr(keyword.value)
        line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        scope = self._push(qual, "class", outer, line, node.end_lineno or node.lineno, node.lineno)
        for deco in node.decorator_list:
            self._decorator(deco, scope.index)
        self._bind(node.name, self._decorated(qual, node.decorator_list))
        info: dict[str, Any] = {"bases": bases, "names": scope.bindings, "attrs": {}}
        self.classes[qual] = info
        self.scope = scope
        self._body(node.body)
        self.scope = outer

    def _decorated(self, qual: str, decorators: list[ast.expr]) -> list[Any]:
        """What a ``def``/``class`` binds its name to: the definition, passed through its
        decorators (evaluated later: a decorator may return the function, a wrapper, or
        anything)."""
        # `@x.setter` adds to the property x: the name stays that property (one node).
        kept = [
            d
            for d in decorators
            if not ((r := ref_of(d)) and len(r) == 2 and r[1] in ("setter", "getter", "deleter"))
        ]
        if not kept:
            return [["def", qual], []]
        return [["decorated", qual, [self._value(d) for d in kept]], []]

    def _decorator(self, deco: ast.expr, target: int) -> None:
        if isinstance(deco, ast.Call):
            self._call(deco, how="d", target=target)
            return
        self._expr(deco)
        ref = ref_of(deco)
        where = self._where(deco)
        self.calls.append(
            [self.scope.index, ref, *where, "d", target, None, None if ref else "dyn"]
        )

    def _assign(self, node: ast.Assign) -> None:
        self._expr(node.value)
        value = self._value(node.value)
        for target in node.targets:
            self._target(target, value, node.value)
        if self.scope.kind == "module":
            self._module_lists(node.targets, node.value, replace=True)

    def _ann_assign(self, node: ast.AnnAssign) -> None:
        self._expr(node.annotation)
        if node.value is not None:
            self._expr(node.value)
        ann = annotation_ref(node.annotation)
        value = [["ann", ann], []] if ann else self._value(node.value) if node.value else _LIT
        if node.value is None and self.scope.kind == "class" and isinstance(node.target, ast.Name):
            # A dataclass-style field: instances have it, the class body does not bind it.
            if ann:
                attrs = self.classes[self.scope.qual]["attrs"]
                attrs.setdefault(node.target.id, []).append(value)
            return
        if node.value is None and isinstance(node.target, ast.Name):
            if ann:  # `x: Foo` declares the type a later assignment will have
                self._bind(node.target.id, value)
            return
        self._target(node.target, value, node.value)

    def _aug_assign(self, node: ast.AugAssign) -> None:
        self._expr(node.value)
        if isinstance(node.target, ast.Name):
            if self.scope.kind == "module":
                self._module_lists([node.target], node.value, replace=False)
            self._bind(node.target.id, UNKNOWN)
        else:
            self._expr(node.target)

    def _module_lists(self, targets: list[ast.expr], value: ast.expr, *, replace: bool) -> None:
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if "__all__" in names:
            listed = strings(value)
            if listed is None:
                self.all_dynamic = True
            else:
                self.all = listed if replace or self.all is None else [*self.all, *listed]
        for name in names:
            parts = self._list_parts(value)
            if parts is None:
                if replace:
                    self.lists.pop(name, None)
            elif replace:
                self.lists[name] = parts
            else:
                if name not in self.lists and name in self.scope.bindings:
                    # `from app.urls import urlpatterns` then `urlpatterns += [...]`
                    self.lists[name] = [["import", [name]]]
                self.lists.setdefault(name, []).extend(parts)

    def _list_parts(self, expr: ast.expr) -> list[Any] | None:
        """A list built from literal lists and other lists: ``a + [path(...)] + b``."""
        if isinstance(expr, ast.List | ast.Tuple):
            sites = [self._site_of.get(id(e)) for e in expr.elts]
            return [["sites", [s for s in sites if s is not None]]]
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left, right = self._list_parts(expr.left), self._list_parts(expr.right)
            return None if left is None or right is None else [*left, *right]
        ref = ref_of(expr)
        return [["ref", ref]] if ref and "()" not in ref else None

    def _target(self, target: ast.expr, value: list[Any], source: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, value)
        elif isinstance(target, ast.Tuple | ast.List):
            values: list[list[Any]]
            if isinstance(source, ast.Tuple | ast.List) and len(source.elts) == len(target.elts):
                values = [self._value(e) for e in source.elts]
            else:
                values = [UNKNOWN] * len(target.elts)
            for sub, sub_value in zip(target.elts, values, strict=True):
                self._target(sub, sub_value, None)
        elif isinstance(target, ast.Starred):
            self._target(target.value, _LIT, None)
        elif isinstance(target, ast.Attribute):
            self._attribute(target, "s")
            self._self_attribute(target, value)
            if isinstance(target.value, ast.Name) and target.value.id[:1].isupper():
                self.patched.append([[target.value.id], target.attr])  # Class.attr = ...
        else:
            self._expr(target)

    def _self_attribute(self, target: ast.Attribute, value: list[Any]) -> None:
        """``self.x = v`` in a method: instances of the class have ``x``."""
        method = self.scope
        while method.kind in ("lambda", "comp") and method.parent is not None:
            method = method.parent
        if (
            method.kind == "method"
            and method.first is not None
            and isinstance(target.value, ast.Name)
            and target.value.id == method.first
            and method.cls in self.classes
        ):
            self._attrs.append((method.cls, target.attr, value, self.scope))

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._bind(alias.asname, [["mod", alias.name, 0], []])
            else:
                top = alias.name.split(".")[0]
                self._bind(top, [["mod", top, 0], []])
            where = self._where(node)
            self.imports.append(
                [self.scope.index, alias.name, 0, None, alias.asname, *where, list(self.flags)]
            )

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        where = self._where(node)
        for alias in node.names:
            if alias.name == "*":
                self.stars.append([module, node.level, node.lineno])
            else:
                value = [["from", module, node.level, alias.name], []]
                self._bind(alias.asname or alias.name, value)
            self.imports.append(
                [
                    self.scope.index,
                    module,
                    node.level,
                    alias.name,
                    alias.asname,
                    *where,
                    list(self.flags),
                ]
            )

    def _global(self, node: ast.Global | ast.Nonlocal) -> None:
        if isinstance(node, ast.Global):
            self.scope.globals.update(node.names)
        else:  # its assignments make the enclosing function's binding unknown
            self.scope.nonlocals.update(node.names)

    def _if(self, node: ast.If) -> None:
        self._expr(node.test)
        test = ref_of(node.test)
        if test and test[-1] == "TYPE_CHECKING":
            self._flagged("type_checking", node.body)
            self._body(node.orelse)
            return
        self._body(node.body)
        self._body(node.orelse)

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        catches = False
        for handler in node.handlers:
            types = handler.type
            elements = types.elts if isinstance(types, ast.Tuple) else [types]
            for element in elements:
                ref = ref_of(element) if element is not None else ["BaseException"]
                if ref and ref[-1] in _IMPORT_ERRORS:
                    catches = True
        if catches:
            self._flagged("optional", node.body)
        else:
            self._body(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self._expr(handler.type)
            if handler.name:
                types = handler.type
                ref = ref_of(types) if types is not None else None
                self._bind(handler.name, [["ann", ref], []] if ref else UNKNOWN)
            if catches:
                self._flagged("optional", handler.body)
            else:
                self._body(handler.body)
        self._body(node.orelse)
        self._body(node.finalbody)

    def _match(self, node: ast.Match) -> None:
        self._expr(node.subject)
        for case in node.cases:
            for sub in ast.walk(case.pattern):
                name = getattr(sub, "name", None) or getattr(sub, "rest", None)
                if isinstance(name, str):
                    self._bind(name, UNKNOWN)
                if isinstance(sub, ast.MatchValue | ast.MatchClass):
                    self._expr(sub.value if isinstance(sub, ast.MatchValue) else sub.cls)
            if case.guard is not None:
                self._expr(case.guard)
            self._body(case.body)

    def _flagged(self, flag: str, body: list[ast.stmt]) -> None:
        self.flags.append(flag)
        try:
            self._body(body)
        finally:
            self.flags.pop()

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        self._expr(node.iter)
        self._target(node.target, UNKNOWN, None)
        self._body(node.body)
        self._body(node.orelse)

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self._expr(item.context_expr)
            if item.optional_vars is not None:
                value = UNKNOWN
                if isinstance(item.context_expr, ast.Call):
                    # Only an outside client class is taken to return itself from __enter__.
                    inner = self._value(item.context_expr)
                    value = [["with", inner], []]
                self._target(item.optional_vars, value, None)
        self._body(node.body)

    def _return(self, node: ast.Return) -> None:
        if node.value is None:
            return
        self._expr(node.value)
        function = self.scope
        if function.kind in ("function", "method"):
            self.returns.setdefault(function.index, []).append(self._value(node.value))

    # -- expressions ------------------------------------------------------------------------------
    def _expr(self, node: ast.expr) -> None:
        kind = type(node)
        if kind is ast.Call:
            self._call(node)  # type: ignore[arg-type]
        elif kind is ast.Name or kind is ast.Constant:
            return
        elif kind is ast.Attribute:
            self._attribute(node)  # type: ignore[arg-type]
        elif kind is ast.Lambda:
            self._lambda(node)  # type: ignore[arg-type]
        elif kind in COMPREHENSIONS:
            self._comprehension(node)
        elif kind is ast.NamedExpr:
            self._expr(node.value)  # type: ignore[attr-defined]
            self._bind(node.target.id, self._value(node.value))  # type: ignore[attr-defined]
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._expr(child)
                elif isinstance(child, ast.AST):
                    self._generic(child)

    def _attribute(self, node: ast.Attribute, how: str = "a") -> None:
        """An attribute read (``a``) or written (``s``): an edge when it turns out to be a
        property, whose getter or setter then runs; nothing otherwise."""
        ref = ref_of(node)
        if ref is not None and len(ref) > 1 and ref[-1] != "()" and not self._module_ref(ref[0]):
            self.calls.append([self.scope.index, ref, *self._where(node), how, -1, None, None])
        inner: ast.expr = node.value
        while isinstance(inner, ast.Attribute):
            inner = inner.value
        if not isinstance(inner, ast.Name):
            self._expr(inner)

    def _module_ref(self, name: str) -> bool:
        """A name only ever bound to a module by ``import``: its attributes are never
        properties, so reading them is not recorded (``os.path``, ``np.float32``)."""
        if _holder(self.scope, name) is not self.scope_objs[0]:
            return False
        bound = self.scope_objs[0].bindings.get(name, ())
        return bool(bound) and all(v[0][0] == "mod" for v in bound)

    def _call(self, node: ast.Call, how: str = "c", target: int = -1) -> int:
        func = node.func
        ref = ref_of(func)
        # Inner parts first: `a(b)(c)` records a(b), then its result called.
        if isinstance(func, ast.Attribute | ast.Call):
            self._expr(func.value if isinstance(func, ast.Attribute) else func)
        elif not isinstance(func, ast.Name):
            self._expr(func)
        for arg in node.args:
            self._expr(arg)
        for keyword in node.keywords:
            self._expr(keyword.value)
        why = None
        if ref is None and isinstance(func, ast.Lambda) and id(func) in self._lambdas:
            ref = ["<def>" + self._lambdas[id(func)]]  # (lambda: ...)(): that very lambda
        if ref is None:
            why = "lit" if literal_receiver(func) else "dyn"
        if ref == ["setattr"] and node.args:
            owner = ref_of(node.args[0])
            attr = node.args[1] if len(node.args) > 1 else None
            literal = attr.value if isinstance(attr, ast.Constant) else None
            if owner and "()" not in owner:
                self.patched.append([owner, literal if isinstance(literal, str) else None])
        args = None
        name = ref[-1] if ref else func.attr if isinstance(func, ast.Attribute) else None
        if name in INTERESTING or how == "d":
            args = self._args(node)
        index = len(self.calls)
        self.calls.append([self.scope.index, ref, *self._where(node), how, target, args, why])
        self._site_of[id(node)] = index
        return index

    def _args(self, node: ast.Call) -> list[Any]:
        positional = [self._summary(a) for a in node.args]
        keywords = {k.arg: self._summary(k.value) for k in node.keywords if k.arg}
        receiver = None
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant):
            receiver = node.func.value.value if isinstance(node.func.value.value, str) else None
        return [positional, keywords, receiver]

    def _summary(self, expr: ast.expr) -> list[Any]:
        """An argument as routes and HTTP calls need it."""
        if isinstance(expr, ast.Constant):
            return ["s", expr.value] if isinstance(expr.value, str) else ["?"]
        if isinstance(expr, ast.JoinedStr | ast.BinOp):
            parts = pieces(expr)
            return ["t", parts] if parts is not None else ["?"]
        if isinstance(expr, ast.Call):
            site = self._site_of.get(id(expr))
            return ["c", site] if site is not None else ["?"]
        if isinstance(expr, ast.List | ast.Tuple):
            return ["l", [self._summary(e) for e in expr.elts]]
        ref = ref_of(expr)
        return ["r", ref] if ref else ["?"]

    def _lambda(self, node: ast.Lambda) -> None:
        """A lambda is a function of its own, ``<enclosing>.<lambda>`` (one name for all the
        lambdas of a scope: they share a node)."""
        self._defaults(node.args)
        outer = self.scope
        while outer.kind == "comp" and outer.parent is not None:  # comprehensions are not scopes
            outer = outer.parent
        qual = f"{outer.qual}.<lambda>" if outer.qual else "<lambda>"
        line, end = node.lineno, node.end_lineno or node.lineno
        scope = self._push(qual, "lambda", self.scope, line, end, line)
        self._lambdas[id(node)] = qual
        self.funcs.setdefault(qual, ["function", [], []])
        for index, arg in enumerate(
            [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        ):
            scope.bindings[arg.arg] = [[["arg", index], []]]
        for star in (node.args.vararg, node.args.kwarg):
            if star is not None:
                scope.bindings[star.arg] = [_LIT]
        saved, self.scope = self.scope, scope
        self._expr(node.body)
        self.returns.setdefault(scope.index, []).append(self._value(node.body))
        self.scope = saved

    def _comprehension(self, node: ast.AST) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        self._expr(generators[0].iter)  # evaluated in the enclosing scope
        outer = self.scope
        line = node.lineno  # type: ignore[attr-defined]
        scope = self._push(outer.qual, "comp", outer, line, line)
        self.scope = scope
        for i, gen in enumerate(generators):
            if i:
                self._expr(gen.iter)
            self._target(gen.target, UNKNOWN, None)
            for cond in gen.ifs:
                self._expr(cond)
        if isinstance(node, ast.DictComp):
            self._expr(node.key)
            self._expr(node.value)
        else:
            self._expr(node.elt)  # type: ignore[attr-defined]
        self.scope = outer

    # -- values -----------------------------------------------------------------------------------
    def _value(self, expr: ast.expr) -> list[Any]:
        """What an expression binds a name to: [base, rest-of-ref, call site]."""
        if isinstance(expr, ast.Constant):
            if expr.value is None:
                return _NONE
            return [["str", expr.value], []] if isinstance(expr.value, str) else _LIT
        if isinstance(expr, ast.Await):
            return self._value(expr.value) if isinstance(expr.value, ast.Call) else UNKNOWN
        if isinstance(expr, ast.JoinedStr | ast.BinOp):
            parts = pieces(expr)
            if parts is not None:
                return [["tmpl", parts], []]
            return _LIT if isinstance(expr, ast.JoinedStr) else UNKNOWN
        if isinstance(expr, LITERALS):
            return _LIT
        if isinstance(expr, ast.Lambda):
            qual = self._lambdas.get(id(expr))
            return [["def", qual], []] if qual else UNKNOWN
        ref = ref_of(expr)
        if ref is None:
            return UNKNOWN
        site = self._site_of.get(id(expr), -1) if isinstance(expr, ast.Call) else -1
        scope = self.scope
        if ref[0] == "super" and len(ref) > 1 and ref[1] == "()":
            method = _method_of(scope)
            if method is not None:
                return [["super", method.cls], ref[2:], site]
            return UNKNOWN
        return [["name", ref[0]], ref[1:], site]

    def _returned(self, value: list[Any], scope: _Scope) -> list[Any]:
        """A return value made portable; returning one's own parameter unchanged stays
        ``["arg", i]`` (what makes a decorator the identity)."""
        base = value[0]
        if base[0] == "name" and not value[1] and base[1] not in scope.globals:
            bound: list[list[Any]] = scope.bindings.get(base[1], [])
            if len(bound) == 1 and bound[0][0][0] == "arg":
                return bound[0]
        return self._portable(value, scope)

    def _portable(self, value: list[Any], scope: _Scope, depth: int = 0) -> list[Any]:
        """A value made to mean the same when evaluated at module level: a function-local name
        is replaced by what it is bound to (when every binding agrees); else unknown."""
        base = value[0]
        if base[0] != "name":
            return value
        name = base[1]
        holder = _holder(scope, name)
        if holder is None or holder.kind in ("module", "class"):
            return value
        if depth > 3:
            return UNKNOWN
        bound = [v for v in holder.bindings.get(name, []) if v[0][0] != "none"]
        if not bound or any(b != bound[0] for b in bound):
            return UNKNOWN
        inner = self._portable(bound[0], holder, depth + 1)
        if inner[0][0] in ("unknown", "arg"):
            return UNKNOWN
        site = value[2] if len(value) > 2 and value[1] else inner[2] if len(inner) > 2 else -1
        return [inner[0], [*inner[1], *value[1]], site]


def _holder(scope: _Scope, name: str) -> _Scope | None:
    """The scope whose binding ``name`` refers to from ``scope`` (class bodies are skipped from
    inside functions, as Python does)."""
    current: _Scope | None = scope
    first = True
    while current is not None:
        if name in current.globals:
            while current.parent is not None:
                current = current.parent
            return current
        if (first or current.kind != "class") and name in current.bindings:
            return current
        first = False
        current = current.parent
    return None


def _method_of(scope: _Scope) -> _Scope | None:
    current: _Scope | None = scope
    while current is not None and current.kind in ("lambda", "comp", "function"):
        if current.kind == "function":
            return None
        current = current.parent
    return current if current is not None and current.kind == "method" else None


_STATEMENTS: dict[type[ast.AST], Any] = {
    ast.FunctionDef: _Visitor._function,
    ast.AsyncFunctionDef: _Visitor._function,
    ast.ClassDef: _Visitor._class,
    ast.Assign: _Visitor._assign,
    ast.AnnAssign: _Visitor._ann_assign,
    ast.AugAssign: _Visitor._aug_assign,
    ast.Import: _Visitor._import,
    ast.ImportFrom: _Visitor._import_from,
    ast.Global: _Visitor._global,
    ast.Nonlocal: _Visitor._global,
    ast.If: _Visitor._if,
    ast.Try: _Visitor._try,
    ast.TryStar: _Visitor._try,
    ast.Match: _Visitor._match,
    ast.For: _Visitor._for,
    ast.AsyncFor: _Visitor._for,
    ast.With: _Visitor._with,
    ast.AsyncWith: _Visitor._with,
    ast.Return: _Visitor._return,
}
