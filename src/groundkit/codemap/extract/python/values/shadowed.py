"""Instance attributes that shadow a class's attribute on some instances only: a run-time choice.

An instance's own attribute hides what its class binds under that name (a method, a class, a
non-data descriptor). The flow reads both where ``y.attr`` is read (``Lookups.result``: the
instance attribute cells along the MRO, then the class attribute cells), and an instance
attribute is one cell for every instance, so where only some instances have it, each read
holds both as if every instance ran both:

- set on some instances only (cachetools' ``Cache.__init__`` sets ``self.getsizeof =
  getsizeof`` only when one is given, shadowing the class's static method): a cache made
  without one runs ``Cache.getsizeof``, and the function given to another instance never runs
  there. Where the instance attribute cells and the class's cells hold different values (plain
  data and descriptors aside), the read is a choice (``Shadowed.seeds``), unless every class
  the receiver may be sets it in the opening assignments of its one ``__init__``
  (``Scope.sets``): then every instance has it, what it stored is certain, and calling what
  the class binds there never runs (``Shadowed.guessed``: partial).
- set by a caching descriptor (mako's ``memoized_property``, django's ``cached_property``: a
  non-data descriptor whose ``__get__`` stores its result in ``obj.__dict__`` by a computed
  name, ``setattr(obj, ...)`` or ``vars(obj)[...]``; not werkzeug's, a ``property`` whose
  ``__get__`` runs at every read): once read, the instance's own value hides
  the descriptor, so ``__get__`` runs at the first read of each instance only. Which read is
  the first is not followed in general (a descriptor read at one site, or at sites of
  different functions, stays certain); but where the same object was read before in the same
  function (``y.attr`` at an earlier place, ``y`` handed earlier to a function whose parameter
  it reads ``attr`` of, or sent a method reading ``self.attr``), that read has run ``__get__``
  already, and this one runs it on some runs only (``read_again``): mako's tests call
  ``_install_mock_cache(t)``, which reads ``t.cache``, and then ``t.cache.invalidate_def()``.

Both are worked out after the solve from what cells hold, the sites' targets and the files'
facts (no copy edges), so nothing is kept during the solve and a continued solve works them
out the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Shadowed", "read_again"]

_INSTANCES = (objects.INST, objects.CONE)
# What is compared between an instance's own attribute and its class's: what a call through
# it, or of a method on it, may run. Not plain data or containers (their elements are judged
# where they are read), nor a property (a data descriptor: ``self.x = v`` runs its setter).
_CALLED = frozenset(
    {
        objects.FUNC,
        objects.METH,
        objects.CLSMETH,
        objects.STATIC,
        objects.CLASSMETHOD,
        objects.PARTIAL,
        objects.CLASS,
        objects.CCONE,
        objects.INST,
        objects.CONE,
        objects.EXT,
        objects.EXTINST,
        objects.BOUND,
    }
)
_FUNCTIONS = frozenset(
    {objects.FUNC, objects.METH, objects.CLSMETH, objects.STATIC, objects.CLASSMETHOD}
)
# Where a caching ``__get__`` stores its result: ``vars(obj)[k] = v``, ``setattr(obj, k, v)``.
_STORING_CALLS = frozenset({"vars", "setattr"})


class Shadowed:
    """Per solved flow: the reads where an instance attribute hides the class's attribute on
    some instances only (``seeds``, choices to start from), and the functions the class binds
    that every instance hides where it is read (``hidden``)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.seeds: list[int] = []
        # a read's result -> what the class binds there that every instance's own hides
        self.hidden: dict[int, frozenset[FuncKey | ClassKey]] = {}
        engine = flow.engine
        keys = flow.values.keys
        self._instance: dict[tuple[ClassKey, str], set[int]] = {}
        on_class = {
            key[2] for key, var in flow.cells.items() if key[0] == "cattr" and engine.held(var)
        }
        for info in flow.program.files:
            for op in info.facts.ops:
                if type(op) is facts.SetAttr and op.attr in on_class:
                    self._stored(info, op)
        names = {name for _, name in self._instance}
        if not names:
            return
        self._deleted = {name for info in flow.program.files for name in info.facts.scopes[0].sets}
        judged: dict[tuple[ClassKey, str], tuple[bool, frozenset[int]]] = {}
        for info in flow.program.files:
            for op in info.facts.ops:
                if type(op) is not facts.Attr or op.attr not in names:
                    continue
                classes = {
                    cls
                    for value in engine.held(info.var(op.obj))
                    if keys[value][0] in _INSTANCES
                    for cls in flow.classes_of(value)
                }
                always = bool(classes)
                bound: set[int] = set()
                for cls in classes:
                    pair = (cls, op.attr)
                    found = judged.get(pair)
                    if found is None:
                        found = judged[pair] = self._judge(cls, op.attr)
                    always = always and found[0]
                    bound.update(found[1])
                if not bound:
                    continue
                if always:
                    self.hidden[info.var(op.dst)] = frozenset(self._bound(bound))
                else:
                    self.seeds.append(info.var(op.dst))

    def _stored(self, info: FileInfo, op: facts.SetAttr) -> None:
        """Note what ``obj.attr = src`` gives instances of its own. A store by code other
        than a method on its own ``self`` that replaces a method the class defines with
        ``def`` is ``replaced.py``'s: it follows which instances reach a call."""
        attr = op.attr
        assert attr is not None
        if attr.startswith("__") and attr.endswith("__"):
            return  # (syntax finds a dunder on the class, never on the instance)
        flow = self.flow
        keys = flow.values.keys
        values = {v for v in flow.engine.held(info.var(op.src)) if keys[v][0] in _CALLED}
        if not values:
            return
        own = _own_self(info, op.obj)
        program = flow.program
        for value in flow.engine.held(info.var(op.obj)):
            if keys[value][0] not in _INSTANCES:
                continue
            cls = flow.values.class_of(value)
            if not own:
                owner = program.owner(cls, attr)
                if owner is not None and program.functions_named(owner, attr):
                    continue
            self._instance.setdefault((cls, attr), set()).update(values)

    def guessed(self, target: FuncKey | ClassKey, how: How, operand: int) -> bool:
        """Whether ``target`` is reached through a read whose every instance has its own
        attribute (``y.attr()``, ``attr`` set by each ``__init__``): what the class binds
        there never runs."""
        if not self.hidden or how not in ("call", "constructor"):
            return False
        hidden = self.hidden.get(operand)
        return hidden is not None and target in hidden

    def _judge(self, cls: ClassKey, attr: str) -> tuple[bool, frozenset[int]]:
        """Whether every instance of ``cls`` has its own ``attr`` (``_always_set``), and the
        values the class's attribute along the MRO holds that instances' own may hide
        (none where they hold the same: nothing to choose)."""
        flow = self.flow
        program = flow.program
        mro = program.mro(cls)
        own: set[int] = set()
        for owner in mro:
            own.update(self._instance.get((owner, attr), ()))
        if not own:
            return False, frozenset()
        engine = flow.engine
        keys = flow.values.keys
        bound: set[int] = set()
        for owner in mro:
            cell = flow.cells.get(("cattr", owner, attr))
            if cell is not None:
                for value in engine.held(cell):
                    kind = keys[value][0]
                    if kind not in _CALLED:
                        continue
                    if kind in _INSTANCES and any(
                        program.owner(c, "__get__") is not None for c in flow.classes_of(value)
                    ):
                        continue  # a descriptor: judged where it is read (``descriptors.py``)
                    bound.add(value)
            if program.binds_in_class(owner, attr):
                break
        if not bound or bound == own:
            return False, frozenset()
        always = attr not in self._deleted and _always_set(program, cls, attr)
        return always, frozenset(bound - own if always else bound)

    def _bound(self, values: set[int]) -> Iterable[FuncKey | ClassKey]:
        """The functions (and classes) calling ``values`` runs."""
        found = self.flow.values
        for value in values:
            kind = found.keys[value][0]
            if kind in _FUNCTIONS:
                yield found.function(value)
            elif kind == objects.CLASS:
                yield found.class_of(value)


def _always_set(program: Program, cls: ClassKey, attr: str) -> bool:
    """Whether the one ``__init__`` instances of ``cls`` run sets ``attr`` in its opening
    assignments (``Scope.sets``), with no ``__new__`` that could make one without it."""
    return program.owner(cls, "__new__") is None and program.init_sets(cls, attr)


def read_again(flow: Flow) -> list[int]:
    """The variables a caching descriptor's ``__get__`` is judged on (``descriptors.py``) at
    reads of an object the same function read that attribute of before."""
    program = flow.program
    gets = _caching_gets(program)
    if not gets:
        return []
    # (site, operand of its __get__ edges) of every read that may run one
    reads: dict[int, list[tuple[int, int]]] = {}
    for site, reached in flow.found.items():
        for target, (_how, operand) in reached.targets.items():
            if target in gets and operand >= 0:
                reads.setdefault(site[0], []).append((site[1], operand))
    if not reads:
        return []
    attrs = {
        op.attr
        for file in reads
        for op in program.files[file].facts.ops
        if type(op) is facts.Attr and op.attr is not None
    }
    on_params = _read_on_params(program, attrs)
    found: list[int] = []
    for file, at in reads.items():
        info = program.files[file]
        uses = _Uses(info)
        for index, operand in at:
            read = uses.read_at(index)
            if read is not None and uses.read_before(flow, file, index, read, on_params):
                found.append(operand)
    return found


def _caching_gets(program: Program) -> set[FuncKey]:
    """The ``__get__`` methods that store into their instance's own attributes: into
    ``obj.__dict__[k]`` or ``vars(obj)[k]``, or by ``setattr(obj, k, v)``."""
    found: set[FuncKey] = set()
    for info in program.files:
        scopes = info.facts.scopes
        gets = {
            index: -1
            for index, scope in enumerate(scopes)
            if scope.kind == Kind.METHOD
            and len(scope.params) >= 2
            and scope.qual.rsplit(".", 1)[-1] == "__get__"
        }
        if not gets:
            continue
        instance: dict[int, int] = {}  # the local holding each __get__'s instance -> its scope
        for op in info.facts.ops:
            if type(op) is facts.ParamIn and op.index == 1 and op.scope in gets:
                instance[op.dst] = op.scope
        sites = info.facts.sites
        for op in info.facts.ops:
            if type(op) is facts.SetSub:
                made = info.op_of(op.obj)
                if type(made) is facts.Attr and made.attr == "__dict__":
                    scope = instance.get(_origin(info, made.obj))
                elif type(made) is facts.Call:
                    scope = _stored_by(info, made, "vars", instance)
                else:
                    continue
            elif type(op) is facts.Call:
                scope = _stored_by(info, op, "setattr", instance)
            else:
                continue
            if scope is not None and sites[op.site].scope == scope:
                found.add(FuncKey((info.index, scope)))
    return {get for get in found if _non_data(program, get)}


def _non_data(program: Program, get: FuncKey) -> bool:
    """Whether the class of ``get`` is a non-data descriptor, which an instance's own value
    hides: no ``__set__`` nor ``__delete__`` along its MRO, and no base from outside the
    repository that could have one (werkzeug's ``cached_property`` is a ``property``: its
    ``__get__`` runs at every read and looks in the instance's ``__dict__`` itself)."""
    cls = ClassKey((get[0], program.scope(get).parent))
    if program.scope(cls).kind != Kind.CLASS:
        return False
    return not any(program.classes[c].open for c in program.mro(cls)) and all(
        program.owner(cls, name) is None for name in ("__set__", "__delete__")
    )


def _stored_by(info: FileInfo, call: facts.Call, name: str, instance: dict[int, int]) -> int | None:
    """The ``__get__`` scope whose instance ``call`` (``vars(obj)``, ``setattr(obj, ...)``)
    is given first, if it calls ``name``."""
    func = info.op_of(call.func)
    if type(func) is not facts.Global or func.name != name:
        return None
    args = info.facts.sites[call.site].args
    if not args or args[0] < 0:
        return None
    return instance.get(_origin(info, args[0]))


def _read_on_params(program: Program, attrs: set[str]) -> set[tuple[FuncKey, int, str]]:
    """(function, parameter index, attribute) where the function reads one of ``attrs`` of
    its parameter as it was given."""
    found: set[tuple[FuncKey, int, str]] = set()
    for info in program.files:
        for op in info.facts.ops:
            if type(op) is facts.Attr and op.attr in attrs:
                made = info.op_of(_origin(info, op.obj))
                if type(made) is facts.ParamIn:
                    found.add((FuncKey((info.index, made.scope)), made.index, op.attr))
    return found


class _Uses:
    """One file's reads and calls, by what object they are on (``_key``)."""

    def __init__(self, info: FileInfo) -> None:
        self.info = info
        self.reads: dict[int, tuple[object, str]] = {}  # site -> (object, attribute) read
        self.calls: list[facts.Call] = []
        for op in info.facts.ops:
            if type(op) is facts.Attr and op.attr is not None and op.site >= 0:
                self.reads[op.site] = (_key(info, op.obj), op.attr)
            elif type(op) is facts.Call:
                self.calls.append(op)

    def read_at(self, site: int) -> tuple[object, str] | None:
        return self.reads.get(site)

    def read_before(
        self,
        flow: Flow,
        file: int,
        site: int,
        read: tuple[object, str],
        on_params: set[tuple[FuncKey, int, str]],
    ) -> bool:
        """Whether the object read at ``site`` was read the same attribute of earlier in the
        same function, or handed earlier to a function reading it of its parameter (or sent a
        method reading it of its ``self``)."""
        sites = self.info.facts.sites
        here = sites[site]
        at = (here.line, here.col)
        obj, attr = read
        for other, (before, name) in self.reads.items():
            there = sites[other]
            if (
                name == attr
                and before == obj
                and there.scope == here.scope
                and (there.line, there.col) < at
            ):
                return True
        for call in self.calls:
            there = sites[call.site]
            if there.scope != here.scope or (there.line, there.col) >= at:
                continue
            given = [i for i, arg in enumerate(there.args) if arg >= 0 and self.key(arg) == obj]
            named = [name for name, arg in there.keywords if name and self.key(arg) == obj]
            method = self.info.op_of(_origin(self.info, call.func))
            sent = type(method) is facts.Attr and self.key(method.obj) == obj  # ``y.warm()``
            if not given and not named and not sent:
                continue
            reached = flow.found.get(SiteKey((file, call.site)))
            if reached is None:
                continue
            callee = self.info.var(call.func)
            for target, (how, _operand) in reached.targets.items():
                if (
                    how not in ("call", "constructor")
                    or flow.program.scope(target).kind == Kind.CLASS
                ):
                    continue
                func = FuncKey(target)
                if sent and how == "call" and (func, 0, attr) in on_params:
                    return True  # (its ``self``, where it is bound to ``y``)
                for index in _parameters(flow, func, how, callee, given, named):
                    if (func, index, attr) in on_params:
                        return True
        return False

    def key(self, local: int) -> object:
        return _key(self.info, local)


def _parameters(
    flow: Flow, func: FuncKey, how: str, callee: int, given: list[int], named: list[str]
) -> Iterable[int]:
    """The indexes of ``func``'s parameters the arguments at ``given`` (positions) and
    ``named`` (keywords) go to: one further for a bound method or a constructor's
    ``__init__``."""
    scope = flow.scope(func)
    shift = 0
    if how == "constructor":
        shift = 1
    elif flow.is_method(func):
        keys = flow.values.keys
        if any(keys[v][0] == objects.METH for v in flow.engine.held(callee)):
            shift = 1
    for index in given:
        yield index + shift
    for index, param in enumerate(scope.params):
        if param.name in named:
            yield index


def _origin(info: FileInfo, local: int) -> int:
    """The local ``local`` is a copy of (through copies and narrowed copies)."""
    op = info.op_of(local)
    while type(op) in (facts.Copy, facts.Narrow, facts.Tested):
        local = op.src  # type: ignore[union-attr]
        op = info.op_of(local)
    return local


def _key(info: FileInfo, local: int, depth: int = 0) -> object:
    """What object ``local`` holds, as far as the file tells: the local it is a copy of, a
    module-level name, or an attribute of such an object (``self.template``)."""
    local = _origin(info, local)
    op = info.op_of(local)
    if type(op) is facts.Global:
        return ("global", op.name)
    if type(op) is facts.Attr and op.attr is not None and depth < 2:
        return ("attr", _key(info, op.obj, depth + 1), op.attr)
    return local


def _own_self(info: FileInfo, local: int) -> bool:
    """Whether ``local`` is a copy of a method's first parameter."""
    op = info.op_of(_origin(info, local))
    if type(op) is not facts.ParamIn or op.index != 0:
        return False
    return info.facts.scopes[op.scope].kind == Kind.METHOD
