"""The TypeScript/JavaScript analyser on hand-labelled cases: precision per provenance, recall
per category, and the confidence priors those precisions give.

Usage (from the repository root):
    python benchmarks/codemap_ts_cases.py            # the table, and every wrong or missed edge
    python benchmarks/codemap_ts_cases.py --fit      # also the priors, as priors.py holds them
    python benchmarks/codemap_ts_cases.py classes/   # only the cases under these prefixes

Each case is a folder ``benchmarks/codemap_ts_cases/<category>/<case>/``: a small program and
``expected.json`` (``edges``: source, target, kind, and ``partial`` for an edge that must be
drawn flagged partial, a certain one being wrong; ``unresolved_min``; ``notes``), written by
hand from the language's semantics (see the README there). Each case folder is mapped on its own;
the map's ``imports``, ``calls``, ``inherits``, ``handles`` and ``http_call`` edges between nodes of
the case (``external`` targets left out) are compared with the expected set.

A prior is the rule of succession on a provenance's measured precision, ``(right + 1) /
(edges + 2)``, rounded down to two places: a provenance measured right on 6 edges of 6 gets 0.87,
not a certainty that 6 cases cannot show.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections import Counter
from pathlib import Path

from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import EdgeFlag

CASES = Path(__file__).resolve().parent / "codemap_ts_cases"
KINDS = ["imports", "calls", "inherits", "handles", "http_call"]
Edge = tuple[str, str, str]


def map_case(folder: Path) -> tuple[dict[tuple[str, str, str], str], set[Edge], int]:
    """The case's edges (source, target, kind) -> provenance, those found only flagged
    partial, and the unresolved calls."""
    certain: set[Edge] = set()
    found: dict[Edge, str] = {}
    with tempfile.TemporaryDirectory() as index:
        codemap = open_codemap("case", index_dir=index, create=True)
        try:
            report = codemap.update(folder, workers=1)
            for e in codemap.edges(KINDS):
                if e.target.path or e.target.kind == "route":
                    edge = (e.source.qualname, e.target.qualname, str(e.kind))
                    found[edge] = str(e.provenance)
                    if EdgeFlag.PARTIAL not in e.flags:
                        certain.add(edge)
        finally:
            codemap.close()
    return found, set(found) - certain, report.unresolved_calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--fit", action="store_true", help="print the priors")
    parser.add_argument("only", nargs="*", help="category/case prefixes to run (default: all)")
    args = parser.parse_args()
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    expected_by_category: Counter[str] = Counter()
    found_by_category: Counter[str] = Counter()
    problems: list[str] = []
    cases = sorted(p.parent for p in CASES.glob("*/*/expected.json"))
    if args.only:
        named = {c: f"{c.parent.name}/{c.name}" for c in cases}
        cases = [c for c in cases if any(named[c].startswith(o) for o in args.only)]
    for folder in cases:
        category = folder.parent.name
        spec = json.loads((folder / "expected.json").read_text())
        expected = {(e["source"], e["target"], e["kind"]) for e in spec["edges"]}
        want_partial = {
            (e["source"], e["target"], e["kind"]) for e in spec["edges"] if e.get("partial")
        }
        found, partial, unresolved = map_case(folder)
        expected_by_category[category] += len(expected)
        name = f"{category}/{folder.name}"
        for edge, provenance in sorted(found.items()):
            if edge in want_partial and edge not in partial:
                wrong[provenance] += 1
                problems.append(f"{name}: certain, want partial {edge[0]} -> {edge[1]}")
            elif edge in expected:
                right[provenance] += 1
                found_by_category[category] += 1
            else:
                wrong[provenance] += 1
                problems.append(f"{name}: wrong {edge[2]} {edge[0]} -> {edge[1]} [{provenance}]")
        for edge in sorted(expected - set(found)):
            problems.append(f"{name}: missed {edge[2]} {edge[0]} -> {edge[1]}")
        if unresolved < spec["unresolved_min"]:
            problems.append(f"{name}: {unresolved} unresolved, want >= {spec['unresolved_min']}")
    print(f"{len(cases)} cases, {sum(expected_by_category.values())} expected edges\n")
    print(f"{'provenance':<20}{'edges':>7}{'right':>7}{'precision':>11}{'prior':>7}")
    priors = {}
    for provenance in sorted(set(right) | set(wrong)):
        n = right[provenance] + wrong[provenance]
        priors[provenance] = math.floor((right[provenance] + 1) / (n + 2) * 100) / 100
        print(
            f"{provenance:<20}{n:>7}{right[provenance]:>7}{right[provenance] / n:>11.3f}"
            f"{priors[provenance]:>7.2f}"
        )
    total_right, total = sum(right.values()), sum(right.values()) + sum(wrong.values())
    print(f"{'all':<20}{total:>7}{total_right:>7}{total_right / max(1, total):>11.3f}\n")
    print(f"{'category':<12}{'expected':>9}{'found':>7}{'recall':>8}")
    for category in sorted(expected_by_category):
        n, hit = expected_by_category[category], found_by_category[category]
        print(f"{category:<12}{n:>9}{hit:>7}{hit / max(1, n):>8.3f}")
    n, hit = sum(expected_by_category.values()), sum(found_by_category.values())
    print(f"{'all':<12}{n:>9}{hit:>7}{hit / max(1, n):>8.3f}")
    if problems:
        print("\n" + "\n".join(problems))
    if args.fit:
        print("\npriors (priors.py):")
        for provenance, value in sorted(priors.items()):
            print(f"    {provenance}: {value:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
