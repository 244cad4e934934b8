"""A solved flow kept for the next edit: what each variable holds, the values and cells by
key, what each site reached, which variables hold a choice or may be ``None``, and what the
second round added, in ``marshal``'s format (builtin types only, loaded in tens of
milliseconds; nothing in it is code). ``continued.py`` takes an edit on from here.

The rules are not kept (they are closures over the solver): a continuation may only add
variables, never give an old one anything (see ``continued.py`` for why that is exact).
"""

from __future__ import annotations

import marshal
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from itertools import islice
from typing import Any

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.certainty import Certainty
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import Numbering, Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["FORMAT", "PARTS", "Snapshot", "dump", "hierarchy", "load"]

# What a snapshot was written by: another Python's ``marshal`` or another layout is not read.
# 3: a descriptor's ``__get__`` is recorded with the attribute's values as its operand
# (``descriptors.py``); 2: the cells in pieces
FORMAT = f"3/{sys.version_info[0]}.{sys.version_info[1]}"
_PIECES = 8  # the variables, the cells and the sites' targets are written in this many parts
_SETS = (set, frozenset)  # a variable's values: its own set, or one shared (``Engine.share``)
PARTS = (
    "meta",
    *(f"pts.{piece}" for piece in range(_PIECES)),
    "keys",
    *(f"cells.{piece}" for piece in range(_PIECES)),
    "slots",
    *(f"found.{piece}" for piece in range(_PIECES)),
    "sets",
    "receivers",
)


@dataclass(slots=True)
class Snapshot:
    """A solved flow as the next edit needs it (``continued.py``)."""

    paths: list[str]
    digests: list[str]  # each file's program digest (``Interface.program``) when solved
    numbering: Numbering
    size: int  # variables in the solve
    pts: list[Any]  # variable -> None, one value, or a set of values
    keys: list[tuple[Any, ...]]
    cells: dict[tuple[Any, ...], int]
    slots: dict[int, dict[str | int, int]]
    found: dict[SiteKey, dict[FuncKey | ClassKey, tuple[How, int]]]
    choices: set[int]
    maybe_none: set[int]
    late: set[int]  # variables the second round gave more (new code must not read them)
    calls_bound: set[FuncKey]
    escaped: set[FuncKey]
    patched_any: set[ClassKey]
    set_any: set[ClassKey]
    set_plain: set[ClassKey]
    dynamic: set[SiteKey]
    summary: int | None
    dunders: set[str]
    hierarchy: list[tuple[ClassKey, list[ClassKey], bool]]
    receivers: dict[str, Any]  # what base methods are sent to (``Overrides.kept``)
    # What each continuation derives from the rest the same way, made by the first one
    # (``continued.py``); never written.
    derived: Any = None


def hierarchy(program: Program) -> list[tuple[ClassKey, list[ClassKey], bool]]:
    """Every class's bases as found before values flow (an edit that changes one changes how
    every lookup on its subclasses goes)."""
    return [(key, list(info.bases), info.open) for key, info in program.classes.items()]


def dump(
    flow: Flow, certainty: Certainty, late: set[int], digests: list[str]
) -> Iterator[tuple[str, bytes]]:
    """The parts of a solved flow to keep, by name, each a ``marshal`` blob made as it is
    asked for (so that only one is held at a time)."""
    program = flow.program
    engine = flow.engine
    meta = {
        "format": FORMAT,
        "paths": [info.path for info in program.files],
        "digests": digests,
        "files": [(info.base, info.facts.variables) for info in program.files],
        "size": len(engine.pts),
        "summary": flow.summary,
        "dunders": program.dunders,
        "hierarchy": hierarchy(program),
    }
    yield "meta", marshal.dumps(meta)
    # In pieces, so that a piece's copy is all a write holds (django: 28 MB at once, above the
    # solve's peak); sets are written as lists (``marshal`` sorts a set's items: four times
    # slower).
    pts = engine.pts
    step = -(-len(pts) // _PIECES)
    for piece in range(_PIECES):
        chunk = pts[piece * step : (piece + 1) * step]
        yield f"pts.{piece}", marshal.dumps([list(v) if isinstance(v, _SETS) else v for v in chunk])
    yield (
        "keys",
        _dumps([_plain(key) if key[0] == objects.CONT else key for key in flow.values.keys]),
    )
    cells = iter(flow.cells.items())  # (in pieces: django's 4.9 MB at once raised the peak 13 MB)
    step = -(-len(flow.cells) // _PIECES)
    for piece in range(_PIECES):
        yield f"cells.{piece}", _dumps(dict(islice(cells, step)))
    yield "slots", marshal.dumps(flow.slots)
    found = list(flow.found.items())
    step = -(-len(found) // _PIECES)  # (sites this time)
    for piece in range(_PIECES):
        sites = found[piece * step : (piece + 1) * step]
        yield f"found.{piece}", marshal.dumps({site: item.targets for site, item in sites})
    sets = {
        "choices": certainty.choices,
        "maybe_none": certainty.maybe_none,
        "late": late,
        "calls_bound": flow.calls_bound.keys(),
        "escaped": flow.escaped,
        "patched_any": flow.patched_any,
        "set_any": flow.set_any,
        "set_plain": flow.set_plain,
        "dynamic": flow.dynamic,
    }
    yield "sets", _dumps({name: list(items) for name, items in sets.items()})
    yield "receivers", marshal.dumps(certainty.overrides.kept())


def _dumps(value: Any) -> bytes:
    """``marshal``'s bytes of ``value``, its enum members written as the ints they are (most
    values have none: they are converted only when ``marshal`` refuses one)."""
    try:
        return marshal.dumps(value)
    except ValueError:
        return marshal.dumps(_plain(value))


def load(parts: Mapping[str, bytes]) -> Snapshot | None:
    """The snapshot in ``parts``; None when a part is missing or another format wrote it."""
    try:
        meta = _read(parts["meta"])
        if meta.get("format") != FORMAT:
            return None
        sets = {name: set(items) for name, items in _read(parts["sets"]).items()}
        return Snapshot(
            paths=meta["paths"],
            digests=meta["digests"],
            numbering=Numbering(meta["files"], meta["size"]),
            size=meta["size"],
            pts=[
                set(v) if type(v) is list else v
                for piece in range(_PIECES)
                for v in _read(parts[f"pts.{piece}"])
            ],
            keys=_read(parts["keys"]),
            cells={
                key: var
                for piece in range(_PIECES)
                for key, var in _read(parts[f"cells.{piece}"]).items()
            },
            slots=_read(parts["slots"]),
            found={
                site: targets
                for piece in range(_PIECES)
                for site, targets in _read(parts[f"found.{piece}"]).items()
            },
            choices=sets["choices"],
            maybe_none=sets["maybe_none"],
            late=sets["late"],
            calls_bound=sets["calls_bound"],
            escaped=sets["escaped"],
            patched_any=sets["patched_any"],
            set_any=sets["set_any"],
            set_plain=sets["set_plain"],
            dynamic=sets["dynamic"],
            summary=meta["summary"],
            dunders=meta["dunders"],
            hierarchy=meta["hierarchy"],
            receivers=_read(parts["receivers"]),
        )
    except (KeyError, ValueError, EOFError, TypeError):
        return None


def _read(data: bytes) -> Any:
    """One part back. ``marshal`` is safe only on data one trusts: this is the map's own, which
    this version of groundkit wrote beside the facts it already trusts (``FORMAT`` checked)."""
    return marshal.loads(data)  # noqa: S302


def _plain(value: Any) -> Any:
    """``value`` with its enum members as the ints they are (``marshal`` knows no enums; the
    two compare and hash alike)."""
    if isinstance(value, IntEnum):
        return int(value)
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value) if _has_enum(value) else value
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, set):
        return {_plain(item) for item in value}
    return value


def _has_enum(value: tuple[Any, ...]) -> bool:
    return any(
        isinstance(item, IntEnum) or (type(item) is tuple and _has_enum(item)) for item in value
    )
