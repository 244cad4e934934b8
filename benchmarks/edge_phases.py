"""Where the CPU of opening a `path` collection's shard goes, by qdrant-edge's phases: ``perf``
samples (with call stacks) of processes that load the shard, run one search and exit without
closing, as a `grk search` does (``backends/qdrant/edge.py``).

    .venv/bin/python benchmarks/edge_phases.py --shard DIR [--runs 6] [--freq 4000]

``--shard`` is a shard made by groundkit (``benchmarks/backends_cli.py`` leaves one in
``<workdir>/<hash>/edge-shard``). Needs Linux ``perf`` allowed to sample the user's processes.
Each sample of the Python processes is given to the first phase one of its frames names (the
order of ``_PHASES``); printed: each phase's share of the samples and its milliseconds per
process (samples / runs / frequency; ``perf``'s unwinding adds a little to every phase).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_OPEN = """
import os, sys, qdrant_edge as e
shard = e.EdgeShard.load(sys.argv[1])
query = e.Query.Nearest(e.SparseVector([1, 2, 3], [1.0, 1.0, 1.0]), using="bm25")
shard.query(e.QueryRequest(limit=10, query=query, with_payload=True))
os._exit(0)
"""

# (phase, a piece of a frame's symbol): the first that matches names the sample.
_PHASES = [
    ("sparse index rebuilt from the stored vectors", "build_ram_index"),
    ("payload indexes: null flags", "null_index"),
    ("payload indexes: keyword and integer maps", "map_index"),
    ("payload indexes: integer ranges", "numeric_index"),
    ("WAL opened and checked", "wal"),
    ("id tracker", "id_tracker"),
    ("rest of EdgeShard.load", "EdgeShard4load"),
    ("the search", "query"),
    ("Python: imports", "PyImport"),
    ("Python: start-up", "Py_InitializeFromConfig"),
]


def _samples(script: str) -> list[list[str]]:
    """Each sample of a Python process as its frames' lines."""
    script_of = ["perf", "script", "-i", script]
    done = subprocess.run(script_of, check=True, capture_output=True, text=True, errors="replace")
    text = done.stdout
    samples = [block.splitlines() for block in text.split("\n\n") if block.strip()]
    return [s for s in samples if s[0].lstrip().startswith("python")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shard", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--freq", type=int, default=4000)
    a = ap.parse_args()
    shard = str(a.shard.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        loop = Path(tmp) / "loop.sh"
        opener = Path(tmp) / "open.py"
        opener.write_text(_OPEN)
        line = f"{sys.executable} {opener} {shard}\n"
        loop.write_text(line * a.runs)
        data = str(Path(tmp) / "perf.data")
        subprocess.run([sys.executable, str(opener), shard], check=True)  # untimed: the cache
        load = os.getloadavg()[0]
        record = ["perf", "record", "-q", "-F", str(a.freq), "--call-graph", "dwarf,16384"]
        subprocess.run([*record, "-o", data, "--", "sh", str(loop)], check=True)
        samples = _samples(data)
    counts: collections.Counter[str] = collections.Counter()
    for sample in samples:
        frames = " ".join(sample[1:])
        phase = next((name for name, piece in _PHASES if piece in frames), "other")
        counts[phase] += 1
    total = len(samples)
    print(f"{a.runs} processes, {total} samples at {a.freq} Hz; load {load:.1f} before")
    print("| phase | share | ms per process |")
    print("|---|---:|---:|")
    for name in [n for n, _ in _PHASES] + ["other"]:
        share = counts[name] / total if total else 0.0
        print(f"| {name} | {share:.0%} | {counts[name] / a.runs / a.freq * 1000:.1f} |")


if __name__ == "__main__":
    main()
