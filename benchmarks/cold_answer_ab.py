"""Cold `grk answer` against cold `grk search --mode hybrid`, two source trees side by side.

    git archive main src | tar -x -C /tmp/old          # the code before, say
    .venv/bin/python benchmarks/cold_answer_ab.py --labels benchmarks/labels/readers.json \\
        --corpus requests --rounds 2 --old /tmp/old/src /tmp/d35-index-old \\
        --new src /tmp/d35-index-new

Each tree runs on a collection it ingested (``reader_questions.py --workdir``; a newer tree
would migrate an older one's store). For each question of ``--corpus`` the four fresh processes
(old search, old answer, new search, new answer) run in turn, so both trees see the same load;
``PYTHONDONTWRITEBYTECODE`` is unset so each module is compiled once, not in every process. Prints,
per tree, the median wall and CPU seconds of each command and the median of the per-question
answer / search ratios, as ``reader_questions.py --time`` does for one tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from reader_questions import timed  # one process timed as that script times it

GRK = str(Path(sys.executable).with_name("grk"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", default="benchmarks/labels/readers.json")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--old", nargs=2, required=True, metavar=("SRC", "INDEX_DIR"))
    parser.add_argument("--new", nargs=2, required=True, metavar=("SRC", "INDEX_DIR"))
    args = parser.parse_args()
    labels = json.loads(Path(args.labels).read_text(encoding="utf-8"))
    questions = [q for q in labels["questions"] if q["corpus"] == args.corpus]
    trees = {"old": args.old, "new": args.new}
    times: dict[str, dict[str, dict[str, list[tuple[float, float]]]]] = {
        tree: {"search": {}, "answer": {}} for tree in trees
    }
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for q in questions:
            for tree, (src, index_dir) in trees.items():
                env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
                env.update(PYTHONPATH=os.path.abspath(src), NO_COLOR="1")
                base = [GRK, "--index-dir", index_dir, "-c", args.corpus]
                asked = {"search": [*base, "search", q["question"], "--mode", "hybrid"],
                         "answer": [*base, "answer", q["question"]]}  # fmt: skip
                for command, argv in asked.items():
                    times[tree][command].setdefault(q["id"], []).append(timed(argv, env))
    print(f"{args.corpus}: {len(questions)} questions x {args.rounds} rounds,"
          f" load {load:.1f} -> {os.getloadavg()[0]:.1f}")  # fmt: skip
    print("tree\tmeasure\tsearch\tanswer\tanswer / search: median of per-question ratios (max)")
    for tree in trees:
        for k, what in ((0, "wall s"), (1, "CPU s")):
            s = {i: statistics.median(x[k] for x in v) for i, v in times[tree]["search"].items()}
            a = {i: statistics.median(x[k] for x in v) for i, v in times[tree]["answer"].items()}
            ratios = [a[i] / s[i] for i in a]
            print(f"{tree}\t{what}\t{statistics.median(s.values()):.2f}\t"
                  f"{statistics.median(a.values()):.2f}\t"
                  f"{statistics.median(ratios):.2f} ({max(ratios):.2f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
