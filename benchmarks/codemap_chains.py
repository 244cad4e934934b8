"""The chain to the database, measured: labelled chains (client call -> route -> handler ->
model -> table, or any part of one) over real full-stack repositories, each hop a
(source, kind, target) edge the map must hold, by the names the map gives.

    python benchmarks/codemap_chains.py --root REPO=PATH [--root ...] [--json]

``REPO`` is a labels file's stem in benchmarks/codemap/chains/ (``prisma-sql-todo``), ``PATH``
that repository checked out at the labels' commit (``git archive`` of the ``fetch`` mirror).
Labels were written from reading the source before the map was run, with the chains expected
to fail marked ``"expect": "fail"`` and why. Printed per repository: chains found whole of
those labelled, hops found, the chains expected to pass that failed (and expected to fail
that passed), each missing hop, and the seconds the map took (CPU and wall).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from groundkit.codemap.api import open_codemap

LABELS = Path(__file__).parent / "codemap" / "chains"


def score(name: str, root: Path) -> dict[str, Any]:
    labels = json.loads((LABELS / f"{name}.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as index:
        cpu, wall = time.process_time(), time.perf_counter()
        with open_codemap(name, index_dir=Path(index), create=True) as codemap:
            codemap.update(root, workers=1)
            seconds = (time.process_time() - cpu, time.perf_counter() - wall)
            edges = {(e.source.qualname, str(e.kind), e.target.qualname) for e in codemap.edges()}
    rows = []
    for chain in labels["chains"]:
        missing = [hop for hop in chain["hops"] if tuple(hop) not in edges]
        rows.append(
            {
                "name": chain["name"],
                "expect": chain["expect"],
                "found": not missing,
                "hops": len(chain["hops"]),
                "missing": missing,
            }
        )
    return {
        "repo": labels["repo"],
        "commit": labels["commit"],
        "chains": len(rows),
        "chains_found": sum(r["found"] for r in rows),
        "hops": sum(r["hops"] for r in rows),
        "hops_found": sum(r["hops"] - len(r["missing"]) for r in rows),
        "expected_pass": sum(r["expect"] == "pass" for r in rows),
        "expected_pass_found": sum(r["expect"] == "pass" and r["found"] for r in rows),
        "surprises": [r for r in rows if (r["expect"] == "pass") != r["found"]],
        "cpu_seconds": round(seconds[0], 2),
        "wall_seconds": round(seconds[1], 2),
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", action="append", required=True, metavar="REPO=PATH")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for item in args.root:
        name, _, path = item.partition("=")
        results.append(score(name, Path(path)))
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    total = {"chains": 0, "chains_found": 0, "hops": 0, "hops_found": 0}
    for r in results:
        for key in total:
            total[key] += r[key]
        print(
            f"{r['repo']}: chains {r['chains_found']}/{r['chains']}, hops"
            f" {r['hops_found']}/{r['hops']}, expected to pass and found"
            f" {r['expected_pass_found']}/{r['expected_pass']};"
            f" map {r['cpu_seconds']} s CPU ({r['wall_seconds']} s wall)"
        )
        for row in r["surprises"]:
            said = "expected to fail, found"
            if row["expect"] == "pass":
                said = "expected to pass, failed"
            print(f"  {said}: {row['name']}")
        for row in r["rows"]:
            for hop in row["missing"]:
                print(f"    missing in {row['name']!r}: {hop[0]} -{hop[1]}-> {hop[2]}")
    print(
        f"all: chains {total['chains_found']}/{total['chains']},"
        f" hops {total['hops_found']}/{total['hops']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
