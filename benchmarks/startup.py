"""How long a `grk` process takes to start and answer: `import groundkit`, `grk --help`, and one
BM25 `grk search` over the sample documents, each as a fresh process.

    .venv/bin/python benchmarks/startup.py [--runs 15]

Prints the median and p90 wall time and CPU time (user + system) of each, and what
`python -X importtime` says the package's imports cost. CPU time moves less than wall time on a
shared machine; both are printed, with the load average, so a reader can judge.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
GRK = [PY, "-m", "groundkit.cli.main"]


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def import_cost(module: str) -> float:
    """Seconds ``python -X importtime`` gives ``module`` (cumulative, self included)."""
    done = subprocess.run(
        [PY, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1]) / 1e6
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="grk-startup-"))
    env_clean = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    os.environ.clear()
    os.environ.update(env_clean)
    subprocess.run([*GRK, "ingest", "-q", str(ROOT / "docs" / "samples")], cwd=work, check=True)
    cases = {
        "python -c 'import groundkit'": [PY, "-c", "import groundkit"],
        "grk --help": [*GRK, "--help"],
        "grk search (bm25, samples)": [*GRK, "search", "how is a quote checked", "--mode", "bm25"],
    }
    print(f"load average {os.getloadavg()[0]:.2f}, {args.runs} runs each")
    print("| process | wall p50 s | wall p90 s | CPU p50 s |")
    print("|---|---:|---:|---:|")
    for name, command in cases.items():
        timed(command, work)  # warm the file cache
        runs = [timed(command, work) for _ in range(args.runs)]
        walls = sorted(w for w, _ in runs)
        cpus = [c for _, c in runs]
        p90 = walls[min(len(walls) - 1, round(0.9 * (len(walls) - 1)))]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"| {name} | {wall:.3f} | {p90:.3f} | {cpu:.3f} |")
    print()
    print("`python -X importtime` (cumulative seconds):")
    for module in ("groundkit", "groundkit.cli.main", "groundkit.collection", "numpy", "pydantic"):
        cost = import_cost(module)
        shown = "(not installed)" if math.isnan(cost) else f"{cost:.3f}"
        print(f"  {module:<24} {shown}")
    probe = (
        "import sys, groundkit.cli.main\n"
        "heavy = ('numpy', 'pydantic', 'onnxruntime', 'tantivy', 'fastapi', 'msgspec')\n"
        "print(sorted(m for m in sys.modules if m in heavy))"
    )
    loaded = subprocess.run([PY, "-c", probe], capture_output=True, text=True, check=True)
    print(f"heavy modules loaded by importing the CLI: {loaded.stdout.strip()}")


if __name__ == "__main__":
    main()
