"""What calling a value does: a function's parameters receive the arguments and the call gives
its return value (or a generator); a class makes an instance and runs ``__init__`` (and
``__new__``); an instance runs ``__call__``; a bound method passes its receiver; built-ins and
outside functions that call what they are given (``library.py``) call it.

Every call of a function of the repository is recorded at its site with how it was reached.
A function handed to code outside the repository (or stored on an outside object) escapes:
that code may call it with anything, so its parameters hold ``UNKNOWN``.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import ParamKind
from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.containers import Containers
from groundkit.codemap.extract.python.values.keys import Args, ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.lookups import Lookups
from groundkit.codemap.extract.python.values.parsers import CommandLines
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Calls"]

_BY_NAME = (ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY)
_CALLABLE = frozenset(
    {
        objects.FUNC,
        objects.METH,
        objects.CLSMETH,
        objects.STATIC,
        objects.PARTIAL,
        objects.CLASS,
        objects.CCONE,
    }
)
# Names of outside calls whose result is kept per site (routers, clients, urlconfs).
WEB_NAMES = frozenset(
    "FastAPI APIRouter Flask Blueprint Starlette Router Client AsyncClient Session session"
    " ClientSession TestClient path re_path url include get post put patch delete head"
    " options trace request stream route api_route websocket".split()
)


class Calls:
    """Calling values, and the rules that call: it holds the container and attribute rules,
    which call back into it."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.containers = Containers(flow, self)
        self.lookups = Lookups(flow, self)
        self.command_lines = CommandLines(flow)
        self._escaped_vars: set[int] = set()
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
        elif kind == objects.EXT:
            self._outside(site, key[1], value, args, keywords, dst, how)
        elif kind == objects.EXTINST:
            self._outside_object(site, key[1], None, args, keywords, dst, how)
        elif kind == objects.BOUND:
            receiver = flow.values.keys[key[1]]
            if how != "decorator" and self.command_lines.owns(receiver[1]):
                if self.command_lines.method(key[1], key[2], args, keywords, dst):
                    self._escape_args(args, keywords)
            else:
                self._outside_object(site, receiver[1], key[2], args, keywords, dst, how)
        elif kind == objects.BUILTIN:
            self._builtin(site, key[1], args, keywords, dst, how, operand)
        elif kind == objects.CMETH:
            self.containers.method(site, key[1], key[2], args, keywords, dst, operand)
        elif kind == objects.UNKNOWN:
            engine.add(dst, [objects.UNKNOWN_ID])
        elif kind in (objects.LIT, objects.STR):
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
        returned = flow.returns_param.get(func)
        if returned and (len(returned) > 1 or func in flow.returns_other):
            flow.alt.add(dst)  # one of several returns: a run-time choice
        engine.flow(flow.ret(func), dst)
        if returned:
            self._returned(func, returned, given, spread, recv, positional, dst)

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
        for arg in args:
            if isinstance(arg, tuple):
                spread = True
                self._spread(arg[1], func, positional[at:], vararg)
                continue
            if spread:
                for index in positional[at:]:
                    engine.flow(arg, flow.param(func, index))
                continue
            if at < len(positional):
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
        self, func: FuncKey, params: list[facts.Param]
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

        def containers(new: set[int]) -> None:
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
        edge to the class itself when the repository defines neither)."""
        flow = self.flow
        instance = flow.value(objects.INST, *cls)
        flow.engine.add(dst, [instance])
        found = False
        for method, receiver in (
            ("__init__", instance),
            ("__new__", flow.value(objects.CLASS, *cls)),
        ):
            owner = flow.program.owner(cls, method)
            if owner is None:
                continue
            found = found or method == "__init__"
            cell = flow.class_attr(owner, method)
            once = ("construct", site, cell, receiver)
            if once in flow.once:
                continue
            flow.once.add(once)
            temp = flow.temp()

            def run(new: set[int], r: int = receiver, t: int = temp) -> None:
                for value in new:
                    key = flow.values.keys[value]
                    if key[0] in (objects.FUNC, objects.STATIC):
                        func = flow.values.function(value)
                        self.bind(site, func, r, args, keywords, t, "constructor", operand)

            flow.engine.on(cell, run)
        if not found:
            flow.record(site, cls, "constructor", operand)

    # -- dunders and escapes ----------------------------------------------------------------------
    def protocol(
        self, site: SiteKey, value: int, method: str, args: Args, dst: int, operand: int
    ) -> bool:
        """Run the dunder ``method`` of an instance's class (each class it may be of)."""
        flow = self.flow
        program = flow.program
        found = False
        for cls in flow.classes_of(value):
            owner = program.owner(cls, method)
            if owner is None:
                continue
            found = True
            if operand >= 0:
                flow.protocol_results.add((operand, dst, method))
            cell = flow.class_attr(owner, method)
            once = ("protocol", site, cell, value, dst)
            if once in flow.once:
                continue
            flow.once.add(once)

            def run(new: set[int], receiver: int = value) -> None:
                for item in new:
                    key = flow.values.keys[item]
                    if key[0] == objects.FUNC:
                        func = FuncKey((key[1], key[2]))
                        self.bind(site, func, receiver, args, [], dst, "protocol", operand)

            flow.engine.on(cell, run)
        return found

    def escape(self, var: int) -> None:
        """Whatever ``var`` holds is handed to code outside the repository."""
        if var in self._escaped_vars:
            return
        self._escaped_vars.add(var)
        flow = self.flow

        def run(new: set[int]) -> None:
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

        def run(new: set[int]) -> None:
            setters = [v for v in new if flow.values.keys[v][0] == objects.FUNC]
            flow.engine.add(dst, [flow.value(objects.PROP, getter, s) for s in setters])

        flow.engine.on(args[0], run)

    # -- outside the repository -------------------------------------------------------------------
    def _outside(
        self,
        site: SiteKey,
        name: str,
        value: int,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
    ) -> None:
        flow = self.flow
        engine = flow.engine
        if name == "functools.cached_property":
            self._property(args, dst)
            return
        if how == "decorator":
            self._kept(args, dst, name)
            return
        if name in library.DYNAMIC:
            engine.add(dst, [objects.UNKNOWN_ID])
            return
        if name == "functools.partial":
            self._partial(site, args, dst)
            return
        chosen = library.CHOOSES.get(name)
        if chosen is not None:  # random.choice(xs): one element, decided at run time
            found = self.arg(args, keywords, chosen, None)
            if found is not None:
                engine.flow(self.containers.elements(found), dst)
                flow.computed_reads.add(dst)
            return
        through = library.PASS_THROUGH.get(name)
        if through is not None:
            found = self.arg(args, keywords, through, None)
            if found is not None:
                engine.flow(found, dst)
            return
        callback = library.LIBRARY.get(name)
        if callback is not None:
            self.callback(site, callback, args, keywords, dst)
            return
        engine.add(dst, [self.outside(name, site, made=True)])
        self._escape_args(args, keywords)

    def _outside_object(
        self,
        site: SiteKey,
        name: str,
        method: str | None,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
    ) -> None:
        flow = self.flow
        if how == "decorator":  # @app.get("/"): the framework keeps the function
            self._kept(args, dst, name if method is None else f"{name}.{method}")
            return
        if method is not None:
            callback = library.METHOD_CALLBACKS.get((name.split(".", maxsplit=1)[0], method))
            if callback is not None:
                self.callback(site, callback, args, keywords, dst)
                return
        called = f"{name}.{method}" if method else name
        flow.engine.add(dst, [self.outside(called, site, made=False)])
        self._escape_args(args, keywords)

    def outside(self, name: str, site: SiteKey, *, made: bool) -> int:
        """What calling an outside ``name`` gives: an object known by that name when a table
        or the web facts may need it (a web object with the call site that made it), else any
        outside object. ``made``: a module's class or function was called (not an object's
        method): objects of the callback tables' packages keep their name that far only."""
        top = name.split(".", 1)[0]
        if made and self.command_lines.owns(name):
            return self.command_lines.made(name, site)
        if top in library.WEB_PACKAGES:
            last = name.rsplit(".", 1)[-1]
            return self.flow.value(objects.EXTINST, name, site if last in WEB_NAMES else None)
        if made and top in library.NAMED_PACKAGES:
            return self.flow.value(objects.EXTINST, name, None)
        return self.flow.value(objects.EXTINST, "?", None)

    def _kept(self, args: Args, dst: int, name: str) -> None:
        """A decorator from outside the repository is taken to keep the function; whatever
        applies it may call it with anything, unless it is one known to leave that to the
        code (``library.KEEPS``)."""
        if args and isinstance(args[0], int):
            self.flow.engine.flow(args[0], dst)
            if name not in library.KEEPS:
                self.escape(args[0])

    def _escape_args(self, args: Args, keywords: list[tuple[str, int]]) -> None:
        for arg in args:
            self.escape(arg if isinstance(arg, int) else arg[1])
        for _, var in keywords:
            self.escape(var)

    def _partial(self, site: SiteKey, args: Args, dst: int) -> None:
        flow = self.flow
        if not args or not isinstance(args[0], int):
            return

        def run(new: set[int]) -> None:
            made = [
                flow.value(objects.PARTIAL, v, site[0], site[1])
                for v in new
                if flow.values.keys[v][0] in _CALLABLE
            ]
            flow.engine.add(dst, made)

        flow.engine.on(args[0], run)

    def _property(self, args: Args, dst: int) -> None:
        flow = self.flow
        if not args or not isinstance(args[0], int):
            return

        def run(new: set[int]) -> None:
            getters = [v for v in new if flow.values.keys[v][0] == objects.FUNC]
            flow.engine.add(dst, [flow.value(objects.PROP, g, -1) for g in getters])

        flow.engine.on(args[0], run)

    def callback(
        self,
        site: SiteKey,
        spec: library.Callback,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
    ) -> None:
        """A library call that calls the function it is given: the function is called here."""
        flow = self.flow
        engine = flow.engine
        func = self.arg(args, keywords, spec.position, spec.keyword)
        if func is None:
            engine.add(dst, [objects.LIT_ID])
            return
        after = args[spec.position + 1 :] if spec.position is not None else args
        call_args: Args = []
        result = flow.temp()
        if spec.call_with == "rest":
            call_args = list(after)
        elif spec.call_with == "elements":
            call_args = [self.containers.elements(a if isinstance(a, int) else a[1]) for a in after]
        elif spec.call_with == "key":
            first = args[0] if args else None
            if isinstance(first, int):
                call_args = [self.containers.elements(first)]
        elif spec.call_with == "args":
            given = self.arg(args, keywords, None, "args")
            if given is not None:
                call_args = [("*", given)]
        elif spec.call_with == "unknown":
            unknown = flow.cell(("unknown",))
            engine.add(unknown, [objects.UNKNOWN_ID])
            call_args = [unknown]
        elif spec.call_with == "pair":
            iterable = next((a for a in after if isinstance(a, int)), None)
            element = self.containers.elements(iterable) if iterable is not None else flow.lit
            accumulator = flow.temp()
            engine.flow(result, accumulator)
            call_args = [accumulator, element]

        def run(new: set[int]) -> None:
            for value in new:
                if flow.values.keys[value][0] in _CALLABLE or flow.values.keys[value][0] in (
                    objects.INST,
                    objects.CONE,
                ):
                    self.call(site, value, call_args, [], result, "callback", func)

        engine.on(func, run)
        self._returns(site, spec, func, args, result, dst)

    def _returns(
        self, site: SiteKey, spec: library.Callback, func: int, args: Args, result: int, dst: int
    ) -> None:
        flow = self.flow
        engine = flow.engine
        if spec.returns == "function":
            engine.flow(func, dst)
        elif spec.returns == "result":
            engine.flow(result, dst)
        elif spec.returns in ("results", "elements"):
            made = flow.value(objects.SYN, "made", site)
            if spec.returns == "results":
                engine.flow(result, flow.loose(made))
            else:
                source = next((a for a in args if isinstance(a, int) and a != func), None)
                if source is not None:
                    engine.flow(self.containers.elements(source), flow.loose(made))
            engine.add(dst, [made])
        elif spec.returns == "element":
            source = args[0] if args and isinstance(args[0], int) else None
            if source is not None:
                engine.flow(self.containers.elements(source), dst)
        else:
            engine.add(dst, [flow.value(objects.EXTINST, "?", None)])

    # -- built-ins --------------------------------------------------------------------------------
    def _builtin(
        self,
        site: SiteKey,
        name: str,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
        operand: int,
    ) -> None:
        flow = self.flow
        engine = flow.engine
        first = args[0] if args and isinstance(args[0], int) else None
        if name in ("staticmethod", "classmethod") and first is not None:
            kind = objects.STATIC if name == "staticmethod" else objects.CLASSMETHOD

            def wrap(new: set[int], k: int = kind) -> None:
                funcs = [v for v in new if flow.values.keys[v][0] == objects.FUNC]
                engine.add(dst, [flow.value(k, v) for v in funcs])

            engine.on(first, wrap)
        elif name == "property":
            getter = self.arg(args, keywords, 0, "fget")
            if getter is not None:
                self._property(list(args[:1]) if args else [getter], dst)
        elif name in library.BUILTIN_CALLBACKS:
            self.callback(site, library.BUILTIN_CALLBACKS[name], args, keywords, dst)
        elif name in ("getattr", "setattr") and len(args) >= 2:
            self.lookups.dynamic(site, name, args, dst, operand)
        elif name == "type" and len(args) == 1 and first is not None:
            engine.on(first, lambda new: engine.add(dst, self._types(new)))
        elif name == "next" and first is not None:
            engine.flow(self.containers.elements(first), dst)
            if len(args) > 1 and isinstance(args[1], int):
                engine.flow(args[1], dst)
        elif name == "iter" and first is not None and len(args) == 1:
            engine.flow(first, dst)
            self.containers.elements(first)
        elif name in ("list", "tuple", "set", "frozenset", "dict"):
            made = flow.value(objects.SYN, name, site)
            if first is not None:
                engine.flow(self.containers.elements(first), flow.loose(made))
            for key, var in keywords:
                if key:
                    engine.flow(var, flow.slot(made, key))
            engine.add(dst, [made])
        elif name in ("enumerate", "zip"):
            self._pairs(site, name, args, dst)
        elif name == "reversed" and first is not None:
            self._reversed(site, first, dst)
        elif name in library.BUILTIN_PROTOCOLS and first is not None:
            method = library.BUILTIN_PROTOCOLS[name]
            engine.on(
                first,
                lambda new: [
                    self.protocol(site, v, method, [], flow.temp(), first)
                    for v in new
                    if flow.values.keys[v][0] in (objects.INST, objects.CONE)
                ],
            )
            engine.add(dst, [objects.LIT_ID])
        elif name in ("eval", "exec", "compile", "globals", "locals", "vars", "__import__"):
            flow.dynamic.add(site)
            engine.add(dst, [objects.UNKNOWN_ID])
        else:
            engine.add(dst, [objects.LIT_ID])

    def _reversed(self, site: SiteKey, first: int, dst: int) -> None:
        """``reversed(xs)``: the elements of a container, in another order (what an
        instance's ``__reversed__`` returns)."""
        flow = self.flow
        made = flow.value(objects.SYN, "reversed", site)
        flow.engine.flow(self.containers.elements(first), flow.loose(made))

        def run(new: set[int]) -> None:
            for value in new:
                if flow.values.keys[value][0] in (objects.INST, objects.CONE):
                    self.protocol(site, value, "__reversed__", [], dst, first)
                elif flow.values.keys[value][0] != objects.UNKNOWN:
                    flow.engine.add(dst, [made])
                else:
                    flow.engine.add(dst, [objects.UNKNOWN_ID])

        flow.engine.on(first, run)

    def _types(self, new: set[int]) -> list[int]:
        flow = self.flow
        out = []
        for value in new:
            key = flow.values.keys[value]
            if key[0] == objects.INST:
                out.append(flow.value(objects.CLASS, key[1], key[2]))
            elif key[0] == objects.CONE:
                out.append(flow.value(objects.CCONE, key[1], key[2]))
            elif key[0] == objects.UNKNOWN:
                out.append(objects.UNKNOWN_ID)
            else:
                out.append(objects.LIT_ID)
        return out

    def _pairs(self, site: SiteKey, name: str, args: Args, dst: int) -> None:
        """``enumerate(xs)`` / ``zip(a, b)``: tuples whose items are the iterables' elements."""
        flow = self.flow
        pair = flow.value(objects.SYN, "pair", site)
        sources = [a for a in args if isinstance(a, int)]
        if name == "enumerate":
            flow.engine.add(flow.slot(pair, 0), [objects.LIT_ID])
            sources = sources[:1]
            offset = 1
        else:
            offset = 0
        for i, source in enumerate(sources):
            flow.engine.flow(self.containers.elements(source), flow.slot(pair, i + offset))
        made = flow.value(objects.SYN, name, site)
        flow.engine.add(flow.loose(made), [pair])
        flow.engine.add(dst, [made])
