"""``@pytest.mark.parametrize``, as pytest runs it: the test runs once per row of argument
values, so each named parameter holds that column of the rows, as the target of ``for a, b in
rows`` does (every value is certain to reach it; a row's value that is itself a run-time choice
stays one). ``pytest.param(a, b, id=...)`` is a row like ``(a, b)``; ids and marks are not
values. A mark on a class parametrizes each of its test methods. A fixture made with
``@pytest.fixture(params=[...])`` runs once per value, which its ``request.param`` holds.

The names must be a literal (``"a, b"``, ``("a", "b")``); a parameter with ``indirect=``
reaches a fixture's ``request.param`` instead and is left to the fixture. Rows the analysis
cannot read (``argvalues`` from a call it cannot follow) hold unknown values, as the
parameters then do: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind, SiteKind
from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.containers import Containers
from groundkit.codemap.extract.python.values.engine import each_value
from groundkit.codemap.extract.python.values.keys import FuncKey
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["fixture_params", "install_parametrize"]


def install_parametrize(flow: Flow, containers: Containers) -> set[tuple[FuncKey, int]]:
    """Fill the parameters every ``parametrize`` mark names; returns them (a fixture of the
    same name does not reach them: pytest's parametrization overrides it)."""
    filled: set[tuple[FuncKey, int]] = set()
    for info in flow.program.files:
        marks = [
            (site, info.facts.sites[site.factory])
            for site in info.facts.sites
            if site.kind == SiteKind.DECORATOR
            and site.factory >= 0
            and info.facts.sites[site.factory].name == "parametrize"
        ]
        if not marks:
            continue
        texts, items = _literals(info.facts)
        for site, mark in marks:
            names = _names(mark, texts, items)
            rows = _argument(mark, 1, "argvalues")
            if names is None or rows is None or any(k == "indirect" for k, _ in mark.keywords):
                continue
            # one name in a string: each row is the value; names in a list or tuple (or
            # several): each row is a tuple of values (pytest's ``force_tuple``)
            single = len(names) == 1 and _argument(mark, 0, "argnames") in texts
            column_of = _Columns(flow, containers, flow.var(info.index, rows), single)
            for func in _tests(info.facts, info.index, site.target):
                scope = flow.scope(func)
                for position, param in enumerate(scope.params):
                    if param.name in names:
                        column = column_of(names.index(param.name))
                        flow.engine.flow(column, flow.param(func, position))
                        filled.add((func, position))
    return filled


def fixture_params(flow: Flow, containers: Containers) -> dict[FuncKey, int]:
    """Each fixture made with ``@pytest.fixture(params=[...])``, and a variable holding what
    its ``request.param`` is: one of the values, as a single-name ``parametrize`` row."""
    found: dict[FuncKey, int] = {}
    for info in flow.program.files:
        for site in info.facts.sites:
            if site.kind != SiteKind.DECORATOR or site.factory < 0:
                continue
            factory = info.facts.sites[site.factory]
            params = _argument(factory, -1, "params") if factory.name == "fixture" else None
            if params is not None:
                columns = _Columns(flow, containers, flow.var(info.index, params), single=True)
                found[FuncKey((info.index, site.target))] = columns(0)
    return found


class _Columns:
    """The columns of one mark's rows, each a variable holding its values."""

    def __init__(self, flow: Flow, containers: Containers, rows: int, single: bool) -> None:
        self.flow = flow
        self.containers = containers
        self.rows = rows
        self.each = containers.elements(rows)
        self.single = single
        self.made: dict[int, int] = {}

    def __call__(self, index: int) -> int:
        found = self.made.get(index)
        if found is None:
            flow = self.flow
            found = self.made[index] = flow.cell(("parametrize", self.each, index))
            # a choice of rows (``[a] if x else [b]``) or within them is a choice here
            flow.depends.extend((self.rows, found, self.each, found))
            flow.engine.on(self.rows, each_value(self._unread, found))
            if self.single:
                flow.engine.on(self.each, each_value(self._single, found))
            else:
                flow.engine.on(self.each, each_value(self._row, index, found))
        return found

    def _unread(self, value: int, column: int) -> None:
        """Rows that are no list or tuple of the code (a call's result): unknown values."""
        if self.flow.values.keys[value][0] not in (objects.CONT, objects.SYN):
            self.flow.engine.add(column, [objects.UNKNOWN_ID])

    def _single(self, value: int, column: int) -> None:
        flow = self.flow
        if flow.values.keys[value][:2] == (objects.SYN, library.ROW):
            flow.engine.flow(flow.slot(value, 0), column)
        else:
            flow.engine.add(column, [value])

    def _row(self, value: int, index: int, column: int) -> None:
        if self.flow.values.keys[value][0] in (objects.CONT, objects.SYN):
            self.containers.unpack(value, index, False, 0, column, None, self.each)
        else:
            self.flow.engine.add(column, [objects.UNKNOWN_ID])


def _literals(found: facts.Facts) -> tuple[dict[int, str], dict[int, dict[int, int]]]:
    """A file's string constants (variable -> text) and literal list/tuple items (variable ->
    index -> variable), to read a mark's names before any value flows."""
    texts: dict[int, str] = {}
    items: dict[int, dict[int, int]] = {}
    for op in found.ops:
        if isinstance(op, facts.Const) and op.text is not None:
            texts[op.dst] = op.text
        elif isinstance(op, facts.SetSub) and isinstance(op.key, int):
            items.setdefault(op.obj, {})[op.key] = op.src
    return texts, items


def _names(
    mark: facts.Site, texts: dict[int, str], items: dict[int, dict[int, int]]
) -> list[str] | None:
    var = _argument(mark, 0, "argnames")
    if var is None:
        return None
    if var in texts:
        return [name.strip() for name in texts[var].split(",") if name.strip()]
    listed = items.get(var)
    if not listed:
        return None
    names = [texts.get(listed[i]) for i in sorted(listed)]
    return [n for n in names if n is not None] if all(names) else None


def _argument(mark: facts.Site, position: int, keyword: str) -> int | None:
    for name, var in mark.keywords:
        if name == keyword:
            return var
    if 0 <= position < len(mark.args) and mark.args[position] >= 0:
        return mark.args[position]
    return None


def _tests(found: facts.Facts, file: int, target: int) -> Iterator[FuncKey]:
    """The test the mark is on, or each test method of the class it is on."""
    scope = found.scopes[target]
    if scope.kind in (Kind.FUNCTION, Kind.METHOD):
        yield FuncKey((file, target))
    elif scope.kind == Kind.CLASS:
        for index, inner in enumerate(found.scopes):
            name = inner.qual.rsplit(".", 1)[-1]
            if inner.parent == target and inner.kind == Kind.METHOD and name.startswith("test"):
                yield FuncKey((file, index))
