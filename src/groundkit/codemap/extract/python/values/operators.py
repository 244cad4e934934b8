"""Binary operators and their reflected dunders.

``x + y`` runs ``type(x).__add__``; only where that is missing or returns ``NotImplemented``
does Python run ``type(y).__radd__`` (``NotImplemented`` is never the expression's value). So
a reflected dunder runs for certain only where the left operand's forward method certainly does
not answer: every value the left operand may hold is of a built-in type (``"x" + Expr()``:
``str`` returns ``NotImplemented`` for an instance of the repository) or an instance whose class
lacks the forward method, with no base outside the repository that may bind it. Where the
left operand may be an instance whose forward method exists (it may return ``NotImplemented``,
or it answers and the reflected one never runs) or anything the map cannot read, the reflected
edge is drawn on some runs only.

(A right operand whose class is a proper subclass of the left's overriding the reflected method
runs first; the map does not order the two for that.)
"""

from __future__ import annotations

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["REFLECTED", "left_never_answers"]

REFLECTED = {
    m: "__r" + m[2:]
    for m in (
        "__add__ __sub__ __mul__ __matmul__ __truediv__ __floordiv__ __mod__ __pow__"
        " __lshift__ __rshift__ __and__ __xor__ __or__"
    ).split()
}
# Values of built-in types, whose operators return NotImplemented for the repository's instances.
_BUILT_IN = objects.PLAIN | objects.CONTAINERS


def left_never_answers(flow: Flow, left: int, forward: str) -> bool:
    """Whether ``forward`` of no value ``left`` may hold answers the operator (see above)."""
    held = flow.engine.held(left) if left >= 0 else ()
    if not held:
        return False
    keys = flow.values.keys
    program = flow.program
    for value in held:
        kind = keys[value][0]
        if kind in _BUILT_IN:
            continue
        if kind not in (objects.INST, objects.CONE):
            return False
        for cls in flow.classes_of(value):
            if program.owner(cls, forward) is not None:
                return False
            if program.outside_binds(cls, forward) is not False:
                return False
    return True
