"""What the near-duplicate fingerprint costs ingest: with numpy, in pure Python, and none.

    .venv/bin/python benchmarks/ingest_fingerprint.py [--docs 5000] [--rounds 2] [--workdir DIR]

Builds ``scale.py``'s synthetic corpus (SciFact sentences recombined with its fixed seed) at
``--docs`` records, then ingests it into a fresh collection once per way and round, in this one
process, and prints the process CPU time per document of each ``Collection.ingest``: the
fingerprint as made at ingest (``stored_fingerprints``: numpy, every chunk of a file in one
pass), numpy one chunk at a time (as ingest made it before), the same bytes made in pure Python
(``fingerprint(text).to_bytes()``, what search does for rows stored before schema 7), and none at
all (NULL stored: what ingest cost before fingerprints were stored).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import groundkit
import scale
from groundkit.pipeline import documents, run
from groundkit.retrieve.batch_prints import stored_fingerprint, stored_fingerprints
from groundkit.retrieve.duplicates import fingerprint


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workdir", help="[default: a temporary folder]")
    parser.add_argument("--scifact", default=str(scale.REPO.parent / "shared" / "data" / "scifact"))
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="ingest-fingerprint-"))
    corpus = work / f"corpus-{args.docs}"
    scale.build_corpus(scale.sentences(Path(args.scifact)), args.docs, corpus)
    ways: dict[str, Callable[[list[str]], list[bytes | None]]] = {
        "numpy, a file at once (stored_fingerprints)": stored_fingerprints,  # type: ignore[dict-item]
        "numpy, a chunk at a time": lambda ts: [stored_fingerprint(t) for t in ts],
        "pure Python (fingerprint().to_bytes())": lambda ts: [
            fingerprint(t).to_bytes() for t in ts
        ],
        "none (NULL)": lambda ts: [None] * len(ts),
    }
    # In this process only: a helper process would make the fingerprints its own way.
    defaults = groundkit.Settings()
    alone = defaults.replace(ingest=defaults.ingest.replace(helpers=0))
    print(f"{args.docs:,} synthetic documents; CPU us per document of Collection.ingest\n")
    print("| way | " + " | ".join(f"round {r + 1}" for r in range(args.rounds)) + " |")
    print("|---|" + "---:|" * args.rounds)
    results: dict[str, list[float]] = {name: [] for name in ways}
    backfill = run.fold_missing
    for _ in range(args.rounds):
        for name, way in ways.items():
            documents.stored_fingerprints = way  # type: ignore[assignment]
            # "none" means none: the ingest would otherwise make the missing ones at its end.
            run.fold_missing = (lambda *_: 0) if name == "none (NULL)" else backfill  # type: ignore[assignment]
            index = work / "index"
            shutil.rmtree(index, ignore_errors=True)
            with groundkit.open_collection("f", index_dir=index, settings=alone) as coll:
                start = cpu()
                coll.ingest([str(corpus)])
                results[name].append((cpu() - start) / args.docs * 1e6)
    for name, values in results.items():
        print(f"| {name} | " + " | ".join(f"{v:.0f}" for v in values) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
