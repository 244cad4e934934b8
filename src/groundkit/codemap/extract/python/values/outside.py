"""What calling something outside the repository does: a module's function or class (by its
dotted name), an outside object's method, a built-in. Library functions that call what they
are given call it here (``library.py``'s tables); argparse keeps its namespace
(``parsers.py``); anything else outside gives an outside object, and what it is handed escapes
(``Calls.escape``): that code may call it with anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.keys import Args, How, SiteKey
from groundkit.codemap.extract.python.values.parsers import CommandLines
from groundkit.codemap.extract.python.values.state import Flow

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.calls import Calls

__all__ = ["WEB_NAMES", "Outside"]

# An instance's class, and the instance a class makes (``type(x)``, ``object.__new__(cls)``).
_CLASS_OF = {objects.INST: objects.CLASS, objects.CONE: objects.CCONE}
_INSTANCE_OF = {kind: instance for instance, kind in _CLASS_OF.items()}
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
    " options trace request stream route api_route websocket DefaultRouter SimpleRouter".split()
)


class Outside:
    def __init__(self, flow: Flow, calls: Calls) -> None:
        self.flow = flow
        self.calls = calls  # calling the repository's own values (it holds this one)
        self.command_lines = CommandLines(flow)

    def bound(
        self,
        site: SiteKey,
        bound: int,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        how: How,
    ) -> None:
        """A BOUND value called: an outside object's method."""
        flow = self.flow
        key = flow.values.keys[bound]
        receiver = flow.values.keys[key[1]]
        if how != "decorator" and self.command_lines.owns(receiver[1]):
            if self.command_lines.method(key[1], key[2], args, keywords, dst):
                self.escape_args(args, keywords)
        else:
            self.method(site, receiver[1], key[2], args, keywords, dst, how)

    # -- functions and objects -------------------------------------------------------------------
    def function(
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
        if name == library.ROW:  # a row of ``parametrize``'s values, like a tuple
            row = flow.value(objects.SYN, name, site)
            for index, arg in enumerate(args):
                if isinstance(arg, int):
                    engine.flow(arg, flow.slot(row, index))
            engine.add(dst, [row])
            return
        chosen = library.CHOOSES.get(name)
        if chosen is not None:  # random.choice(xs): one element, decided at run time
            found = self.calls.arg(args, keywords, chosen, None)
            if found is not None:
                engine.flow(self.calls.containers.elements(found), dst)
                flow.computed_reads.add(dst)
            return
        through = library.PASS_THROUGH.get(name)
        if through is not None:
            found = self.calls.arg(args, keywords, through, None)
            if found is not None:
                engine.flow(found, dst)
            return
        callback = library.LIBRARY.get(name)
        if callback is not None:
            self.callback(site, callback, args, keywords, dst)
            return
        engine.add(dst, [self.made(name, site, made=True)])
        self.escape_args(args, keywords)

    def method(
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
        flow.engine.add(dst, [self.made(called, site, made=False)])
        self.escape_args(args, keywords)

    def made(self, name: str, site: SiteKey, *, made: bool) -> int:
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
            pytest = name in library.FIXTURES or name.startswith(library.MARKS)
            if name not in library.KEEPS and not pytest:
                self.calls.escape(args[0])

    def escape_args(self, args: Args, keywords: list[tuple[str, int]]) -> None:
        for arg in args:
            self.calls.escape(arg if isinstance(arg, int) else arg[1])
        for _, var in keywords:
            self.calls.escape(var)

    def _partial(self, site: SiteKey, args: Args, dst: int) -> None:
        flow = self.flow
        if not args or not isinstance(args[0], int):
            return

        def run(new: Sequence[int]) -> None:
            made = [
                flow.value(objects.PARTIAL, v, site[0], site[1])
                for v in new
                if flow.values.keys[v][0] in _CALLABLE
            ]
            flow.engine.add(dst, made)

        flow.depends.extend((args[0], dst))  # (a choice of function is a choice of partial)
        flow.engine.on(args[0], run)

    def _property(self, args: Args, dst: int) -> None:
        flow = self.flow
        if not args or not isinstance(args[0], int):
            return

        def run(new: Sequence[int]) -> None:
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
        func = self.calls.arg(args, keywords, spec.position, spec.keyword)
        if func is None:
            engine.add(dst, [objects.LIT_ID])
            return
        after = args[spec.position + 1 :] if spec.position is not None else args
        call_args: Args = []
        result = flow.temp()
        if spec.call_with == "rest":
            call_args = list(after)
        elif spec.call_with == "elements":
            call_args = [
                self.calls.containers.elements(a if isinstance(a, int) else a[1]) for a in after
            ]
        elif spec.call_with == "key":
            first = args[0] if args else None
            if isinstance(first, int):
                call_args = [self.calls.containers.elements(first)]
        elif spec.call_with == "args":
            given = self.calls.arg(args, keywords, None, "args")
            if given is not None:
                call_args = [("*", given)]
        elif spec.call_with == "unknown":
            unknown = flow.cell(("unknown",))
            engine.add(unknown, [objects.UNKNOWN_ID])
            call_args = [unknown]
        elif spec.call_with == "pair":
            iterable = next((a for a in after if isinstance(a, int)), None)
            element = self.calls.containers.elements(iterable) if iterable is not None else flow.lit
            accumulator = flow.temp()
            engine.flow(result, accumulator)
            call_args = [accumulator, element]

        def run(new: Sequence[int]) -> None:
            for value in new:
                if flow.values.keys[value][0] in _CALLABLE or flow.values.keys[value][0] in (
                    objects.INST,
                    objects.CONE,
                ):
                    self.calls.call(site, value, call_args, [], result, "callback", func)

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
                    engine.flow(self.calls.containers.elements(source), flow.loose(made))
            engine.add(dst, [made])
        elif spec.returns == "element":
            source = args[0] if args and isinstance(args[0], int) else None
            if source is not None:
                engine.flow(self.calls.containers.elements(source), dst)
        else:
            engine.add(dst, [flow.value(objects.EXTINST, "?", None)])

    def _wrapper(self, kind: int, func: int, dst: int) -> None:
        """``staticmethod(func)`` or ``classmethod(func)``: ``kind`` of each function."""
        flow = self.flow
        engine = flow.engine

        def wrap(new: Sequence[int]) -> None:
            keys = flow.values.keys
            engine.add(dst, [flow.value(kind, v) for v in new if keys[v][0] == objects.FUNC])
            if kind == objects.STATIC:
                # a staticmethod of another callable gives it back as it is when read
                engine.add(dst, [v for v in new if self._kept_static(v)])

        # a choice of function is a choice of wrapper: what calls it calls one of them
        flow.depends.extend((func, dst))
        engine.on(func, wrap)

    def _kept_static(self, value: int) -> bool:
        """Whether ``staticmethod(value)`` read from its class is ``value`` itself: a
        ``functools.partial`` or an instance of a class without ``__get__`` (one with it would
        have run ``__get__`` as a plain class attribute, which the wrapper stops)."""
        flow = self.flow
        kind = flow.values.keys[value][0]
        if kind == objects.PARTIAL:
            return True
        if kind not in (objects.INST, objects.CONE):
            return False
        owner = flow.program.owner
        return all(owner(cls, "__get__") is None for cls in flow.classes_of(value))

    # -- built-ins --------------------------------------------------------------------------------
    def builtin(
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
            self._wrapper(
                objects.STATIC if name == "staticmethod" else objects.CLASSMETHOD, first, dst
            )
        elif name == "property":
            getter = self.calls.arg(args, keywords, 0, "fget")
            if getter is not None:
                self._property(list(args[:1]) if args else [getter], dst)
        elif name in library.BUILTIN_CALLBACKS:
            self.callback(site, library.BUILTIN_CALLBACKS[name], args, keywords, dst)
        elif name in ("getattr", "setattr") and len(args) >= 2:
            self.calls.lookups.dynamic(site, name, args, dst, operand)
        elif name == "type" and len(args) == 1 and first is not None:
            engine.on(first, lambda new: engine.add(dst, self._types(new)))
        elif name == "object.__new__" and first is not None:
            # an instance of the class passed, made without running its __init__; a choice
            # of class is a choice of instance
            flow.depends.extend((first, dst))
            engine.on(first, lambda new: engine.add(dst, self._instances(new)))
        elif name == "next" and first is not None:
            engine.flow(self.calls.containers.elements(first), dst)
            if len(args) > 1 and isinstance(args[1], int):
                engine.flow(args[1], dst)
        elif name == "iter" and first is not None and len(args) == 1:
            engine.flow(first, dst)
            self.calls.containers.elements(first)
        elif name in ("list", "tuple", "set", "frozenset", "dict"):
            made = flow.value(objects.SYN, name, site)
            if first is not None:
                engine.flow(self.calls.containers.elements(first), flow.loose(made))
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
                    self.calls.protocol(site, v, method, [], flow.temp(), first)
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
        flow.engine.flow(self.calls.containers.elements(first), flow.loose(made))

        def run(new: Sequence[int]) -> None:
            for value in new:
                if flow.values.keys[value][0] in (objects.INST, objects.CONE):
                    self.calls.protocol(site, value, "__reversed__", [], dst, first)
                elif flow.values.keys[value][0] != objects.UNKNOWN:
                    flow.engine.add(dst, [made])
                else:
                    flow.engine.add(dst, [objects.UNKNOWN_ID])

        flow.engine.on(first, run)

    def _types(self, new: Sequence[int]) -> list[int]:
        """What ``type(x)`` gives for each value ``x`` may be."""
        return self._mapped(new, _CLASS_OF)

    def _instances(self, new: Sequence[int]) -> list[int]:
        """What ``object.__new__(cls)`` makes of each class ``cls`` may be."""
        return self._mapped(new, _INSTANCE_OF)

    def _mapped(self, new: Sequence[int], kinds: dict[int, int]) -> list[int]:
        flow = self.flow
        out = []
        for value in new:
            key = flow.values.keys[value]
            if key[0] in kinds:
                out.append(flow.value(kinds[key[0]], key[1], key[2]))
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
            flow.engine.flow(self.calls.containers.elements(source), flow.slot(pair, i + offset))
        made = flow.value(objects.SYN, name, site)
        flow.engine.add(flow.loose(made), [pair])
        flow.engine.add(dst, [made])
