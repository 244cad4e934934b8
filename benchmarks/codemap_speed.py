"""How fast the code map is: full map beside a plain ``ast.parse`` of the same files, re-map
after an edit (one that only moves code, one that changes the code's values, none at all),
trace/blast latency, file size.

    python benchmarks/codemap_speed.py [--src /tmp/codemap-bench/src] [--runs 3]
        [--grimp /tmp/codemap-bench/grimp-venv/bin/python] [--only django,...] [--edits 10]
        [--edit-kind append|literal]
        [--root NAME=PATH ...] [--check]

``--edits N``: after the map, N one-line edits, each in another file (drawn at random, seeded),
each followed by a re-map: the median and the slowest (issue 34's target: median <= 0.5 s on
django), and how many were continued from the last solve, solved nothing (only places moved)
or solved the whole program again, with its reasons (``MapReport.solves``). ``--edit-kind``:
``append`` (a module-level line appended) or ``literal`` (a number or string literal inside a
function body changed to another, drawn at random, seeded: an existing line changed).
``--root NAME=PATH`` measures any folder too (a large repository). The
cold map's peak memory is that of a fresh process mapping the folder alone (``ru_maxrss``).
``--check``: after the edits, the edited map's edges are compared row by row with a fresh map of
the edited files (an incremental re-map must give what a cold map gives).

Issue 21's targets: a cold map of the django package <= 2x a plain ``ast.parse`` loop over the
same files (the floor for an ast-based analyser, measured in the same run); re-map after
editing one file <= 0.5 s; trace and blast p50 <= 20 ms. The sdists are those
benchmarks/codemap/*/collect.py unpack (or `pip download --no-deps --no-binary :all:`). CPU
seconds are reported beside wall seconds because the machine is shared: wall time depends on
what else runs, CPU time much less.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import NodeKind
from groundkit.codemap.store import edge_row

HERE = Path(__file__).parent


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _grimp(python: str, root: Path, package: str) -> float | None:
    if not Path(python).exists():
        return None
    code = (
        "import sys, time, grimp; sys.path.insert(0, sys.argv[1]); t = time.perf_counter();"
        " grimp.build_graph(sys.argv[2], cache_dir=None); print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [python, "-c", code, str(root), package], capture_output=True, text=True, check=False
    )
    return float(done.stdout.strip()) if done.returncode == 0 else None


def _edit(root: Path, rel: str, code: bool = False) -> None:
    """A comment appended (the file's values are the same), or a function that calls
    something (they are not)."""
    path = root / rel
    text = path.read_text()
    if code:
        count = text.count("def _edited_by_codemap_speed")
        text += f"\n\ndef _edited_by_codemap_speed{count}():\n    return print(len([]))\n"
    else:
        text += "\n# edited by codemap_speed\n"
    path.write_text(text)


def _appended(path: Path, number: int, rng: random.Random) -> str:
    """A module-level line that calls something appended (the file's program grows)."""
    path.write_text(path.read_text() + f"\n_edited_by_codemap_speed_{number} = len([])\n")
    return "a line appended"


def _literal(path: Path, number: int, rng: random.Random) -> str:
    """A number or string literal inside a function body changed to another (an existing line
    changed, as a reader changes a limit or a message); "" when the file has none."""
    import ast

    data = path.read_bytes()
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return ""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    in_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    found = [
        node
        for func in ast.walk(tree)
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for statement in func.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Constant)
        and type(node.value) in (int, float, str)
        and node.lineno == node.end_lineno
        and id(node) not in docstrings | in_fstrings
    ]
    if not found:
        return ""
    node = rng.choice(sorted(found, key=lambda n: (n.lineno, n.col_offset)))
    value = node.value
    new = repr(value + 1) if type(value) is not str else repr(f"{value} (edit {number})")
    lines = data.split(b"\n")
    line = lines[node.lineno - 1]
    lines[node.lineno - 1] = line[: node.col_offset] + new.encode() + line[node.end_col_offset :]
    path.write_bytes(b"\n".join(lines))
    return "a string changed" if type(value) is str else "a number changed"


EDIT_KINDS = {"append": _appended, "literal": _literal}


def _one_line_edits(codemap: Any, tree: Path, count: int, kind: str = "append") -> dict[str, Any]:
    """``count`` one-line edits, each in a different Python file (``EDIT_KINDS``: a line
    appended, or a literal in a function body changed), each followed by a re-map; how each
    was taken: continued from the last solve, nothing solved (only places moved), or the whole
    program solved again (with the reasons)."""
    files = sorted(str(p.relative_to(tree)) for p in tree.rglob("*.py"))
    rng = random.Random(34)
    order = rng.sample(files, min(count, len(files)))  # (the files edited before kinds came)
    order += rng.sample(sorted(set(files) - set(order)), len(files) - len(order))
    seconds, cpus, resolved, continued, fallbacks = [], [], [], 0, Counter[str]()
    unsolved, made = 0, Counter[str]()
    for rel in order:
        if len(seconds) == count:
            break
        what = EDIT_KINDS[kind](tree / rel, len(seconds), rng)
        if not what:
            continue
        made[what] += 1
        cpu = _cpu()
        started = time.perf_counter()
        report = codemap.update(tree)
        seconds.append(time.perf_counter() - started)
        cpus.append(_cpu() - cpu)
        resolved.append(report.resolved)
        python = [how for how in report.solves if how.startswith("python")]
        if any("continued" in how for how in python):
            continued += 1  # taken on from the last solve
        elif not python:
            unsolved += 1  # the program is the same: only places moved
        else:
            # solved again: why it could not be continued
            fallbacks.update(
                h.partition(": ")[2] for h in python if not h.endswith("whole program")
            )
    return {
        "edits": len(seconds),
        "continued": continued,
        "unsolved": unsolved,
        "fallbacks": dict(fallbacks),
        "made": dict(made),
        "edit_p50_s": statistics.median(seconds) if seconds else 0.0,
        "edit_max_s": max(seconds, default=0.0),
        "edit_cpu_p50_s": statistics.median(cpus) if cpus else 0.0,
        "edit_resolved_p50": statistics.median(resolved) if resolved else 0,
    }


def _differences(codemap: Any, name: str, tree: Path, work: Path) -> tuple[int, int]:
    """(rows in one map and not the other, rows of the fresh map): the edited map against a
    fresh map of the same files."""
    with open_codemap(name, index_dir=work / "fresh", create=True) as fresh:
        fresh.update(tree)
        expected = Counter(edge_row(e) for e in fresh.edges())
    found = Counter(edge_row(e) for e in codemap.edges())
    return sum(((expected - found) + (found - expected)).values()), sum(expected.values())


def _cold_peak(name: str, tree: Path) -> tuple[float, float, float]:
    """A cold map in a fresh process: (wall s, CPU s, peak resident MB)."""
    code = (
        "import sys, time, resource, tempfile;"
        "from groundkit.codemap.api import open_codemap;"
        "t = time.perf_counter();"
        "d = tempfile.mkdtemp();"
        "m = open_codemap(sys.argv[1], index_dir=d, create=True); m.update(sys.argv[2]);"
        "print(time.perf_counter() - t)"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", code, name, str(tree)], capture_output=True, text=True, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    wall = float(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else float("nan")
    return wall, cpu, after.ru_maxrss / 1024


def _parse_loop(root: Path, runs: int) -> float:
    """The floor: ``ast.parse`` of the same Python files, the bytes read beforehand."""
    import ast

    sources = [(str(p), p.read_bytes()) for p in sorted(root.rglob("*.py"))]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for name, data in sources:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(data, filename=name)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _remaps(codemap: Any, tree: Path, edit: str, runs: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("same", "comment", "code"):
        seconds = []
        for _ in range(runs):
            if kind != "same":
                _edit(tree, edit, code=kind == "code")
            started = time.perf_counter()
            report = codemap.update(tree)
            seconds.append(time.perf_counter() - started)
        out[f"remap_{kind}_s"] = statistics.median(seconds)
        out[f"remap_{kind}_resolved"] = report.resolved
    return out


def measure(
    name: str,
    root: Path,
    edit: str,
    runs: int,
    edits: int = 0,
    check: bool = False,
    kind: str = "append",
) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="grk-speed-"))
    tree = work / root.name
    shutil.copytree(root, tree, symlinks=True)
    parse_s = _parse_loop(tree, runs)
    parse_cpu = _cpu()
    _parse_loop(tree, 1)
    parse_cpu = _cpu() - parse_cpu
    cold_wall, cold_cpu, peak_mb = _cold_peak(name, tree)
    fulls, cpus = [], []
    for run in range(runs):
        index = work / f"index{run}"
        cpu = _cpu()
        started = time.perf_counter()
        with open_codemap(name, index_dir=index, create=True) as codemap:
            report = codemap.update(tree)
        fulls.append(time.perf_counter() - started)
        cpus.append(_cpu() - cpu)
    single = []  # the same in one process: on a busy machine a second core may not be there
    for run in range(runs):
        index = work / f"single{run}"
        cpu = _cpu()
        started = time.perf_counter()
        with open_codemap(name, index_dir=index, create=True) as codemap:
            codemap.update(tree, workers=1)
        single.append((time.perf_counter() - started, _cpu() - cpu))
    index = work / "index0"
    with open_codemap(name, index_dir=index) as codemap:
        remaps = _remaps(codemap, tree, edit, runs) if edit else {}
        remaps.update(_one_line_edits(codemap, tree, edits, kind))
        if check:
            remaps["differ"], remaps["rows"] = _differences(codemap, name, tree, work)
        symbols = [
            n.qualname for n in codemap.nodes() if n.kind in (NodeKind.FUNCTION, NodeKind.METHOD)
        ]
        random.Random(12).shuffle(symbols)
        names = []
        for symbol in symbols:
            if len(codemap.store.nodes_named(symbol)) == 1:
                names.append(symbol)
            if len(names) == 50:
                break
        traces, blasts = [], []
        for symbol in names:
            started = time.perf_counter()
            codemap.trace(symbol)
            traces.append(time.perf_counter() - started)
            started = time.perf_counter()
            codemap.blast(symbol)
            blasts.append(time.perf_counter() - started)
    size = sum(f.stat().st_size for f in (index / "_maps" / name).glob("map.sqlite*"))
    shutil.rmtree(work)
    return {
        "name": name,
        "files": report.files,
        "nodes": sum(report.nodes.values()),
        "edges": sum(report.edges.values()),
        "calls": report.edges.get("calls", 0),
        "full_s": statistics.median(fulls),
        "full_cpu_s": statistics.median(cpus),
        "single_s": statistics.median(s for s, _ in single),
        "single_cpu_s": statistics.median(c for _, c in single),
        "parse_s": parse_s,
        "parse_cpu_s": parse_cpu,
        "cold_wall_s": cold_wall,
        "cold_cpu_s": cold_cpu,
        "peak_mb": peak_mb,
        **remaps,
        "trace_p50_ms": 1000 * statistics.median(traces),
        "blast_p50_ms": 1000 * statistics.median(blasts),
        "trace_max_ms": 1000 * max(traces),
        "blast_max_ms": 1000 * max(blasts),
        "sqlite_mb": size / 1e6,
        "grimp_s": None,
    }


BUNDLE = HERE.parent / "src/groundkit/serve/static/swagger-ui/swagger-ui-bundle.js"


def bundle_case() -> None:
    """Issue 22's case: a real 1.7 MB minified bundle (not named ``*.min.js``) in a folder of
    its own. Mapped as a user would, it is recognised by its content and skipped; parsed anyway
    (as before the recognition), the per-file budget stops it."""
    from groundkit.codemap.extract import extractors
    from groundkit.codemap.extract.base import SourceFile, TooSlow, Unparsable
    from groundkit.codemap.generated import generated
    from groundkit.config import Settings

    if not BUNDLE.is_file():
        return
    data = BUNDLE.read_bytes()
    work = Path(tempfile.mkdtemp(prefix="grk-bundle-"))
    (work / "app").mkdir()
    shutil.copy(BUNDLE, work / "app" / "vendor.js")
    started = time.perf_counter()
    with open_codemap("bundle", index_dir=work / "index", create=True) as codemap:
        report = codemap.update(work / "app")
    mapped = time.perf_counter() - started
    budget = Settings().codemap.parse_seconds
    extractor = next(e for e in extractors() if e.claims("vendor.js"))
    started = time.perf_counter()
    try:
        extractor.parse(SourceFile("vendor.js", data.decode(), deadline=time.monotonic() + budget))
        forced = "parsed"
    except TooSlow:
        forced = f"stopped by the {budget:.0f} s budget (too_slow)"
    except Unparsable as exc:
        forced = f"unparsable: {exc}"
    parsed = time.perf_counter() - started
    shutil.rmtree(work)
    longest = max(len(line) for line in data.split(b"\n"))
    print(f"\nminified bundle: {BUNDLE.name}, {len(data) / 1e6:.1f} MB, longest line {longest:,}")
    print(
        f"  grk map of a folder holding it: {mapped:.2f} s, skipped:"
        f" {'; '.join(f'{s.source}: {s.reason}' for s in report.skipped) or 'nothing'}"
    )
    print(f"  why (content only): {generated('app/vendor.js', data)}")
    print(f"  parsed anyway: {parsed:.2f} s, {forced}")


def _cold_table(rows: list[dict[str, Any]]) -> None:
    print("\ncold map in a fresh process, and one-line edits (issue 34's targets)")
    print(
        f"{'repo':<13}{'files':>7}{'parse cpu s':>12}{'cold cpu s':>11}{'/parse':>7}"
        f"{'cold wall s':>12}{'peak MB':>8}{'edits':>6}{'edit p50 s':>11}{'edit max s':>11}"
        f"{'edit cpu p50 s':>15}{'continued':>10}"
    )
    for r in rows:
        ratio = r["cold_cpu_s"] / r["parse_cpu_s"] if r["parse_cpu_s"] else float("nan")
        print(
            f"{r['name']:<13}{r['files']:>7}{r['parse_cpu_s']:>12.2f}{r['cold_cpu_s']:>11.1f}"
            f"{ratio:>6.1f}x{r['cold_wall_s']:>12.1f}{r['peak_mb']:>8.0f}{r.get('edits', 0):>6}"
            f"{r.get('edit_p50_s', 0):>11.2f}{r.get('edit_max_s', 0):>11.2f}"
            f"{r.get('edit_cpu_p50_s', 0):>15.2f}"
            f"{str(r.get('continued', 0)) + '/' + str(r.get('edits', 0)):>10}"
        )
    for r in rows:
        if r.get("edits"):
            fallbacks = "; ".join(f"{n} x {why}" for why, n in r["fallbacks"].items()) or "none"
            made = ", ".join(f"{n} x {what}" for what, n in r["made"].items())
            print(
                f"{r['name']}: edits: {made}; {r['continued']} continued, {r['unsolved']} "
                f"solved nothing (only places moved), the whole program solved again: {fallbacks}"
            )
    for r in rows:
        if "differ" in r:
            print(
                f"{r['name']}: edited map against a fresh map of the same files: "
                f"{r['differ']} of {r['rows']} edge rows differ"
            )


def _table(rows: list[dict[str, Any]], runs: int) -> None:
    print(f"\ncode map speed, median of {runs} runs, machine: {os.cpu_count()} cores (shared)")
    header = (
        f"{'repo':<13}{'files':>6}{'nodes':>8}{'edges':>8}{'calls':>8}{'parse s':>8}"
        f"{'full s':>8}{'/parse':>7}{'cpu s':>7}{'1-proc s':>9}{'cpu s':>7}"
        f"{'same s':>8}{'moved s':>8}{'code s':>8}"
        f"{'trace ms':>9}{'blast ms':>9}{'sqlite MB':>10}{'grimp s':>8}"
    )
    print(header)
    for r in rows:
        grimp_s = r["grimp_s"]
        grimp_text = f"{grimp_s:.2f}" if grimp_s else "-"
        print(
            f"{r['name']:<13}{r['files']:>6}{r['nodes']:>8}{r['edges']:>8}{r['calls']:>8}"
            f"{r['parse_s']:>8.2f}{r['full_s']:>8.2f}{r['full_s'] / r['parse_s']:>6.1f}x"
            f"{r['full_cpu_s']:>7.1f}{r['single_s']:>9.2f}{r['single_cpu_s']:>7.1f}"
            f"{r['remap_same_s']:>8.3f}{r['remap_comment_s']:>8.3f}{r['remap_code_s']:>8.3f}"
            f"{r['trace_p50_ms']:>9.1f}{r['blast_p50_ms']:>9.1f}{r['sqlite_mb']:>10.1f}"
            f"{grimp_text:>8}"
        )
    print(
        "parse s: a plain ast.parse loop over the same .py files (the bytes read first); "
        "same/moved/code s: re-map with nothing changed / after a comment is appended to one "
        "file / after a function is appended to it; files written again: ",
        end="",
    )
    print(
        ", ".join(
            f"{r['name']} {r['remap_same_resolved']}/{r['remap_comment_resolved']}"
            f"/{r['remap_code_resolved']}"
            for r in rows
        )
    )
    print("trace/blast over 50 random functions, slowest: ", end="")
    print(
        ", ".join(f"{r['name']} {r['trace_max_ms']:.1f}/{r['blast_max_ms']:.1f} ms" for r in rows)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path("/tmp/codemap-bench/src"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--grimp", default="/tmp/codemap-bench/grimp-venv/bin/python")
    parser.add_argument("--only", help="comma-separated names to run")
    parser.add_argument("--edits", type=int, default=0, help="one-line edits, one file each")
    parser.add_argument(
        "--edit-kind",
        choices=sorted(EDIT_KINDS),
        default="append",
        help="the one-line edits: a line appended, or a literal in a function body changed",
    )
    parser.add_argument("--root", action="append", default=[], help="NAME=PATH to measure too")
    parser.add_argument(
        "--check", action="store_true", help="after the edits, compare with a fresh map"
    )
    args = parser.parse_args(argv)
    django = sorted(args.src.glob("django-*"))
    fastapi = sorted(args.src.glob("fastapi-*"))
    cases: list[tuple[str, Path, str, tuple[str, ...] | None]] = []
    if django:
        cases.append(("django", django[-1] / "django", "db/models/query.py", ("django",)))
        cases.append(("django-sdist", django[-1], "django/db/models/query.py", None))
    if fastapi:
        cases.append(("fastapi", fastapi[-1], "fastapi/routing.py", ("fastapi",)))
    cases.append(("groundkit", HERE.parent / "src", "groundkit/collection.py", ("groundkit",)))
    for spec in args.root:
        name, _, path = spec.partition("=")
        cases.append((name, Path(path), "", None))
    wanted = set(args.only.split(",")) if args.only else None
    rows = []
    for name, root, edit, package in cases:
        if wanted and name not in wanted:
            continue
        result = measure(name, root, edit, args.runs, args.edits, args.check, args.edit_kind)
        if package:  # grimp's import-only graph of the same package, in the same run
            result["grimp_s"] = _grimp(
                args.grimp, root.parent if name == "django" else root, package[0]
            )
        rows.append(result)
        print(f"  measured {name}", file=sys.stderr)
    if rows:
        _table([r for r in rows if "remap_same_s" in r], args.runs)
        _cold_table(rows)
    if not wanted or "bundle" in wanted:
        bundle_case()
    return 0


if __name__ == "__main__":
    sys.exit(main())
