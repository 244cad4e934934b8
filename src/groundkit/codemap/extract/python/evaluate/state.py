"""What the parts of the evaluator share: the files' facts as read, the memo of lookups with
the dependency keys each consulted, and the vocabulary of results.

Each part (``modules.py``, ``names.py``, ``bindings.py``, ``attributes.py``, ``classes.py``) is
a mixin over ``EvaluatorState``; ``Evaluator`` puts them together. The methods one part calls on
another are declared here, so that each part type-checks alone.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import Project
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.values import UNKNOWN, Def, Mod, Value

__all__ = ["BUILTINS", "NO_HOW", "EvaluatorState", "How", "Result", "Scope"]

BUILTINS = frozenset(dir(builtins))

# How a value was reached: the root binding ("local", "imported", "self", "annotation",
# "instance", "return", "super", "builtin") and whether a class lookup went to a base.
How = tuple[str, bool]
Result = tuple[Value, How]
# Where a name is looked up: (file, ("module",)), (file, ("class", qualname)) or, in the file
# being resolved, (file, ("scope", index)).
Scope = tuple[str, tuple[Any, ...]]

NO_HOW: How = ("", False)
_MAX_DEPTH = 40


class EvaluatorState:
    """The facts read so far, the memo, and the dependency keys being collected."""

    def __init__(self, project: Project, layout: Layout) -> None:
        self.project = project
        self.layout = layout
        self._interfaces: dict[str, Any] = {}
        self._bodies: dict[str, Any] = {}
        # Memoised across files, each result with the modules it consulted: a file that reuses a
        # result depends on them as much as the file that first computed it.
        self._memo: dict[tuple[str, tuple[Any, ...], str], tuple[Result, frozenset[str]]] = {}
        self._busy: set[Any] = set()
        self._mro: dict[Def, tuple[tuple[list[Def], bool], frozenset[str]]] = {}
        self._tops = {name.split(".")[0] for name in layout.by_name}
        self._patched: dict[tuple[Def, str], set[str | None]] = {}
        self.deps: set[str] = set()
        # Property getters read while evaluating a call site's own chain (not inside a binding
        # looked up on the way, which belongs to where that binding is).
        self.properties: list[tuple[Def, How]] | None = None
        self.current = ""
        self.depth = 0

    if TYPE_CHECKING:
        # Implemented by the evaluator's parts: names.py, bindings.py, modules.py,
        # attributes.py and classes.py.
        def lookup(self, scope: Scope, name: str) -> Result: ...
        def agree(self, values: list[Any], scope: Scope) -> Result: ...
        def evaluate(self, value: list[Any], scope: Scope) -> Result: ...
        def module_name(self, path: str) -> str: ...
        def absolute(self, path: str, module: str, level: int) -> str | None: ...
        def module_value(self, name: str) -> Value: ...
        def member(self, mod: Mod, name: str) -> Result: ...
        def _from_stars(self, path: str, iface: Any, name: str) -> Result | None: ...
        def imported(self, path: str, module: str, level: int, name: str) -> Result: ...
        def apply(self, result: Result, rest: list[str], path: str, site: int) -> Result: ...
        def returns(self, func: Def) -> Value: ...
        def _class_attribute(
            self, cls: Def, start: Def, attr: str, how: How, *, instance: bool, skip: int = 0
        ) -> Result: ...

    def interface(self, path: str) -> Any:
        info = self.layout.modules.get(path)
        if info is not None:  # the file's own key is dropped by whoever collects them
            self.deps.add("py:" + info.name)
        found = self._interfaces.get(path)
        if found is None:
            found = self._interfaces[path] = self.project.facts(path).interface
        return found

    def body(self, path: str) -> Any:
        found = self._bodies.get(path)
        if found is None:
            found = self._bodies[path] = self.project.facts(path).body
        return found

    def start(self, path: str) -> None:
        """Begin resolving ``path``: its dependencies are collected afresh; its own function
        scopes (``("scope", i)``) may now be looked up."""
        self.current = path
        self.deps = set()

    def forget_body(self, path: str) -> None:
        self._bodies.pop(path, None)

    def _memoised(
        self, memo_key: tuple[str, tuple[Any, ...], str], compute: Callable[[], Result]
    ) -> Result:
        """``compute()`` once per key, cycles cut (to unknown), its dependencies kept with it."""
        found = self._memo.get(memo_key)
        if found is not None:
            self.deps.update(found[1])
            return found[0]
        if memo_key in self._busy or self.depth > _MAX_DEPTH:
            return UNKNOWN, NO_HOW
        self._busy.add(memo_key)
        self.depth += 1
        outer, self.deps = self.deps, set()
        try:
            result = compute()
        finally:
            self.depth -= 1
            self._busy.discard(memo_key)
            mine, self.deps = self.deps, outer
            self.deps.update(mine)
        self._memo[memo_key] = (result, frozenset(mine))
        return result
