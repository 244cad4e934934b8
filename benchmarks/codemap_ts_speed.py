"""Mapping time per TypeScript/JavaScript file, this code beside another commit's.

    python benchmarks/codemap_ts_speed.py --base OTHER_SRC ROOT [ROOT ...] [--runs 3]

Each run is a fresh process (``PYTHONPATH`` set to this repository's ``src`` or to
``OTHER_SRC``, an older checkout's ``src`` folder) that maps every ROOT into a new index with one
worker: a cold map (parse, value flow, resolve, SQLite). Reported per ROOT: files mapped, the
median CPU seconds of the map itself over the runs (the process's start and imports left
out) (CPU time, not wall time: the machine is
shared), milliseconds per file, and this code's time over the base's. The two are run in turn,
run by run, so that load drifting over the measure falls on both.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HEAD = Path(__file__).resolve().parent.parent / "src"

_CHILD = """
import json, sys, tempfile, time
from pathlib import Path
from groundkit.codemap.api import open_codemap
with tempfile.TemporaryDirectory() as index:
    codemap = open_codemap("speed", index_dir=index, create=True)
    start = time.process_time()
    codemap.update(Path(sys.argv[1]), workers=1)
    cpu = time.process_time() - start
    files = sum(1 for n in codemap.nodes() if n.kind == "module")
    codemap.close()
print(json.dumps({"files": files, "cpu": cpu}))
"""


def one_run(src: Path, root: Path) -> tuple[float, int]:
    """CPU seconds a fresh process spends mapping ``root`` with ``src``'s groundkit (its start
    and imports left out); files mapped."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root)],
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return float(out["cpu"]), int(out["files"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", type=Path, required=True, help="another checkout's src folder")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("roots", nargs="+", type=Path)
    args = parser.parse_args()
    print(f"load {Path('/proc/loadavg').read_text().split()[:3]}")
    head = ("root", "files", "base s", "this s", "base ms/f", "this ms/f", "ratio")
    print(f"{head[0]:<24} " + " ".join(f"{h:>9}" for h in head[1:]))
    for root in args.roots:
        times: dict[str, list[float]] = {"base": [], "this": []}
        files = 0
        for _ in range(args.runs):
            for name, src in (("base", args.base), ("this", HEAD)):
                cpu, files = one_run(src, root)
                times[name].append(cpu)
        base = statistics.median(times["base"])
        this = statistics.median(times["this"])
        n = max(1, files)
        cells = (
            f"{files}",
            f"{base:.2f}",
            f"{this:.2f}",
            f"{1000 * base / n:.1f}",
            f"{1000 * this / n:.1f}",
            f"{this / base:.2f}",
        )
        print(f"{root.name:<24} " + " ".join(f"{c:>9}" for c in cells))
    print(f"load {Path('/proc/loadavg').read_text().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
