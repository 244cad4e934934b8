"""What a folder's decoded Python facts hold, and the CPU decoding them takes: the facts of
every file live through the solve that makes a cold map's peak.

    python benchmarks/codemap_facts.py PATH [--runs 7]
    PYTHONPATH=../other/src python benchmarks/codemap_facts.py PATH   # another checkout's

Each ``.py`` file under PATH is parsed and encoded as a map stores it, then every file is
decoded with ``PythonExtractor.decode`` ``--runs`` times (CPU seconds of each run, the
collector paused as a map pauses it). The bytes the decoded facts hold are counted by part
(``sys.getsizeof`` of each object once, in the order the parts are listed: an object shared
with an earlier part or file is counted there). Run two checkouts alternately: the machine is
shared.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from groundkit.codemap.extract.base import SourceFile
from groundkit.codemap.extract.python import PythonExtractor

PARTS = ("ops", "sites", "lines", "scopes", "imports", "all")


def _size(value: Any, seen: set[int]) -> int:
    if id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, msgspec.Raw):
        return size + len(value)
    if isinstance(value, msgspec.Struct):
        return size + sum(_size(getattr(value, f), seen) for f in value.__struct_fields__)
    if isinstance(value, tuple | list):
        return size + sum(_size(item, seen) for item in value)
    if isinstance(value, dict):
        return size + sum(_size(k, seen) + _size(v, seen) for k, v in value.items())
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root: Path = args.path
    extractor = PythonExtractor()
    stored = []
    for path in sorted(root.rglob("*.py")):
        source = SourceFile(str(path.relative_to(root)), path.read_text(errors="replace"))
        try:
            stored.append(extractor.encode(extractor.parse(source)))
        except Exception:  # (a file the map would skip: not counted)
            continue
    gc.disable()
    seconds = []
    for _ in range(args.runs):
        gc.collect()
        started = time.process_time()
        decoded = [extractor.decode(interface, body).body for interface, body in stored]
        seconds.append(time.process_time() - started)
        if len(seconds) < args.runs:
            del decoded
    print(f"{len(stored)} files; decode CPU s " + " ".join(f"{s:.3f}" for s in seconds))
    seen: set[int] = set()
    sizes = {part: sum(_size(getattr(f, part), seen) for f in decoded) for part in PARTS}
    print("decoded MB: " + ", ".join(f"{p} {b / 1e6:.1f}" for p, b in sizes.items()), end="")
    print(f"; total {sum(sizes.values()) / 1e6:.1f}")


if __name__ == "__main__":
    main()
