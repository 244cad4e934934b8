"""The abstract values a variable may hold, as small ints: each distinct value is interned once
(a tuple whose first item is its kind), so that sets of values are sets of ints.

A function, a class and a module of the repository are values of their own; an instance is
either exact (``INST``: made by calling that class) or any instance of the class or one of its
subclasses (``CONE``: what ``self`` is in a method, what an annotation promises). Values from
outside the repository keep their dotted name (``EXT``), so that web frameworks and HTTP clients
are recognised by what they are, never by a variable's name. ``UNKNOWN`` is a value nothing can
be said about: where it reaches a call, the call is counted as unresolved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, SiteKey

__all__ = ["Values"]

# Kinds (the first item of a value's key)
LIT = 0  # a value of a built-in type: its methods are built-ins
UNKNOWN = 1
FUNC = 2  # (file, scope): a function, method or lambda
CLASS = 3  # (file, scope)
INST = 4  # (file, scope): an instance of exactly that class
CONE = 5  # (file, scope): an instance of that class or a subclass
CCONE = 6  # (file, scope): that class or a subclass (``cls``)
METH = 7  # (function value, receiver value): a function bound to an instance
CLSMETH = 8  # (function value, class value): a classmethod bound to a class
STATIC = 9  # (function value,): a staticmethod object
CLASSMETHOD = 10  # (function value,): a classmethod object
PROP = 11  # (getter value, setter value or -1): a property
MOD = 12  # (file,): a module of the repository
EXT = 13  # (dotted name,): a module, class or function outside the repository
EXTINST = 14  # (dotted name, site or None): what calling an outside thing made
BOUND = 15  # (outside instance value, attribute): a method of an outside object
BUILTIN = 16  # (name,)
STR = 17  # (text,)
CONT = 18  # (file, variable, kind): a list/tuple/dict/set made where the variable is bound
GEN = 19  # (function value,): a generator (or coroutine) a call made
SUPER = 20  # (class key, receiver value): what super() returns
PARTIAL = 21  # (function value, file, site): functools.partial(f, ...)
ARGS = 22  # (function value,): a function's *args tuple
KWARGS = 23  # (function value,): its **kwargs dict
VIEW = 24  # (container value, "values" | "items" | "keys")
PAIR = 25  # (key value or -1, value container, tag): a (key, value) tuple a view or zip yields
CMETH = 26  # (container value, method name): ``d.update``, ``xs.append``
ACCESSOR = 27  # (property value, "setter" | "getter" | "deleter"): ``@x.setter``
SYN = 28  # (tag, ...): a container a built-in made (map(), list(x), enumerate(x))
SETATTR = 29  # (receiver value,): object.__setattr__ bound to it (``super().__setattr__``)
PREFIX = 30  # (text,): a string known only to start with text (``f"visit_{x}"``, ``"do_" + x``)

# Container kinds (the third item of CONT keys)
LIST, TUPLE, DICT, SET = 0, 1, 2, 3

CONTAINERS = frozenset({CONT, ARGS, KWARGS, SYN, PAIR})
# Kinds worth following for calls: everything but plain data.
PLAIN = frozenset({LIT, STR, PREFIX})


class Values:
    """The interning table; ``listener`` hears of each value made."""

    __slots__ = ("ids", "keys", "listener")

    def __init__(self) -> None:
        self.keys: list[tuple[Any, ...]] = []
        self.ids: dict[tuple[Any, ...], int] = {}
        self.listener: Callable[[int], None] | None = None
        self.id((LIT,))
        self.id((UNKNOWN,))

    def id(self, key: tuple[Any, ...]) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.keys)
            self.keys.append(key)
            if self.listener is not None:
                self.listener(found)
        return found

    # Named reads of a value's key (hot loops index ``keys`` directly).
    def kind(self, value: int) -> int:
        return int(self.keys[value][0])

    def function(self, value: int) -> FuncKey:
        """The function a FUNC value is, or the one a METH, CLSMETH, STATIC or CLASSMETHOD
        value wraps."""
        key = self.keys[value]
        if key[0] != FUNC:
            key = self.keys[key[1]]
        return FuncKey((key[1], key[2]))

    def class_of(self, value: int) -> ClassKey:
        """The class of a CLASS, INST, CONE or CCONE value (for a cone: its top)."""
        key = self.keys[value]
        return ClassKey((key[1], key[2]))

    def receiver(self, value: int) -> int:
        """What a METH or CLSMETH value is bound to (an instance or a class value), or the
        receiver of a SUPER value."""
        return int(self.keys[value][2])

    def name(self, value: int) -> str:
        """The dotted name of an EXT, EXTINST or BUILTIN value, the text of a STR value."""
        return str(self.keys[value][1])

    def made_at(self, value: int) -> SiteKey | None:
        """The call site that made an EXTINST value, when it is kept (routers, clients)."""
        site = self.keys[value][2]
        return None if site is None else SiteKey(site)

    def outside_object(self, value: int) -> int:
        """The outside object (an EXTINST value) whose method a BOUND value is."""
        return int(self.keys[value][1])

    def attribute(self, value: int) -> str:
        """The method name of a BOUND or CMETH value."""
        return str(self.keys[value][2])

    def made_in(self, value: int) -> tuple[int, int]:
        """The (file, variable) where a CONT value (a list, tuple, dict or set display) is
        made."""
        key = self.keys[value]
        return int(key[1]), int(key[2])

    def wrapped(self, value: int) -> int:
        """The function value a PARTIAL value holds."""
        return int(self.keys[value][1])

    def module(self, value: int) -> int:
        """The file of a MOD value."""
        return int(self.keys[value][1])


LIT_ID = 0
UNKNOWN_ID = 1
