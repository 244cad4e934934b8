"""Event listeners across the repository: a function registered for a literal event name on an
emitter (``bus.on("saved", f)``, ``once``, ``addListener``, ``prependListener``,
``el.addEventListener("click", f)``), and which of them an ``emit("saved")`` or a
``dispatchEvent(new Event("click"))`` runs.

An emitter is known by what it is: a runtime ``EventEmitter``/``EventTarget`` bound to a
module-level name (``Emitter``: the name is its identity), an instance of a class of the
repository (one that extends ``EventEmitter``: any instance of the class, or of a class related
to it by ``extends``), or a global (``window``, ``document``). Anything else (a package's
object, an emitter made inside a function, a parameter nobody known feeds) is not known: its
listeners are run only maybe (``partial``)."""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.objects import (
    Def,
    Emitter,
    Feed,
    Global,
    Inst,
    Value,
)

__all__ = ["FIRE", "REGISTER", "Events", "Listener", "event_name"]

REGISTER = frozenset(
    "on once addListener prependListener prependOnceListener addEventListener".split()
)
FIRE = frozenset({"emit", "dispatchEvent"})
_EVENTS = frozenset({"Event", "CustomEvent"})


@dataclass(frozen=True, slots=True)
class Listener:
    emitter: Value  # Emitter, Inst, Global; anything else is not known
    name: str
    target: Def


def event_name(method: str, args: list[facts.Expr]) -> str | None:
    """The literal event an ``emit("x")`` / ``dispatchEvent(new Event("x"))`` fires."""
    first = args[0] if args else None
    if method == "dispatchEvent" and isinstance(first, facts.New) and first.ref:
        first = first.args[0] if first.ref[-1] in _EVENTS and first.args else None
    return first.text if isinstance(first, facts.Str) else None


class Events:
    def __init__(self, ev: Evaluator, flow: Flow, sources: list[str]) -> None:
        self.ev = ev
        self.flow = flow
        self.sources = sources
        self._by_name: dict[str, list[Listener]] | None = None

    def listeners(self, name: str) -> list[Listener]:
        self.flow.consulted = True  # any file's registrations may change the answer
        if self._by_name is None:
            saved, self.ev.deps = self.ev.deps, set()
            try:
                self._by_name = self._build()
            finally:
                self.ev.deps = saved
        return self._by_name.get(name, [])

    def same(self, fired: Value, registered: Value) -> bool | None:
        """Whether two emitters are one: True, False, or None when either is not known."""
        if not _known(fired) or not _known(registered):
            return None
        if isinstance(fired, Inst) and isinstance(registered, Inst):
            return self._related(fired.cls, registered.cls)
        return fired == registered

    def _related(self, a: Def, b: Def) -> bool:
        return a == b or b in self.flow.subclasses(a) or a in self.flow.subclasses(b)

    def _build(self) -> dict[str, list[Listener]]:
        out: dict[str, list[Listener]] = {}
        for path in self.sources:
            for record in self.ev.interface(path).passes:
                split = _method_of(record.callee)
                args = record.args
                if split is None or split[1] not in REGISTER or len(args) < 2:
                    continue
                if not isinstance(args[0], facts.Str):
                    continue
                emitter = self.ev.value(split[0], (path, -1))
                for target in self._targets(self.ev.value(args[1], (path, -1))):
                    out.setdefault(args[0].text, []).append(Listener(emitter, args[0].text, target))
        return out

    def _targets(self, value: Value) -> list[Def]:
        held = (self.flow.feeds(value) or set()) if isinstance(value, Feed) else {value}
        return sorted(
            (v for v in held if isinstance(v, Def) and v.kind != "class"),
            key=lambda d: (d.path, d.qual),
        )


def _known(value: Value) -> bool:
    if isinstance(value, Emitter):
        return bool(value.id)
    return isinstance(value, Inst | Global)


def _method_of(callee: facts.Expr) -> tuple[facts.Expr, str] | None:
    """``bus.on`` -> (``bus``, ``on``); ``this.on`` closed (``Get(This(C), [on])``) likewise."""
    if isinstance(callee, facts.Ref) and len(callee.parts) > 1:
        return facts.Ref(callee.parts[:-1]), callee.parts[-1]
    if isinstance(callee, facts.Get) and callee.attrs:
        base = callee.base if len(callee.attrs) == 1 else facts.Get(callee.base, callee.attrs[:-1])
        return base, callee.attrs[-1]
    return None
