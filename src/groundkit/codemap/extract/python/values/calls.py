"""What calling a value does: a function's parameters receive the arguments and the call gives
its return value (or a generator); a class makes an instance and runs ``__init__`` (and
``__new__``); an instance runs ``__call__``; a bound method passes its receiver; built-ins and
outside functions that call what they are given call it (``outside.py``).

Every call of a function of the repository is recorded at its site with how it was reached.
A function handed to code outside the repository (or stored on an outside object) escapes:
that code may call it with anything, so its parameters hold ``UNKNOWN``.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import ParamKind, SiteKind
from groundkit.codemap.extract.python.values import objects, tested
from groundkit.codemap.extract.python.values.containers import Containers
from groundkit.codemap.extract.python.values.engine import each_value
from groundkit.codemap.extract.python.values.instantiation import standard_new
from groundkit.codemap.extract.python.values.keys import Args, ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.lookups import Lookups
from groundkit.codemap.extract.python.values.outside import Outside
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Calls"]

_BY_NAME = (ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY)


class Calls:
    """Calling values, and the rules that call: it holds the container and attribute rules,
    which call back into it."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.containers = Containers(flow, self)
        self.lookups = Lookups(flow, self)
        self.outside = Outside(flow, self)
        self._escaped_vars: set[int] = set()
        self._cls_returns: dict[FuncKey, list[int] | None] = {}  # (``_made_by_cls``)
        self._standard: dict[FuncKey, tuple[bool, bool]] = {}  # (``construct``)
        self._guarded: dict[int, dict[int, list[tested.Guarded]]] = {}  # by file (``tested``)
        self._signatures: dict[
            FuncKey, tuple[list[int], int | None, int | None, dict[str, int]]
        ] = {}

    # -- arguments --------------------------------------------------------------------------------
    def site_args(self, site: SiteKey) -> tuple[Args, list[tuple[str, int]]]:
        flow = self.flow
        facts_site = flow.site(site)
        file = site[0]
        args: Args = [
            flow.var(file, a) if a >= 0 else ("*", flow.var(file, ~a)) for a in facts_site.args
        ]
        keywords = [(name, flow.var(file, v)) for name, v in facts_site.keywords]
        return args, keywords

    @staticmethod
    def arg(
        args: Args, keywords: list[tuple[str, int]], position: int | None, keyword: str | None
    ) -> int | None:
        if keyword is not None:
            for name, var in keywords:
                if name == keyword:
                    return var
        if position is not None and position < len(args):
            found = args[position]
            return found if isinstance(found, int) else None
        return None

    # -- calling a value --------------------------------------------------------------------------
    def call(
        self,
        site: SiteKey,
        value: int,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
        operand: int,
    ) -> None:
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if kind == objects.FUNC:
            self.bind(site, FuncKey((key[1], key[2])), None, args, keywords, dst, how, operand)
        elif kind in (objects.METH, objects.CLSMETH):
            func = flow.values.function(value)
            self.bind(site, func, key[2], args, keywords, dst, how, operand)
        elif kind == objects.STATIC:
            func = flow.values.function(value)
            self.bind(site, func, None, args, keywords, dst, how, operand)
        elif kind == objects.CLASS:
            self.construct(site, ClassKey((key[1], key[2])), args, keywords, dst, operand)
        elif kind == objects.CCONE:
            for cls in flow.program.cone(ClassKey((key[1], key[2]))):
                self.construct(site, cls, args, keywords, dst, operand)
        elif kind in (objects.INST, objects.CONE):
            self.protocol(site, value, "__call__", args, dst, operand)
        elif kind == objects.PARTIAL:
            partial_args, partial_keywords = self.site_args(SiteKey((key[2], key[3])))
            self.call(
                site,
                key[1],
                [*partial_args[1:], *args],
                [*partial_keywords, *keywords],
                dst,
                how,
                operand,
            )
        elif kind == objects.ACCESSOR:
            self._accessor(key[1], args, dst)
        elif kind == objects.SETATTR:  # super().__setattr__(name, value): setattr(self, ...)
            receiver = flow.cell(("setattr", value))
            engine.add(receiver, [key[1]])
            self.lookups.dynamic(site, "setattr", [receiver, *args], dst, operand)
        elif kind == objects.EXT:
            self.outside.function(site, key[1], value, args, keywords, dst, how)
        elif kind == objects.EXTINST:
            self.outside.method(site, key[1], None, args, keywords, dst, how)
        elif kind == objects.BOUND:
            self.outside.bound(site, value, args, keywords, dst, how)
        elif kind == objects.BUILTIN:
            self.outside.builtin(site, key[1], args, keywords, dst, how, operand)
        elif kind == objects.CMETH:
            self.containers.method(site, key[1], key[2], args, keywords, dst, operand)
        elif kind == objects.UNKNOWN:
            engine.add(dst, [objects.UNKNOWN_ID])
        elif kind in objects.PLAIN:
            engine.add(dst, [objects.LIT_ID])

    def bind(
        self,
        site: SiteKey,
        func: FuncKey,
        recv: int | None,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
        operand: int,
    ) -> None:
        """Call the function ``func`` at ``site``: arguments to parameters, result to ``dst``."""
        flow = self.flow
        once = ("call", site, func, recv, dst, how)
        if once in flow.once:
            return
        flow.once.add(once)
        flow.record(site, func, how, operand)
        flow.calls_bound[func] = flow.calls_bound.get(func, 0) + 1
        scope = flow.scope(func)
        engine = flow.engine
        positional = self._signature(func, scope.params)[0]
        given, spread = self._arguments(func, scope, recv, args, keywords)
        if scope.flags & facts.GENERATOR:
            engine.add(dst, [flow.value(objects.GEN, *func)])
            return
        if recv is not None and scope.flags & facts.CLASSMETHOD:
            others = self._made_by_cls(func, recv)
            if others is not None:
                self._instance_of(recv, others, dst)
                return
        returned = flow.returns_param.get(func)
        if returned and (len(returned) > 1 or func in flow.returns_other):
            flow.alt.add(dst)  # one of several returns: a run-time choice
        by_scope = self._guarded.get(func[0])
        if by_scope is None:
            by_scope = self._guarded[func[0]] = tested.guarded_returns(flow.program.files[func[0]])
        guarded = by_scope.get(func[1])
        if guarded:
            tested.give_returns(flow, guarded, given, dst, None if spread else (site, func))
        else:
            engine.flow(flow.ret(func), dst)
        if returned:
            self._returned(func, returned, given, spread, recv, positional, dst)

    def _made_by_cls(self, func: FuncKey, recv: int) -> list[int] | None:
        """A classmethod returning ``cls(...)`` (directly or through a local) called with one
        class ``C`` as ``cls``: its other returns (variables), where the call gives back an
        instance of ``C`` rather than the return every call shares (paramiko's
        ``RSAKey.from_private_key_file`` is ``PKey``'s, returning ``cls(...)``); with a cone
        of classes as ``cls``, an instance of the cone. None where that is not sure: ``cls``
        no class, a ``__new__`` of the repository along the MRO of one of the classes (it
        may return anything), a return of a parameter (``_returned``)."""
        flow = self.flow
        key = flow.values.keys[recv]
        if key[0] == objects.CLASS:
            classes = [ClassKey((key[1], key[2]))]
        elif key[0] == objects.CCONE:  # (``cls`` passed on: ``super().load()``, ``cls.load()``)
            classes = list(flow.program.cone(ClassKey((key[1], key[2]))))
        else:
            return None
        if any(flow.program.owner(cls, "__new__") for cls in classes):
            return None
        if func not in self._cls_returns:
            self._cls_returns[func] = self._returns_of_cls(func)
        return self._cls_returns[func]

    def _returns_of_cls(self, func: FuncKey) -> list[int] | None:
        """The variables of ``func``'s returns other than ``cls(...)``, or None where none is
        that or one returns a parameter."""
        file, scope = func
        info = self.flow.program.files[file]
        params = info.facts.scopes[scope].params
        if not params or params[0].kind > ParamKind.POSITIONAL_OR_KEYWORD:
            return None
        made, others = False, []
        for op in info.facts.ops:
            if not isinstance(op, facts.Ret) or op.scope != scope:
                continue
            given = info.op_of(op.src)
            while isinstance(given, facts.Copy | facts.Narrow | facts.Tested):
                given = info.op_of(given.src)
            if isinstance(given, facts.ParamIn) and given.scope == scope:
                return None
            if isinstance(given, facts.Call):
                called = info.op_of(given.func)
                while isinstance(called, facts.Copy | facts.Narrow | facts.Tested):
                    called = info.op_of(called.src)
                site = info.facts.sites[given.site]
                if (
                    isinstance(called, facts.ParamIn)
                    and called.scope == scope
                    and called.index == 0
                    and site.kind == SiteKind.CALL
                ):
                    made = True
                    continue
            others.append(info.var(op.src))
        return others if made else None

    def _instance_of(self, cls: int, others: list[int], dst: int) -> None:
        """An instance of the class value ``cls`` to ``dst`` (what ``cls(...)`` makes,
        ``construct``), with the classmethod's other returns (``others``): then a run-time
        choice."""
        flow = self.flow
        key = flow.values.keys[cls]
        kind = objects.CONE if key[0] == objects.CCONE else objects.INST  # (a cone's: any)
        instance = flow.value(kind, key[1], key[2])
        if not others:
            flow.engine.add(dst, [instance])
            return
        flow.alt.add(dst)  # (the instance through a variable of its own: a source of dst)
        made = flow.temp()
        flow.engine.add(made, [instance])
        flow.engine.flow(made, dst)
        for var in others:
            flow.engine.flow(var, dst)

    def _arguments(
        self,
        func: FuncKey,
        scope: facts.Scope,
        recv: int | None,
        args: Args,
        keywords: list[tuple[str, int]],
    ) -> tuple[dict[int, int], bool]:
        """Each argument to its parameter (the receiver first, ``*args`` and ``**kwargs``
        spread, defaults where nothing is passed); what this call passed each parameter, and
        whether a spread left that unknown."""
        flow = self.flow
        engine = flow.engine
        params = scope.params
        positional, vararg, kwarg, named = self._signature(func, params)
        start = 0
        if recv is not None and positional:
            if not flow.is_method(func) or scope.flags & facts.CLASSMETHOD:
                engine.add(flow.param(func, positional[0]), [recv])
            start = 1
        filled: set[int] = set(positional[:start])
        given: dict[int, int] = {}  # parameter -> the variable this call passes it
        spread = False
        at = start
        # what Class.method(x, ...) passes its ``self`` is not taken (see _typed_self)
        shut = 1 if start == 0 and self._typed_self(scope) else 0
        for arg in args:
            if isinstance(arg, tuple):
                spread = True
                self._spread(arg[1], func, positional[max(at, shut) :], vararg)
                continue
            if spread:
                for index in positional[max(at, shut) :]:
                    engine.flow(arg, flow.param(func, index))
                continue
            if at < len(positional):
                if at >= shut:
                    engine.flow(arg, flow.param(func, positional[at]))
                filled.add(positional[at])
                given[positional[at]] = arg
            elif vararg is not None:
                holder = flow.value(objects.ARGS, *func)
                engine.flow(arg, flow.slot(holder, at - len(positional)))
            at += 1
        for name, var in keywords:
            if not name:
                spread = True
                self._spread_keywords(var, func, named, kwarg)
            elif name in named:
                engine.flow(var, flow.param(func, named[name]))
                filled.add(named[name])
                given[named[name]] = var
            elif kwarg is not None:
                engine.flow(var, flow.slot(flow.value(objects.KWARGS, *func), name))
        for index, param in enumerate(params):
            if param.default >= 0 and (spread or index not in filled):
                default = flow.var(func[0], param.default)
                engine.flow(default, flow.param(func, index))
                given.setdefault(index, default)
        return given, spread

    @staticmethod
    def _typed_self(scope: facts.Scope) -> bool:
        """Whether ``func``'s first parameter is a method's ``self``: it holds every instance
        of its class already, and what ``Class.method(x)`` passes adds nothing but doubt (a
        test's patch calling the real method with a ``self`` that outside code gave it made
        every ``self.`` call of that method partial)."""
        return scope.kind == facts.Kind.METHOD and not scope.flags & (
            facts.STATIC | facts.CLASSMETHOD
        )

    def _returned(
        self,
        func: FuncKey,
        returned: set[int],
        given: dict[int, int],
        spread: bool,
        recv: int | None,
        positional: list[int],
        dst: int,
    ) -> None:
        """A function that returns a parameter gives back what this call passed for it."""
        flow = self.flow
        for index in returned:
            if recv is not None and positional and index == positional[0]:
                flow.engine.add(dst, [recv])
            elif index in given and not spread:
                flow.engine.flow(given[index], dst)
            else:
                flow.engine.flow(flow.param(func, index), dst)

    def _signature(
        self, func: FuncKey, params: Sequence[facts.Param]
    ) -> tuple[list[int], int | None, int | None, dict[str, int]]:
        found = self._signatures.get(func)
        if found is None:
            found = self._signatures[func] = (
                [i for i, p in enumerate(params) if p.kind <= ParamKind.POSITIONAL_OR_KEYWORD],
                next((i for i, p in enumerate(params) if p.kind == ParamKind.VAR_POSITIONAL), None),
                next((i for i, p in enumerate(params) if p.kind == ParamKind.VAR_KEYWORD), None),
                {p.name: i for i, p in enumerate(params) if p.kind in _BY_NAME},
            )
        return found

    def _spread(self, var: int, func: FuncKey, remaining: list[int], vararg: int | None) -> None:
        """``f(*xs)``: any element of xs may land on any parameter from here on."""
        flow = self.flow
        targets = [flow.param(func, i) for i in remaining]
        if vararg is not None:
            targets.append(flow.loose(flow.value(objects.ARGS, *func)))
        elements = self.containers.elements(var)
        for target in targets:
            flow.engine.flow(elements, target)

    def _spread_keywords(
        self, var: int, func: FuncKey, named: dict[str, int], kwarg: int | None
    ) -> None:
        """``f(**kw)``: each key of kw lands on the parameter of that name."""
        flow = self.flow

        def slots(key: str | int, slot: int) -> None:
            if isinstance(key, str) and key in named:
                flow.engine.flow(slot, flow.param(func, named[key]))
            elif kwarg is not None:
                flow.engine.flow(slot, flow.slot(flow.value(objects.KWARGS, *func), key))

        def containers(new: Sequence[int]) -> None:
            for value in new:
                kind = flow.values.keys[value][0]
                if kind in objects.CONTAINERS:
                    flow.on_slots(value, slots)
                elif kind == objects.UNKNOWN:
                    for index in named.values():
                        flow.engine.add(flow.param(func, index), [objects.UNKNOWN_ID])

        flow.engine.on(var, containers)

    def construct(
        self,
        site: SiteKey,
        cls: ClassKey,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        operand: int,
    ) -> None:
        """``Cls(...)``: an instance, made by ``__new__`` and ``__init__`` along the MRO (an
        edge to the class itself when the repository defines neither). A ``__new__`` of the
        repository that returns something else than the instance it made gives that instead
        (``instantiation.py``); the call is still named by the class's ``__init__``."""
        flow = self.flow
        program = flow.program
        instance = flow.value(objects.INST, *cls)
        new_owner = program.owner(cls, "__new__")
        made = some = True
        if new_owner is not None:
            kinds = [self._standard_new(f) for f in program.functions_named(new_owner, "__new__")]
            some = any(k[0] for k in kinds)
            made = all(k[1] for k in kinds)
        if made:
            flow.engine.add(dst, [instance])
        elif some:  # the instance or what another return gives: a run-time choice
            flow.alt.add(dst)
            own = flow.temp()  # (the instance through a variable of its own: a source of dst)
            flow.engine.add(own, [instance])
            flow.engine.flow(own, dst)
        found = False
        for method, receiver in (
            ("__init__", instance),
            ("__new__", flow.value(objects.CLASS, *cls)),
        ):
            owner = program.owner(cls, method)
            if owner is None:
                continue
            found = found or method == "__init__"
            cell = flow.class_attr(owner, method)
            once = ("construct", site, cell, receiver)
            if once in flow.once:
                continue
            flow.once.add(once)
            temp = flow.temp() if made else dst

            def run(new: Sequence[int], r: int = receiver, t: int = temp) -> None:
                for value in new:
                    key = flow.values.keys[value]
                    if key[0] in (objects.FUNC, objects.STATIC):
                        func = flow.values.function(value)
                        self.bind(site, func, r, args, keywords, t, "constructor", operand)

            flow.engine.on(cell, run)
        if not found:
            flow.record(site, cls, "constructor", operand)

    def _standard_new(self, func: FuncKey) -> tuple[bool, bool]:
        found = self._standard.get(func)
        if found is None:
            found = self._standard[func] = standard_new(self.flow.program, func)
        return found

    # -- dunders and escapes ----------------------------------------------------------------------
    def protocol(
        self, site: SiteKey, value: int, method: str, args: Args, dst: int, operand: int
    ) -> bool:
        """Run the dunder ``method`` of an instance's class (each class it may be of)."""
        flow = self.flow
        program = flow.program
        found = False
        cone = flow.values.keys[value][0] == objects.CONE
        classes = flow.classes_of(value)
        for cls in classes:
            owner = program.owner(cls, method)
            if owner is None or (cone and flow.instances.never_runs(cls, method, classes)):
                continue
            found = True
            if operand >= 0:
                flow.protocol_results.add((operand, dst, method))
            cell = flow.class_attr(owner, method)
            receiver = self._receiver(value, owner)
            once = ("protocol", site, cell, receiver, dst)
            if once in flow.once:
                continue
            flow.once.add(once)
            flow.engine.on(cell, each_value(_run_dunder, self, site, receiver, args, dst, operand))
        return found

    def _receiver(self, value: int, owner: ClassKey) -> int:
        """What a dunder ``owner`` binds runs on, of the instance ``value``: only the cone of
        ``owner`` where ``value`` is the cone of a base of it. A plain function a class installs
        as the dunder (``__add__ = wrap_method(int.__add__)``, tomlkit) takes the receiver as
        its ``self``; the whole cone of an annotated base made ``self._new`` there reach the
        ``_new`` of subclasses that never install it."""
        flow = self.flow
        key = flow.values.keys[value]
        if key[0] != objects.CONE:
            return value
        base = ClassKey((key[1], key[2]))
        if owner == base or base not in flow.program.mro(owner):
            return value  # (the base's own dunder, or one it inherits: the whole cone runs it)
        return flow.value(objects.CONE, *owner)

    def escape(self, var: int) -> None:
        """Whatever ``var`` holds is handed to code outside the repository."""
        if var in self._escaped_vars:
            return
        self._escaped_vars.add(var)
        flow = self.flow

        def run(new: Sequence[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                kind = key[0]
                if kind == objects.FUNC:
                    self._escaped(FuncKey((key[1], key[2])), skip_receiver=False)
                elif kind in (objects.METH, objects.CLSMETH, objects.STATIC):
                    inner = flow.values.function(value)
                    self._escaped(inner, skip_receiver=kind != objects.STATIC)
                elif kind in (objects.CONT, objects.SYN):
                    self.escape(flow.every(value))

        flow.engine.on(var, run)

    def _escaped(self, func: FuncKey, *, skip_receiver: bool) -> None:
        flow = self.flow
        if func in flow.escaped:
            return
        flow.escaped.add(func)
        scope = flow.scope(func)
        skip = 1 if (skip_receiver or flow.is_method(func)) else 0
        for index, param in enumerate(scope.params):
            if index < skip and param.kind <= ParamKind.POSITIONAL_OR_KEYWORD:
                continue
            if param.kind == ParamKind.VAR_POSITIONAL:
                flow.engine.add(flow.loose(flow.value(objects.ARGS, *func)), [objects.UNKNOWN_ID])
            elif param.kind == ParamKind.VAR_KEYWORD:
                flow.engine.add(flow.loose(flow.value(objects.KWARGS, *func)), [objects.UNKNOWN_ID])
            else:
                flow.engine.add(flow.param(func, index), [objects.UNKNOWN_ID])
            if param.default >= 0:
                flow.engine.flow(flow.var(func[0], param.default), flow.param(func, index))

    # -- values of the repository's own objects --------------------------------------------------
    def _accessor(self, prop: int, args: Args, dst: int) -> None:
        """``@x.setter``: the property x, with this function as its setter."""
        flow = self.flow
        getter = flow.values.keys[prop][1]
        if not args or not isinstance(args[0], int):
            return

        def run(new: Sequence[int]) -> None:
            setters = [v for v in new if flow.values.keys[v][0] == objects.FUNC]
            flow.engine.add(dst, [flow.value(objects.PROP, getter, s) for s in setters])

        flow.engine.on(args[0], run)


def _run_dunder(
    item: int, calls: Calls, site: SiteKey, receiver: int, args: Args, dst: int, operand: int
) -> None:
    """``Calls.protocol``'s rule: a function the class's dunder cell gained runs on
    ``receiver`` (a tuple per rule, where a closure each took 7.9 MB on django's 19,000; a
    plain function, where a bound method would be one more object per rule)."""
    key = calls.flow.values.keys[item]
    if key[0] == objects.FUNC:
        func = FuncKey((key[1], key[2]))
        calls.bind(site, func, receiver, args, [], dst, "protocol", operand)
