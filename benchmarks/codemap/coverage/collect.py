"""Which of httpx's own tests execute each httpx function (coverage.py dynamic contexts).

Usage (from the repository root, any Python 3.11; the script makes its own venv):
    python benchmarks/codemap/coverage/collect.py

It downloads httpx's sdist (which ships its tests) into /tmp/codemap-bench, runs the test suite
there under pytest-cov with one coverage context per test (`--cov-context=test`), keeps the tests
that passed (from pytest's JUnit XML), maps every executed line of httpx to the innermost
function around it (with `ast` over httpx's source) and writes
`benchmarks/codemap/coverage/httpx.json`:

    {"project", "version", "source", "command", "tests": {...counts...},
     "functions": {"httpx._client.Client.send": ["tests.client.test_client.test_get", ...]}}

A line counts for a function when it lies inside the function's body (from its first body
statement to its last line) and not inside a nested function or class; def lines, decorators and
module- or class-level lines run at import time and are ignored. A test is named by its dotted
module path plus its qualname (`tests.models.test_url.TestX.test_y`), without parametrisation;
the setup, call and teardown phases of a test all count for it (fixtures that use httpx run on
the test's behalf).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _venv import WORK, ensure_venv, fetch_sdist  # noqa: E402

VERSION = "0.28.1"
REQUIREMENTS = [
    f"httpx[brotli,zstd,cli,http2,socks]=={VERSION}",
    "pytest==8.3.5",
    "pytest-cov==6.1.1",
    "coverage==7.17.5",
    "anyio==4.16.0",
    "trio==0.35.0",
    "trustme==1.2.1",
    "uvicorn==0.32.1",  # newer releases let uvicorn.access records reach caplog
    "click==8.1.8",  # 8.2+ deprecates CliRunner.isolated_filesystem (an error there)
    "chardet==5.2.0",  # the release httpx 0.28.1 tests against; 7.x detects differently
    "cryptography==50.0.2",
]
# Tests marked `network` need the internet, which this machine does not reach.
PYTEST_ARGS = [
    "-m",
    "not network",
    "-p",
    "no:cacheprovider",
    "-q",
    "--cov=httpx",
    "--cov-context=test",
    "--cov-report=",
]


def function_lines(path: Path, module: str) -> dict[int, str]:
    """Map each line inside a function body to that function's dotted qualified name."""
    tree = ast.parse(path.read_bytes())
    owner: dict[int, str] = {}

    def walk(node: ast.AST, prefix: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = [*prefix, child.name]
                first = child.body[0].lineno
                for line in range(first, (child.end_lineno or first) + 1):
                    owner[line] = ".".join([module, *name])  # nested defs overwrite below
                walk(child, name)
            elif isinstance(child, ast.ClassDef):
                name = [*prefix, child.name]
                for line in range(child.lineno, (child.end_lineno or child.lineno) + 1):
                    owner.pop(line, None)  # class bodies run at definition time
                walk(child, name)
            else:
                walk(child, prefix)

    walk(tree, [])
    return owner


def test_name(context: str) -> str | None:
    """'tests/models/test_url.py::TestX::test_y[a]|run' -> 'tests.models.test_url.TestX.test_y'."""
    if not context:
        return None
    nodeid = context.rsplit("|", 1)[0]
    file, _, rest = nodeid.partition("::")
    if not rest:
        return None
    module = file.removesuffix(".py").replace("/", ".")
    parts = [re.sub(r"\[.*\]$", "", p) for p in rest.split("::")]
    return ".".join([module, *parts])


def passed_tests(junit: Path) -> tuple[set[str], dict[str, int]]:
    passed: set[str] = set()
    counts = {"passed": 0, "failed": 0, "skipped": 0, "error": 0}
    failed_names: set[str] = set()
    for case in ET.parse(junit).getroot().iter("testcase"):
        bare = re.sub(r"\[.*\]$", "", case.get("name", ""))
        name = f"{case.get('classname')}.{bare}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
        counts[outcome] += 1
        if outcome == "passed":
            passed.add(name)
        elif outcome in ("failed", "error"):
            failed_names.add(name)
    # A parametrised test counts as passed only when every parametrisation passed.
    return passed - failed_names, counts


def main() -> int:
    ensure_venv("cov", REQUIREMENTS)
    root = fetch_sdist("httpx", VERSION)
    junit = WORK / "httpx-junit.xml"
    data_file = WORK / "httpx.coverage"
    for stale in (junit, data_file):
        stale.unlink(missing_ok=True)
    # httpx's own [tool.coverage.run] `include` clashes with --cov (a warning, which its
    # filterwarnings=error turns into a failure): use a config of our own instead.
    rc = WORK / "httpx-coveragerc"
    rc.write_text("[run]\nrelative_files = false\n")
    env = {**os.environ, "COVERAGE_FILE": str(data_file)}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *PYTEST_ARGS,
        f"--cov-config={rc}",
        f"--junitxml={junit}",
    ]
    run = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
    (WORK / "httpx-pytest.log").write_text(run.stdout + run.stderr)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-300:]
    print(f"pytest exit {run.returncode}: {summary}")

    import coverage

    passed, counts = passed_tests(junit)
    cov = coverage.CoverageData(basename=str(data_file))
    cov.read()
    functions: dict[str, set[str]] = {}
    package = root / "httpx"
    for measured in sorted(cov.measured_files()):
        path = Path(measured)
        if not path.is_relative_to(package):
            continue
        rel = path.relative_to(root).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        owner = function_lines(path, module)
        for line, contexts in cov.contexts_by_lineno(measured).items():
            func = owner.get(line)
            if func is None:
                continue
            for context in contexts:
                test = test_name(context)
                if test is not None and test in passed:
                    functions.setdefault(func, set()).add(test)
    out = {
        "project": "httpx",
        "version": VERSION,
        "source": f"pip download --no-deps --no-binary :all: httpx=={VERSION}; unpack; "
        "package folder httpx/, tests in tests/",
        "root": ".",
        "command": "python -m pytest "
        + " ".join(PYTEST_ARGS)
        + " --cov-config=RC --junitxml=JUNIT (RC: an empty [run] section)",
        "requirements": REQUIREMENTS,
        "tests": {**counts, "passed_tests_used": len(passed)},
        "functions": {f: sorted(t) for f, t in sorted(functions.items())},
    }
    (HERE / "httpx.json").write_text(json.dumps(out, indent=1) + "\n")
    pairs = sum(len(t) for t in functions.values())
    print(
        f"tests {counts}; functions executed by a passing test: {len(functions)}; "
        f"function-test pairs: {pairs}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
