"""TypeScript/JavaScript module import edges of the code map against TypeScript's own resolution.

Usage (from the repository root; needs npm for the first run):
    python benchmarks/codemap_ts_imports.py [--truth benchmarks/codemap/ts_imports] [--runs 3]

The ground truth (``benchmarks/codemap/ts_imports/<project>.json``, see the README there) lists,
for each npm code base, every import edge the TypeScript compiler resolves (``ts.preProcessFile``
+ ``ts.resolveModuleName`` under the project's tsconfig), cross-checked with dependency-cruiser
and madge. This script fetches the same tarballs with ``npm pack`` into ``/tmp`` (never into the
repository), maps each code base with ``grk``'s library, and compares file -> file import edges.

Edge rules aligned with the reference before comparing: an edge is (importing file, imported
file), both inside the code base; importing files are the sources the reference walked (the
folders of its runs, no ``.d.ts``); every import form counts (``import``, ``import type``,
``export ... from``, ``require``, ``import()``, triple-slash ``reference``); packages
(``external`` nodes) are left out, as the reference leaves out ``node_modules``.

Prints precision and recall per project, every remaining difference, and the speed of the
TypeScript extraction (files/s, parse and resolve, median of ``--runs`` fresh maps).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from groundkit.codemap.api import open_codemap
from groundkit.codemap.extract.base import SourceFile
from groundkit.codemap.extract.typescript import SOURCE_SUFFIXES, TypeScriptExtractor

HERE = Path(__file__).resolve().parent
WORK = Path("/tmp/codemap-ts-bench")
PACKAGES = {"rxjs": "rxjs", "create-redwood-app-ts-template": "create-redwood-app"}


def fetch(package: str, version: str) -> Path:
    """The unpacked npm tarball (``npm pack``: the registry, nothing else)."""
    dest = WORK / f"{package}-{version}"
    if (dest / "package").is_dir():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        ["npm", "pack", f"{package}@{version}", "--json"],
        cwd=dest,
        check=True,
        capture_output=True,
        text=True,
    )
    with tarfile.open(dest / json.loads(out.stdout)[0]["filename"]) as tar:
        tar.extractall(dest, filter="data")
    return dest


def map_edges(root: Path) -> tuple[set[tuple[str, str]], dict[tuple[str, str], Any], float, int]:
    """Our file -> file import edges, each edge's record, the seconds a fresh map took and the
    number of modules it mapped (vendored trees such as ``dist/`` are skipped)."""
    with tempfile.TemporaryDirectory() as index:
        codemap = open_codemap("bench", index_dir=index, create=True)
        try:
            started = time.perf_counter()
            report = codemap.update(root, workers=1)
            seconds = time.perf_counter() - started
            edges: dict[tuple[str, str], Any] = {}
            for edge in codemap.edges(["imports"]):
                if edge.source.path and edge.target.path:
                    edges[(edge.source.path, edge.target.path)] = edge
            modules = report.nodes.get("module", 0)
        finally:
            codemap.close()
    return set(edges), edges, seconds, modules


def parse_speed(root: Path, files: list[str], runs: int) -> float:
    """Files per second of tree-sitter parsing plus fact extraction alone (no resolution)."""
    extractor = TypeScriptExtractor()
    texts = [(f, (root / f).read_text(encoding="utf-8")) for f in files]
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        for path, text in texts:
            extractor.parse(SourceFile(path, text))
        rates.append(len(texts) / (time.perf_counter() - started))
    return statistics.median(rates)


def score(name: str, truth: dict[str, Any], runs: int) -> dict[str, Any]:
    unpacked = fetch(PACKAGES[name], truth["version"])
    root = unpacked / truth["root"]
    folders = [run["folder"].rstrip("/") + "/" for run in truth["tools"]["runs"]]
    reference = {tuple(e) for e in truth["edges"]}
    timings = []
    ours: set[tuple[str, str]] = set()
    records: dict[tuple[str, str], Any] = {}
    sources = 0
    for _ in range(runs):
        ours, records, seconds, sources = map_edges(root)
        timings.append(seconds)

    def in_scope(source: str) -> bool:
        return source.startswith(tuple(folders)) and not source.endswith(".d.ts")

    ours = {e for e in ours if in_scope(e[0])}
    walked = sorted(
        str(p.relative_to(root))
        for folder in folders
        for p in (root / folder).rglob("*")
        if p.suffix in SOURCE_SUFFIXES and "node_modules" not in p.parts
    )
    hits = ours & reference
    return {
        "project": f"{PACKAGES[name]} {truth['version']}",
        "files": len(walked),
        "reference": len(reference),
        "ours": len(ours),
        "precision": len(hits) / len(ours) if ours else 1.0,
        "recall": len(hits) / len(reference) if reference else 1.0,
        "extra": sorted(ours - reference),
        "missed": sorted(reference - ours),
        "records": records,
        "map_seconds": statistics.median(timings),
        "map_files": sources,
        "parse_rate": parse_speed(root, walked, runs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--truth", type=Path, default=HERE / "codemap" / "ts_imports")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not args.truth.is_dir():
        print(f"no ground truth at {args.truth}: pass --truth DIR")
        return 2
    if shutil.which("npm") is None and not WORK.is_dir():
        print("npm is needed to fetch the code bases")
        return 2
    results = []
    for name in PACKAGES:
        truth = json.loads((args.truth / f"{name}.json").read_text())
        results.append(score(name, truth, args.runs))
    print(
        f"{'code base':<28}{'files':>6}{'ref':>6}{'ours':>6}{'precision':>11}{'recall':>8}"
        f"{'map files/s':>13}{'parse files/s':>15}"
    )
    for r in results:
        print(
            f"{r['project']:<28}{r['files']:>6}{r['reference']:>6}{r['ours']:>6}"
            f"{r['precision']:>11.4f}{r['recall']:>8.4f}"
            f"{r['map_files'] / r['map_seconds']:>13.0f}{r['parse_rate']:>15.0f}"
        )
    all_ref = sum(r["reference"] for r in results)
    all_ours = sum(r["ours"] for r in results)
    all_hits = sum(r["ours"] - len(r["extra"]) for r in results)
    print(
        f"{'all':<28}{'':>6}{all_ref:>6}{all_ours:>6}"
        f"{all_hits / max(1, all_ours):>11.4f}{all_hits / max(1, all_ref):>8.4f}"
    )
    for r in results:
        for label in ("extra", "missed"):
            for edge in r[label]:
                record = r["records"].get(edge)
                where = f"  [{record.provenance}] {record.quote}" if record else ""
                print(f"{r['project']}: {label} {edge[0]} -> {edge[1]}{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
