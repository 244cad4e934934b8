"""Visitors that pick a method by the class name of the node they are handed::

    method = getattr(visitor, "visit" + node.__class__.__name__, self.generic_visit)
    method(node)

(or ``type(node).__name__``, an f-string ``f"visit_{type(node).__name__}"``, the name or the
method through a local first: mako's ``accept_visitor``, docutils' ``dispatch_visit``,
pycparser's ``CGenerator.visit``). Python looks up the name of the node's own class, so a
method ``visitCode`` is only ever handed instances of a class named ``Code``: a subclass has a
name of its own and goes to its own method or to the default, as does a class no method is
named for. So the ``getattr`` is worked out once per class the node may be (that class's
method, else the default), and the call of what it found that hands on the same node gives
each method the instances of its class only (``Visitors.install_call``). A node the map cannot
name (an outside or unknown object, a literal, a class that binds ``__class__`` itself) may
find any method so prefixed, as before: a run-time choice.

A node given by its cone (``self`` in the node's method: every subclass) is handed to a
method as an instance of the one class: a leaf's cone, or, for a class with subclasses of its
own, its instance where the repository makes one (known after the first round: a base never
made is never visited as itself). A node that still holds nothing after the first round (a
library's visitor that only its users call) may be anything: any method so prefixed, as before.

Where the call is not paired with its ``getattr`` (the method kept in a cache or returned
first, the node not passed on as itself), a method found by a name known only by its start is
handed every node that reaches the call, whatever class named it: the parameters such calls
alone fill hold a choice, and what the method calls on them is partial (``guessed``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.engine import each_value
from groundkit.codemap.extract.python.values.keys import Args, ClassKey, FuncKey, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.calls import Calls
    from groundkit.codemap.extract.python.values.lookups import Lookups

__all__ = ["ByClassName", "Visitors", "guessed"]

_INSTANCES = (objects.INST, objects.CONE)
# What a class binding one of these may answer for a name: not the method so named.
_OWN_LOOKUP = ("__getattr__", "__getattribute__")


@dataclass(frozen=True, slots=True)
class ByClassName:
    """``getattr(receiver, prefix + <node's class name>[, default])``: locals of one file."""

    receiver: int
    prefix: str
    node: int  # the local the name is read from (followed back through copies)
    default: int  # -1: none given


class Visitors:
    """The ``getattr`` calls of each file that name a method by a node's class, and the calls
    of what they find that hand the node on (read from the facts once per file)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        # file -> the dst local of each such getattr call -> what it looks up
        self._by_file: dict[int, dict[int, ByClassName]] = {}
        self._by_site: dict[SiteKey, ByClassName] = {}
        self._names: dict[ClassKey, str | None] = {}
        self._pending: list[tuple[int, ClassKey]] = []  # (``_exactly``)
        # (node, what runs in the second round if it still holds nothing: ``unvisited``)
        self._unvisited: list[tuple[int, Callable[[], None]]] = []

    # -- the facts --------------------------------------------------------------------------------
    def lookups_of(self, file: int) -> dict[int, ByClassName]:
        found = self._by_file.get(file)
        if found is None:
            found = self._by_file[file] = _scan(self.flow.program.files[file])
            if found:
                for lookup_site, lookup in _sites(self.flow.program.files[file], found):
                    self._by_site[SiteKey((file, lookup_site))] = lookup
        return found

    def at(self, site: SiteKey) -> ByClassName | None:
        """The lookup the ``getattr`` call at ``site`` makes, when it names a node's class."""
        self.lookups_of(site[0])
        return self._by_site.get(site)

    def dispatch(self, file: int, op: facts.Call) -> tuple[ByClassName, tuple[int, ...]] | None:
        """Whether the call ``op`` calls what such a getattr found and hands the same node on:
        the lookup, and the positions of the node among the call's arguments."""
        lookups = self.lookups_of(file)
        if not lookups:
            return None
        info = self.flow.program.files[file]
        return _dispatch(info, lookups, op)

    # -- the values -------------------------------------------------------------------------------
    def names(self, value: int) -> list[str | None]:
        """The class names the node ``value`` may have (None: one that cannot be read)."""
        flow = self.flow
        if flow.values.keys[value][0] not in _INSTANCES:
            return [None]
        return [self.class_name(cls) for cls in flow.classes_of(value)]

    def handed(self, value: int) -> list[tuple[int, str | None]]:
        """What the node ``value`` is handed on as for each class it may be (a variable
        holding it), with that class's name (None: the name cannot be read, and the node
        goes on as it is)."""
        flow = self.flow
        key = flow.values.keys[value]
        if key[0] not in _INSTANCES:
            return [(self._holding(value), None)]
        out: list[tuple[int, str | None]] = []
        for cls in flow.classes_of(value):
            name = self.class_name(cls)
            if name is None:
                out.append((self._holding(value), None))
            elif key[0] == objects.INST:
                out.append((self._holding(value), name))
            elif len(flow.program.cone(cls)) == 1:  # (a leaf's cone is that class alone)
                out.append((self._holding(flow.value(objects.CONE, *cls)), name))
            else:
                out.append((self._exactly(cls), name))
        return out

    def _holding(self, value: int) -> int:
        cell = self.flow.cell(("visited", value))
        self.flow.engine.add(cell, [value])
        return cell

    def _exactly(self, cls: ClassKey) -> int:
        """A variable for the instances of ``cls`` itself, not of its subclasses: those the
        repository makes, known once the first round has made them (``second_round``)."""
        key = ("visited exactly", cls)
        cell = self.flow.cells.get(key)
        if cell is None:
            cell = self.flow.cell(key)
            self._pending.append((cell, cls))
        return cell

    def second_round(self) -> None:
        """Each class a node was handed on as exactly, with subclasses of its own: an
        instance of it where the repository makes one (a base never made is never visited
        as itself)."""
        flow = self.flow
        ids = flow.values.ids
        for cell, cls in self._pending:
            if (objects.INST, *cls) in ids:
                flow.engine.add(cell, [ids[(objects.INST, *cls)]])
        self._pending.clear()
        for node, run in self._unvisited:
            if not flow.engine.holds(node):
                run()
        self._unvisited.clear()

    def unvisited(self, node: int, run: Callable[[], None]) -> None:
        """``run`` in the second round if ``node`` holds nothing then: a visitor nobody in
        the repository hands a node (a library's, called by its users) may be handed any,
        and finds any method so prefixed, as a run-time choice."""
        self._unvisited.append((node, run))

    def class_name(self, cls: ClassKey) -> str | None:
        """``type(x).__name__`` of an instance of ``cls``; None where ``x.__class__`` may be
        something else (a class of the repository binding ``__class__``: a proxy)."""
        if cls not in self._names:
            program = self.flow.program
            scope = program.scope(cls)
            own = program.owner(cls, "__class__") is not None
            self._names[cls] = None if own else scope.qual.rsplit(".", 1)[-1]
        return self._names[cls]

    def plain(self, receiver: int) -> bool:
        """Whether ``receiver`` is an instance of classes of the repository whose lookup of a
        name finds the method so named or nothing (then ``getattr`` gives the default)."""
        flow = self.flow
        if flow.values.keys[receiver][0] not in _INSTANCES:
            return False
        program = flow.program
        return all(
            not program.classes[cls].open
            and all(program.owner(cls, name) is None for name in _OWN_LOOKUP)
            for cls in flow.classes_of(receiver)
        )

    def may_lack(self, receiver: int, attr: str) -> bool:
        flow = self.flow
        return any(flow.program.owner(c, attr) is None for c in flow.classes_of(receiver))

    def install_call(
        self,
        calls: Calls,
        lookups: Lookups,
        file: int,
        op: facts.Call,
        lookup: ByClassName,
        positions: tuple[int, ...],
    ) -> None:
        """``method(node)``: each class the node may be calls what the getattr finds for it,
        handed the node as an instance of that class."""
        flow = self.flow
        var = flow.program.files[file].var
        site = SiteKey((file, op.site))
        args, keywords = calls.site_args(site)
        default = var(lookup.default) if lookup.default >= 0 else -1
        rule = each_value(
            _node_called,
            self,
            calls,
            lookups,
            site,
            lookup.prefix,
            args,
            keywords,
            positions,
            var(lookup.receiver),
            default,
            var(op.func),
            var(op.dst),
        )
        node = var(lookup.node)
        flow.engine.on(node, rule)
        anything = each_value(_call, calls, site, args, keywords, var(op.dst), var(op.func))
        self.unvisited(node, partial(flow.engine.on, var(op.func), anything))


def _node_called(
    value: int,
    visitors: Visitors,
    calls: Calls,
    lookups: Lookups,
    site: SiteKey,
    prefix: str,
    args: Args,
    keywords: list[tuple[str, int]],
    positions: tuple[int, ...],
    receiver: int,
    default: int,
    func: int,
    dst: int,
) -> None:
    flow = visitors.flow
    for cell, name in visitors.handed(value):
        once = ("visited", site, cell)
        if once in flow.once:
            continue
        flow.once.add(once)
        given: Args = list(args)
        for position in positions:
            given[position] = cell
        # (a result of its own: a function is bound once per site and result, whatever the
        # arguments, and the default is called once per class)
        result = flow.cell(("visited result", site, cell))
        flow.engine.flow(result, dst)
        if name is None:  # any method the getattr may give (it holds a choice)
            flow.engine.on(func, each_value(_call, calls, site, given, keywords, result, func))
            continue
        rule = each_value(
            _receiver_called,
            visitors,
            calls,
            lookups,
            site,
            prefix + name,
            given,
            keywords,
            receiver,
            default,
            func,
            result,
        )
        flow.engine.on(receiver, rule)


def _receiver_called(
    value: int,
    visitors: Visitors,
    calls: Calls,
    lookups: Lookups,
    site: SiteKey,
    attr: str,
    given: Args,
    keywords: list[tuple[str, int]],
    receiver: int,
    default: int,
    func: int,
    dst: int,
) -> None:
    """The receiver ``value``'s method ``attr`` (or the default, where it has none)."""
    flow = visitors.flow
    found = flow.cell(("visit found", value, attr))
    if ("visit found", found) not in flow.once:
        flow.once.add(("visit found", found))
        lookups.attribute(value, attr, found, None, receiver, site[0])
    flow.engine.on(found, each_value(_call, calls, site, given, keywords, dst, func))
    lacks = not visitors.plain(value) or visitors.may_lack(value, attr)
    if default >= 0 and lacks:
        flow.engine.on(default, each_value(_call, calls, site, given, keywords, dst, func))


def _call(
    value: int,
    calls: Calls,
    site: SiteKey,
    given: Args,
    keywords: list[tuple[str, int]],
    dst: int,
    func: int,
) -> None:
    calls.call(site, value, given, keywords, dst, "call", func)


# -- reading the facts ---------------------------------------------------------------------------
def _builtin(info: FileInfo, local: int, name: str) -> bool:
    """Whether ``local`` reads the builtin ``name`` (no binding of the module shadows it)."""
    op = info.op_of(info.copied_from(local))
    return isinstance(op, facts.Global) and op.name == name and name not in info.binds


def _scan(info: FileInfo) -> dict[int, ByClassName]:
    """The getattr calls of ``info`` that name a method by a node's class, by their dst."""
    found: dict[int, ByClassName] = {}
    sites = info.facts.sites
    calls: dict[int, facts.Call] | None = None
    for index, site in enumerate(sites):
        if site.name != "getattr" or site.keywords or not 2 <= len(site.args) <= 3:
            continue
        if any(a < 0 for a in site.args):
            continue
        calls = calls if calls is not None else info.calls_by_site()
        call = calls.get(index)
        if call is None or not _builtin(info, call.func, "getattr"):
            continue
        named = _named_by_class(info, site.args[1])
        if named is not None:
            prefix, node = named
            default = site.args[2] if len(site.args) == 3 else -1
            found[call.dst] = ByClassName(site.args[0], prefix, node, default)
    return found


def _sites(info: FileInfo, lookups: dict[int, ByClassName]) -> list[tuple[int, ByClassName]]:
    calls = info.calls_by_site()
    return [(site, lookups[op.dst]) for site, op in calls.items() if op.dst in lookups]


def _named_by_class(info: FileInfo, local: int) -> tuple[str, int] | None:
    """``"prefix" + x.__class__.__name__`` (or ``type(x).__name__``, or an f-string of the
    two): the prefix and the local ``x``."""
    op = info.op_of(info.copied_from(local))
    prefix: str | None = None
    name = -1
    if isinstance(op, facts.BinOp) and op.method == "__add__" and op.right >= 0:
        left = info.op_of(info.copied_from(op.left))
        if isinstance(left, facts.Const) and left.text:
            prefix, name = left.text, op.right
    elif isinstance(op, facts.Tmpl) and len(op.pieces) == 2:
        head, tail = op.pieces
        if isinstance(head, str) and head and isinstance(tail, int):
            prefix, name = head, tail
    if prefix is None:
        return None
    node = _class_named(info, name)
    return None if node is None else (prefix, node)


def _class_named(info: FileInfo, local: int) -> int | None:
    """The local whose class's name ``local`` is (``x.__class__.__name__``,
    ``type(x).__name__``), followed back."""
    op = info.op_of(info.copied_from(local))
    if not isinstance(op, facts.Attr) or op.attr != "__name__":
        return None
    held = info.op_of(info.copied_from(op.obj))
    if isinstance(held, facts.Attr) and held.attr == "__class__":
        return info.copied_from(held.obj)
    if isinstance(held, facts.Call) and _builtin(info, held.func, "type"):
        site = info.facts.sites[held.site]
        if len(site.args) == 1 and site.args[0] >= 0 and not site.keywords:
            return info.copied_from(site.args[0])
    return None


def _dispatch(
    info: FileInfo, lookups: dict[int, ByClassName], op: facts.Call
) -> tuple[ByClassName, tuple[int, ...]] | None:
    lookup = lookups.get(info.copied_from(op.func))
    if lookup is None:
        return None
    site = info.facts.sites[op.site]
    if site.kind != facts.SiteKind.CALL or any(a < 0 for a in site.args):
        return None
    if any(not name for name, _ in site.keywords):
        return None
    positions = tuple(i for i, a in enumerate(site.args) if info.copied_from(a) == lookup.node)
    return (lookup, positions) if positions else None


# -- after the solve -----------------------------------------------------------------------------
def guessed(flow: Flow) -> list[int]:
    """The parameters filled only by calls of what a getattr with a name known by its start
    found, where the call is not paired with the getattr (``Visitors.dispatch``): they are
    handed every node that reaches the call, whatever class named the method."""
    return _unpaired(flow)


def _unpaired(flow: Flow) -> list[int]:
    """The parameters filled only by calls of what a getattr with a name known by its start
    found, where the call is not paired with the getattr (``Visitors.dispatch``)."""
    program = flow.program
    engine = flow.engine
    keys = flow.values.keys
    starts: list[int] = []
    methods: set[FuncKey] = set()
    visitors = Visitors(flow)
    for info in program.files:
        for index, site in enumerate(info.facts.sites):
            if site.name != "getattr" or len(site.args) < 2 or site.args[1] < 0:
                continue
            call = info.calls_by_site().get(index)
            name = info.var(site.args[1])
            if call is None or not any(keys[v][0] == objects.PREFIX for v in engine.held(name)):
                continue
            dst = info.var(call.dst)
            starts.append(dst)
            for value in engine.held(dst):
                if keys[value][0] in (objects.FUNC, objects.METH):
                    methods.add(flow.values.function(value))
    if not starts:
        return []
    reached = _reach(flow, starts)
    fed: dict[int, bool] = {}  # parameter cell -> whether only such calls fill it
    direct: set[FuncKey] = set()
    files = program.files
    for site_key, found in flow.found.items():
        targets = [FuncKey(t) for t in found.targets if t in methods]
        if not targets:
            continue
        info = files[site_key[0]]
        call = info.calls_by_site().get(site_key[1])
        if call is None or info.var(call.func) not in reached:
            direct.update(targets)  # (called by name, or by what else the callee held)
            continue
        if visitors.dispatch(info.index, call) is not None:
            continue  # (each method handed its own class: beside these, no other)
        args = [a for a in flow.site(site_key).args if a >= 0]
        for arg in args:
            into = engine.succ[info.var(arg)]
            for cell in (into,) if isinstance(into, int) else into or ():
                fed[cell] = True
    out = []
    for func in methods - direct:
        for index in range(len(flow.scope(func).params)):
            param = flow.cells.get(("param", func, index))
            if param is not None and fed.get(param):
                out.append(param)
    return out


def _reach(flow: Flow, starts: Sequence[int]) -> set[int]:
    """Every variable the copies from ``starts`` reach."""
    succ = flow.engine.succ
    reached = set(starts)
    queue = deque(starts)
    while queue:
        out = succ[queue.popleft()]
        for nxt in (out,) if isinstance(out, int) else out or ():
            if nxt not in reached:
                reached.add(nxt)
                queue.append(nxt)
    return reached
