"""Whole-program value flow: every file's operations installed as constraints, solved to a fixed
point, then a second round for what only the first round can tell (functions nobody calls get
their defaults; declared types fill what nothing else did; classes patched by a computed name
answer ``UNKNOWN`` for every attribute, instances given one so for every attribute but their
class's methods).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import ConstKind, Kind, ParamKind, SiteKind
from groundkit.codemap.extract.python.values import objects, tested
from groundkit.codemap.extract.python.values.calls import Calls
from groundkit.codemap.extract.python.values.engine import each_value, with_args
from groundkit.codemap.extract.python.values.fixtures import install_fixtures
from groundkit.codemap.extract.python.values.keys import Args, ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.operators import REFLECTED
from groundkit.codemap.extract.python.values.program import Program, Static
from groundkit.codemap.extract.python.values.release import release_free_memory
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Solver", "solve"]

_FALLBACKS = {"__bool__": "__len__"}
_INSTANCES_KINDS = (objects.INST, objects.CONE)


def solve(program: Program) -> Flow:
    solver = Solver(program)
    solver.install()
    engine = solver.flow.engine
    engine.run()
    engine.share()  # (before the second round's cells and rules add to the peak)
    release_free_memory()  # (the sets ``share`` let go: else held through the second round)
    first = engine.sizes()
    solver.second_round()
    engine.run()
    engine.share()
    release_free_memory()
    # What the second round gave more: an edit's new code may not read it (``continued.py``).
    solver.flow.late = engine.grown(first)
    return solver.close()


# Where ``isinstance`` asks a class's own test (``__instancecheck__``, ``register``, the
# structural protocols), not the MRO: a class of the repository may pass without deriving.
_OWN_TESTS = frozenset({"__instancecheck__", "__subclasshook__"})
_ABSTRACT = ("collections.abc.", "typing.", "typing_extensions.", "abc.", "numbers.", "os.")


def _narrows(program: Program, test: Static) -> bool:
    """Whether ``isinstance(x, test)`` tells the repository's classes apart by their MRO: a
    class of the repository with no base from outside (one with one may be an ABC or a
    protocol), a built-in class but ``object``, a library's class but an abstract one."""
    if test[0] == "class":
        # (a metaclass's __instancecheck__, django's EmptyQuerySet, may pass any class)
        own_tests = not program.dunders.isdisjoint(_OWN_TESTS)
        return not program.classes[test[1]].open and not own_tests
    if test[0] == "builtin":
        return test[1] != "object" and isinstance(getattr(builtins, test[1], None), type)
    if test[0] == "ext":
        return not test[1].startswith(_ABSTRACT)
    return False


class Solver:
    """Installs each file's operations as constraints on the rules (``calls.Calls`` and the
    ``containers`` and ``lookups`` it holds), through one dispatch table by operation type."""

    def __init__(self, program: Program, flow: Flow | None = None) -> None:
        self.flow = Flow(program) if flow is None else flow
        self.calls = Calls(self.flow)
        self.containers = self.calls.containers
        self.lookups = self.calls.lookups
        # The rules each operation installs call these (bound once, not once per rule).
        self._attribute = self.lookups.attribute
        self._store_attr = self.lookups.store
        self._subscript = self.containers.subscript
        self._store_item = self.containers.store
        self._iterate = self.containers.iterate
        self._unpack_value = self.containers.unpack
        self._called = self._call_value  # (a bound method for each call site took 4 MB on django)
        self._run = self._run_op
        # What an operation's rule does with the values its operand gains (``_run_op``).
        self._runners: dict[type[Any], Callable[[int, Any, Sequence[int]], None]] = {
            facts.Attr: self._attr_values,
            facts.SetAttr: self._setattr_values,
            facts.Sub: self._sub_values,
            facts.SetSub: self._setsub_values,
            facts.Call: self._call_values,
            facts.Iter: self._iter_values,
            facts.Unpack: self._unpack_values,
        }
        # (an operator's rules: tuples, where a closure each took 7.3 MB on django's 16,800)
        self._binop_rule = self._binop_values
        self._reflected_rule = self._reflected_values
        self._declined_rule = self._declined_values
        self._handlers: dict[type[Any], Callable[[int, Any], None]] = {
            facts.Def: self._def,
            facts.Const: self._const,
            facts.Tmpl: self._tmpl,
            facts.Copy: self._copy,
            facts.Phi: self._phi,
            facts.Final: self._phi,
            facts.Global: self._global,
            facts.Import: self._import,
            facts.StarImport: self._star,
            facts.Attr: self._attr,
            facts.SetAttr: self._setattr,
            facts.Sub: self._sub,
            facts.SetSub: self._setsub,
            facts.NewContainer: self._container,
            facts.Call: self._call,
            facts.Ret: self._ret,
            facts.Yield: self._yield,
            facts.Iter: self._iter,
            facts.Unpack: self._unpack,
            facts.BinOp: self._binop,
            facts.Raise: self._raise,
            facts.With: self._with,
            facts.Super: self._super,
            facts.ParamIn: self._param,
            facts.ModBind: self._modbind,
            facts.ClassBind: self._classbind,
            facts.GlobalSet: self._globalset,
            facts.Annot: self._annot,
            facts.NotNone: self._not_none,
            facts.ByClass: self._by_class,
            facts.Narrow: self._narrow,
            facts.Tested: self._tested,
        }

    def close(self) -> Flow:
        """The solution, with the rules that reached it let go: they hold the solver and one
        another in cycles, which only the cyclic collector would free (and its pass over
        millions of objects is what running without it saves)."""
        flow = self.flow
        flow.engine.rules.clear()
        flow.engine.overflow = None
        flow.values.listener = None
        flow.listeners.clear()
        self._handlers.clear()
        self._runners.clear()
        # The rules hold one another (each part calls the others), and through them the flow
        # and every file's facts: left in a cycle, all of it waited for the cyclic collector,
        # whose pass over 1.4 million objects cost 1.3 s of CPU after each solve on django.
        for part in (self.containers, self.lookups, self.calls.outside):
            del part.calls
        del self.lookups, self.calls, self.containers
        del self._attribute, self._store_attr, self._subscript, self._store_item
        del self._iterate, self._unpack_value, self._called, self._binop_rule, self._reflected_rule
        del self._declined_rule
        del self._run
        return flow

    def _call_value(
        self,
        value: int,
        site: SiteKey,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
        operand: int,
    ) -> None:
        self.calls.call(site, value, args, keywords, dst, how, operand)

    # -- installing -------------------------------------------------------------------------------
    def install(self) -> None:
        for info in self.flow.program.files:
            self._functions(info.index)
            handlers = self._handlers
            for op in info.facts.ops:
                handlers[type(op)](info.index, op)
        install_fixtures(self.flow, self.containers)

    def install_op(self, file: int, op: facts.Op) -> None:
        """One more operation of ``file`` (a continuation's, ``continued.py``)."""
        self._handlers[type(op)](file, op)

    def _functions(self, file: int) -> None:
        """What every function's parameters hold before any call: ``self``/``cls``, the
        ``*args`` tuple and ``**kwargs`` dict, and the classes annotations name."""
        flow = self.flow
        engine = flow.engine
        scopes = flow.program.files[file].facts.scopes
        for index, scope in enumerate(scopes):
            if scope.kind not in (Kind.FUNCTION, Kind.METHOD, Kind.LAMBDA):
                continue
            func = FuncKey((file, index))
            for i, param in enumerate(scope.params):
                if param.kind == ParamKind.VAR_POSITIONAL:
                    engine.add(flow.param(func, i), [flow.value(objects.ARGS, *func)])
                elif param.kind == ParamKind.VAR_KEYWORD:
                    engine.add(flow.param(func, i), [flow.value(objects.KWARGS, *func)])
                if param.annotation >= 0:
                    self.declared(flow.var(file, param.annotation), flow.param(func, i))
            if scope.kind == Kind.METHOD and not scope.flags & facts.STATIC and scope.params:
                owner = scope.parent
                kind = objects.CCONE if scope.flags & facts.CLASSMETHOD else objects.CONE
                engine.add(flow.param(func, 0), [flow.value(kind, file, owner)])

    def declared(self, annotation: int, target: int) -> None:
        """``target`` may hold an instance of any class ``annotation`` holds."""
        flow = self.flow

        def run(new: Sequence[int]) -> None:
            out = []
            for value in new:
                key = flow.values.keys[value]
                if key[0] in (objects.CLASS, objects.CCONE):
                    out.append(flow.value(objects.CONE, key[1], key[2]))
                elif key[0] == objects.EXT and key[1] != "?":
                    out.append(flow.value(objects.EXTINST, key[1], None))
            flow.engine.add(target, out)

        flow.engine.on(annotation, run)

    def _v(self, file: int, local: int) -> int:
        return self.flow.program.files[file].var(local)

    def _def(self, file: int, op: facts.Def) -> None:
        scope = self.flow.program.files[file].facts.scopes[op.scope]
        kind = objects.CLASS if scope.kind == Kind.CLASS else objects.FUNC
        self.flow.engine.add(self._v(file, op.dst), [self.flow.value(kind, file, op.scope)])

    def _const(self, file: int, op: facts.Const) -> None:
        dst = self._v(file, op.dst)
        if op.text is not None:
            self.flow.engine.add(dst, [self.flow.value(objects.STR, op.text)])
        elif op.what == ConstKind.LITERAL:
            self.flow.engine.add(dst, [objects.LIT_ID])
        elif op.what == ConstKind.UNKNOWN:
            self.flow.engine.add(dst, [objects.UNKNOWN_ID])

    def _tmpl(self, file: int, op: facts.Tmpl) -> None:
        head = op.pieces[0] if len(op.pieces) > 1 else None
        value = objects.LIT_ID
        if isinstance(head, str) and head:
            value = self.flow.value(objects.PREFIX, head)
        self.flow.engine.add(self._v(file, op.dst), [value])

    def _not_none(self, file: int, op: facts.NotNone) -> None:
        self.flow.not_none.add(self._v(file, op.var))

    def _by_class(self, file: int, op: facts.ByClass) -> None:
        self.flow.by_class.setdefault(self._v(file, op.var), set()).add(op.attr)

    def _narrow(self, file: int, op: facts.Narrow) -> None:
        """Where ``isinstance(x, C)`` held: the instances of the repository's classes that
        cannot be a C are left out (the rest goes on as it is)."""
        flow = self.flow
        src, dst = self._v(file, op.src), self._v(file, op.dst)
        test = flow.program.static(file, op.ann)
        flow.depends.extend((src, dst))  # (a choice in x is one in the copy)
        if test is None or not _narrows(flow.program, test):
            flow.engine.flow(src, dst)
            return
        flow.engine.on(src, with_args(Solver._instances_of, self, test, dst))

    def _tested(self, file: int, op: facts.Tested) -> None:
        tested.narrow(self.flow, self._v(file, op.src), self._v(file, op.dst), op.test, op.holds)

    def _instances_of(self, test: Static, dst: int, new: Sequence[int]) -> None:
        flow = self.flow
        keys = flow.values.keys
        classes = flow.program.classes
        out = []
        for value in new:
            if keys[value][0] in (objects.INST, objects.CONE):
                made = flow.classes_of(value)
                if test[0] == "class":
                    kept = any(test[1] in flow.program.mro(c) for c in made)
                else:  # (a class from outside: only a class with a base from outside may be one)
                    kept = any(classes[c].open for c in made)
                if not kept:
                    continue
            out.append(value)
        if out:
            flow.engine.add(dst, out)

    def _copy(self, file: int, op: facts.Copy) -> None:
        self.flow.engine.flow(self._v(file, op.src), self._v(file, op.dst))

    def _phi(self, file: int, op: facts.Phi | facts.Final) -> None:
        dst = self._v(file, op.dst)
        self.flow.alt.add(dst)
        for src in op.srcs:
            self.flow.engine.flow(self._v(file, src), dst)

    def _global(self, file: int, op: facts.Global) -> None:
        self.flow.engine.flow(self.flow.glob(file, op.name), self._v(file, op.dst))

    def _import(self, file: int, op: facts.Import) -> None:
        flow = self.flow
        dst = self._v(file, op.dst)
        program = flow.program
        absolute = program.absolute(file, op.module, op.level)
        found = program.module(file, absolute) if absolute else None
        if found is None:
            flow.engine.add(dst, [objects.UNKNOWN_ID])
        elif found[0] == "ext":
            name = found[1] if op.name is None else f"{found[1]}.{op.name}"
            flow.engine.add(dst, [flow.value(objects.EXT, name)])
        elif op.name is None:
            flow.engine.add(dst, [flow.value(objects.MOD, found[1])])
        else:
            sub = program.submodule(found[1], op.name)
            # ``from . import sub`` in a package's own __init__ binds the very name it reads:
            # the submodule is what it holds, whatever else the package binds under that name
            own = found[1] == file
            if sub is not None and (own or op.name not in program.files[found[1]].binds):
                flow.engine.add(dst, [flow.value(objects.MOD, sub)])
            else:
                flow.engine.flow(flow.glob(found[1], op.name), dst)

    def _star(self, file: int, op: facts.StarImport) -> None:
        if op.name == "*":
            return
        flow = self.flow
        program = flow.program
        absolute = program.absolute(file, op.module, op.level)
        found = program.module(file, absolute) if absolute else None
        dst = self._v(file, op.dst)
        if found is not None and found[0] == "mod" and program.exports(found[1], op.name):
            flow.engine.flow(flow.glob(found[1], op.name), dst)
        elif op.before >= 0:
            flow.engine.flow(self._v(file, op.before), dst)

    def _attr(self, file: int, op: facts.Attr) -> None:
        obj, dst = self._v(file, op.obj), self._v(file, op.dst)
        self.flow.depends.extend((obj, dst))
        if op.attr in self.flow.by_class.get(obj, ()):
            self.flow.tested_reads.add((obj, dst))
        self.flow.engine.on(obj, with_args(self._run, file, op))

    def _setattr(self, file: int, op: facts.SetAttr) -> None:
        self.flow.engine.on(self._v(file, op.obj), with_args(self._run, file, op))

    def _sub(self, file: int, op: facts.Sub) -> None:
        obj, dst = self._v(file, op.obj), self._v(file, op.dst)
        self.flow.depends.extend((obj, dst))
        self.flow.engine.on(obj, with_args(self._run, file, op))

    def _setsub(self, file: int, op: facts.SetSub) -> None:
        self.flow.engine.on(self._v(file, op.obj), with_args(self._run, file, op))
        if type(op.key) is str:
            owner = self._dict_owner(file, op.obj)
            if owner is not None:
                # ``self.__dict__["x"] = v`` sets the attribute x, past the class's own
                # __setattr__ (no site: no setter runs); tornado's OptionParser stores its
                # fields so, and a read of them never reaches its __getattr__.
                src = self._v(file, op.src)
                stored = each_value(self._store_attr, op.key, src, None, owner, file)
                self.flow.engine.on(owner, stored)

    def _dict_owner(self, file: int, local: int) -> int | None:
        """The object whose attribute dict ``local`` is (``obj.__dict__``, ``vars(obj)``)."""
        info = self.flow.program.files[file]
        given = info.op_of(local)
        if isinstance(given, facts.Attr) and given.attr == "__dict__":
            return self._v(file, given.obj)
        if isinstance(given, facts.Call):
            called = info.op_of(given.func)
            args = info.facts.sites[given.site].args
            builtin = "vars" not in info.binds  # (not a module's own ``vars``)
            named = isinstance(called, facts.Global) and called.name == "vars" and builtin
            if named and len(args) == 1 and args[0] >= 0:
                return self._v(file, args[0])
        return None

    # -- the rules of operations ------------------------------------------------------------------
    # An operation's rule is (``_run``, file, op): what it needs is read from the operation again
    # when it runs, where its variables and site, each held by the rule as an object of its own,
    # took three times the memory (django: 120,000 such rules).
    def _run_op(self, file: int, op: facts.Op, new: Sequence[int]) -> None:
        self._runners[type(op)](file, op, new)

    def _site(self, file: int, site: int) -> SiteKey | None:
        return SiteKey((file, site)) if site >= 0 else None

    def _attr_values(self, file: int, op: facts.Attr, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        obj, dst, site = var(op.obj), var(op.dst), self._site(file, op.site)
        for value in new:
            self._attribute(value, op.attr, dst, site, obj, file)

    def _setattr_values(self, file: int, op: facts.SetAttr, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        obj, src, site = var(op.obj), var(op.src), self._site(file, op.site)
        for value in new:
            self._store_attr(value, op.attr, src, site, obj, file)

    def _sub_values(self, file: int, op: facts.Sub, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        obj, dst, site = var(op.obj), var(op.dst), self._site(file, op.site)
        bounds = op.bounds if op.slice else None
        for value in new:
            self._subscript(value, op.key, dst, bounds, site, op.protocol, obj)

    def _setsub_values(self, file: int, op: facts.SetSub, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        obj, src, site = var(op.obj), var(op.src), self._site(file, op.site)
        for value in new:
            self._store_item(value, op.key, src, site, obj)

    def _container(self, file: int, op: facts.NewContainer) -> None:
        value = self.flow.value(objects.CONT, file, op.dst, op.kind)
        self.flow.engine.add(self._v(file, op.dst), [value])

    def _call(self, file: int, op: facts.Call) -> None:
        func, dst = self._v(file, op.func), self._v(file, op.dst)
        self.flow.depends.extend((func, dst))
        paired = self.lookups.visitors.dispatch(file, op)
        if paired is not None:  # ``getattr(v, "visit" + type(node).__name__)(node)``
            self.lookups.visitors.install_call(self.calls, self.lookups, file, op, *paired)
            return
        self.flow.engine.on(func, with_args(self._run, file, op))

    def _call_values(self, file: int, op: facts.Call, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        func, dst, site = var(op.func), var(op.dst), SiteKey((file, op.site))
        args, keywords = self.calls.site_args(site)
        how: How = "decorator" if self.flow.site(site).kind == SiteKind.DECORATOR else "call"
        for value in new:
            self._called(value, site, args, keywords, dst, how, func)

    def _ret(self, file: int, op: facts.Ret) -> None:
        flow = self.flow
        func = FuncKey((file, op.scope))
        info = flow.program.files[file]
        given = info.op_of(op.src)
        # ``if x is None: return ...`` then ``return x``; ``if isinstance(x, C): return x``
        while isinstance(given, facts.Copy | facts.Narrow | facts.Tested):
            given = info.op_of(given.src)
        if isinstance(given, facts.ParamIn) and given.scope == op.scope:
            flow.returns_param.setdefault(func, set()).add(given.index)
            return
        if isinstance(given, facts.Global) and self._builtin(file, given.name) == "NotImplemented":
            # (an operator's dunder leaving it to the other operand: never the expression's
            # value, so no choice among the returns either; ``operators``)
            return
        flow.returns_other.add(func)
        flow.engine.flow(self._v(file, op.src), flow.ret(func))

    def _builtin(self, file: int, name: str) -> str | None:
        """``name`` where a module-level read of it in ``file`` finds the builtin."""
        program = self.flow.program
        if (
            name in program.files[file].binds
            or program.star_source(file, name) is not None
            or program.star_outside(file, name) is not None
            or program.submodule(file, name) is not None
        ):
            return None
        return name

    def _yield(self, file: int, op: facts.Yield) -> None:
        target = self.flow.yields(FuncKey((file, op.scope)))
        src = self._v(file, op.src)
        if op.each:
            self.flow.engine.flow(self.containers.elements(src), target)
        else:
            self.flow.engine.flow(src, target)

    def _iter(self, file: int, op: facts.Iter) -> None:
        src, dst = self._v(file, op.src), self._v(file, op.dst)
        self.flow.depends.extend((src, dst))
        self.flow.engine.on(src, with_args(self._run, file, op))

    def _iter_values(self, file: int, op: facts.Iter, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        src, dst, site = var(op.src), var(op.dst), self._site(file, op.site)
        for value in new:
            self._iterate(value, dst, site, src)

    def _unpack(self, file: int, op: facts.Unpack) -> None:
        src, dst = self._v(file, op.src), self._v(file, op.dst)
        self.flow.depends.extend((src, dst))
        self.flow.engine.on(src, with_args(self._run, file, op))

    def _unpack_values(self, file: int, op: facts.Unpack, new: Sequence[int]) -> None:
        var = self.flow.program.files[file].var
        src, dst, site = var(op.src), var(op.dst), self._site(file, op.site)
        for value in new:
            self._unpack_value(value, op.index, op.rest, op.after, dst, site, src)

    def _binop(self, file: int, op: facts.BinOp) -> None:
        flow = self.flow
        dunders = flow.program.dunders
        plain = op.method not in dunders and _FALLBACKS.get(op.method) not in dunders
        if (
            plain
            and REFLECTED.get(op.method) not in dunders
            and "__" + op.method[3:] not in (dunders)
        ):
            self._plain_binop(file, op)
            return
        left, dst = self._v(file, op.left), self._v(file, op.dst)
        right = self._v(file, op.right) if op.right >= 0 else flow.lit
        site = SiteKey((file, op.site))
        flow.depends.extend((left, dst))
        args: Args = [right] if op.right >= 0 else []
        rule = with_args(self._binop_rule, site, op.method, args, dst, left, right)
        flow.engine.on(left, rule)
        if op.method in REFLECTED and op.right >= 0:
            rule = with_args(self._reflected_rule, site, op.method, dst, left, right)
            flow.engine.on(right, rule)
            rule = with_args(self._declined_rule, site, op.method, dst, left, right)
            flow.engine.on(left, rule)
            flow.reflected.append((site, op.method, dst, left, right))

    def _binop_values(
        self,
        site: SiteKey,
        method: str,
        args: Args,
        dst: int,
        left: int,
        right: int,
        new: Sequence[int],
    ) -> None:
        """The values ``left`` gained, through the operator ``method``."""
        flow = self.flow
        out = []
        for value in new:
            kind = flow.values.keys[value][0]
            if kind in (objects.INST, objects.CONE):
                found = self.calls.protocol(site, value, method, args, dst, left)
                if not found and method in _FALLBACKS:
                    self.calls.protocol(site, value, _FALLBACKS[method], args, dst, left)
                elif not found and method.startswith("__i"):
                    self.calls.protocol(site, value, "__" + method[3:], args, dst, left)
            elif kind in objects.CONTAINERS and method in ("__add__", "__iadd__"):
                out.append(value)
                if method == "__iadd__":
                    flow.engine.flow(self.containers.elements(right), flow.loose(value))
                else:
                    flow.engine.on(
                        right,
                        lambda more: flow.engine.add(
                            dst,
                            [v for v in more if flow.values.keys[v][0] in objects.CONTAINERS],
                        ),
                    )
            else:
                out.append(self._plain_result(value, method))
        flow.engine.add(dst, out)

    def _reflected_values(
        self, site: SiteKey, forward: str, dst: int, left: int, right: int, new: Sequence[int]
    ) -> None:
        """The values ``right`` gained: their reflected operator runs once ``left`` may hold
        something lacking ``forward`` (``_declined_values``; whether for certain:
        ``operators``); a ``left`` still empty after the first round is taken as such in the
        second."""
        if ("declined", site, dst) in self.flow.once:
            self._run_reflected(site, forward, dst, left, right, new)

    def _declined_values(
        self, site: SiteKey, forward: str, dst: int, left: int, right: int, new: Sequence[int]
    ) -> None:
        """The values ``left`` gained: the first lacking ``forward`` runs the reflected
        operator of what ``right`` held before, and lets ``right``'s rule run it on what comes
        after (a rule on ``right`` alone saw ``left`` as it was when ``right`` grew: empty
        then, for a ``left`` computed later, as ``(a + b) | c``)."""
        flow = self.flow
        first = ("declined", site, dst)
        if first in flow.once or not self._lacks(new, forward):
            return
        flow.once.add(first)
        if flow.engine.holds(right):
            self._run_reflected(site, forward, dst, left, right, list(flow.engine.held(right)))

    def _lacks(self, values: Sequence[int], forward: str) -> bool:
        """Whether one of ``values`` is no instance, or one of a class without ``forward``
        (a method that may return ``NotImplemented`` is not followed: ``operators``)."""
        flow = self.flow
        keys, owner = flow.values.keys, flow.program.owner
        return any(
            keys[v][0] not in _INSTANCES_KINDS
            or any(owner(cls, forward) is None for cls in flow.classes_of(v))
            for v in values
        )

    def _run_reflected(
        self, site: SiteKey, forward: str, dst: int, left: int, right: int, values: Sequence[int]
    ) -> None:
        reflected = REFLECTED[forward]
        keys = self.flow.values.keys
        for value in values:
            if keys[value][0] in _INSTANCES_KINDS:
                self.calls.protocol(site, value, reflected, [left], dst, right)

    def _plain_binop(self, file: int, op: facts.BinOp) -> None:
        """An operator no class of the repository implements: containers concatenate,
        anything else gives a plain value."""
        if op.method in ("__add__", "__iadd__"):
            flow = self.flow
            left, dst = self._v(file, op.left), self._v(file, op.dst)
            flow.depends.extend((left, dst))
            flow.engine.on(left, lambda new: self._concat(new, op, file, dst))
        else:
            self.flow.engine.add(self._v(file, op.dst), [objects.LIT_ID])

    def _concat(self, new: Sequence[int], op: facts.BinOp, file: int, dst: int) -> None:
        flow = self.flow
        out = []
        right = self._v(file, op.right)
        for value in new:
            kind = flow.values.keys[value][0]
            if kind in objects.CONTAINERS:
                out.append(value)
                if op.method == "__iadd__":
                    flow.engine.flow(self.containers.elements(right), flow.loose(value))
                else:
                    flow.engine.on(
                        right,
                        lambda more: flow.engine.add(
                            dst, [v for v in more if flow.values.keys[v][0] in objects.CONTAINERS]
                        ),
                    )
            else:
                out.append(self._plain_result(value, op.method))
        flow.engine.add(dst, out)

    def _plain_result(self, value: int, method: str) -> int:
        """What an operator gives on a plain left operand: ``"do_" + x`` starts with "do_"."""
        key = self.flow.values.keys[value]
        if key[0] == objects.UNKNOWN:
            return objects.UNKNOWN_ID
        if method == "__add__" and key[0] in (objects.STR, objects.PREFIX) and key[1]:
            return self.flow.value(objects.PREFIX, key[1])
        return objects.LIT_ID

    def _raise(self, file: int, op: facts.Raise) -> None:
        flow = self.flow
        src = self._v(file, op.src)
        site = SiteKey((file, op.site))

        def run(new: Sequence[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                if key[0] in (objects.CLASS, objects.CCONE):  # raise Cls: it is constructed here
                    for cls in flow.classes_of(value):
                        self.calls.construct(site, cls, [], [], flow.temp(), src)

        flow.engine.on(src, run)

    def _with(self, file: int, op: facts.With) -> None:
        flow = self.flow
        src, dst = self._v(file, op.src), self._v(file, op.dst)
        site = SiteKey((file, op.site))
        flow.depends.extend((src, dst))
        enter, leave = ("__aenter__", "__aexit__") if op.is_async else ("__enter__", "__exit__")

        def run(new: Sequence[int]) -> None:
            for value in new:
                kind = flow.values.keys[value][0]
                if kind in (objects.INST, objects.CONE):
                    self.calls.protocol(site, value, enter, [], dst, src)
                    lits: Args = [flow.lit, flow.lit, flow.lit]
                    self.calls.protocol(site, value, leave, lits, flow.temp(), src)
                elif kind in (objects.EXT, objects.EXTINST, objects.BOUND):
                    flow.engine.add(dst, [value])  # an outside client: taken to return itself
                elif kind == objects.GEN:  # @contextmanager: what the generator yields
                    key = flow.values.keys[value]
                    flow.engine.flow(flow.yields(FuncKey((key[1], key[2]))), dst)
                elif kind == objects.UNKNOWN:
                    flow.engine.add(dst, [objects.UNKNOWN_ID])
                else:
                    flow.engine.add(dst, [objects.LIT_ID])

        flow.engine.on(src, run)

    def _super(self, file: int, op: facts.Super) -> None:
        flow = self.flow
        receiver, dst = self._v(file, op.receiver), self._v(file, op.dst)
        flow.depends.extend((receiver, dst))
        cls = ClassKey((file, op.cls))
        kinds = (objects.INST, objects.CONE, objects.CLASS, objects.CCONE)
        flow.engine.on(
            receiver,
            lambda new: flow.engine.add(
                dst,
                [flow.value(objects.SUPER, cls, v) for v in new if flow.values.keys[v][0] in kinds],
            ),
        )

    def _param(self, file: int, op: facts.ParamIn) -> None:
        self.flow.engine.flow(
            self.flow.param(FuncKey((file, op.scope)), op.index), self._v(file, op.dst)
        )

    def _modbind(self, file: int, op: facts.ModBind) -> None:
        self.flow.engine.flow(self._v(file, op.src), self.flow.glob(file, op.name))

    def _globalset(self, file: int, op: facts.GlobalSet) -> None:
        self.flow.engine.flow(self._v(file, op.src), self.flow.glob(file, op.name))

    def _classbind(self, file: int, op: facts.ClassBind) -> None:
        flow = self.flow
        cls = ClassKey((file, op.scope))
        cell = flow.inst_attr(cls, op.name) if op.field else flow.class_attr(cls, op.name)
        flow.engine.flow(self._v(file, op.src), cell)

    def _annot(self, file: int, op: facts.Annot) -> None:
        flow = self.flow
        dst, ann = self._v(file, op.dst), self._v(file, op.ann)
        if op.src < 0:
            self.declared(ann, dst)
            return
        src = self._v(file, op.src)
        flow.annotated.append((dst, src, ann))
        declared: list[bool] = []

        def run(new: Sequence[int]) -> None:
            known = [v for v in new if v != objects.UNKNOWN_ID]
            flow.engine.add(dst, known)
            if len(known) < len(new) and not declared:
                declared.append(True)
                self.declared(ann, dst)

        flow.engine.on(src, run)

    # -- the second round -------------------------------------------------------------------------
    def second_round(self) -> None:
        flow = self.flow
        engine = flow.engine
        for info in flow.program.files:
            for index, scope in enumerate(info.facts.scopes):
                func = FuncKey((info.index, index))
                if scope.kind not in (Kind.FUNCTION, Kind.METHOD, Kind.LAMBDA):
                    continue
                if flow.calls_bound.get(func):
                    continue
                for i, param in enumerate(scope.params):
                    if param.default >= 0:
                        engine.flow(flow.var(info.index, param.default), flow.param(func, i))
        self.second_round_entries()

    def second_round_entries(self) -> None:
        """The second round's steps taken per entry the first round left (a continuation runs
        these alone for its new entries: ``continued.py``)."""
        flow = self.flow
        engine = flow.engine
        flow.second_round = True  # (a class given a function by name from here on: set_on_class)
        for dst, src, ann in flow.annotated:
            if not engine.holds(src):
                self.declared(ann, dst)
        for cls in flow.patched_any:
            self.lookups.patched(cls)
        if flow.set_any:
            self.lookups.set_by_name(flow.set_any)
        self.lookups.forget_deleted()  # (a continuation's files may delete more)
        for value, attr, dst in flow.fallbacks:
            if not engine.holds(dst):
                self.lookups.fallback(value, attr, dst)
        for site, forward, dst, left, right in flow.reflected:
            if not engine.holds(left) and engine.holds(right):
                self._run_reflected(site, forward, dst, left, right, list(engine.held(right)))
        self.lookups.visitors.second_round()
