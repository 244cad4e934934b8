"""The state of one file's walk: scopes, bindings, import and call sites, and the records they
become. The constructs of the language are handled by free functions over this state
(``declarations.py``, ``variables.py``, ``modules.py``, ``calls.py``), which ``walker.py``
puts in one table by node type."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from groundkit.codemap.extract.base import Clock
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.closure import any_may_hold_code
from groundkit.codemap.extract.typescript.parse.expressions import UNKNOWN
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind
from groundkit.codemap.extract.typescript.syntax import Columns, text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Handler", "Walk"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

# A construct's handler: True when it walked the node itself, False to walk its children.
Handler = Callable[["Walk", "Node"], bool]

_PATTERN_HOLDERS = frozenset(
    {
        "object_pattern",
        "array_pattern",
        "pair_pattern",
        "rest_pattern",
        "assignment_pattern",
        "object_assignment_pattern",
    }
)


class Walk:
    def __init__(
        self,
        lines: list[str],
        handlers: dict[str, Handler],
        clock: Clock | None = None,
        source: bytes = b"",
    ) -> None:
        self.clock = clock if clock is not None else Clock(math.inf)
        self.text_lines = lines
        # The bytes tree-sitter parsed: a node's text searched in place (``has_text``)
        self.source = source
        self.columns = Columns(lines)
        self.handlers = handlers
        self.scopes: list[facts.Scope] = []
        self.bindings: list[dict[str, facts.Expr]] = []
        self.reassigned: list[tuple[int, str]] = []
        # ``let x;`` (or ``= null``) then ``x = value`` in the same function: what is assigned
        self.unset: set[tuple[int, str]] = set()
        self.assigned: dict[tuple[int, str], list[facts.Expr]] = {}
        self.exports: dict[str, facts.Expr | facts.Local | facts.From] = {}
        self.stars: list[str] = []
        self.classes: dict[str, facts.ClassInfo] = {}
        self.imports: list[facts.ImportSite] = []
        self.calls: list[facts.CallSite] = []
        self.passes: list[
            tuple[int, facts.Expr, int, list[facts.Expr]]
        ] = []  # scope, callee, how, args
        self.writes: list[tuple[int, facts.Expr, str | None]] = []  # scope, target, key
        self.protos: dict[str, dict[str, str]] = {}  # F -> member -> F.prototype.member's qual
        self.returns: list[tuple[int, facts.Expr]] = []  # function scope, what it returns
        self.url_returns: dict[int, str] = {}  # index in returns -> how it reads a URL (urls.py)
        self.fields: list[tuple[int, str, str, facts.Expr]] = []  # scope, owner, key, value
        self.statics: list[tuple[str, str, facts.Expr]] = []  # module-level X.key = value
        self.lines: dict[int, str] = {}
        self.envs: list[facts.EnvRead] = []
        self.members: list[facts.MemberSite] = []
        self.getters: list[str] = []  # qualnames of ``get x()``
        self.setters: list[str] = []
        self.static_accessors: list[str] = []
        self.defaults: list[tuple[int, int, facts.Expr]] = []  # function scope, position, value
        self.arities: list[tuple[int, facts.Ref, int]] = []  # scope, callee, argument count
        self.mixins: list[tuple[int, str, list[facts.Expr]]] = []  # scope, F, F's prototypes
        self.defined_getters: list[tuple[str, str, facts.Expr]] = []  # X, key, getter
        # a helper running Object.defineProperty(obj, name, {get: getter}) -> the positions of
        # obj, name and getter, and the index of that write in ``writes`` (``calls.py``)
        self.getter_helpers: dict[str, tuple[int, int, int, int]] = {}
        self.helper_calls: list[tuple[str, list[facts.Expr]]] = []  # module level: name, args
        self.delegated: dict[str, dict[str, list[str]]] = {}  # X -> key -> [target, how]
        self.generators: list[str] = []
        self.asyncs: list[str] = []
        self.iterations: list[facts.IterSite] = []
        self.stores: list[tuple[int, facts.Expr, list[facts.Expr]]] = []  # scope, array, items
        self.yields: list[tuple[int, facts.Expr]] = []  # generator scope, what it yields
        self.pending_names: dict[int, str] = {}  # node id -> the name an inline handler gets
        self.pending_tables: dict[int, str] = {}  # node id -> the table it is a method of
        self.pending_this: dict[int, str] = {}  # node id -> what `this` is in that function
        self.table_methods: dict[str, str] = {}  # a table's method (qualname) -> the table
        self._quals: dict[int, str] = {}  # node id -> qualname of a visited function or class
        self._taken: set[str] = set()
        self.current = -1
        self.push("", ScopeKind.MODULE, None, None)

    # -- the walk ---------------------------------------------------------------------------------
    def visit(self, node: Node) -> None:
        """Walk ``node``: each construct of interest by its handler, anything else through."""
        handlers = self.handlers
        stack: list[Node] = [node]
        tick = self.clock.tick
        while stack:
            current = stack.pop()
            tick()
            handler = handlers.get(current.type)
            if (handler is None or not handler(self, current)) and current.named_child_count:
                stack.extend(reversed(current.named_children))  # (a leaf's list costs most)

    def visit_children(self, node: Node | None) -> None:
        if node is not None:
            for child in node.named_children:
                self.visit(child)

    # -- scopes -----------------------------------------------------------------------------------
    def push(self, qual: str, kind: ScopeKind, node: Node | None, this: str | None) -> int:
        line = int(node.start_point[0]) + 1 if node is not None else 1
        end = int(node.end_point[0]) + 1 if node is not None else max(1, len(self.text_lines))
        self.scopes.append(facts.Scope(qual, kind, self.current, line, end, line, this))
        self.bindings.append({})
        if node is not None:
            self.note(line)
        self.current = len(self.scopes) - 1
        return self.current

    def pop(self) -> None:
        self.current = self.scopes[self.current].parent

    def scope(self, index: int | None = None) -> facts.Scope:
        return self.scopes[self.current if index is None else index]

    def named_scope(self, index: int) -> int:
        """The scope whose node owns code in ``index``: anonymous functions are transparent."""
        while self.scopes[index].kind == ScopeKind.ANON:
            index = self.scopes[index].parent
        return index

    def qualified(self, name: str) -> str:
        """``name`` inside the named scope the walk is in."""
        owner = self.scopes[self.named_scope(self.current)].qual
        return f"{owner}.{name}" if owner else name

    def qualify(self, name: str, unique: bool = True) -> str:
        """A node's qualified name: the second of the same name in a scope gets ``#2``."""
        qual = self.qualified(name)
        if unique and qual in self._taken:
            n = 2
            while f"{qual}#{n}" in self._taken:
                n += 1
            qual = f"{qual}#{n}"
        self._taken.add(qual)
        return qual

    def this_class(self) -> str | None:
        return self.scopes[self.current].this

    def remember(self, node: Node, qual: str) -> None:
        self._quals[node.id] = qual

    def qual_of(self, node: Node) -> str | None:
        return self._quals.get(node.id)

    # -- bindings ---------------------------------------------------------------------------------
    def binding_scope(self) -> int:
        index = self.current
        while self.scopes[index].kind == ScopeKind.CLASS:
            index = self.scopes[index].parent
        return index

    def bind(self, name: str, value: facts.Expr) -> None:
        """A name bound in the current function: bound twice to different values, unknown."""
        table = self.bindings[self.binding_scope()]
        if name in table and table[name] != value:
            table[name] = UNKNOWN
        else:
            table[name] = value

    def is_bound(self, name: str) -> bool:
        index = self.current
        while index >= 0:
            if name in self.bindings[index]:
                return True
            index = self.scopes[index].parent
        return False

    def reassign(self, name: str, value: facts.Expr | None = None) -> None:
        """``name = value`` (``value`` None: ``+=`` and the like, or not known)."""
        scope = self.binding_scope()
        self.reassigned.append((scope, name))
        if value is not None and type(value) is not facts.Unknown:
            self.assigned.setdefault((scope, name), []).append(value)

    def settle(self) -> None:
        """A name assigned after its declaration holds more than one value: unknown. One
        declared with no value (``let layer;``, ``= null``) and assigned only in its own
        function, or in functions inside it (``new R()`` or a name that means the same there),
        holds what is assigned (one of them, chosen at run time, when they differ): calling it
        before that throws."""
        writers: dict[tuple[int, str], list[int]] = {}
        for scope, name in self.reassigned:
            index = scope
            while index >= 0 and name not in self.bindings[index]:
                index = self.scopes[index].parent
            if index >= 0:
                writers.setdefault((index, name), []).append(scope)
        for (index, name), scopes in writers.items():
            values = [
                v
                for at in dict.fromkeys(scopes)
                for v in self.assigned.get((at, name), [])
                if at == index or self._reads_outside(v, at, index)
            ]
            default = _defaulted(self.bindings[index][name], name, values, scopes == [index])
            if default is not None:  # the parameter (with a default its callers may leave
                held, (position, fallback) = self.bindings[index][name], default  # out), or that
                self.defaults.append((index, position, fallback))
                self.bindings[index][name] = facts.Choice([held, fallback])
                continue
            # A name declared with no value (``var router = null``) and assigned only in
            # functions inside its own (a lazy getter's ``router = new Router()``) holds what
            # is assigned, as one assigned in its own function does.
            if (index, name) not in self.unset or len(values) != len(scopes):
                self.bindings[index][name] = UNKNOWN
                continue
            options: list[facts.Expr] = []
            for value in values:
                if value not in options:
                    options.append(value)
            self.bindings[index][name] = options[0] if len(options) == 1 else facts.Choice(options)

    def _reads_outside(self, value: facts.Expr, at: int, index: int) -> bool:
        """Whether ``value``, written in scope ``at`` inside scope ``index``, means the same
        read from ``index``: ``new R()`` or a name, none bound in between (a lazy getter's
        ``router = new Router()``); anything else is not taken out of its function."""
        if type(value) is facts.Fn:
            return True
        ref = value.ref if type(value) is facts.New else None
        ref = value.parts if type(value) is facts.Ref else ref
        if not ref or ref[0] == "this":
            return False
        scope = at
        while scope != index and scope >= 0:
            if ref[0] in self.bindings[scope]:
                return False
            scope = self.scopes[scope].parent
        return scope == index

    def pattern_names(self, node: Node | None) -> list[str]:
        if node is None:
            return []
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            return [text_of(node)]
        if node.type not in _PATTERN_HOLDERS:
            return []
        out: list[str] = []
        for child in node.named_children:
            if node.type == "pair_pattern" and child == node.child_by_field_name("key"):
                continue
            if child == node.child_by_field_name("right"):  # a default value
                continue
            out.extend(self.pattern_names(child))
        return out

    def has_text(self, node: Node, word: bytes) -> bool:
        """Whether ``word`` is written in ``node``'s text, searched where it is in the file's
        bytes: ``node.text`` copies them (each function's, nested in others: a test file's
        text copied once per level of its ``describe`` blocks)."""
        if not self.source:
            return word in (node.text or b"")
        return self.source.find(word, node.start_byte, node.end_byte) >= 0

    # -- sites ------------------------------------------------------------------------------------
    def note(self, line: int) -> None:
        if 0 < line <= len(self.text_lines):
            self.lines[line] = self.text_lines[line - 1]

    def where(self, node: Node) -> tuple[int, int, int, int]:
        (row, col), (end_row, end_col) = node.start_point, node.end_point
        self.note(row + 1)
        columns = self.columns
        if columns.ascii:  # (``col`` gives the byte column back)
            return row + 1, col, end_row + 1, end_col
        return row + 1, columns.col(row, col), end_row + 1, columns.col(end_row, end_col)

    def add_call(
        self,
        callee: facts.Expr,
        how: facts.How,
        node: Node,
        args: list[facts.Expr] | None,
        passed: list[facts.Expr] | None = None,
        chain: str = "",
        key: facts.Expr | None = None,
    ) -> None:
        """A call site; ``args`` are kept with it, ``passed`` (every argument) make it a pass
        site when one of them may be a function or an object (``closure.py``)."""
        where = self.where(node)
        self.calls.append(facts.CallSite(self.current, callee, how, *where, args, chain, key))
        if passed and any_may_hold_code(passed):
            self.passes.append((self.current, callee, how, passed))
        elif (
            type(callee) is facts.Ref
            and how in (facts.How.CALL, facts.How.NEW)
            and not any(type(a) is facts.Spread for a in passed or ())
        ):
            # how many arguments it gives: a parameter it leaves out holds its default
            self.arities.append((self.current, callee, len(passed or ())))

    def add_import(self, kind: facts.ImportKind, spec: str, node: Node, type_only: bool) -> None:
        self.imports.append(
            facts.ImportSite(kind, spec, self.current, *self.where(node), type_only)
        )

    def add_write(self, target: facts.Expr, key: str | None) -> None:
        self.writes.append((self.current, target, key))

    def add_proto(self, owner: str, member: str | None, qual: str) -> None:
        """``owner.prototype.member = function ...`` (``member`` None: a computed one)."""
        members = self.protos.setdefault(owner, {})
        key = member if member is not None else "[]"
        if member is None and key in members:
            n = 2
            while f"[]#{n}" in members:
                n += 1
            key = f"[]#{n}"
        if key in members and members[key] != qual:
            members[key] = ""  # assigned twice: which one is there depends on run time
        else:
            members[key] = qual

    def module_name(self, name: str) -> bool:
        """Whether ``name`` here means a module-level binding (or one hoisted from later)."""
        index = self.current
        while index > 0:
            if name in self.bindings[index]:
                return False
            index = self.scopes[index].parent
        return True


def _defaulted(
    held: facts.Expr, name: str, values: list[facts.Expr], once: bool
) -> tuple[int, facts.Expr] | None:
    """``p = p || fallback`` (or ``??``), a parameter's one reassignment, in its own function:
    a default value, as ``p = fallback`` in the parameter list is (a falsy value given is
    replaced too: a value that calls nothing). Returns its position and the fallback."""
    if type(held) is not facts.Param or held.path or not once or len(values) != 1:
        return None
    value = values[0]
    if type(value) is not facts.Choice or len(value.options) != 2:
        return None
    first, fallback = value.options
    return (held.position, fallback) if first == facts.Ref([name]) else None
