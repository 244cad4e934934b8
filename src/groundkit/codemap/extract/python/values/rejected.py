"""Callbacks only calls that a callee rejects at once pass: a guess where they are called.

A function's parameter holds what every call passes it (context-insensitive), so the
callbacks of all its callers are drawn where it calls the parameter. But a body that opens
with a check raising on a number (``if window_size < 1: raise ValueError``, the parse's
``Scope.guards``) runs nothing else for a call passing a number that fails it: more-itertools'
``replace(range(4), lambda x: True, window_size=0)`` in a test of the error never calls its
``pred``. A callback every call passing it is so rejected is drawn partial at the calls of
the parameter: only a number written in the call counts (a variable, or a default, may hold
anything), and only calls whose arguments the map can line up with the parameters (a plain
function called directly, no ``*args`` or ``**kwargs`` in the way).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Rejected"]

_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "Lt": operator.lt,
    "LtE": operator.le,
    "Gt": operator.gt,
    "GtE": operator.ge,
    "Eq": operator.eq,
    "NotEq": operator.ne,
}
_RUNS = (objects.FUNC, objects.METH, objects.PARTIAL)  # values whose call runs ``function``


class Rejected:
    """Per solved flow: the calls of each guarded function, found when first asked."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._callers: dict[FuncKey, list[tuple[SiteKey, How]]] | None = None

    def guessed(self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int) -> bool:
        """Whether ``target`` is called at ``site`` through a parameter of a guarded function
        that only calls it rejects pass it."""
        if how != "call" or operand < 0:
            return False
        program = self.flow.program
        info = program.files[site[0]]
        op = info.op_of(info.local(operand))
        while isinstance(op, facts.Copy | facts.Narrow):
            op = info.op_of(op.src)
        if not isinstance(op, facts.ParamIn):
            return False
        scope = info.facts.scopes[op.scope]
        if not scope.guards or scope.kind != Kind.FUNCTION:
            return False
        rejected = False
        for caller, called in self.callers().get(FuncKey((site[0], op.scope)), ()):
            if called != "call":
                return False  # (a library or a decorator calls it: with what is not known)
            if not self._passes(caller, scope, op.index, target):
                continue
            if not self._rejects(scope, caller, op.index):
                return False
            rejected = True
        if not rejected:
            return False
        default = scope.params[op.index].default
        return default < 0 or not self._holds(info.var(default), target)

    def callers(self) -> dict[FuncKey, list[tuple[SiteKey, How]]]:
        """The sites reaching each guarded function (one pass over every site's targets)."""
        if self._callers is None:
            program = self.flow.program
            guarded = {
                FuncKey((info.index, index))
                for info in program.files
                for index, scope in enumerate(info.facts.scopes)
                if scope.guards
            }
            self._callers = {}
            if guarded:
                for site, found in self.flow.found.items():
                    for target, (how, _) in found.targets.items():
                        if target in guarded:
                            self._callers.setdefault(FuncKey(target), []).append((site, how))
        return self._callers

    def _argument(self, caller: SiteKey, scope: facts.Scope, index: int) -> int | None:
        """The variable the call at ``caller`` passes parameter ``index``: -1 where it passes
        none, None where that cannot be told (a spread in the way)."""
        site = self.flow.site(caller)
        param = scope.params[index]
        if any(name == "" for name, _ in site.keywords):
            return None
        for at, arg in enumerate(site.args):
            if arg < 0:
                return None
            if at == index and param.kind <= facts.ParamKind.POSITIONAL_OR_KEYWORD:
                return self.flow.program.files[caller[0]].var(arg)
        for name, var in site.keywords:
            if name == param.name:
                return self.flow.program.files[caller[0]].var(var)
        return -1

    def _passes(self, caller: SiteKey, scope: facts.Scope, index: int, target: object) -> bool:
        """Whether the call may pass ``target`` as parameter ``index`` (where that cannot be
        told, it may)."""
        arg = self._argument(caller, scope, index)
        return arg is None or (arg >= 0 and self._holds(arg, target))

    def _holds(self, var: int, target: object) -> bool:
        values = self.flow.values
        return any(
            values.keys[v][0] in _RUNS and values.function(v) == target
            for v in self.flow.engine.held(var)
        )

    def _rejects(self, scope: facts.Scope, caller: SiteKey, passed: int) -> bool:
        """Whether the call at ``caller`` (a plain call, its arguments lined up) passes a
        number that one of ``scope``'s opening checks raises on."""
        if self._argument(caller, scope, passed) is None:
            return False
        site = self.flow.site(caller)
        numbers = dict(site.numbers)
        for index, compared, bound in scope.guards:
            param = scope.params[index]
            number = numbers.get(param.name)
            if number is None and param.kind <= facts.ParamKind.POSITIONAL_OR_KEYWORD:
                number = numbers.get(index)
            if number is not None and _COMPARE[compared](number, bound):
                return True
        return False
