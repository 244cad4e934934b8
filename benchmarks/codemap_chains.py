"""The chain to the database, measured: labelled chains (client call -> route -> handler ->
model -> table, or any part of one) over real full-stack repositories, each hop a
(source, kind, target) edge the map must hold, by the names the map gives; and the data-access
edges of some files labelled in full, for recall and for the precision of each provenance.

    python benchmarks/codemap_chains.py --root REPO=PATH [--root ...] [--json]

``REPO`` is a labels file's stem in benchmarks/codemap/chains/ (``prisma-sql-todo``), ``PATH``
that repository checked out at the labels' commit (``git archive`` of the ``fetch`` mirror).
Labels were written from reading the source before the map was run, with the chains expected
to fail marked ``"expect": "fail"`` and why. A labels file's ``accesses`` section lists every
``reads``, ``writes`` and ``maps_to`` edge whose evidence lies in its ``files``: each of the
map's such edges there is right when it is listed, wrong when not (a wrong table is worse than
none). Printed per repository: chains found whole of those labelled, hops found, the chains
expected to pass that failed (and expected to fail that passed), each missing hop, the access
edges found, each wrong one, and the seconds the map took (CPU and wall); then, over all
repositories, precision and expected calibration error per provenance of the access edges.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from groundkit.codemap.api import open_codemap

LABELS = Path(__file__).parent / "codemap" / "chains"
DATA_KINDS = frozenset({"reads", "writes", "maps_to"})


def score(name: str, root: Path) -> dict[str, Any]:
    labels = json.loads((LABELS / f"{name}.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as index:
        cpu, wall = time.process_time(), time.perf_counter()
        with open_codemap(name, index_dir=Path(index), create=True) as codemap:
            codemap.update(root, workers=1)
            seconds = (time.process_time() - cpu, time.perf_counter() - wall)
            found = list(codemap.edges())
            unresolved = json.loads(codemap.store.manifest().get("data_unresolved") or "{}")
    edges = {(e.source.qualname, str(e.kind), e.target.qualname) for e in found}
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
        "data_unresolved": unresolved,
        **accesses(labels.get("accesses"), found, edges),
    }


def accesses(section: dict[str, Any] | None, found: list[Any], edges: set[Any]) -> dict[str, Any]:
    """Recall of the labelled access edges, and each of the map's data edges in the labelled
    files judged: (provenance, confidence, right) per edge."""
    if not section:
        return {"access": 0, "access_found": 0, "judged": [], "wrong": [], "access_missing": []}
    labelled = {tuple(e[:3]): e[3] for e in section["edges"]}
    files = set(section["files"])
    judged, wrong = [], []
    for e in found:
        if str(e.kind) not in DATA_KINDS or e.location.path not in files:
            continue
        key = (e.source.qualname, str(e.kind), e.target.qualname)
        judged.append((str(e.provenance), e.confidence, key in labelled))
        if key not in labelled:
            wrong.append([*key, str(e.provenance), f"{e.location.path}:{e.location.line}"])
    missing = [[*k, v] for k, v in labelled.items() if k not in edges]
    return {
        "access": len(labelled),
        "access_found": len(labelled) - len(missing),
        "access_expected_pass": sum(v == "pass" for v in labelled.values()),
        "judged": judged,
        "wrong": wrong,
        "access_missing": missing,
    }


def calibration(judged: list[tuple[str, float, bool]]) -> list[dict[str, Any]]:
    """Per provenance: edges, right, precision and the expected calibration error (ten equal
    bins of confidence; within a provenance the confidence is one prior, so one bin)."""
    by: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for provenance, confidence, right in judged:
        by[provenance].append((confidence, right))
    out = []
    for provenance, items in sorted(by.items()):
        bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
        for confidence, right in items:
            bins[min(int(confidence * 10), 9)].append((confidence, right))
        ece = sum(
            abs(sum(c for c, _ in b) / len(b) - sum(r for _, r in b) / len(b)) * len(b)
            for b in bins.values()
        ) / len(items)
        correct = sum(r for _, r in items)
        out.append(
            {
                "provenance": provenance,
                "edges": len(items),
                "right": correct,
                "precision": round(correct / len(items), 3),
                "ece": round(ece, 3),
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", action="append", required=True, metavar="REPO=PATH")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for item in args.root:
        name, _, path = item.partition("=")
        results.append(score(name, Path(path)))
    judged = [j for r in results for j in r["judged"]]
    if args.json:
        print(json.dumps({"repos": results, "provenances": calibration(judged)}, indent=2))
        return 0
    keys = ("chains", "chains_found", "hops", "hops_found", "access", "access_found")
    total = dict.fromkeys(keys, 0)
    for r in results:
        for key in total:
            total[key] += r[key]
        print(
            f"{r['repo']}: chains {r['chains_found']}/{r['chains']}, hops"
            f" {r['hops_found']}/{r['hops']}, expected to pass and found"
            f" {r['expected_pass_found']}/{r['expected_pass']}; access edges"
            f" {r['access_found']}/{r['access']}, wrong {len(r['wrong'])};"
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
        for edge in r["access_missing"]:
            print(f"    access missing ({edge[3]}): {edge[0]} -{edge[1]}-> {edge[2]}")
        for edge in r["wrong"]:
            print(f"    WRONG ({edge[3]}, {edge[4]}): {edge[0]} -{edge[1]}-> {edge[2]}")
        if r["data_unresolved"]:
            print(f"    counted, not drawn: {r['data_unresolved']}")
    print(
        f"all: chains {total['chains_found']}/{total['chains']},"
        f" hops {total['hops_found']}/{total['hops']},"
        f" access edges {total['access_found']}/{total['access']}"
    )
    print("access edges in the labelled files, per provenance:")
    print("| provenance | edges | right | precision | ECE |")
    print("| --- | --- | --- | --- | --- |")
    for row in calibration(judged):
        print(
            f"| {row['provenance']} | {row['edges']} | {row['right']} | {row['precision']}"
            f" | {row['ece']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
