"""What storing the answer's sentences costs `grk ingest --dense`, with sentences on against off.

    .venv/bin/python benchmarks/ingest_sentences.py ../shared/data/scifact/corpus.jsonl \\
        --records 600 --rounds 3

Takes the first ``--records`` lines of a JSONL record file (or a folder as it is), ingests the
text once into a collection without vectors, then, ``--rounds`` times, times ``grk ingest INPUT
--dense --sentences`` and ``grk ingest INPUT --dense`` in fresh processes, each on its own copy
of that collection (so each run is the embedding, as the embedding yardstick times it), the two
in turn, their order swapped each round so both see the same load. Prints the median wall and
CPU seconds of each, the median of the per-round ratios (and their range), and how many chunks'
sentences were stored, and how many sentences.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

from reader_questions import timed  # one fresh process timed as that script times it

GRK = str(Path(sys.executable).with_name("grk"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="a JSONL record file or a folder")
    parser.add_argument("--records", type=int, default=600, help="first N lines of a JSONL file")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    env = {**os.environ, "NO_COLOR": "1"}
    with tempfile.TemporaryDirectory(prefix="grk-ingest-sentences-") as tmp:
        root = Path(tmp)
        source = Path(args.input)
        if source.is_file():
            lines = source.read_text(encoding="utf-8").splitlines()[: args.records]
            source = root / "records.jsonl"
            source.write_text("\n".join(lines) + "\n", encoding="utf-8")
        base = root / "base"
        timed([GRK, "--index-dir", str(base), "ingest", str(source), "--quiet"], env)  # the text
        times: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
        load = os.getloadavg()[0]
        for round_ in range(args.rounds):
            order = ["on", "off"] if round_ % 2 == 0 else ["off", "on"]
            for variant in order:
                copy = root / variant
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(base, copy)
                flags = ["--dense"] + (["--sentences"] if variant == "on" else [])
                argv = [GRK, "--index-dir", str(copy), "ingest", str(source), *flags, "--quiet"]
                times[variant].append(timed(argv, env))
        print(f"{args.rounds} rounds, load {load:.1f} -> {os.getloadavg()[0]:.1f}")
        print("measure\tsentences off\tsentences on\ton / off: median of per-round ratios")
        for k, what in ((0, "wall s"), (1, "CPU s")):
            off = [t[k] for t in times["off"]]
            on = [t[k] for t in times["on"]]
            ratios = [a / b for a, b in zip(on, off, strict=True)]
            spread = f"({min(ratios):.2f}-{max(ratios):.2f})"
            print(f"{what}\t{statistics.median(off):.1f}\t{statistics.median(on):.1f}\t"
                  f"{statistics.median(ratios):.2f} {spread}")  # fmt: skip
        db = sqlite3.connect(root / "on" / "default" / "store.sqlite")
        found = "SELECT count(*), sum(length(spans)) / 8 FROM chunk_sentences"
        rows, pairs = db.execute(found).fetchone()
        chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        db.close()
    print(f"chunks {chunks}; sentences of {rows} stored: {pairs} sentences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
