"""pytest fixtures, as pytest resolves them: a test's (or a fixture's) parameter named like a
fixture receives what that fixture returns, or yields for a generator fixture.

The fixture is looked up where pytest looks: the test's class (and its bases), the test's
module, then ``conftest.py`` in the test's folder and each folder above it; the nearest wins.
A test is a function or method whose name starts with ``test``; a fixture is a function
decorated ``@...fixture`` (``@pytest.fixture``, ``@pytest.fixture(scope=...)``). A method of a
test class runs on that class and on each subclass pytest collects (``Test...``), with that
subclass's fixtures: a fixture a subclass overrides reaches the base class's methods too. A
test of a subclass that uses a base class's fixture sees one class's value of it, so the
values it gives in all classes are a choice there. Parametrized parameters are
``parametrize.py``'s (they override a fixture of the same name); a fixture's ``request`` holds
its ``params``; other parameters pytest fills (``tmp_path``, a plugin's fixtures) hold unknown
values in a fixture and nothing in a test (nothing of the repository passes them). An
annotated parameter takes the fixture's known values; its declared class stands for the
unknown ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.containers import Containers
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey
from groundkit.codemap.extract.python.values.parametrize import (
    fixture_params,
    install_parametrize,
)
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["install_fixtures"]

_FUNCTIONS = (Kind.FUNCTION, Kind.METHOD)


def install_fixtures(flow: Flow, containers: Containers) -> None:
    parametrized = install_parametrize(flow, containers)
    fixtures = _Fixtures(flow, parametrized, fixture_params(flow, containers))
    if fixtures.any:
        fixtures.install()


class _Fixtures:
    def __init__(
        self, flow: Flow, parametrized: set[tuple[FuncKey, int]], params: dict[FuncKey, int]
    ) -> None:
        self.flow = flow
        self.parametrized = parametrized
        self.params = params  # a fixture made with params=[...] -> what request.param holds
        self.program = flow.program
        self.in_module: dict[int, dict[str, FuncKey]] = {}
        self.in_class: dict[ClassKey, dict[str, FuncKey]] = {}
        self.conftest: dict[str, int] = {}  # folder -> its conftest.py
        for info in self.program.files:
            folder, _, name = info.path.rpartition("/")
            if name == "conftest.py":
                self.conftest[folder] = info.index
            for index, scope in enumerate(info.facts.scopes):
                if scope.kind not in _FUNCTIONS or "fixture" not in scope.decorators:
                    continue
                func = FuncKey((info.index, index))
                fixture = _name(scope)
                if scope.kind == Kind.METHOD:
                    owner = ClassKey((info.index, scope.parent))
                    self.in_class.setdefault(owner, {})[fixture] = func
                elif scope.parent == 0:
                    self.in_module.setdefault(info.index, {})[fixture] = func
        self.any = bool(self.in_module or self.in_class)

    def install(self) -> None:
        flow = self.flow
        for info in self.program.files:
            for index, scope in enumerate(info.facts.scopes):
                if scope.kind not in _FUNCTIONS:
                    continue
                if not (_name(scope).startswith("test") or "fixture" in scope.decorators):
                    continue
                func = FuncKey((info.index, index))
                skip = 1 if scope.kind == Kind.METHOD and not scope.flags & facts.STATIC else 0
                hosts = self._hosts(info.index, scope)
                for position, param in enumerate(scope.params):
                    if position < skip or (func, position) in self.parametrized:
                        continue
                    found = {self._find(file, host, param.name) for file, host in hosts}
                    found -= {None, func}
                    for fixture in found:
                        if fixture is not None:
                            fewer = self._fewer(hosts, fixture)
                            self._fill(func, position, param, fixture, fewer)
                    if found or "fixture" not in scope.decorators:
                        continue
                    if param.name == "request" and func in self.params:
                        request = flow.value(objects.SYN, library.REQUEST, func)
                        flow.engine.flow(self.params[func], flow.slot(request, "param"))
                        flow.engine.add(flow.param(func, position), [request])
                    else:  # pytest's own fixture or a plugin's (``request``, ``tmp_path``)
                        flow.engine.add(flow.param(func, position), [objects.UNKNOWN_ID])

    def _fill(
        self, func: FuncKey, position: int, param: facts.Param, fixture: FuncKey, fewer: bool
    ) -> None:
        """``fewer``: ``func`` runs in fewer classes than ``fixture`` (a subclass's test using
        a base class's fixture), so of what the fixture gives in all of them (one value per
        class, merged) it sees one: several values are a run-time choice there."""
        flow = self.flow
        generator = self.program.scope(fixture).flags & facts.GENERATOR
        source = flow.yields(fixture) if generator else flow.ret(fixture)
        target = flow.param(func, position)
        if fewer:
            seen = flow.cell(("fixture-seen", fixture, func))
            flow.engine.flow(source, seen)
            flow.computed_reads.add(seen)
            flow.depends.extend((seen, target))
            source = seen
        if param.annotation >= 0:  # the declared class already stands for unknowns
            flow.engine.on(source, partial(_known, flow, target))
        else:
            flow.engine.flow(source, target)

    def _fewer(self, hosts: list[tuple[int, ClassKey | None]], fixture: FuncKey) -> bool:
        """Whether a fixture method runs in classes the test (or fixture) using it does not."""
        scope = self.program.scope(fixture)
        if scope.kind != Kind.METHOD:
            return False
        return not set(self._hosts(fixture[0], scope)) <= set(hosts)

    def _hosts(self, file: int, scope: facts.Scope) -> list[tuple[int, ClassKey | None]]:
        """Where pytest runs a test (or fixture) method: its class and every subclass pytest
        collects (named ``Test...``), each in its own module; a subclass's fixtures override
        the base's for the base's methods too. A function outside a class runs in its module."""
        if scope.kind != Kind.METHOD:
            return [(file, None)]
        owner = ClassKey((file, scope.parent))
        hosts: list[tuple[int, ClassKey | None]] = [
            (cls[0], cls)
            for cls in self.program.cone(owner)
            if _name(self.program.scope(cls)).startswith("Test")
        ]
        return hosts or [(file, owner)]

    def _find(self, file: int, host: ClassKey | None, name: str) -> FuncKey | None:
        if host is not None:
            for cls in self.program.mro(host):
                found = self.in_class.get(cls, {}).get(name)
                if found is not None:
                    return found
        found = self.in_module.get(file, {}).get(name)
        if found is not None:
            return found
        folder = self.program.files[file].path.rpartition("/")[0]
        while True:
            conftest = self.conftest.get(folder)
            if conftest is not None:
                found = self.in_module.get(conftest, {}).get(name)
                if found is not None:
                    return found
            if not folder:
                return None
            folder = folder.rpartition("/")[0]


def _known(flow: Flow, target: int, new: Sequence[int]) -> None:
    flow.engine.add(target, [v for v in new if v != objects.UNKNOWN_ID])


def _name(scope: facts.Scope) -> str:
    return scope.qual.rsplit(".", 1)[-1]
