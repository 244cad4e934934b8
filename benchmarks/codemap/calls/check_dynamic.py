"""Run every labelled call-edge case and check its expected edges against what really happens.

Usage:
    python benchmarks/codemap/calls/check_dynamic.py [CASE_DIR ...] [--verbose]

Each case folder holds `main.py` (the entry point, imported as module `main` with the case
folder first on sys.path), any other modules or packages, and `expected.json`. Every case
runs in a fresh subprocess of the same interpreter. Two recorders observe it:

- call sites: an import hook rewrites every call expression `f(a)` in the case's own files
  into `__cm_probe__(f, line)(a)`. The probe notes the frame making the call and the object
  about to be called, and returns that object unchanged, so the program behaves as before.
  This is what sees `Class()` for a class with no `__init__` of its own, and which line made
  each call.
- implicit calls: `sys.setprofile` (and `threading.setprofile`, for threads the case starts)
  notes every Python frame of the case that starts while another frame of the case is its
  parent. This sees calls that have no call expression: decorator application, property
  getters, a generator's body starting, `__init__`, dunder methods run by operators, `for`,
  `with`, `len()` and the like.
- hand-overs: the same hook wraps every argument `f(a, k=b)` into `__cm_arg__(a)`, noting each
  of the case's callables (functions, bound methods, classes, callable instances, and the
  function inside a `functools.partial`) passed to a callee outside the case (`map`,
  `threading.Thread(target=)`, `executor.submit`, `atexit.register`, ...). A frame of the case
  started by no frame of the case (another thread, `atexit`, a library frame in between) is
  then a call from the scope that handed its function to the library; when nothing handed it
  over, from the nearest frame of the case below it on the stack (`contextlib.contextmanager`'s
  body runs under `__enter__`, on behalf of the `with`). A coroutine started by the event loop
  is not a call (its call is where the coroutine object was made), nor is a test or fixture
  pytest starts (a case whose ``main.py`` runs ``pytest.main``). `raise C` without
  parentheses is recorded as a call of `C` from the raising scope, as `raise C()` would be.
  Handlers registered with `atexit` run (`atexit._run_exitfuncs()`) before the case ends.

Names follow the benchmark's convention (see ../README.md): module = dotted path of the file
relative to the case folder, then `__qualname__` without `<locals>`; comprehensions and
generator expressions belong to the enclosing scope; a lambda is `<scope>.<lambda>`; code at
module level is the module itself; `Class()` is `Class.__init__` when the first `__init__` in
the class's MRO is one of the case's own functions, else the class; a callable that a library
or another thread calls is called by the scope that handed it over.

Checks, per case:
1. every expected edge happens at run time, from a line not marked `# unresolved`;
2. every in-case edge that happens at run time is expected, or happens only at lines marked
   `# unresolved` (the call sites a static analysis cannot resolve);
3. the number of lines marked `# unresolved` equals `unresolved_min`, and each such line
   made at least one call at run time;
4. each name in `external` was imported by the case (its top-level module is loaded);
5. no frame of the case started outside its frames with nothing handing it over, and no thread
   of the case raised.
Exit status 0 when every case passes.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = "# unresolved"
COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")

# ---------------------------------------------------------------- the child side (one case)


def _child(case_dir: str) -> None:
    import atexit
    import builtins
    import functools
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import inspect
    import threading
    import types

    root = Path(case_dir).resolve()
    edges: list[tuple[str, str, int, str]] = []  # caller, callee, caller line, recorder

    known: dict[str, bool] = {}

    def in_case(filename: str) -> bool:
        if filename not in known:
            path = Path(filename)
            known[filename] = (
                path.is_absolute() and path.is_file() and path.resolve().is_relative_to(root)
            )
        return known[filename]

    def module_of(filename: str) -> str:
        rel = Path(filename).resolve().relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def scope_name(code: types.CodeType) -> str:
        parts = [p for p in code.co_qualname.split(".") if p != "<locals>"]
        while parts and parts[-1] in COMPREHENSIONS:
            parts.pop()
        mod = module_of(code.co_filename)
        if not parts or parts == ["<module>"]:
            return mod
        return ".".join([mod, *parts])

    def func_name(fn: object) -> str | None:
        if isinstance(fn, types.MethodType):
            fn = fn.__func__
        if isinstance(fn, (staticmethod, classmethod)):
            fn = fn.__func__
        code = getattr(fn, "__code__", None)
        if isinstance(code, types.CodeType) and in_case(code.co_filename):
            return scope_name(code)
        return None

    def class_name(cls: type) -> str | None:
        mod = sys.modules.get(cls.__module__)
        file = getattr(mod, "__file__", None)
        if not file or not in_case(file):
            return None
        qual = ".".join(p for p in cls.__qualname__.split(".") if p != "<locals>")
        return f"{module_of(file)}.{qual}"

    def callee_name(obj: object) -> str | None:
        if isinstance(obj, type):
            if class_name(obj) is None:
                return None
            for klass in obj.__mro__:
                if "__init__" in klass.__dict__:
                    return func_name(klass.__dict__["__init__"]) or class_name(obj)
            return class_name(obj)
        name = func_name(obj)
        if name is not None:
            return name
        for klass in type(obj).__mro__:  # a callable instance runs its class's __call__
            if "__call__" in klass.__dict__:
                return func_name(klass.__dict__["__call__"])
        return None

    def probe(obj: object, line: int, col: int) -> object:
        frame = sys._getframe(1)
        if in_case(frame.f_code.co_filename):
            target = callee_name(obj)
            if target is not None:
                edges.append((scope_name(frame.f_code), target, line, "site"))
            else:
                library_sites.add((frame.f_code.co_filename, line, col))
            calls_at.add((frame.f_code.co_filename, line))
        return obj

    def handed_name(value: object) -> str | None:
        while isinstance(value, functools.partial):
            value = value.func
        return callee_name(value) if callable(value) else None

    def arg(value: object, line: int, col: int) -> object:
        """Note a callable of the case passed at call node (line, col); return it unchanged."""
        frame = sys._getframe(1)
        if in_case(frame.f_code.co_filename):
            name = handed_name(value)
            if name is not None:
                site = (frame.f_code.co_filename, line, col)
                handed.append((name, scope_name(frame.f_code), *site))
        return value

    def raised(exc: object, line: int) -> object:
        """`raise C` constructs C: record it as the call `C()` it stands for."""
        frame = sys._getframe(1)
        if isinstance(exc, type) and in_case(frame.f_code.co_filename):
            target = callee_name(exc)
            if target is not None:
                edges.append((scope_name(frame.f_code), target, line, "raise"))
            calls_at.add((frame.f_code.co_filename, line))
        return exc

    calls_at: set[tuple[str, int]] = set()
    library_sites: set[tuple[str, int, int]] = set()  # call nodes whose callee is not the case's
    handed: list[tuple[str, str, str, int, int]] = []  # callee, scope, file, line, col
    orphans: list[tuple[str, str | None, int]] = []  # callee, nearest case frame below, its line
    thread_errors: list[str] = []
    started: list[types.FrameType] = []
    builtins.__cm_probe__ = probe  # type: ignore[attr-defined]
    builtins.__cm_arg__ = arg  # type: ignore[attr-defined]
    builtins.__cm_raise__ = raised  # type: ignore[attr-defined]

    def helper(name: str, *args: ast.expr) -> ast.Call:
        return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])

    class Probe(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            where = (ast.Constant(value=node.lineno), ast.Constant(value=node.col_offset))
            node.func = helper("__cm_probe__", node.func, *where)
            node.args = [
                a if isinstance(a, ast.Starred) else helper("__cm_arg__", a, *where)
                for a in node.args
            ]
            for kw in node.keywords:
                if kw.arg is not None:
                    kw.value = helper("__cm_arg__", kw.value, *where)
            return node

        def visit_Raise(self, node: ast.Raise) -> ast.AST:
            self.generic_visit(node)
            line = ast.Constant(value=node.lineno)
            if node.exc is not None and not isinstance(node.exc, ast.Call):
                node.exc = helper("__cm_raise__", node.exc, line)
            if node.cause is not None and not isinstance(node.cause, ast.Call):
                node.cause = helper("__cm_raise__", node.cause, line)
            return node

    class Loader(importlib.machinery.SourceFileLoader):
        def source_to_code(self, data, path, *, _optimize=-1):  # type: ignore[override]
            tree = ast.parse(data, filename=path)
            tree = ast.fix_missing_locations(Probe().visit(tree))
            return compile(tree, path, "exec", dont_inherit=True)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or not spec.origin or not in_case(spec.origin):
                return None
            if not spec.origin.endswith(".py"):
                return None
            spec.loader = Loader(fullname, spec.origin)
            return spec

    resumable = inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR | inspect.CO_COROUTINE

    def profiler(frame: types.FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        # Module and class bodies are not calls (they lack CO_OPTIMIZED).
        if not code.co_flags & inspect.CO_OPTIMIZED or not in_case(code.co_filename):
            return
        # Comprehensions and generator expressions are part of the scope that holds them.
        if code.co_name in COMPREHENSIONS:
            return
        # A generator or coroutine resumed again is not a new call: keep its first start.
        if code.co_flags & resumable:
            if any(f is frame for f in started):
                return
            started.append(frame)
        back = frame.f_back
        if back is not None and in_case(back.f_code.co_filename):
            edges.append((scope_name(back.f_code), scope_name(code), back.f_lineno, "frame"))
            calls_at.add((back.f_code.co_filename, back.f_lineno))
            return
        # Started by the event loop: the coroutine's call is where the coroutine was made.
        if code.co_flags & inspect.CO_COROUTINE:
            return
        # A test or fixture pytest runs (``pytest.main`` in main.py): no call of the case.
        if back is not None and f"{os.sep}_pytest{os.sep}" in back.f_code.co_filename:
            return
        while back is not None and not in_case(back.f_code.co_filename):
            back = back.f_back
        below = None if back is None else scope_name(back.f_code)
        orphans.append((scope_name(code), below, 0 if back is None else back.f_lineno))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        thread_errors.append(f"{args.exc_type.__name__}: {args.exc_value}")

    sys.dont_write_bytecode = True
    sys.path.insert(0, str(root))
    sys.meta_path.insert(0, Finder())
    import importlib

    error = None
    threading.excepthook = thread_hook
    threading.setprofile(profiler)
    sys.setprofile(profiler)
    try:
        importlib.import_module("main")
        atexit._run_exitfuncs()  # the case's exit handlers, while the recorders still watch
    except BaseException as exc:  # reported to the parent
        error = f"{type(exc).__name__}: {exc}"
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    unexplained = []
    for callee, below, line in orphans:
        givers = {
            (scope, ln)
            for name, scope, file, ln, col in handed
            if name == callee and (file, ln, col) in library_sites
        }
        if not givers and below is not None:
            givers = {(below, line)}
        if not givers:
            unexplained.append(callee)
        for scope, ln in givers:
            edges.append((scope, callee, ln, "handed"))
    if thread_errors:
        error = f"a thread raised {thread_errors[0]}"
    loaded = sorted({m.split(".")[0] for m in sys.modules})
    lines = sorted([[str(Path(f).resolve().relative_to(root)), ln] for f, ln in calls_at])
    out = {
        "edges": edges,
        "error": error,
        "loaded": loaded,
        "call_lines": lines,
        "unexplained": sorted(set(unexplained)),
    }
    sys.stdout.write("\n@@CM@@" + json.dumps(out))


# ---------------------------------------------------------------- the parent side (checks)


def marked_lines(case: Path) -> set[tuple[str, int]]:
    """(relative file, line) of every line carrying the `# unresolved` marker."""
    found = set()
    for file in sorted(case.rglob("*.py")):
        for no, text in enumerate(file.read_text().splitlines(), 1):
            if MARK in text:
                found.add((str(file.relative_to(case)), no))
    return found


def line_of(case: Path, caller: str, line: int, marked: set[tuple[str, int]]) -> bool:
    """Whether line `line` of the caller's module file is a marked line."""
    mod = caller
    while mod:
        for rel in (mod.replace(".", "/") + ".py", mod.replace(".", "/") + "/__init__.py"):
            if (case / rel).is_file():
                return (rel, line) in marked
        mod = mod.rpartition(".")[0]
    return False


def check_case(case: Path) -> tuple[list[str], dict[str, object]]:
    expected = json.loads((case / "expected.json").read_text())
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(case)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=case,
        check=False,
    )
    problems: list[str] = []
    if "@@CM@@" not in proc.stdout:
        return [f"child failed: {proc.stderr.strip()[-400:]}"], {}
    data = json.loads(proc.stdout.rsplit("@@CM@@", 1)[1])
    if data["error"]:
        problems.append(f"the case raised {data['error']}")
    marked = marked_lines(case)
    want = {(e["caller"], e["callee"]) for e in expected["edges"]}
    for e in expected["edges"]:
        if e.get("kind") != "calls":
            problems.append(f"edge kind is not 'calls': {e}")
    seen_clean: set[tuple[str, str]] = set()
    seen_marked: set[tuple[str, str]] = set()
    for caller, callee, line, _how in data["edges"]:
        if line_of(case, caller, line, marked):
            seen_marked.add((caller, callee))
        else:
            seen_clean.add((caller, callee))
    for edge in sorted(want - seen_clean):
        where = " (only from a line marked unresolved)" if edge in seen_marked else ""
        problems.append(f"expected edge never happened{where}: {edge[0]} -> {edge[1]}")
    for edge in sorted(seen_clean - want):
        problems.append(f"edge happened but is not expected nor marked: {edge[0]} -> {edge[1]}")
    if len(marked) != expected["unresolved_min"]:
        problems.append(
            f"{len(marked)} lines marked unresolved, unresolved_min is {expected['unresolved_min']}"
        )
    ran = {(f, ln) for f, ln in data["call_lines"]}
    for rel, ln in sorted(marked - ran):
        problems.append(f"marked line {rel}:{ln} made no call at run time")
    for name in expected.get("external", []):
        if name.split(".")[0] not in data["loaded"]:
            problems.append(f"external {name} was never imported")
    for name in data["unexplained"]:
        problems.append(f"{name} started outside the case's frames, handed over by no call")
    if not expected.get("notes"):
        problems.append("no notes")
    stats = {
        "expected": len(want),
        "dynamic": len(seen_clean | seen_marked),
        "unresolved": len(marked),
        "only_unresolved": len(seen_marked - want),
    }
    return problems, stats


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        _child(argv[1])
        return 0
    verbose = "--verbose" in argv
    given = [Path(a) for a in argv if not a.startswith("--")]
    cases = given or sorted(p.parent for p in HERE.glob("*/*/expected.json"))
    failed = 0
    per_cat: dict[str, list[int]] = {}
    for case in cases:
        problems, stats = check_case(case.resolve())
        cat = case.resolve().parent.name
        row = per_cat.setdefault(cat, [0, 0, 0, 0])
        row[0] += 1
        row[1] += int(stats.get("expected", 0))
        row[2] += int(stats.get("unresolved", 0))
        row[3] += int(not problems)
        if problems:
            failed += 1
            print(f"FAIL {cat}/{case.name}")
            for p in problems:
                print(f"     {p}")
        elif verbose:
            print(f"ok   {cat}/{case.name} {stats}")
    print(f"\n{'category':<22}{'cases':>6}{'edges':>7}{'unres':>7}{'pass':>6}")
    for cat, (n, e, u, ok) in sorted(per_cat.items()):
        print(f"{cat:<22}{n:>6}{e:>7}{u:>7}{ok:>6}")
    tot = [sum(r[i] for r in per_cat.values()) for i in range(4)]
    print(f"{'total':<22}{tot[0]:>6}{tot[1]:>7}{tot[2]:>7}{tot[3]:>6}")
    print(f"\n{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
