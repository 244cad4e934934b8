"""One Python file as nodes and edges, from its facts and the solved value flow: modules,
classes, functions, methods and lambdas; imports (grimp's rules), containment, inheritance; and
a ``calls`` edge from each site to each function or class of the repository that reaches it.

A site whose callee is a run-time choice, or which an unknown value may also reach, gets its
known targets flagged ``partial`` and counts as unresolved; one that nothing known reaches is
only counted.
"""

from __future__ import annotations

from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind, SiteKind
from groundkit.codemap.extract.python.resolve.provenance import Origin, Origins, provenance
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.certainty import Certainty
from groundkit.codemap.extract.python.values.descriptors import PROPERTY_READ
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.operators import REFLECTED, left_never_answers
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.values.state import Flow
from groundkit.codemap.extract.python.web import web_facts
from groundkit.codemap.extract.resolver import FileResolver
from groundkit.codemap.model import EdgeFlag, EdgeKind, NodeKey, NodeKind, Provenance

__all__ = ["NODE_KINDS", "PythonFile", "node_key"]

NODE_KINDS = {
    Kind.CLASS: NodeKind.CLASS,
    Kind.FUNCTION: NodeKind.FUNCTION,
    Kind.METHOD: NodeKind.METHOD,
    Kind.LAMBDA: NodeKind.FUNCTION,
}
_IMPORT_FLAGS = {"type_checking": EdgeFlag.TYPE_CHECKING, "optional": EdgeFlag.OPTIONAL}
# Values of the repository's own making: a call reaching only these and finding no target is
# unresolved (anything else is a built-in's or a package's business).
_OWN = frozenset(
    {
        objects.FUNC,
        objects.CLASS,
        objects.INST,
        objects.CONE,
        objects.CCONE,
        objects.METH,
        objects.CLSMETH,
        objects.STATIC,
        objects.PARTIAL,
        objects.MOD,
        objects.GEN,
        objects.SUPER,
        objects.PROP,
        objects.CLASSMETHOD,
    }
)
_COUNTED = (SiteKind.CALL, SiteKind.DECORATOR)
# How a target is reached when the site's callee is what chose it: partial with the callee.
_CHOSEN = frozenset({"call", "decorator", "constructor", "callback"})


def node_key(program: Program, func: FuncKey | ClassKey) -> NodeKey:
    info = program.files[func[0]]
    scope = info.facts.scopes[func[1]]
    return NodeKey(NODE_KINDS[Kind(scope.kind)], f"{info.module}.{scope.qual}", info.path)


def module_key(info: FileInfo) -> NodeKey:
    kind = NodeKind.PACKAGE if info.is_package else NodeKind.MODULE
    return NodeKey(kind, info.module, info.path)


class PythonFile(FileResolver):
    language = "python"

    def __init__(self, flow: Flow, info: FileInfo, certainty: Certainty) -> None:
        super().__init__(info.path, facts.quoted_lines(info.facts))
        self.flow = flow
        self.program = flow.program
        self.info = info
        self.certainty = certainty
        self.choices = certainty.choices
        self.origins = Origins(self.program, info)
        self.scope_keys: list[NodeKey | None] = []
        self.operands: dict[int, int] = {}  # call site -> the variable holding its callee
        self.lefts: dict[int, int] = {}  # binary operator site -> its left operand

    def run(self) -> FileGraph:
        self._nodes()
        self._imports()
        self._inherits()
        self._calls()
        web_facts(self.flow, self.info, self, self.graph)
        return self.finish()

    def scope_node(self, scope: int) -> NodeKey | None:
        return self.scope_keys[scope]

    def caller(self, scope: int) -> NodeKey:
        """The node a scope's code belongs to: a comprehension's is its function's."""
        key = self.scope_keys[scope]
        while key is None:
            scope = self.info.facts.scopes[scope].parent
            key = self.scope_keys[scope]
        return key

    # -- nodes and containment --------------------------------------------------------------------
    def _nodes(self) -> None:
        info = self.info
        module = module_key(info)
        scopes = info.facts.scopes
        self.node(module, 1, scopes[0].end)
        self.scope_keys.append(module)
        seen = {module}
        for _index, scope in enumerate(scopes[1:], start=1):
            kind = NODE_KINDS.get(Kind(scope.kind))
            if kind is None:
                self.scope_keys.append(None)
                continue
            key = NodeKey(kind, f"{info.module}.{scope.qual}", info.path)
            self.scope_keys.append(key)
            if key not in seen:  # lambdas of one scope, a property's setter: one node
                seen.add(key)
                self.node(key, scope.line, scope.end)
            self.defines(self.caller(scope.parent), key, scope.at)
        parent = info.module.rpartition(".")[0]
        if parent:
            found = self.program.find_module(parent, near=info.path)
            if found is not None and self.program.files[found].is_package:
                self.defines(module_key(self.program.files[found]), module, 1)

    # -- imports (grimp's rules: module -> module, ``from pkg import name`` -> pkg.name when that
    # is a submodule, else pkg; no implicit edge to a parent package) ------------------------------
    def _imports(self) -> None:
        source = self.scope_keys[0]
        assert source is not None
        for stmt in self.info.facts.imports:
            absolute = self.program.absolute(self.info.index, stmt.module, stmt.level)
            if absolute is None:
                continue  # beyond the top-level package: Python would refuse it too
            target = self._import_target(absolute, stmt.name)
            if target is None:
                continue
            provenance = (
                Provenance.IMPORT_STAR
                if stmt.name == "*"
                else Provenance.IMPORT_RELATIVE
                if stmt.level
                else Provenance.IMPORT_ABSOLUTE
            )
            flags = {_IMPORT_FLAGS[flag] for flag in stmt.flags if flag in _IMPORT_FLAGS}
            if stmt.scope != 0:
                flags.add(EdgeFlag.LAZY)
            where = self.location(stmt.line, stmt.col, stmt.end_line, stmt.end_col)
            self.edge(
                EdgeKind.IMPORTS, source, target, provenance, where, stmt.line, frozenset(flags)
            )

    def _import_target(self, module: str, name: str | None) -> NodeKey | None:
        candidates = [f"{module}.{name}", module] if name and name != "*" else [module]
        for candidate in candidates:
            found = self.program.find_module(candidate, near=self.info.path)
            if found is not None:
                return module_key(self.program.files[found])
        if self.program.is_internal(module):
            return None  # a module of the repository that is not there: nothing to point at
        return self.external(module.split(".", maxsplit=1)[0])

    # -- classes ----------------------------------------------------------------------------------
    def _inherits(self) -> None:
        for index, scope in enumerate(self.info.facts.scopes):
            if scope.kind != Kind.CLASS:
                continue
            source = self.scope_keys[index]
            assert source is not None
            for base in self.program.classes[ClassKey((self.info.index, index))].bases:
                target = node_key(self.program, base)
                where = self.location(scope.at)
                self.edge(
                    EdgeKind.INHERITS, source, target, Provenance.INHERIT_BASE, where, scope.at
                )

    # -- calls ------------------------------------------------------------------------------------
    def _calls(self) -> None:
        info = self.info
        for op in info.facts.ops:
            if isinstance(op, facts.Call):
                self.operands[op.site] = info.var(op.func)
            elif isinstance(op, facts.Raise):
                self.operands[op.site] = info.var(op.src)
            elif isinstance(op, facts.BinOp) and op.method in REFLECTED and op.right >= 0:
                self.lefts[op.site] = info.var(op.left)
        for index, site in enumerate(info.facts.sites):
            key = SiteKey((info.index, index))
            found = self.flow.found.get(key)
            targets = found.targets if found is not None else {}
            partial = False
            counted = site.kind in _COUNTED or site.name == "raise"
            if counted and not site.dynamic:
                operand = self.operands.get(index, -1)
                partial = self._uncertain(operand)
                if self._unresolved(index, operand, bool(targets), partial):
                    self.graph.unresolved += 1
            unsure = False
            for target, (how, operand) in targets.items():
                overrides = self.certainty.overrides
                if (
                    overrides.only_barred(key, target, how, operand)
                    or overrides.only_unmade(key, target, how, operand)
                    or self.certainty.replaced.guessed(key, target, how, operand)
                    or self.certainty.rejected.guessed(key, target, how, operand)
                    or self.certainty.shadowed.guessed(target, how, operand)
                    or self.certainty.contexts.guessed(key, target, how, operand)
                ):
                    # only through subclasses the site's method never runs on, a placeholder
                    # only classes nobody makes run, a method replaced on other instances, a
                    # callback only calls the callee rejects at once pass, the class's method
                    # where every instance has its own, or only calls whose flag keeps the
                    # site's branch from running
                    unsure = True
                    self._edge(index, site, target, how, operand, True)
                elif how == "protocol":
                    sure = self._runs_for_certain(target, operand, site.name, index)
                    unsure = unsure or not sure
                    self._edge(index, site, target, how, operand, not sure)
                elif how == "property":  # as a method called on the object read
                    # (a receiver that is no choice, but an attribute that may hold something
                    # else there: reached on some runs only, as a descriptor's __get__)
                    guessed = self._uncertain(operand)
                    only = self._only_properties(key)
                    unsure = unsure or not (only or guessed)
                    self._edge(index, site, target, how, operand, guessed or not only)
                elif how in _CHOSEN and not partial and self._handed_a_choice(index, operand):
                    # a library function (``map``, ``sorted(key=)``) calls the function it is
                    # given (or makes the class): a run-time choice there, as a direct call of
                    # it would be
                    unsure = True
                    self._edge(index, site, target, how, operand, True)
                else:
                    self._edge(index, site, target, how, operand, partial and how in _CHOSEN)
            if unsure and not partial:  # a target reached on some runs only: not resolved
                self.graph.unresolved += 1

    def _runs_for_certain(
        self, target: FuncKey | ClassKey, operand: int, asked: str, index: int
    ) -> bool:
        """A dunder that syntax or a built-in runs is certain only on an operand whose every
        value finds it (``Certainty``); so is a descriptor's ``__get__``, whose operand holds
        what the attribute read may be there (``descriptors.py``), not the object holding it;
        a reflected operator only where the left operand's forward one never answers
        (``operators``)."""
        name = self.program.scope(target).qual.rsplit(".", 1)[-1]
        if name == "__get__":
            return operand not in self.choices and self.certainty.runs_on_all(operand, name)
        if name == REFLECTED.get(asked) and not left_never_answers(
            self.flow, self.lefts.get(index, -1), asked
        ):
            return False
        return self.certainty.dunder_is_certain(operand, name, asked)

    def _handed_a_choice(self, index: int, operand: int) -> bool:
        """Whether a target was reached through ``operand``, a variable other than the site's
        callee (the function a library call is given) that holds a run-time choice."""
        return operand != self.operands.get(index, -1) and self._uncertain(operand)

    def _only_properties(self, site: SiteKey) -> bool:
        """Whether the attribute a property was found in at ``site`` holds nothing but
        properties there (``descriptors.py``): else its getter or setter runs on some runs."""
        read = self.flow.cells.get((PROPERTY_READ, site))
        held = self.flow.engine.held(read) if read is not None else ()
        keys = self.flow.values.keys
        return bool(held) and all(keys[value][0] == objects.PROP for value in held)

    def _uncertain(self, operand: int) -> bool:
        if operand < 0:
            return False
        return operand in self.choices or objects.UNKNOWN_ID in self.flow.engine.held(operand)

    def _unresolved(self, index: int, operand: int, targeted: bool, partial: bool) -> bool:
        if (self.info.index, index) in self.flow.dynamic:
            return True
        if operand < 0:
            return False
        held = self.flow.engine.held(operand)
        if not held or partial:
            return True
        if targeted:
            return False
        keys = self.flow.values.keys
        return any(keys[v][0] in _OWN for v in held)

    def _edge(
        self,
        index: int,
        site: facts.Site,
        target: FuncKey | ClassKey,
        how: How,
        operand: int,
        partial: bool,
    ) -> None:
        info = self.info
        local = info.local(operand)
        origin = self.origins.of(local) if local >= 0 else None
        target_scope = self.program.scope(target)
        owner: ClassKey | None = None
        if target_scope.kind == Kind.METHOD:
            owner = ClassKey((target[0], target_scope.parent))
        if origin is None:
            found = Provenance.CALL_LOCAL if how in ("call", "property") else provenance_of(how)
        else:
            found = self._provenance(how, origin, owner, local, target_scope)
        flags = set()
        if partial:
            flags.add(EdgeFlag.PARTIAL)
        if origin is not None and origin.package >= 0 and target[0] != origin.package:
            flags.add(EdgeFlag.REEXPORT)
        where = self.location(site.line, site.col, site.end_line, site.end_col)
        self.edge(
            EdgeKind.CALLS,
            self.caller(site.scope),
            node_key(self.program, target),
            found,
            where,
            site.line,
            frozenset(flags),
        )

    def _provenance(
        self,
        how: How,
        origin: Origin,
        owner: ClassKey | None,
        callee: int,
        target: facts.Scope,
    ) -> Provenance:
        """The provenance from where the callee came; a function held in an object's
        attribute (not a method of its class) is a stored callback."""
        found = provenance(how, origin, self.info.index, owner, self.program)
        op = self.info.op_of(callee)
        stored = (
            how == "call"
            and isinstance(op, facts.Attr)
            and op.attr is not None
            and found in _THROUGH_OBJECTS
            and (target.kind != Kind.METHOD or target.qual.rsplit(".", 1)[-1] != op.attr)
        )
        return Provenance.CALL_CALLBACK if stored else found


_THROUGH_OBJECTS = frozenset(
    {
        Provenance.CALL_SELF,
        Provenance.CALL_INSTANCE,
        Provenance.CALL_ANNOTATION,
        Provenance.CALL_INHERITED,
        Provenance.CALL_ARGUMENT,
        Provenance.CALL_RETURN,
    }
)


def provenance_of(how: How) -> Provenance:
    return {
        "constructor": Provenance.CALL_CONSTRUCTOR,
        "decorator": Provenance.CALL_DECORATOR,
        "protocol": Provenance.CALL_PROTOCOL,
        "callback": Provenance.CALL_CALLBACK,
    }.get(how, Provenance.CALL_LOCAL)
