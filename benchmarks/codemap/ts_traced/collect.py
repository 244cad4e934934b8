"""Run real JavaScript test suites under ``trace.mjs`` and keep the calls they make.

Usage (from the repository root; needs node 18+ and npm):
    python benchmarks/codemap/ts_traced/collect.py WORK_DIR NAME=SOURCE_DIR [NAME=SOURCE_DIR ...]

Each SOURCE_DIR is a package's repository as checked out (fetched from its public repository;
never copied into this one). It is copied to ``WORK_DIR/NAME``, its development dependencies are
installed there (``npm install --ignore-scripts``), and its test suite, as ``SUITES`` says, runs
under the tracer: the calls between its own functions go to ``WORK_DIR/NAME.jsonl``.
``benchmarks/codemap_ts_traced.py WORK_DIR`` scores the map against them.

Test timeouts are lifted (``--timeout 0``): a suite runs several times slower while traced (a
call costs a pause of the main thread and a message to the worker, about 1 ms: 400,000 calls of
one function took 6 minutes; breakpoints with a condition that records the call without
pausing were slower still, over 10 minutes, as V8 evaluates each condition as a debugger
evaluation). Run it under ``timeout`` to cut a long suite: the pairs seen so far are kept.
Suites that spawn child processes (``test/bin``) are left out: the tracer sees one process.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

TRACE = Path(__file__).resolve().parent / "trace.mjs"

# name -> commands, each run from the package's folder (``{files:GLOB}``: one run per file).
SUITES: dict[str, list[list[str]]] = {
    "router": [["node_modules/mocha/bin/mocha.js", "--reporter", "dot", "--timeout", "0", "test/"]],
    "express": [
        [
            "node_modules/mocha/bin/mocha.js",
            "--require",
            "test/support/env",
            "--reporter",
            "dot",
            "--timeout",
            "0",
            # the stack-overflow tests hand 6,000 of the suite's own functions to one route:
            # each call pauses under the tracer, and they alone took the 900 s of the last cut run
            "--grep",
            "stack overflow",
            "--invert",
            "test/",
            "test/acceptance/",  # as its own `npm test`: the examples' apps, in the repository
        ]
    ],
    "negotiator": [
        ["node_modules/mocha/bin/mocha.js", "--reporter", "dot", "--timeout", "0", "test/"]
    ],
    "qs": [["{files:test/*.js}"]],  # tape: each file runs its own tests
    # node:test runs a file's tests in its own process when the file is run (`node --test`
    # would spawn one child per file, which the tracer does not see)
    "koa": [["{files:__tests__/**/*.test.js}"]],
    "semver": [
        ["{files:test/functions/*.js}"],
        ["{files:test/ranges/*.js}"],
        ["{files:test/classes/*.js}"],
    ],
}


# name -> folders not copied: built bundles the suite never loads (they would be mapped).
LEAVE_OUT: dict[str, tuple[str, ...]] = {"qs": ("dist", "logos")}


def run_suite(folder: Path, out: Path, commands: list[list[str]]) -> None:
    out.unlink(missing_ok=True)
    for command in commands:
        if command[0].startswith("{files:"):
            runs = [[str(p.relative_to(folder))] for p in sorted(folder.glob(command[0][7:-1]))]
        else:
            runs = [command]
        for argv in runs:
            subprocess.run(
                ["node", str(TRACE), ".", str(out), *argv], cwd=folder, check=False, timeout=3600
            )


def main() -> int:
    work = Path(sys.argv[1])
    work.mkdir(parents=True, exist_ok=True)
    for spec in sys.argv[2:]:
        name, _, source = spec.partition("=")
        folder = work / name
        if not folder.exists():
            ignored = shutil.ignore_patterns(".git", "node_modules", *LEAVE_OUT.get(name, ()))
            shutil.copytree(source, folder, ignore=ignored)
            subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"],
                cwd=folder,
                check=True,
            )
        run_suite(folder, work / f"{name}.jsonl", SUITES[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
