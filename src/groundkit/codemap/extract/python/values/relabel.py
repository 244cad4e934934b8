"""A string literal changed to another, taken on from the last solve by renaming its value.

Why the renamed solve is the fresh one, exactly: the solver tells strings apart only where a
rule reads a string's text (a name looked up with ``getattr``, a dict key, ``"do_" + x``, an
annotation naming a class, a callback or library call that reads its argument) and by equality
of values. When the old string ``a`` was made by this literal alone and reached only variables
of its own file that nothing text-minded reads (copies, merges, templates, returns, and the
parameters of the repository's own functions, whose bodies are checked the same way, and
builtins that read no argument, such as an exception's message), and ``b``
is no value of the program yet, then renaming ``a`` to ``b`` maps the old program's solve onto
the new one's step by step: every rule sees the same values under the same numbers, and takes
the same branches. So the old solution with the value's key renamed is the new program's. Any
other reader (or a holder elsewhere) raises ``Reached``; the file is then drawn again with the
renamed key (its routes and arguments read the text).
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.alignment import VAR_LISTS, VARS, Reached, same_frame
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Relabel", "blind", "holders", "reads_no_argument", "rekey", "relabels", "rename"]

# Where a string may be read without its text mattering: (operation, field).
_BLIND = frozenset(
    {
        (facts.Copy, "src"),
        (facts.Phi, "srcs"),
        (facts.Final, "srcs"),
        (facts.Tmpl, "pieces"),  # (only a literal first piece makes a prefix)
        (facts.NotNone, "var"),
        (facts.ByClass, "var"),
        (facts.Ret, "src"),
        (facts.BinOp, "right"),  # (a plain right operand gives nothing; an instance's
        # dunder gets it as a parameter, checked as any holder)
    }
)
_FIELDS = VARS | VAR_LISTS  # (an operation's other fields are scopes, sites, indexes, names)
# Callees that only hand arguments on to the repository's own parameters (``calls.bind``).
_BINDING = frozenset({objects.FUNC, objects.METH, objects.CLSMETH, objects.STATIC})
# Builtins whose arguments give nothing (``outside.builtin``'s last branch, or a protocol run
# on an instance only): ``raise ValueError("...")``, ``print("...")``, ``hasattr(x, "y")``
# (the solver gives a literal: which attribute is asked is not read).
_BLIND_BUILTINS = (
    frozenset(
        name
        for name, found in vars(builtins).items()
        if isinstance(found, type) and issubclass(found, BaseException)
    )
    | {"print", "hasattr", "isinstance", "issubclass", "callable", "id"}
    | (set(library.BUILTIN_PROTOCOLS) - {"reversed"})  # (``reversed`` has a branch of its own)
) - set(library.BUILTIN_CALLBACKS)


@dataclass(frozen=True, slots=True)
class Relabel:
    """A string literal (its file's variable ``var``) changed from ``old`` to ``new``."""

    var: int
    old: str
    new: str


def relabels(old: Facts, new: Facts) -> tuple[list[Relabel], list[int]]:
    """The string literals ``new`` changed from ``old``, and the subscripts whose literal
    string key it changed (``obj["key"]``, read or set: their ``obj``, a variable of the
    file); raises ``Reached`` when anything else changed (places aside)."""
    if old.variables != new.variables or len(old.ops) != len(new.ops) or old.all != new.all:
        raise Reached("the edit changed or removed an operation")
    out, rekeyed = [], []
    for before, after in zip(old.ops, new.ops, strict=True):
        if before == after:
            continue
        if _rekeyed(before, after):
            assert isinstance(before, facts.Sub | facts.SetSub)
            rekeyed.append(before.obj)
            continue
        if not (type(before) is type(after) is facts.Const and before.dst == after.dst):
            raise Reached("the edit changed or removed an operation")
        if before.text is None or after.text is None:
            raise Reached("the edit changed or removed an operation")
        out.append(Relabel(before.dst, before.text, after.text))
    frame = len(old.sites) == len(new.sites) and len(old.imports) == len(new.imports)
    if not (out or rekeyed) or not frame or not same_frame(old, new, lambda var: var):
        raise Reached("the edit changed or removed an operation")
    return out, rekeyed


def _rekeyed(before: facts.Op, after: facts.Op) -> bool:
    """Whether ``after`` is the subscript ``before`` with another literal string key."""
    if type(before) is not type(after) or type(before) not in (facts.Sub, facts.SetSub):
        return False
    assert isinstance(before, facts.Sub | facts.SetSub)
    assert isinstance(after, facts.Sub | facts.SetSub)
    if type(before.key) is not str or type(after.key) is not str:
        return False
    return bool(before == type(after)(**{**_fields(after), "key": before.key}))


def _fields(op: facts.Op) -> dict[str, Any]:
    return {name: getattr(op, name) for name in op.__struct_fields__}


def rekey(flow: Flow, file: int, objs: list[int]) -> None:
    """Raises ``Reached`` unless each subscript's key text, changed, is read by nothing: a
    literal key picks a container's slot (``containers.py``) and names the attribute that
    ``obj.__dict__["key"] = ...`` or ``vars(obj)["key"] = ...`` sets (``solver.py``); on an
    instance ``__getitem__``/``__setitem__`` run with a literal, and on what is outside the
    repository or unknown it is not read. So where the subscripted variable held none of the
    containers and is neither of those dicts, the old solve is the new one's."""
    info = flow.program.files[file]
    keys = flow.values.keys
    for obj in objs:
        given = info.op_of(obj)
        if isinstance(given, facts.Attr) and given.attr == "__dict__":
            raise Reached("the changed key names an attribute")
        if isinstance(given, facts.Call):
            called = info.op_of(given.func)
            if isinstance(called, facts.Global) and called.name == "vars":
                raise Reached("the changed key names an attribute")
        if any(keys[value][0] in objects.CONTAINERS for value in flow.engine.held(info.var(obj))):
            raise Reached("the changed key is a container's")


def rename(flow: Flow, file: int, changes: list[Relabel]) -> None:
    """Renames each changed string's value in ``flow`` (restored from the old solve, its
    ``keys`` a copy); raises ``Reached`` unless that is exact (the module's docstring)."""
    values = flow.values
    info = flow.program.files[file]
    olds = [change.old for change in changes]
    literals = [op.text for op in info.facts.ops if type(op) is facts.Const]
    if len(set(olds)) != len(olds) or any(literals.count(text) for text in olds):
        raise Reached("the changed string is written elsewhere in its file too")
    params = _params(flow, file)
    for change in changes:
        value = values.ids.get((objects.STR, change.old))
        if value is None or (objects.STR, change.new) in values.ids:
            raise Reached("the changed string is not one value of its own")
        found = [var for var in holders(flow, value) if var not in params]
        local = {info.local(var) for var in found}
        if -1 in local or change.var not in local:
            raise Reached("the changed string reaches another file or an attribute")
        blind(info, flow, local)
        del values.ids[(objects.STR, change.old)]
        values.keys[value] = (objects.STR, change.new)
        values.ids[(objects.STR, change.new)] = value


def holders(flow: Flow, value: int) -> list[int]:
    pts = flow.engine.pts
    return [
        var
        for var, held in enumerate(pts)
        if held == value or (isinstance(held, set | frozenset) and value in held)
    ]


def _params(flow: Flow, file: int) -> set[int]:
    """The variables holding the parameters of ``file``'s functions: read by that function's
    ``ParamIn`` (a copy into one of the file's variables, checked as they are) and by callers
    of a function that returns one (a copy into theirs, which must be this file's too)."""
    return {cell for key, cell in flow.cells.items() if key[0] == "param" and key[1][0] == file}


def blind(info: FileInfo, flow: Flow, local: set[int]) -> None:
    """Raises ``Reached`` when anything reads one of ``local`` (the file's variables holding
    the string) where the text may matter."""
    calls = {op.site: op for op in info.facts.ops if type(op) is facts.Call}
    for op in info.facts.ops:
        for name in op.__struct_fields__:
            if name == "dst" or name not in _FIELDS or not _reads(getattr(op, name), local):
                continue
            if (type(op), name) in _BLIND:
                continue
            if type(op) is facts.BinOp and name == "left" and op.method != "__add__":
                continue
            raise Reached("the changed string is read where its text matters")
    for index, site in enumerate(info.facts.sites):
        args = [~a if a < 0 else a for a in site.args] + [v for _, v in site.keywords]
        if not local.intersection(args):
            continue
        call = calls.get(index)
        if call is None or call.func in local or not _binding(flow, info.var(call.func)):
            raise Reached("the changed string is handed where its text matters")
    for scope in info.facts.scopes:
        if local.intersection(scope.bases) or any(p.annotation in local for p in scope.params):
            raise Reached("the changed string is read where its text matters")


def _reads(field: Any, local: set[int]) -> bool:
    if type(field) is int:
        return field in local
    if type(field) is list:
        return any(type(item) is int and item in local for item in field)
    return False


def _binding(flow: Flow, callee: int) -> bool:
    held = flow.engine.pts[callee]
    found = set() if held is None else {held} if isinstance(held, int) else held
    return bool(found) and all(_blind_callee(flow.values.keys, value) for value in found)


def _blind_callee(keys: list[tuple[Any, ...]], value: int) -> bool:
    """Whether calling ``value`` reads no argument's text (``calls.call``): the repository's
    own functions (their parameters are checked as any holder) or ``reads_no_argument``."""
    return keys[value][0] in _BINDING or reads_no_argument(keys, value)


def reads_no_argument(keys: list[tuple[Any, ...]], value: int) -> bool:
    """Whether calling ``value`` gives nothing of its arguments anywhere: builtins that read
    none, and the methods of an outside object known by no name (``outside.method``: no table
    has them; the arguments only escape, by kind, which a string is not)."""
    key = keys[value]
    if key[0] == objects.BUILTIN:
        return bool(key[1] in _BLIND_BUILTINS)
    if key[0] == objects.EXTINST:
        return bool(key[1] == "?")
    if key[0] == objects.BOUND:
        receiver = keys[key[1]]
        return (
            receiver[0] == objects.EXTINST
            and receiver[1] == "?"
            and (("?", key[2]) not in library.METHOD_CALLBACKS)
        )
    return False
