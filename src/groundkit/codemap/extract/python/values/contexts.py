"""Calls under another argument's flag: a target only calls that never take the branch give.

A function's parameters each hold what every call passes them (context-insensitive), so a
call run only under a test of one parameter (``if do_eof: reader.read_eof()``) is drawn for
every value any call passes another (``reader``), though the calls passing those values may
all leave the flag off. h11's ``_run_reader_iter`` reads ``read_eof`` only ``if do_eof``, and
the one caller setting it passes an ``Http10Reader``: ``ChunkedReader.read_eof`` never runs
there. cachetools' ``cached(cache, lock=None)`` hands a function to its unlocked wrapper only
``if lock is None``: the functions its ``lru_cache`` decorates (with a lock) never reach it.

Where a target is reached through a parameter (a function called, or a method of an instance
read from it), the calls of its function are followed back (``_LEVELS`` of callers, each
argument lined up with its parameter), each carrying the flags in force: those of the site
(``facts.Facts.flagged``) and of every call on the way. A call whose literal fails a flag
(``values/flags.py``; also ``x is None`` where only instances reach the argument) is a
context where the branch is not taken. A flag on an enclosing function's parameter is judged
at the call that made the closure (``cached(cache, lock=...)(func)``). The target is a guess
(partial) only where no call that may take every branch passes a value reaching it; anything
the map cannot line up (a spread, a method, a function handed to a library, a call through a
partial) counts as a call that does: the target stays as it was.

Only values the repository's calls pass are judged so. A value made past the flag (django's
``mail_managers`` makes the message it calls ``attach_alternative`` on ``if html_message:``,
which no call of the package passes) stays certain though no call of the repository takes
the branch: a call from outside may, as it may call a function the repository never calls.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import flags, objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Contexts"]

# Callers followed back from the site's function: h11's flag is set two calls up
# (``t_body_reader(..., do_eof=True)`` -> ``_run_reader`` -> ``_run_reader_iter``).
_LEVELS = 3
_COPIES = (facts.Copy, facts.Narrow, facts.Tested)
Flag = tuple[FuncKey, int]  # a parameter: its function and its index
Pending = dict[Flag, tuple[tuple[str, bool], ...]]  # parameters and the tests they must pass


class Contexts:
    """Per solved flow: the calls of each function, found when first asked."""

    def __init__(self, flow: Flow, maybe_none: set[int]) -> None:
        self.flow = flow
        self.maybe_none = maybe_none
        self.any = any(info.facts.flagged for info in flow.program.files)
        self._callers: dict[FuncKey, list[tuple[SiteKey, How]]] | None = None
        self._flags: dict[int, dict[int, tuple[int, ...]]] = {}
        self._callees: dict[int, dict[int, int]] = {}
        self._targets: set[FuncKey] | None = None

    def guessed(self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int) -> bool:
        """Whether ``target`` reaches ``site`` only through calls of the site's function (or
        of their callers) whose flags keep the site's branch from running."""
        if not self.any or how != "call" or operand < 0:
            return False
        info = self.flow.program.files[site[0]]
        local = info.local(operand)
        if local < 0:
            return False
        pending = self._pending(site)
        if not pending and not self._flagged_callers(info, local):
            return False  # (no flag on the way: nothing to rule a call out)
        wanted = self._giving(info, local, target)
        if wanted is None:
            return False
        var, values = wanted
        return not self._reaches(site[0], var, values, pending, 0)

    # -- where the target comes from ------------------------------------------------------------
    def _giving(
        self, info: FileInfo, local: int, target: FuncKey | ClassKey
    ) -> tuple[int, frozenset[int]] | None:
        """The local the callee comes from (past copies and a method's read) and the values
        there that give ``target``: functions that are it, or instances whose class finds it."""
        flow = self.flow
        keys = flow.values.keys
        local, op = _origin(info, local)
        if isinstance(op, facts.Attr):
            if op.attr is None:
                return None
            scope = flow.program.files[target[0]].facts.scopes[target[1]]
            owner = ClassKey((target[0], scope.parent))
            local, _ = _origin(info, op.obj)
            values = frozenset(
                v
                for v in flow.engine.held(info.var(local))
                if keys[v][0] == objects.INST
                and flow.program.owner(ClassKey((keys[v][1], keys[v][2])), op.attr) == owner
            )
        else:
            values = frozenset(
                v
                for v in flow.engine.held(info.var(local))
                if keys[v][0] == objects.FUNC and (keys[v][1], keys[v][2]) == target
            )
        return (local, values) if values else None

    def _flagged_callers(self, info: FileInfo, local: int) -> bool:
        """Whether a call of the function whose parameter the callee ``local`` comes from
        (itself, a method read from it, an instance made by calling it) runs under a flag (one
        level: deeper flags are found only from a flagged site)."""
        _, op = _origin(info, local)
        if isinstance(op, facts.Attr):
            _, op = _origin(info, op.obj)
        if isinstance(op, facts.Call):
            _, op = _origin(info, op.func)
        if not isinstance(op, facts.ParamIn):
            return False
        return FuncKey((info.index, op.scope)) in self._flag_targets()

    def _flag_targets(self) -> set[FuncKey]:
        """The functions some flagged site calls (asked before the callers of every function
        are gathered, which only an edge on such a way needs)."""
        if self._targets is None:
            self._targets = set()
            for info in self.flow.program.files:
                for index, _ in info.facts.flagged:
                    found = self.flow.found.get(SiteKey((info.index, index)))
                    if found is not None:
                        self._targets.update(FuncKey(t) for t in found.targets)
        return self._targets

    # -- the calls that may take the branch -----------------------------------------------------
    def _reaches(
        self, file: int, local: int, values: frozenset[int], pending: Pending, depth: int
    ) -> bool:
        """Whether ``values`` may reach ``local`` of ``file`` on a call that passes every flag
        of ``pending`` (where that cannot be told, it may)."""
        info = self.flow.program.files[file]
        local, op = _origin(info, local)
        called = False
        if isinstance(op, facts.Call):  # ``make()``: the instance of a class passed
            classes = self._classes(values)
            if classes is None:
                return True
            values, called = classes, True
            local, op = _origin(info, op.func)
        if not isinstance(op, facts.ParamIn):
            # (made here: a call from outside the repository may take the branch, as one may
            # call a function the repository never calls)
            return True
        return self._through(FuncKey((file, op.scope)), op.index, values, called, pending, depth)

    def _through(
        self,
        func: FuncKey,
        slot: int,
        values: frozenset[int],
        called: bool,
        pending: Pending,
        depth: int,
    ) -> bool:
        """Whether a call of ``func`` passing every flag of ``pending`` passes one of
        ``values`` as its parameter ``slot`` (``~n``: the ``n``-th its ``*args`` collects);
        ``called``: the values are classes the function calls to make an instance."""
        flow = self.flow
        scope = flow.scope(func)
        callers = self.callers().get(func)
        if depth >= _LEVELS or scope.kind != Kind.FUNCTION or func in flow.escaped or not callers:
            return True
        keys = flow.values.keys
        for caller, how in callers:
            if how != "call" or not self._plain_call(caller, func):
                return True
            carried = self._carried(caller, func, scope, pending)
            if carried is None:
                continue  # (a flag this call's literal fails: the branch is not taken)
            passed = self._passed(caller, scope, slot)
            if passed is None:
                return True
            if isinstance(passed, tuple):  # handed on from the caller's own ``*args``
                if self._through(*passed, values, called, carried, depth + 1):
                    return True
                continue
            if passed < 0:  # (the default, where the call passes nothing)
                default = scope.params[slot].default if slot >= 0 else -1
                if default < 0:
                    continue
                passed = flow.var(func[0], default)
            held = flow.engine.held(passed)
            if called and any(keys[v][0] != objects.CLASS for v in held):
                return True  # (what calling a function or an instance gives is not followed)
            if not values & held:
                continue
            local = flow.program.files[caller[0]].local(passed)
            if local < 0 or self._reaches(caller[0], local, values, carried, depth + 1):
                return True  # (a default is made where the function is: no caller's flag)
        return False

    def _carried(
        self, caller: SiteKey, func: FuncKey, scope: facts.Scope, pending: Pending
    ) -> Pending | None:
        """The flags the call at ``caller`` leaves to its own callers (those it passes on
        from its function's parameters, and those in force where it stands); None where a
        literal it passes (or the call that made the closure it calls) fails one."""
        flow = self.flow
        at = flow.program.files[caller[0]]
        out: Pending = self._pending(caller)
        for (owner, index), tests in pending.items():
            if owner == func:
                passed = self._passed(caller, scope, index)
                if isinstance(passed, tuple):  # (handed on from the caller's ``*args``)
                    out[passed] = out.get(passed, ()) + tests
                    continue
                if passed is not None and passed < 0:
                    default = scope.params[index].default if index >= 0 else -1
                    if default < 0:
                        continue
                    passed = flow.var(func[0], default)
                if passed is None:
                    continue
                if flags.ruled_out(flow, tests, passed, (caller, func)) or self._not_none(
                    passed, tests
                ):
                    return None
                param = _param(at, at.local(passed))
                if param is not None:
                    out[param] = out.get(param, ()) + tests
            elif _encloses(flow, owner, func) and self._closure_fails(caller, owner, index, tests):
                return None
        return out

    def _closure_fails(
        self, caller: SiteKey, owner: FuncKey, index: int, tests: tuple[tuple[str, bool], ...]
    ) -> bool:
        """Whether the call that made the closure called at ``caller`` (``cached(cache,
        lock=...)`` of ``cached(...)(func)``) calls ``owner`` with a flag failing ``tests``."""
        flow = self.flow
        at = flow.program.files[caller[0]]
        callee = self.callees(caller[0]).get(caller[1])
        if callee is None:
            return False
        _, op = _origin(at, callee)
        if not isinstance(op, facts.Call):
            return False
        made = SiteKey((caller[0], op.site))
        found = flow.found.get(made)
        if found is None or set(found.targets) != {owner}:
            return False
        scope = flow.scope(owner)
        passed = self._passed(made, scope, index)
        if isinstance(passed, tuple):
            return False
        if passed is not None and passed < 0:
            default = scope.params[index].default
            passed = flow.var(owner[0], default) if default >= 0 else None
        if passed is None:
            return False
        return flags.ruled_out(flow, tests, passed, (made, owner)) or self._not_none(passed, tests)

    def _passed(
        self, caller: SiteKey, scope: facts.Scope, slot: int
    ) -> int | tuple[FuncKey, int] | None:
        """What the call at ``caller`` passes parameter ``slot`` of the plain function
        ``scope`` (``~n``: the ``n``-th positional its ``*args`` collects): a variable, -1
        where it passes none, the caller's own parameter slot where a ``*args`` of its own
        hands it on, None where that cannot be told."""
        flow = self.flow
        site = flow.site(caller)
        if any(name == "" for name, _ in site.keywords):
            return None
        at = flow.program.files[caller[0]]
        if slot >= 0:
            param = scope.params[slot]
            for name, var in site.keywords:
                if name == param.name:
                    return at.var(var)
            if param.kind > facts.ParamKind.POSITIONAL_OR_KEYWORD:
                return -1 if param.kind == facts.ParamKind.KEYWORD_ONLY else None
            position = slot
        else:
            named = sum(p.kind <= facts.ParamKind.POSITIONAL_OR_KEYWORD for p in scope.params)
            position = named + ~slot
        for index, arg in enumerate(site.args):
            if arg < 0:  # ``*v``: the rest are its elements
                return self._handed_on(at, ~arg, position - index)
            if index == position:
                return at.var(arg)
        return -1

    def _handed_on(self, info: FileInfo, local: int, position: int) -> tuple[FuncKey, int] | None:
        """The slot of the ``*args`` of the function ``local`` is (``_run_reader(*args)``
        calling ``_run_reader_iter(*args)``), or None."""
        _, op = _origin(info, local)
        if not isinstance(op, facts.ParamIn):
            return None
        scope = info.facts.scopes[op.scope]
        if scope.params[op.index].kind != facts.ParamKind.VAR_POSITIONAL:
            return None
        return FuncKey((info.index, op.scope)), ~position

    def _not_none(self, var: int, tests: tuple[tuple[str, bool], ...]) -> bool:
        """Whether ``var`` is never ``None`` (it holds values, and ``None`` never reaches it)
        and one of ``tests`` holds only for ``None``."""
        if not any(test == "is:None" and holds for test, holds in tests):
            return False
        return var not in self.maybe_none and bool(self.flow.engine.held(var))

    def _plain_call(self, caller: SiteKey, func: FuncKey) -> bool:
        """Whether ``caller`` calls ``func`` itself (no partial or bound method between): then
        its arguments line up with the parameters."""
        callee = self.callees(caller[0]).get(caller[1])
        if callee is None:
            return False
        keys = self.flow.values.keys
        at = self.flow.program.files[caller[0]]
        for v in self.flow.engine.held(at.var(callee)):
            key = keys[v]
            if key[0] != objects.FUNC and self._runs(v) == func:
                return False
        return True

    def _runs(self, value: int) -> FuncKey | None:
        key = self.flow.values.keys[value]
        if key[0] in (objects.METH, objects.CLSMETH, objects.STATIC, objects.CLASSMETHOD):
            return self.flow.values.function(value)
        if key[0] == objects.PARTIAL:
            return self._runs(key[1])
        return None

    def _classes(self, values: frozenset[int]) -> frozenset[int] | None:
        """The classes whose instances ``values`` are (None: a value that is no instance)."""
        ids = self.flow.values.ids
        keys = self.flow.values.keys
        out = set()
        for v in values:
            key = keys[v]
            found = ids.get((objects.CLASS, key[1], key[2])) if key[0] == objects.INST else None
            if found is None:
                return None
            out.add(found)
        return frozenset(out)

    # -- facts, asked once ----------------------------------------------------------------------
    def _pending(self, site: SiteKey) -> Pending:
        """The flags in force at ``site``: each tested parameter and the tests it passed."""
        by_site = self._flags.get(site[0])
        if by_site is None:
            info = self.flow.program.files[site[0]]
            by_site = self._flags[site[0]] = dict(info.facts.flagged)
        out: Pending = {}
        info = self.flow.program.files[site[0]]
        for copy in by_site.get(site[1], ()):
            tests: list[tuple[str, bool]] = []
            var = copy
            op = info.op_of(var)
            while isinstance(op, facts.Tested):
                tests.append((op.test, op.holds))
                var = op.src
                op = info.op_of(var)
            param = _param(info, var)
            if param is not None and all(flags.is_flag(test) for test, _ in tests):
                out[param] = out.get(param, ()) + tuple(tests)
        return out

    def callers(self) -> dict[FuncKey, list[tuple[SiteKey, How]]]:
        """The sites reaching each function (one pass over every site's targets)."""
        if self._callers is None:
            self._callers = {}
            for site, found in self.flow.found.items():
                for target, (how, _) in found.targets.items():
                    self._callers.setdefault(FuncKey(target), []).append((site, how))
        return self._callers

    def callees(self, file: int) -> dict[int, int]:
        """Each call site of ``file`` -> the local holding its callee."""
        found = self._callees.get(file)
        if found is None:
            ops = self.flow.program.files[file].facts.ops
            found = self._callees[file] = {
                op.site: op.func for op in ops if isinstance(op, facts.Call)
            }
        return found


def _origin(info: FileInfo, local: int) -> tuple[int, facts.Op | None]:
    """Where ``local`` comes from past copies (and a free name's one binding)."""
    op = info.op_of(local)
    while True:
        if isinstance(op, _COPIES) or (isinstance(op, facts.Annot) and op.src >= 0):
            local = op.src
        elif isinstance(op, facts.Final) and len(op.srcs) == 1:
            local = op.srcs[0]
        else:
            return local, op
        op = info.op_of(local)


def _param(info: FileInfo, local: int) -> Flag | None:
    """The parameter ``local`` is a copy of (a free name's too), or None."""
    _, op = _origin(info, local)
    if isinstance(op, facts.ParamIn):
        return FuncKey((info.index, op.scope)), op.index
    return None


def _encloses(flow: Flow, owner: FuncKey, func: FuncKey) -> bool:
    """Whether ``func`` is defined inside ``owner`` (a closure of one of its calls)."""
    if owner[0] != func[0]:
        return False
    scopes = flow.program.files[func[0]].facts.scopes
    at = scopes[func[1]].parent
    while at > 0 and at != owner[1]:
        at = scopes[at].parent
    return at == owner[1]
