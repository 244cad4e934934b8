"""One cold `grk search` process on an embedded collection and on a Qdrant `path` collection.

    .venv/bin/python benchmarks/backends_cli.py [--source ../shared/data/scifact/corpus.jsonl]
        [--workdir DIR] [--runs 7] [--src PATH]

The same source is ingested (BM25 only) into the embedded default and into a collection that
``grk.toml`` places on Qdrant's engine in the process (``path = ...``, qdrant-edge). Then
``--runs`` processes of each, alternating, run ``grk search QUERY`` as a user would; printed per
backend: the median wall seconds and the median CPU seconds (user + system, from ``wait4``),
and the ratio of Qdrant's to the embedded one. ``--src`` puts another checkout's ``src`` first
on ``PYTHONPATH``, to time that code with this venv (a before/after in one run). The work dir is
kept: a second run with the same ``--workdir`` skips the ingests. One untimed process of each
comes first, and byte-code caches are on (as they are for a user), whatever the environment says.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

QUERY = "blood pressure in elderly patients"


def cold(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process running ``command``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default="../shared/data/scifact/corpus.jsonl")
    ap.add_argument("--workdir", type=Path, default=Path("benchmarks/.work/backends_cli"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--src", help="a checkout's src folder to time instead of this one")
    a = ap.parse_args()
    grk = str(Path(sys.executable).parent / "grk")
    work = a.workdir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    (work / "grk.toml").write_text(
        f'[collections.edge]\nbackend = "qdrant"\npath = "{work / "edge-shard"}"\n'
    )
    # Timed as a user runs it: with byte-code caches (an environment may turn them off).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if a.src:
        env["PYTHONPATH"] = str(Path(a.src).resolve())
    index = ["--index-dir", str(work / "index")]
    systems = {"embedded": [grk], "qdrant-edge": [grk, "-c", "edge"]}
    if not (work / "edge-shard").exists():
        for base in systems.values():
            source = str(Path(a.source).resolve())
            subprocess.run([*base, "ingest", source, *index, "--quiet"], cwd=work, check=True)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in systems}
    for base in systems.values():  # untimed: byte-compiles the code, warms the page cache
        cold([*base, "search", QUERY, *index], work, env)
    load = os.getloadavg()[0]
    for _ in range(a.runs):
        for name, base in systems.items():
            times[name].append(cold([*base, "search", QUERY, *index], work, env))
    print(f"{a.runs} cold `grk search` processes each, alternating; load before {load:.1f}")
    print("| backend | median wall s | median CPU s |")
    print("|---|---:|---:|")
    medians = {}
    for name, runs in times.items():
        medians[name] = (
            statistics.median(w for w, _ in runs),
            statistics.median(c for _, c in runs),
        )
        print(f"| {name} | {medians[name][0]:.2f} | {medians[name][1]:.2f} |")
    wall = medians["qdrant-edge"][0] / medians["embedded"][0]
    cpu = medians["qdrant-edge"][1] / medians["embedded"][1]
    print(f"qdrant-edge / embedded: wall {wall:.2f}x, CPU {cpu:.2f}x")


if __name__ == "__main__":
    main()
