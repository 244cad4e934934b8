"""Where a TypeScript/JavaScript map's CPU time goes, phase by phase, for this code or another.

    python benchmarks/codemap_ts_phases.py ROOT [--src OTHER_SRC] [--runs 3]

Each run is a fresh process (``PYTHONPATH`` set to ``OTHER_SRC``, an older checkout's ``src``
folder, or to this repository's) that maps ROOT into a new index with one worker, the phases'
functions wrapped by name so that each is timed alone (CPU seconds, its callees among the
phases left out): reading and parsing the repository, the package files read for the value
flow (found, then parsed), the pass-site index and its sites asked again, the partial edges'
known paths, the rest of resolving, and storing. A phase a checkout does not have is left out.
Printed: the least of the runs for each phase, and the total (the map alone: the process's
start and imports left out).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HEAD = Path(__file__).resolve().parent.parent / "src"

# (module, class or None, function, label)
_TS = "groundkit.codemap.extract.typescript"
_PHASES = [
    ("groundkit.codemap.parsing", None, "read_and_parse", "parse the repository"),
    (f"{_TS}.dependencies", "Dependencies", "files", "find package files"),
    (f"{_TS}.dependencies", "Dependencies", "_parse", "parse package files"),
    (f"{_TS}.values.flow", None, "build_index", "pass-site index"),
    (f"{_TS}.values.flow", None, "ask_again", "asked again"),
    (f"{_TS}.values.flow", "Flow", "known", "known paths"),
    (f"{_TS}.resolve.calls", None, "_known_paths", "known paths"),
    ("groundkit.codemap.resolution", None, "resolve_languages", "resolve (the rest)"),
    ("groundkit.codemap.store", "MapStore", "put_resolution", "store"),
]

_CHILD = """
import importlib, json, sys, tempfile, time
from pathlib import Path
from groundkit.codemap.api import open_codemap
phases = json.loads(sys.argv[2])
spent = {}
stack = [["other", 0.0]]
def wrap(label, fn):
    def timed(*args, **kwargs):
        now = time.process_time()
        spent[stack[-1][0]] = spent.get(stack[-1][0], 0.0) + now - stack[-1][1]
        stack.append([label, now])
        try:
            return fn(*args, **kwargs)
        finally:
            end = time.process_time()
            spent[label] = spent.get(label, 0.0) + end - stack.pop()[1]
            stack[-1][1] = end
    return timed
for module, cls, name, label in phases:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        continue
    owner = getattr(mod, cls, None) if cls else mod
    if owner is None or not hasattr(owner, name):
        continue
    original = getattr(owner, name)
    wrapped = wrap(label, original)
    setattr(owner, name, wrapped)
    if cls is None:  # and where another module imported it by name
        for other in list(sys.modules.values()):
            if getattr(other, "__name__", "").startswith("groundkit") and (
                getattr(other, name, None) is original
            ):
                setattr(other, name, wrapped)
with tempfile.TemporaryDirectory() as index:
    codemap = open_codemap("phases", index_dir=index, create=True)
    start = stack[0][1] = time.process_time()
    codemap.update(Path(sys.argv[1]), workers=1)
    end = time.process_time()
    spent["other"] = spent.get("other", 0.0) + end - stack[0][1]
    codemap.close()
print(json.dumps({"total": end - start, **spent}))
"""


def one_run(src: Path, root: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), json.dumps(_PHASES)],
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    )
    return {k: float(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--src", type=Path, default=HEAD, help="another checkout's src folder")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load {Path('/proc/loadavg').read_text().split()[:3]}")
    least: dict[str, float] = {}
    for _ in range(args.runs):
        for label, cpu in one_run(args.src, args.root).items():
            least[label] = min(least.get(label, cpu), cpu)
    for label, cpu in sorted(least.items(), key=lambda kv: -kv[1]):
        print(f"{label:<22} {cpu:7.3f}")
    print(f"load {Path('/proc/loadavg').read_text().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
