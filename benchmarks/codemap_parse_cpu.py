"""CPU seconds of the Python parse stage's two walks over a folder, the syntax trees made
beforehand: the parse walker (``extract/python/parse``) and the data pass it hands its tree to
(``data/early.py``), each the best of ``--runs``, with the collector paused as a map pauses it.

    python benchmarks/codemap_parse_cpu.py PATH [--runs 3]
    PYTHONPATH=../other/src python benchmarks/codemap_parse_cpu.py PATH   # another checkout's

Run the two checkouts alternately and compare in the same window: the machine is shared.
"""

from __future__ import annotations

import argparse
import ast
import gc
import math
import time
from pathlib import Path

from groundkit.codemap.data.early import EarlyData
from groundkit.codemap.extract.base import Clock, FileFacts
from groundkit.codemap.extract.python.parse import _rebound, parse_python_tree
from groundkit.codemap.extract.python.parse.statements import walk_body
from groundkit.codemap.extract.python.parse.walker import Walker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    gc.disable()
    root: Path = args.path
    texts = [(str(p.relative_to(root.parent)), p.read_text()) for p in sorted(root.rglob("*.py"))]
    trees = [ast.parse(text, filename=path) for path, text in texts]
    early = EarlyData([path for path, _ in texts], root.name)
    facts = [
        FileFacts(None, parse_python_tree(p, t)[0], tree)
        for (p, t), tree in zip(texts, trees, strict=True)
    ]
    walker_s = data_s = parse_s = math.inf
    for _ in range(args.runs):
        started = time.process_time()
        for path, text in texts:
            ast.parse(text, filename=path)
        parse_s = min(parse_s, time.process_time() - started)
        started = time.process_time()
        for (_, text), tree in zip(texts, trees, strict=True):
            walker = Walker(text, _rebound(tree, text), Clock(math.inf))
            walk_body(walker, tree.body)
            walker.pop()
            walker.facts()
        walker_s = min(walker_s, time.process_time() - started)
        started = time.process_time()
        for (path, text), found in zip(texts, facts, strict=True):
            early(path, text, found)
        data_s = min(data_s, time.process_time() - started)
    print(
        f"{len(texts)} files: ast.parse {parse_s:.3f} s, parse walker {walker_s:.3f} s,"
        f" data pass {data_s:.3f} s (CPU, best of {args.runs})"
    )


if __name__ == "__main__":
    main()
