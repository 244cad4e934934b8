"""Monkeypatches stay where they are made.

Tests, benchmarks and scripts often assign to a package's own attributes (``Store.put = timed``,
``module.fetch = fake``, ``setattr(owner, name, wrapper)`` over a table of methods). Python would
run the patch only while that code runs; a flow-insensitive analysis that let it reach the
class's or module's one cell would make every call of the package through that attribute a
run-time choice (partial), although the package itself never patches anything.

So an assignment made by a *context* file (one under ``tests/``, ``benchmarks/``, ``scripts/``...,
a ``test_*.py`` or ``conftest.py``) to an attribute of a class or module of the package (a file
that is no context) goes to a cell of that file only. Reads made in the same file see the
package's value and the patch as one run-time choice (their edges are partial); reads anywhere
else see the package alone. A patch by a computed name from a context file leaves the package's
classes as they are.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse.facts import Facts, SetAttr
from groundkit.codemap.extract.python.values.keys import ClassKey
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["CONTEXT_FOLDERS", "Owner", "Patches", "is_context"]

CONTEXT_FOLDERS = frozenset(
    {"tests", "test", "benchmarks", "benchmark", "bench", "scripts", "examples", "docs"}
)

Owner = ClassKey | tuple[str, int]  # a class, or ("module", file)


def is_context(path: str, packages: frozenset[str] = frozenset()) -> bool:
    """Whether a repository-relative path is code that runs the package rather than part of
    it: tests, benchmarks, scripts, examples. ``packages``: the folders holding an
    ``__init__.py``; a folder of those names inside a package (``django/test/``) is the
    package's own code."""
    *folders, name = path.split("/")
    for depth, folder in enumerate(folders):
        parent = "/".join(folders[:depth])
        if folder in CONTEXT_FOLDERS and parent not in packages:
            return True
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


class Patches:
    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        program = flow.program
        packages = frozenset(
            info.path.rpartition("/")[0] for info in program.files if info.is_package
        )
        self.context = [is_context(info.path, packages) for info in program.files]
        # Attribute names each context file assigns (``x.name = ...``): only reads of those
        # names in that file can see one of its patches.
        self.assigned = [
            _assigned(info.facts) if context else frozenset()
            for info, context in zip(program.files, self.context, strict=True)
        ]
        self._seen: dict[tuple[int, int, str], int] = {}

    def cell(self, file: int, owner: Owner, attr: str) -> int:
        return self.flow.cell(("patch", file, owner, attr))

    def kept_apart(self, file: int, owner_file: int) -> bool:
        """Whether an assignment by ``file`` to an attribute of something ``owner_file``
        defines is a patch kept in ``file``'s context."""
        return self.context[file] and not self.context[owner_file]

    def watches(self, file: int, attr: str) -> bool:
        """Whether reads of ``attr`` in ``file`` may see one of the file's patches."""
        return file >= 0 and attr in self.assigned[file]

    def seen_from(self, file: int, owners: list[Owner], attr: str, cell: int) -> int:
        """What ``cell`` (a class's or module's attribute) holds as code of ``file`` reads it:
        ``cell`` itself, or ``cell`` and ``file``'s own patches of it, met as a choice."""
        if not self.watches(file, attr):
            return cell
        key = (file, cell, attr)
        found = self._seen.get(key)
        if found is None:
            flow = self.flow
            found = self._seen[key] = flow.temp()
            flow.alt.add(found)
            flow.engine.flow(cell, found)
            for owner in owners:
                flow.engine.flow(self.cell(file, owner, attr), found)
        return found


def _assigned(facts: Facts) -> frozenset[str]:
    return frozenset(op.attr for op in facts.ops if isinstance(op, SetAttr) and op.attr)
