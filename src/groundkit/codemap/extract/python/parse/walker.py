"""The state of one file's walk: the records being built, the frame being walked, and how a
name is read and bound in it. Statements (``statements.py``) and expressions
(``expressions.py``) are functions over this state."""

from __future__ import annotations

import ast
import math
from bisect import bisect_left
from typing import Any

import msgspec

from groundkit.codemap.extract.base import Clock
from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.parse.frames import Frame
from groundkit.codemap.lines import source_lines

__all__ = ["Walker"]

Env = dict[str, int]


class Walker:
    """Builds one file's ``Facts``."""

    def __init__(
        self, text: str, rebound: frozenset[str] = frozenset(), clock: Clock | None = None
    ) -> None:
        self.clock = clock if clock is not None else Clock(math.inf)
        self.text_lines = source_lines(text)
        self.ascii = text.isascii()  # then a column in bytes is one in characters
        # Names some function rebinds with ``global``/``nonlocal``: a read of one may see what
        # that function bound, whenever it ran.
        self.rebound = rebound
        # The lines where a walrus may bind a name (``:=`` is one token: on one line).
        self.walrus = (
            tuple(i for i, line in enumerate(self.text_lines, 1) if ":=" in line)
            if ":=" in text
            else ()
        )
        self._rebound_reads: dict[tuple[str, int], int] = {}
        self.tested: dict[int, int] = {}  # each copy ``facts.Tested`` made -> its source
        self.flagged: set[int] = set()  # those of a parameter's flag (``parse/flags.py``)
        self.site_flags: dict[int, tuple[int, ...]] = {}  # ``Facts.flagged``
        self.ops: list[facts.Op] = []
        self.sites: list[facts.Site] = []
        self.scopes: list[facts.Scope] = []
        self.imports: list[facts.ImportStmt] = []
        self.lines: dict[int, str] = {}
        self.count = 0  # variables numbered so far
        self.flags: list[str] = []  # "type_checking" / "optional" while inside such a block
        self.all: list[str] | None = None
        self.all_dynamic = False
        self.scope_flags: dict[int, int] = {}
        self.deleted: set[str] = set()  # attribute names a ``del obj.name`` deletes
        self.loops: list[tuple[list[Env], list[Env]]] = []  # (breaks, continues) per loop
        self.alive = True  # False after return/raise/break/continue, until the block ends
        self.strings: dict[str, int] = {}  # a string literal's text -> its one variable
        self.written: dict[str, int] = {}  # a flag literal as written -> its one variable
        self._starts: dict[int, list[int]] = {}  # non-ASCII line -> byte offsets of its chars
        self.lit = self.var()
        self.none = self.var()
        self.unknown = self.var()
        self.ops += [
            facts.Const(self.lit, facts.ConstKind.LITERAL),
            facts.Const(self.none, facts.ConstKind.NONE),
            facts.Const(self.unknown, facts.ConstKind.UNKNOWN),
        ]
        end = len(self.text_lines) or 1
        self.scopes.append(facts.Scope("", Kind.MODULE, -1, 1, end, 1))
        self.frame = Frame(0, Kind.MODULE, None)
        self.module = self.frame

    # -- records ----------------------------------------------------------------------------------
    def var(self) -> int:
        self.count += 1
        self.clock.tick()
        return self.count - 1

    def emit(self, op: facts.Op) -> None:
        self.ops.append(op)

    def site(self, node: ast.AST, kind: facts.SiteKind, **extra: Any) -> int:
        line = node.lineno  # type: ignore[attr-defined]
        end = node.end_lineno or line  # type: ignore[attr-defined]
        if line not in self.lines:
            self.line(line)
        col = node.col_offset  # type: ignore[attr-defined]
        end_col = node.end_col_offset or 0  # type: ignore[attr-defined]
        if not self.ascii:
            col, end_col = self.col(line, col), self.col(end, end_col)
        self.sites.append(facts.Site(self.frame.index, line, col, end, end_col, kind, **extra))
        if self.frame.flag_names:
            self._flagged_site(len(self.sites) - 1)
        return len(self.sites) - 1

    def _flagged_site(self, index: int) -> None:
        """Keep the flag copies in force at site ``index`` (``Facts.flagged``)."""
        env = self.frame.env
        copies = tuple(
            var
            for name in sorted(self.frame.flag_names)
            if (var := env.get(name)) is not None and var in self.flagged
        )
        if copies:
            self.site_flags[index] = copies

    def reserve_site(self) -> int:
        """A site's number before its parts are walked (a call's callee reads use it)."""
        self.sites.append(None)  # type: ignore[arg-type]
        return len(self.sites) - 1

    def fill_site(self, index: int, node: ast.AST, kind: facts.SiteKind, **extra: Any) -> None:
        at = self.site(node, kind, **extra)
        self.sites[index] = self.sites.pop()
        copies = self.site_flags.pop(at, None)
        if copies is not None:
            self.site_flags[index] = copies

    def line(self, line: int) -> None:
        if line not in self.lines and 0 < line <= len(self.text_lines):
            self.lines[line] = self.text_lines[line - 1].strip()[:240]

    def col(self, line: int, col: int) -> int:
        """``ast`` counts UTF-8 bytes; a column is in characters. The byte offsets where a
        line's characters start are found once per line, so a long line costs linear time."""
        if self.ascii or not 0 < line <= len(self.text_lines):
            return col
        starts = self._starts.get(line)
        if starts is None:
            text = self.text_lines[line - 1]
            if text.isascii():
                return col
            encoded = text.encode("utf-8", "surrogatepass")
            starts = [i for i, byte in enumerate(encoded) if byte & 0xC0 != 0x80]
            self._starts[line] = starts
        return bisect_left(starts, col)

    def const(self, text: str | None = None) -> int:
        dst = self.var()
        self.emit(facts.Const(dst, facts.ConstKind.LITERAL, text))
        return dst

    def flag(self, written: str) -> int:
        """The one variable of a ``bool`` or ``int`` literal passed or written as a default
        (``facts.Const.written``)."""
        found = self.written.get(written)
        if found is None:
            found = self.written[written] = self.var()
            self.emit(facts.Const(found, facts.ConstKind.LITERAL, None, written))
        return found

    def copy_of(self, srcs: list[int], choice: bool = True) -> int:
        """One variable for several: the same one when they agree, else a merge."""
        unique = list(dict.fromkeys(srcs))
        if len(unique) == 1:
            return unique[0]
        dst = self.var()
        self.emit(facts.Phi(dst, tuple(unique)) if choice else facts.Final(dst, tuple(unique)))
        return dst

    # -- names ------------------------------------------------------------------------------------
    def read(self, name: str, late: bool = False) -> int:
        """The variable ``name`` holds here (``late``: as code that runs later sees it, for
        annotations, which are often forward references)."""
        frame = self.frame
        if frame.kind == Kind.MODULE:
            found = None if late else frame.env.get(name)
            if found is None:
                return self._global(name)
            return self._rebound(name, found, self._global) if name in self.rebound else found
        if name in frame.declared_global:
            return self._global(name)
        if name in frame.declared_nonlocal:
            return self._outer(frame.parent, name)
        if frame.kind in (Kind.COMP, Kind.CLASS):
            found = frame.env.get(name)
            if found is not None:
                return found
            return self._inline_outer(frame.parent, name, late)
        if name in frame.local_names:
            found = frame.env.get(name)
            if found is None:
                return self.none  # read before any binding
            if name in self.rebound:
                return self._rebound(name, found, lambda n: self._final(frame, n))
            return found
        return self._outer(frame.parent, name)

    def _rebound(self, name: str, current: int, later: Any) -> int:
        """What a name rebound from inside a function holds: its binding here, or any."""
        key = (name, current)
        found = self._rebound_reads.get(key)
        if found is None:
            found = self._rebound_reads[key] = self.var()
            self.emit(facts.Phi(found, (current, later(name))))
        return found

    def _final(self, frame: Frame, name: str) -> int:
        found = frame.finals.get(name)
        if found is None:
            found = frame.finals[name] = self.var()
        return found

    def _inline_outer(self, frame: Frame | None, name: str, late: bool) -> int:
        """A class body or comprehension reading a name it does not bind: the enclosing
        frame as it is now (the code runs in place)."""
        while frame is not None:
            if frame.kind == Kind.MODULE:
                found = None if late else frame.env.get(name)
                return found if found is not None else self._global(name)
            if frame.kind in (Kind.COMP, Kind.CLASS):
                found = frame.env.get(name)
                if found is not None:
                    return found
                frame = frame.parent
                continue
            if name in frame.local_names:
                found = frame.env.get(name)
                return found if found is not None else self.none
            return self._outer(frame.parent, name)
        return self._global(name)

    def _outer(self, frame: Frame | None, name: str) -> int:
        """A function reading a free name: the nearest enclosing function that binds it (its
        last bindings), else the module's (class bodies are skipped, as Python does)."""
        while frame is not None and frame.kind != Kind.MODULE:
            if frame.runs_later and name in frame.local_names:
                current = frame.env.get(name)
                if current in self.tested and name in frame.fixed and name not in self.rebound:
                    # (a test's copy of a parameter never bound again: the value the name
                    # holds here is the one it keeps, so a function defined in the branch
                    # sees only what passed the test)
                    return current
                return self._final(frame, name)
            frame = frame.parent
        return self._global(name)

    def _global(self, name: str) -> int:
        frame = self.frame
        found = frame.globals_read.get(name)
        if found is None:
            found = frame.globals_read[name] = self.var()
            self.emit(facts.Global(found, name))
        return found

    def bind(self, name: str, value: int) -> None:
        frame = self.frame
        if frame.kind == Kind.COMP and name not in frame.local_names:
            # Only a comprehension's targets are its own: (x := ...) binds around it.
            outer = frame.parent
            while outer is not None and outer.kind == Kind.COMP:
                outer = outer.parent
            if outer is not None:
                saved, self.frame = self.frame, outer
                try:
                    self.bind(name, value)
                finally:
                    self.frame = saved
                return
        if name in frame.declared_global and frame.kind != Kind.MODULE:
            self.emit(facts.GlobalSet(name, value))
            return
        if name in frame.declared_nonlocal:
            holder = frame.parent
            while holder is not None and not (holder.runs_later and name in holder.local_names):
                holder = holder.parent
            if holder is not None:
                holder.late_writes.setdefault(name, []).append(value)
            return
        frame.env[name] = value

    # -- frames -----------------------------------------------------------------------------------
    def push(self, scope: facts.Scope, local_names: set[str] | None = None) -> Frame:
        self.scopes.append(scope)
        self.line(scope.at)
        frame = Frame(len(self.scopes) - 1, scope.kind, self.frame, local_names)
        self.frame = frame
        return frame

    def pop(self) -> None:
        """End the frame: later-running code and other modules see its last bindings."""
        frame = self.frame
        for name, dst in frame.finals.items():
            sources = []
            if name in frame.env:
                current = frame.env[name]
                while current in self.tested:  # (no binding: what the name holds, untested)
                    current = self.tested[current]
                sources.append(current)
            sources.extend(frame.late_writes.get(name, ()))
            self.emit(facts.Final(dst, tuple(sources)))
        if frame.kind == Kind.MODULE:
            for name, value in frame.env.items():
                self.emit(facts.ModBind(name, value))
        elif frame.kind == Kind.CLASS:
            for name, value in frame.env.items():
                self.emit(facts.ClassBind(frame.index, name, value))
        assert frame.parent is not None or frame.kind == Kind.MODULE
        if frame.parent is not None:
            self.frame = frame.parent

    # -- control flow -----------------------------------------------------------------------------
    def fork(self) -> Env:
        return dict(self.frame.env)

    def merge(self, branches: list[tuple[Env, bool]]) -> None:
        """The state after branches that meet: each name bound to what reaches it from the
        branches still alive (a run-time choice when they differ)."""
        alive = [env for env, live in branches if live]
        self.alive = bool(alive)
        if not alive:
            alive = [env for env, _ in branches]  # dead code after it still has names
        if len(alive) == 1:
            self.frame.env = alive[0]
            return
        names: dict[str, None] = {}
        for env in alive:
            names.update(dict.fromkeys(env))
        merged: Env = {}
        for name in names:
            values = [env[name] for env in alive if name in env]
            merged[name] = (
                self.copy_of(values)
                if len(values) == len(alive)
                else (self.copy_of([*values, self.none]))
            )
        self.frame.env = merged

    def scope_flag(self, index: int, flag: int) -> None:
        self.scope_flags[index] = self.scope_flags.get(index, 0) | flag

    def facts(self) -> facts.Facts:
        scopes = [
            s if not self.scope_flags.get(i) else _with_flags(s, self.scope_flags[i])
            for i, s in enumerate(self.scopes)
        ]
        if self.deleted:
            scopes[0] = msgspec.structs.replace(scopes[0], sets=tuple(sorted(self.deleted)))
        return facts.Facts(
            scopes,
            self.sites,
            self.imports,
            self.ops,
            self.count,
            facts.pack_lines(self.lines),
            None if self.all_dynamic else self.all,
            tuple(sorted(self.site_flags.items())),
        )


def _with_flags(scope: facts.Scope, flags: int) -> facts.Scope:
    return msgspec.structs.replace(scope, flags=scope.flags | flags)
