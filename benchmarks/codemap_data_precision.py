"""Precision of the code map's data-access edges on real repositories outside the chain labels,
judged by a person: the measurement behind the priors of the data provenances.

    python benchmarks/codemap_data_precision.py sample NAME=PATH@REF... [--per-provenance 15]
    python benchmarks/codemap_data_precision.py score

``sample`` maps each repository (PATH: an unpacked checkout; REF: its commit, recorded in the
sample) and draws, per repository and per provenance of its ``reads``, ``writes`` and
``maps_to`` edges, up to ``--per-provenance`` edges at random (seeded: the same maps give the
same sample) into ``benchmarks/codemap/data_precision/sample.json``: both ends, provenance, mode,
place and the line it quotes. A person reads each in the source and records in ``labels.json``
(same ``key``) whether the function runs that access of that model or table when the code runs
(``right``), or not (``wrong``, with a note). ``score`` joins the two and prints the share right
per provenance with the prior the map gives it, and the expected calibration error of that
prior against the measured share. The labels are the yardstick; the map never reads them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import Provenance
from groundkit.codemap.priors import PRIORS

HERE = Path(__file__).parent / "codemap" / "data_precision"
DATA_KINDS = ["reads", "writes", "maps_to"]


def sample(repos: list[tuple[str, Path, str]], per: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, root, commit in repos:
        with (
            tempfile.TemporaryDirectory() as tmp,
            open_codemap("data", index_dir=tmp, create=True) as codemap,
        ):
            codemap.update(root, workers=1)
            edges = sorted(codemap.edges(DATA_KINDS), key=lambda e: e.id)
        by_provenance: dict[str, list[Any]] = defaultdict(list)
        for edge in edges:
            by_provenance[str(edge.provenance)].append(edge)
        for provenance in sorted(by_provenance):
            pool = by_provenance[provenance]
            rng = random.Random(f"{seed}:{name}:{provenance}")
            for edge in rng.sample(pool, min(per, len(pool))):
                out.append(
                    {
                        "key": f"{name}:{edge.source.qualname} {edge.kind} {edge.target.qualname}",
                        "repo": name,
                        "commit": commit,
                        "source": edge.source.qualname,
                        "kind": str(edge.kind),
                        "target": edge.target.qualname,
                        "provenance": provenance,
                        "partial": "partial" in {str(f) for f in edge.flags},
                        "at": f"{edge.location.path}:{edge.location.line}",
                        "quote": edge.quote,
                        "pool": len(pool),
                    }
                )
    return out


def score(drawn: list[dict[str, Any]], labels: dict[str, dict[str, str]]) -> dict[str, Any]:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[str] = []
    for item in drawn:
        label = labels.get(item["key"], {}).get("label", "unlabelled")
        rows[item["provenance"]][label] += 1
        if label == "wrong":
            wrong.append(f"  {item['key']} at {item['at']}: {labels[item['key']].get('note', '')}")
    print("| provenance | edges | right | wrong | unlabelled | precision | prior | ECE |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    figures = {}
    for provenance in sorted(rows):
        c = rows[provenance]
        judged = c["right"] + c["wrong"]
        share = c["right"] / judged if judged else float("nan")
        prior = PRIORS[Provenance(provenance)]
        figures[provenance] = {"edges": sum(c.values()), "right": c["right"], "wrong": c["wrong"]}
        print(
            f"| `{provenance}` | {sum(c.values())} | {c['right']} | {c['wrong']} |"
            f" {c['unlabelled']} | {share:.3f} | {prior} | {abs(prior - share):.3f} |"
        )
    if wrong:
        print("wrong:")
        print("\n".join(wrong))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    draw = commands.add_parser("sample")
    draw.add_argument("repos", nargs="+", help="NAME=PATH@REF")
    draw.add_argument("--per-provenance", type=int, default=15)
    draw.add_argument("--seed", type=int, default=32)
    commands.add_parser("score")
    args = parser.parse_args(argv)
    if args.command == "sample":
        repos = []
        for spec in args.repos:
            name, rest = spec.split("=", 1)
            path, _, ref = rest.rpartition("@")
            repos.append((name, Path(path), ref))
        drawn = sample(repos, args.per_provenance, args.seed)
        HERE.mkdir(parents=True, exist_ok=True)
        (HERE / "sample.json").write_text(json.dumps(drawn, indent=1) + "\n", encoding="utf-8")
        print(f"{len(drawn)} edges drawn into {HERE / 'sample.json'}")
        return 0
    drawn = json.loads((HERE / "sample.json").read_text(encoding="utf-8"))
    labels_path = HERE / "labels.json"
    labels = json.loads(labels_path.read_text(encoding="utf-8")) if labels_path.exists() else {}
    score(drawn, labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
