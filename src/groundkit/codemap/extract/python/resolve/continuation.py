"""An edit's files resolved from the last solve (``values/continued.py``) when it only adds
code, or the reason the whole program has to be solved again.

The snapshot is that of the last whole solve; every file whose program differs from it since
(the files changed now and those changed by earlier continued edits) is taken on from it
together, with its facts as they were at that solve kept beside the snapshot (``facts:<path>``).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from groundkit.codemap.extract.base import FileGraph, Project
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.resolve.graph import PythonFile
from groundkit.codemap.extract.python.values.continued import (
    Change,
    Reached,
    changed,
    continue_solve,
)
from groundkit.codemap.extract.python.values.program import FileInfo, Numbering, Program
from groundkit.codemap.extract.python.values.snapshot import PARTS, Snapshot, load

__all__ = ["Continued", "continue_edit", "facts_part"]

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Facts)


@dataclass(frozen=True, slots=True)
class Continued:
    """What an edit came to: the files drawn again, or (``graphs`` None) why it could not be
    continued and the whole program must be solved."""

    graphs: dict[str, FileGraph] | None
    reason: str


def facts_part(path: str) -> str:
    return f"facts:{path}"


def continue_edit(project: Project, layout: Layout, edited: Sequence[str]) -> Continued:
    """The files whose program differs from the last solve's, drawn again from it."""
    snapshot = _snapshot(project)
    if snapshot is None:
        return Continued(None, "no solver state kept for this map")
    paths = list(project.paths())
    if paths != snapshot.paths:
        return Continued(None, "files came or went since the last solve")
    now = [project.facts(path) for path in paths]
    if any(not isinstance(item.body, Facts) for item in now):
        return Continued(None, "a file's facts are not Python's")
    changes: dict[int, Change] = {}
    saved: dict[str, bytes] = {}
    try:
        for index, path in enumerate(paths):
            digest = getattr(now[index].interface, "program", "")
            if digest == snapshot.digests[index]:
                continue
            old = _facts_then(project, path, snapshot.digests[index], path in edited, saved)
            new = now[index].body
            assert isinstance(new, Facts)
            changes[index] = changed(old, new)
        files = [(path, item.body) for path, item in zip(paths, now, strict=True)]
        gaps = {i: (c.alignment.gap_at, c.alignment.gap) for i, c in changes.items()}
        numbering = Numbering(snapshot.numbering.files, snapshot.numbering.free, gaps)
        program = Program(files, layout, numbering, _indexed(project, files))
        flow, certainty = continue_solve(program, snapshot, changes)
    except Reached as exc:
        return Continued(None, exc.reason)
    if saved:
        project.keep_solver_state(saved.items(), replace=False)
    # The files changed since the solve, and those edited now (one edited back to what the
    # solve saw has no change left, but its last graph was drawn with one)
    drawn = sorted({*changes, *(program.by_path[path] for path in edited)})
    graphs = {
        program.files[index].path: PythonFile(flow, program.files[index], certainty).run()
        for index in drawn
    }
    return Continued(graphs, f"continued from the last solve ({len(changes)} files changed)")


def _snapshot(project: Project) -> Snapshot | None:
    """The kept snapshot: the one this open map loaded last when it is still the one kept
    (reading it takes most of an edit's time; a continuation does not change it)."""
    meta = project.solver_state("meta")
    if meta is None:
        return None
    memory = project.memory()
    found = memory.get("python:snapshot")
    if isinstance(found, tuple) and found[0] == meta and isinstance(found[1], Snapshot):
        return found[1]
    parts = {name: project.solver_state(name) for name in PARTS}
    kept = {name: data for name, data in parts.items() if data is not None}
    snapshot = load(kept) if len(kept) == len(PARTS) else None
    memory["python:snapshot"] = (meta, snapshot)
    return snapshot


def _indexed(project: Project, files: list[tuple[str, Facts]]) -> dict[int, FileInfo]:
    """What the last continued edit's program found of each file's facts on their own, for
    the facts it shares with this one (the map keeps them decoded: ``MapProject``); the rest
    is dropped."""
    memory = project.memory()
    kept = memory.get("python:indexed")
    known: dict[int, FileInfo] = kept if isinstance(kept, dict) else {}
    now = {id(item) for _, item in files}
    memory["python:indexed"] = indexed = {k: v for k, v in known.items() if k in now}
    return indexed


def _facts_then(
    project: Project, path: str, digest: str, changed_now: bool, saved: dict[str, bytes]
) -> Facts:
    """``path``'s facts as the snapshot solved them: kept beside it by an earlier continued
    edit, or still in the map when this edit is the first to change the file."""
    kept = project.solver_state(facts_part(path))
    if kept is not None:
        return _DECODER.decode(zlib.decompress(kept))
    if changed_now:
        previous = project.previous(path).facts
        if getattr(previous.interface, "program", "") == digest and isinstance(
            previous.body, Facts
        ):
            saved[facts_part(path)] = zlib.compress(_ENCODER.encode(previous.body), 1)
            return previous.body
    raise Reached("the kept solver state is older than the map")
