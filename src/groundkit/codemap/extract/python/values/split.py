"""One of several equal string literals of a file changed, taken on from the last solve by
giving the changed one's reach a value of its own.

The parser keeps one variable for all the equal string literals of a file
(``walker.strings``), so changing one of two ``"locale"`` adds a variable for the new text
(and the operations that read the changed literal read it instead): the program's shape
changed, and ``relabel.py``'s renaming does not apply (the other literal still makes the old
value). What the edit does to the solve is then a split of the old value ``v``: the variables
the new text's variable reaches by copies (``Copy``, ``Phi``, ``Final``: its *reach*) hold
the new value, the others keep ``v``.

Why the split solution is the fresh one, exactly: the edit only re-points readers of the old
text to the new one (``split`` checks that the rest of the file is the same). When the reach
is written only by copies from within it (or from variables that held nothing), every one of
its old variables held ``v`` alone (so ``v`` came to it from the changed literal only: no
bound, no merge of different values, no choice that the split would make), it shares no
variable with the old text's reach, and it is read only where nothing of the string is given
on (copies into the reach, templates, tests, messages: builtins and outside methods that read
no argument, operators whose other side held no instance or container), then the only rules
that see the new value are those, and they give for it what they gave for ``v``; every other
variable, those of other files that hold ``v`` too included, gets what it got, since nothing
of the reach left it. So the old solution with the reach holding the new value is the new
program's. Anything else raises ``Reached``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.alignment import (
    VAR_LISTS,
    VARS,
    Alignment,
    Reached,
    renamed,
)
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.relabel import reads_no_argument
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Split", "apply_split", "split"]

_ENCODE = msgspec.msgpack.Encoder().encode
_REFUSED = "the edit changed or removed an operation"
_FIELDS = VARS | VAR_LISTS  # (an operation's other fields are scopes, sites, indexes, names)
_COPIES = (facts.Copy, facts.Phi, facts.Final)
_MARKS = (facts.NotNone, facts.ByClass)  # (flags for the certainty: no value given on)
# What takes an operator's other operand as an argument (a dunder) or as elements (``+=``).
_TAKERS = frozenset({objects.INST, objects.CONE, *objects.CONTAINERS})


@dataclass(frozen=True, slots=True)
class Split:
    """The file's variable ``changed`` (new numbering) now holds ``new`` where it held ``old``,
    and ``kept`` (the other variable of the old text) holds ``old`` as before; ``added`` is the
    variable the edit added (one of the two), its value set here rather than by a rule."""

    changed: int
    kept: int
    added: int
    old: str
    new: str


def split(old: Facts, new: Facts) -> tuple[Alignment, Split]:
    """How ``new`` splits one of ``old``'s string literals (the new variable is the edit's one
    gap: ``Alignment.added`` is empty); raises ``Reached`` when it does anything else."""
    same = old.variables + 1 == new.variables and len(old.ops) + 1 == len(new.ops)
    if not same or old.all != new.all or len(old.scopes) != len(new.scopes):
        raise Reached(_REFUSED)
    if len(old.sites) != len(new.sites) or len(old.imports) != len(new.imports):
        raise Reached(_REFUSED)
    olds, news = [_ENCODE(op) for op in old.ops], [_ENCODE(op) for op in new.ops]
    first = next((i for i, code in enumerate(olds) if code != news[i]), len(olds))
    before = _const(old.ops[first]) if first < len(olds) else None
    after = _const(new.ops[first])
    if after is None:
        raise Reached(_REFUSED)
    if before is not None and before.dst == after.dst:
        # The first of the equal literals changed: its variable holds the new text, and the
        # old text's variable is the one added where the next of them stands.
        old_text, new_text = before.text, after.text
        at = next((i for i in range(first + 1, len(news)) if _text(new.ops[i]) == old_text), -1)
        if at < 0:
            raise Reached(_REFUSED)
        added, changed, replaced = new.ops[at].dst, after.dst, after.dst  # type: ignore[union-attr]
    else:
        # A later one changed: the new text's variable is added where it stands.
        at, added, changed, replaced = first, after.dst, after.dst, -1
        old_text, new_text = None, after.text
    shift = _shifter(added)
    rest = new.ops[:at] + new.ops[at + 1 :]
    substituted: set[int] = set()  # the old variables read now as ``added``
    for index, (was, now) in enumerate(zip(old.ops, rest, strict=True)):
        moved = renamed(was, shift)
        if moved == now or (index == first and replaced >= 0):
            continue  # (the first literal's own ``Const``: checked above)
        substituted.add(_substitution(moved, now, added))
    if not _same_frame(old, new, shift, added, substituted):
        raise Reached(_REFUSED)
    if len(substituted) != 1 or (replaced >= 0 and substituted != {replaced}):
        raise Reached(_REFUSED)
    (replaced,) = substituted
    text = next((op.text for op in old.ops if type(op) is facts.Const and op.dst == replaced), None)
    old_text = text if old_text is None else old_text
    if text is None or text != old_text or new_text is None or new_text == old_text:
        raise Reached(_REFUSED)
    if any(_text(op) == new_text for op in old.ops):
        raise Reached(_REFUSED)
    kept = added if changed == replaced else replaced
    found = Split(changed=changed, kept=kept, added=added, old=old_text, new=new_text)
    return Alignment(added, 1, []), found


def apply_split(flow: Flow, file: int, found: Split, late: set[int]) -> None:
    """Gives the changed literal's reach its new value in ``flow`` (restored from the old
    solve); raises ``Reached`` unless that is exact (the module's docstring)."""
    values, engine = flow.values, flow.engine
    info = flow.program.files[file]
    value = values.ids.get((objects.STR, found.old))
    if value is None or (objects.STR, found.new) in values.ids:
        raise Reached("the changed string is not one value of its own")
    succ = _copies(info.facts)
    reach, others = _reach(succ, found.changed), _reach(succ, found.kept)
    if reach & others:
        raise Reached("the changed string meets the one it was split from")
    held = engine.pts
    for op in info.facts.ops:
        at = getattr(op, "dst", -1)
        if at not in reach:
            continue
        if at == found.changed:
            if _text(op) != found.new:
                raise Reached("the changed string meets other values")
            continue
        sources = [op.src] if type(op) is facts.Copy else getattr(op, "srcs", None)
        if type(op) not in _COPIES or sources is None:
            raise Reached("the changed string meets other values")
        for source in sources:  # (one that held nothing holds nothing still)
            if source not in reach and (source == found.added or held[info.var(source)]):
                raise Reached("the changed string meets other values")
    for at in reach - {found.added}:
        var = info.var(at)
        if held[var] != value or var in late:
            raise Reached("the changed string meets other values")
    _read_blind(info, flow, reach)
    new = flow.value(objects.STR, found.new)
    for at in reach:
        held[info.var(at)] = new
    if found.added != found.changed:
        held[info.var(found.added)] = value


def _read_blind(info: FileInfo, flow: Flow, reach: set[int]) -> None:
    """Raises ``Reached`` unless ``reach`` is read only by copies (into ``reach``: that is how
    it was found) and where nothing of the string is given on: a template, a test, a message
    (``relabel.reads_no_argument``), an operator on a side whose other side is no instance nor
    container (an instance's dunder, or a container's ``+=``, would take it)."""
    keys, held = flow.values.keys, flow.engine.held
    for op in info.facts.ops:
        for name in op.__struct_fields__:
            if name == "dst" or name not in _FIELDS or not _reads(getattr(op, name), reach):
                continue
            kind = type(op)
            if kind in _COPIES or kind in _MARKS or (kind is facts.Tmpl and name == "pieces"):
                continue
            if type(op) is facts.BinOp and name in ("left", "right"):
                other = op.right if name == "left" else op.left
                plain = other < 0 or not any(keys[v][0] in _TAKERS for v in held(info.var(other)))
                if plain and not (name == "left" and op.method == "__add__"):
                    continue  # (``"x" + y`` gives a prefix of the text)
            raise Reached("the changed string is read where its text matters")
    calls = info.calls_by_site()
    for index, site in enumerate(info.facts.sites):
        args = [~a if a < 0 else a for a in site.args] + [v for _, v in site.keywords]
        if not reach.intersection(args):
            continue
        call = calls.get(index)
        if call is None or call.func in reach:
            raise Reached("the changed string is handed where its text matters")
        callees = held(info.var(call.func))
        if not callees or not all(reads_no_argument(keys, v) for v in callees):
            raise Reached("the changed string is handed where its text matters")
    for scope in info.facts.scopes:
        if reach.intersection(scope.bases) or any(
            p.annotation in reach or p.default in reach for p in scope.params
        ):
            raise Reached("the changed string is read where its text matters")


def _reads(field: Any, reach: set[int]) -> bool:
    if type(field) is int:
        return field in reach
    if type(field) is tuple or type(field) is list:
        return any(type(item) is int and item in reach for item in field)
    return False


def _const(op: Any) -> facts.Const | None:
    """``op`` when it makes a string literal."""
    return op if type(op) is facts.Const and op.text is not None else None


def _text(op: Any) -> str | None:
    return op.text if type(op) is facts.Const else None


def _shifter(at: int) -> Callable[[int], int]:
    def shift(var: int) -> int:
        return var + 1 if var >= at else var

    return shift


def _substitution(was: Any, now: Any, added: int) -> int:
    """The one variable ``was`` reads where ``now`` reads ``added`` instead."""
    if type(was) is not type(now):
        raise Reached(_REFUSED)
    found = set()
    for name in was.__struct_fields__:
        a, b = getattr(was, name), getattr(now, name)
        if a == b:
            continue
        if name in VARS and name != "dst" and b == added:
            found.add(a)
        elif name in VAR_LISTS and len(a) == len(b):
            pairs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
            if any(y != added for _, y in pairs):
                raise Reached(_REFUSED)
            found.update(x for x, _ in pairs)
        else:
            raise Reached(_REFUSED)
    if len(found) != 1:
        raise Reached(_REFUSED)
    return int(found.pop())


def _same_frame(
    old: Facts, new: Facts, shift: Callable[[int], int], added: int, substituted: set[int]
) -> bool:
    """The old sites, scopes and imports, renamed, are the new ones (places aside), where a
    variable may read ``added`` instead (the old one it read is added to ``substituted``)."""

    def same(was: int, now: int) -> bool:
        if was < 0 and now < 0:  # ``~v``: a starred argument; -1: none
            return was == -1 == now or (was != -1 and same(~was, ~now))
        if was < 0 or now < 0:
            return False
        moved = shift(was)
        if moved != now and now == added:
            substituted.add(moved)
            return True
        return moved == now

    def alike(was: tuple[int, ...], now: tuple[int, ...]) -> bool:
        return len(was) == len(now) and all(same(a, b) for a, b in zip(was, now, strict=True))

    for s, t in zip(old.sites, new.sites, strict=True):
        plain = (s.scope, s.kind, s.name, s.dynamic, s.target, s.factory, s.holder)
        if plain != (t.scope, t.kind, t.name, t.dynamic, t.target, t.factory, t.holder):
            return False
        if not alike(s.args, t.args) or [k for k, _ in s.keywords] != [k for k, _ in t.keywords]:
            return False
        if not alike(tuple(v for _, v in s.keywords), tuple(v for _, v in t.keywords)):
            return False
    for a, b in zip(old.scopes, new.scopes, strict=True):
        kept = (a.qual, a.kind, a.parent, a.flags, a.decorators, a.base_refs)
        if kept != (b.qual, b.kind, b.parent, b.flags, b.decorators, b.base_refs):
            return False
        if not alike(a.bases, b.bases) or len(a.params) != len(b.params):
            return False
        for p, q in zip(a.params, b.params, strict=True):
            if (p.name, p.kind) != (q.name, q.kind):
                return False
            if not same(p.default, q.default) or not same(p.annotation, q.annotation):
                return False
    imports = [(i.scope, i.module, i.level, i.name, i.flags) for i in old.imports]
    return imports == [(i.scope, i.module, i.level, i.name, i.flags) for i in new.imports]


def _copies(found: Facts) -> dict[int, list[int]]:
    """The file's copy edges (source -> destinations), by its own numbering."""
    succ: dict[int, list[int]] = {}
    for op in found.ops:
        if type(op) is facts.Copy:
            succ.setdefault(op.src, []).append(op.dst)
        elif type(op) is facts.Phi or type(op) is facts.Final:
            for src in op.srcs:
                succ.setdefault(src, []).append(op.dst)
    return succ


def _reach(succ: dict[int, list[int]], start: int) -> set[int]:
    found, todo = {start}, [start]
    while todo:
        for dst in succ.get(todo.pop(), ()):
            if dst not in found:
                found.add(dst)
                todo.append(dst)
    return found
