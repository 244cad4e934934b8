"""The names the solver's rules pass one another: which site, which function, which class, how a
target was reached, and a call's positional arguments.

A site, a function and a class are each a ``(file, index)`` pair of ints (cheap to hash, as
the solver makes millions of them); the ``NewType``s keep one from being passed for another.
"""

from __future__ import annotations

from typing import Literal, NewType

__all__ = ["NOWHERE", "Args", "ClassKey", "FuncKey", "How", "SiteKey", "Spread"]

SiteKey = NewType("SiteKey", tuple[int, int])  # (file, site): a place in the code
FuncKey = NewType("FuncKey", tuple[int, int])  # (file, scope): a function, method or lambda
ClassKey = NewType("ClassKey", tuple[int, int])  # (file, scope): a class

# An implicit step with no place in the code (an element taken for map(), a getter run by a
# lookup): nothing is recorded there.
NOWHERE = SiteKey((-1, -1))

# How a target was reached at a site (it names the edge's provenance).
How = Literal["call", "constructor", "decorator", "protocol", "callback", "property"]

Spread = tuple[Literal["*"], int]  # ``*v`` in a call: every element of v from here on
Args = list[int | Spread]  # positional arguments, as variables
