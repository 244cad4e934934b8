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
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from groundkit.codemap.extract.python.values.certainty import Certainty
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import Numbering, Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["FORMAT", "PARTS", "Snapshot", "dump", "hierarchy", "load"]

# What a snapshot was written by: another Python's ``marshal`` or another layout is not read.
FORMAT = f"1/{sys.version_info[0]}.{sys.version_info[1]}"
PARTS = ("meta", "pts", "keys", "cells", "slots", "found", "sets")


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
    once: set[tuple[Any, ...]]
    patched_any: set[ClassKey]
    dynamic: set[SiteKey]
    summary: int | None
    dunders: set[str]
    hierarchy: list[tuple[ClassKey, list[ClassKey], bool]]


def hierarchy(program: Program) -> list[tuple[ClassKey, list[ClassKey], bool]]:
    """Every class's bases as found before values flow (an edit that changes one changes how
    every lookup on its subclasses goes)."""
    return [(key, list(info.bases), info.open) for key, info in program.classes.items()]


def dump(flow: Flow, certainty: Certainty, late: set[int], digests: list[str]) -> dict[str, bytes]:
    """The parts of a solved flow to keep, by name (each a ``marshal`` blob)."""
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
    found = {site: dict(item.targets) for site, item in flow.found.items()}
    sets = {
        "choices": certainty.choices,
        "maybe_none": certainty.maybe_none,
        "late": late,
        "calls_bound": set(flow.calls_bound),
        "escaped": flow.escaped,
        "once": {_plain(key) for key in flow.once},
        "patched_any": flow.patched_any,
        "dynamic": flow.dynamic,
    }
    return {
        "meta": marshal.dumps(meta),
        "pts": marshal.dumps(engine.pts),
        "keys": marshal.dumps([_plain(key) for key in flow.values.keys]),
        "cells": marshal.dumps({_plain(key): var for key, var in flow.cells.items()}),
        "slots": marshal.dumps(flow.slots),
        "found": marshal.dumps(found),
        "sets": marshal.dumps(sets),
    }


def load(parts: Mapping[str, bytes]) -> Snapshot | None:
    """The snapshot in ``parts``; None when a part is missing or another format wrote it."""
    try:
        meta = _read(parts["meta"])
        if meta.get("format") != FORMAT:
            return None
        sets = _read(parts["sets"])
        return Snapshot(
            paths=meta["paths"],
            digests=meta["digests"],
            numbering=Numbering(meta["files"], meta["size"]),
            size=meta["size"],
            pts=_read(parts["pts"]),
            keys=_read(parts["keys"]),
            cells=_read(parts["cells"]),
            slots=_read(parts["slots"]),
            found=_read(parts["found"]),
            choices=sets["choices"],
            maybe_none=sets["maybe_none"],
            late=sets["late"],
            calls_bound=sets["calls_bound"],
            escaped=sets["escaped"],
            once=sets["once"],
            patched_any=sets["patched_any"],
            dynamic=sets["dynamic"],
            summary=meta["summary"],
            dunders=meta["dunders"],
            hierarchy=meta["hierarchy"],
        )
    except (KeyError, ValueError, EOFError, TypeError):
        return None


def _read(data: bytes) -> Any:
    """One part back. ``marshal`` is safe only on data one trusts: this is the map's own, which
    this version of groundkit wrote beside the facts it already trusts (``FORMAT`` checked)."""
    return marshal.loads(data)  # noqa: S302


def _plain(key: Any) -> Any:
    """A key with its enum members as the ints they are (``marshal`` knows no enums; the
    two compare and hash alike)."""
    if isinstance(key, tuple):
        return tuple(_plain(item) for item in key)
    if isinstance(key, IntEnum):
        return int(key)
    return key
