"""Precision of the TypeScript/JavaScript call graph's certain edges on real repositories, judged
by a person.

    python benchmarks/codemap_ts_precision.py [--set N] sample NAME=PATH@REF... [--per-repo 50]
        [--seed 33]
    python benchmarks/codemap_ts_precision.py [--set N] show   # each edge, both places quoted
    python benchmarks/codemap_ts_precision.py [--set N] score

``sample`` maps each repository (PATH: a checkout; REF: its commit, recorded in the sample) and
draws ``--per-repo`` certain ``calls`` edges whose caller is a TypeScript or JavaScript file, at
random (seeded: the same maps give the same sample), into
``benchmarks/codemap/ts_precision/sample.json``: per edge its repository, both ends,
provenance, place and the line it quotes. A person reads each one in the source (``show``
prints the call's line and the target's first line when PATHs are still there) and records in
``labels.json`` (same ``key``) whether that call can run that target when the code runs:
``right``, or ``wrong`` with a note. ``score`` joins the two and prints the share right, per
repository and per provenance (``codemap_precision.score``). The labels are the yardstick; the
map never reads them. ``--set N`` keeps a further sample beside the first, in ``sampleN.json``
and ``labelsN.json``. ``--base OTHER_SRC`` draws only the edges another checkout's code (its
``src`` folder) does not map as certain, ``--provenance P`` (repeatable) only edges of P.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from codemap_precision import score
from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import EdgeFlag

HERE = Path(__file__).parent / "codemap" / "ts_precision"
SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


_BASE_CHILD = """
import json, sys, tempfile
from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import EdgeFlag
with tempfile.TemporaryDirectory() as tmp, open_codemap("b", index_dir=tmp, create=True) as m:
    m.update(sys.argv[1])
    print(json.dumps(sorted({(e.source.qualname, e.target.qualname) for e in m.edges(["calls"])
                             if EdgeFlag.PARTIAL not in e.flags})))
"""


def base_pairs(root: Path, base: Path) -> set[tuple[str, str]]:
    """The certain call pairs another checkout's code (``base``: its src folder) maps."""
    env = {**os.environ, "PYTHONPATH": str(base)}
    run = subprocess.run(
        [sys.executable, "-c", _BASE_CHILD, str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return {(a, b) for a, b in json.loads(run.stdout)}


def sample(
    repos: list[tuple[str, Path, str]],
    per_repo: int,
    seed: int,
    base: Path | None = None,
    provenances: frozenset[str] = frozenset(),
) -> list[dict[str, Any]]:
    """``base``: draw only edges that code does not map as certain; ``provenances``: only
    edges of these."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for name, root, commit in repos:
        old = base_pairs(root, base) if base is not None else set()
        with (
            tempfile.TemporaryDirectory() as tmp,
            open_codemap("ts-precision", index_dir=tmp, create=True) as codemap,
        ):
            codemap.update(root)
            lines = {n.key: n.line for n in codemap.nodes()}
            certain = sorted(
                (
                    e
                    for e in codemap.edges(["calls"])
                    if EdgeFlag.PARTIAL not in e.flags
                    and e.location.path.endswith(SUFFIXES)
                    and e.target.path
                    and (e.source.qualname, e.target.qualname) not in old
                    and (not provenances or str(e.provenance) in provenances)
                ),
                key=lambda e: e.id,
            )
        for edge in rng.sample(certain, min(per_repo, len(certain))):
            out.append(
                {
                    "key": f"{name}:{edge.source.qualname}->{edge.target.qualname}",
                    "repo": name,
                    "root": str(root),
                    "commit": commit,
                    "source": edge.source.qualname,
                    "target": edge.target.qualname,
                    "provenance": str(edge.provenance),
                    "at": f"{edge.location.path}:{edge.location.line}",
                    "target_at": f"{edge.target.path}:{lines.get(edge.target, 0)}",
                    "quote": edge.quote,
                    "pool": len(certain),
                    "stratum": "random",
                }
            )
    return out


def show(drawn: list[dict[str, Any]]) -> None:
    for n, item in enumerate(drawn, 1):
        root = Path(item["root"])
        print(f"{n:>3} {item['key']}  [{item['provenance']}]")
        for where in (item["at"], item["target_at"]):
            path, _, line = where.rpartition(":")
            text = root / path
            quoted = ""
            if text.is_file() and int(line) > 0:
                quoted = text.read_text(errors="replace").splitlines()[int(line) - 1].strip()
            print(f"      {where}: {quoted[:110]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="", help="N: use sampleN.json and labelsN.json")
    sub = parser.add_subparsers(dest="what", required=True)
    draw = sub.add_parser("sample")
    draw.add_argument("repos", nargs="+", help="NAME=PATH@REF")
    draw.add_argument("--per-repo", type=int, default=50)
    draw.add_argument("--seed", type=int, default=33)
    draw.add_argument("--base", type=Path, help="another checkout's src: only edges new since")
    draw.add_argument("--provenance", action="append", default=[], help="only these (repeat)")
    sub.add_parser("show")
    sub.add_parser("score")
    args = parser.parse_args(argv)
    sample_path = HERE / f"sample{args.set}.json"
    if args.what == "sample":
        repos = []
        for spec in args.repos:
            name, _, rest = spec.partition("=")
            path, _, ref = rest.rpartition("@")
            repos.append((name, Path(path), ref))
        kept = frozenset(args.provenance)
        drawn = sample(repos, args.per_repo, args.seed, args.base, kept)
        HERE.mkdir(parents=True, exist_ok=True)
        sample_path.write_text(json.dumps(drawn, indent=1) + "\n")
        print(f"{len(drawn)} edges drawn into {sample_path}")
        return 0
    drawn = json.loads(sample_path.read_text())
    if args.what == "show":
        show(drawn)
        return 0
    labels_path = HERE / f"labels{args.set}.json"
    labels = json.loads(labels_path.read_text()) if labels_path.exists() else {}
    score(drawn, labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
