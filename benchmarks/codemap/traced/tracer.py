"""A pytest plugin that records which in-repository functions call which, while tests run.

Loaded by collect.py as `python -m pytest -p tracer` with this folder on PYTHONPATH; set up
through the environment:

    TRACED_ROOT      the unpacked sdist (the repository root)
    TRACED_PACKAGE   the package folder, relative to the root (`httpx`, `src/click`)
    TRACED_TESTS     the tests folder, relative to the root (`tests`)
    TRACED_OUT       where to write the JSON of observed pairs

`sys.setprofile` (and `threading.setprofile`, for threads started later) is installed when
pytest imports the plugin, before conftest files import the package, so calls made while modules
are imported (decorators, module-level calls) are seen too. A callee is a function of the package
whose frame starts; a generator or coroutine counts once, when its body first starts (a resume is
not a call). Its caller is the frame below it when that frame is the package's or the tests'
code ("direct"); otherwise the nearest such frame further down the stack, with the top-level
module of the outside frame just below the callee noted as `via` (`contextlib`, `httpcore`,
`asyncio`): a library called back into the package on that frame's behalf.

Names follow benchmarks/codemap/README.md: a module is named as the code map names it (from the
top of its package chain, else by its path from the root), then `__qualname__` without
`<locals>`; comprehensions and generator expressions belong to the function that holds them;
module and class bodies are the module and the class.
"""

from __future__ import annotations

import dis
import inspect
import json
import os
import sys
import threading
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
RESUME = dis.opmap["RESUME"]


def module_name(path: Path, root: Path) -> str:
    """The code map's name for the module in `path`: from the top of its package chain when it
    is in a package, else its path from the root."""
    top = root
    if (path.parent / "__init__.py").is_file():
        top = path.parent
        while top.parent != root and (top.parent / "__init__.py").is_file():
            top = top.parent
        top = top.parent
    parts = list(path.relative_to(top).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Recorder:
    def __init__(self, root: Path, package: Path, tests: Path) -> None:
        self.root, self.package, self.tests = root, package, tests
        self.where: dict[str, tuple[str, str] | None] = {}  # file -> (side, module)
        self.names: dict[CodeType, tuple[str, str] | None] = {}  # code -> (side, scope)
        self.start_at: dict[CodeType, int] = {}  # generator code -> offset of its RESUME 0
        self.pairs: dict[tuple[str, str, str], set[str]] = {}  # (side, caller, callee) -> via

    def _file(self, filename: str) -> tuple[str, str] | None:
        if filename not in self.where:
            path = Path(filename)
            side = None
            if path.is_absolute() and path.suffix == ".py":
                path = path.resolve()
                if path.is_relative_to(self.package):
                    side = "package"
                elif path.is_relative_to(self.tests):
                    side = "tests"
            self.where[filename] = None if side is None else (side, module_name(path, self.root))
        return self.where[filename]

    def name(self, code: CodeType) -> tuple[str, str] | None:
        """(side, scope name) of a code object of the package or the tests, else None."""
        if code not in self.names:
            found = self._file(code.co_filename)
            if found is None:
                self.names[code] = None
            else:
                side, module = found
                parts = [p for p in code.co_qualname.split(".") if p != "<locals>"]
                while parts and parts[-1] in COMPREHENSIONS:
                    parts.pop()
                if parts in ([], ["<module>"]):
                    self.names[code] = (side, module)
                else:
                    self.names[code] = (side, ".".join([module, *parts]))
        return self.names[code]

    def _first_start(self, frame: FrameType) -> bool:
        code = frame.f_code
        if code not in self.start_at:
            raw = code.co_code
            self.start_at[code] = next(
                (i for i in range(0, len(raw), 2) if raw[i] == RESUME and raw[i + 1] == 0), -1
            )
        return frame.f_lasti == self.start_at[code]

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        callee = self.name(code)
        if callee is None or callee[0] != "package" or code.co_name in COMPREHENSIONS:
            return
        if not code.co_flags & inspect.CO_OPTIMIZED:  # module and class bodies
            return
        if code.co_flags & RESUMABLE and not self._first_start(frame):
            return
        back = frame.f_back
        caller = None if back is None else self.name(back.f_code)
        via = ""
        if caller is None and back is not None:
            via = str(back.f_globals.get("__name__", "?")).partition(".")[0]
            while back is not None and caller is None:
                back = back.f_back
                caller = None if back is None else self.name(back.f_code)
        if caller is None:
            return
        key = (caller[0], caller[1], callee[1])
        self.pairs.setdefault(key, set()).add(via)

    def write(self, out: Path) -> None:
        rows = []
        for (side, caller, callee), vias in sorted(self.pairs.items()):
            direct = "" in vias
            rows.append([side, caller, callee, direct, sorted(v for v in vias if v)])
        out.write_text(json.dumps({"pairs": rows}) + "\n")


_ROOT = os.environ.get("TRACED_ROOT")
_recorder: Recorder | None = None
if _ROOT:
    _root = Path(_ROOT).resolve()
    _recorder = Recorder(
        _root,
        (_root / os.environ["TRACED_PACKAGE"]).resolve(),
        (_root / os.environ["TRACED_TESTS"]).resolve(),
    )
    threading.setprofile(_recorder.profile)
    sys.setprofile(_recorder.profile)


def pytest_unconfigure(config: Any) -> None:
    sys.setprofile(None)
    threading.setprofile(None)  # type: ignore[arg-type]
    if _recorder is not None:
        _recorder.write(Path(os.environ["TRACED_OUT"]))
