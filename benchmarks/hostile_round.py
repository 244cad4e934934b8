"""A hostile user's round, family by family: tries and how many held.

    PYTHONPATH=src .venv/bin/python benchmarks/hostile_round.py [--family NAME]... [-v]
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/hostile_round.py   # older code

Every try runs `grk` in a process of its own (``python -m groundkit.cli.main``), so it measures
whichever groundkit ``PYTHONPATH`` names: the same round on main's code and on a checkout from
before a fix (``git archive REV src | tar -x -C /tmp/old``) gives the two columns to compare. A
try that hangs is killed after 25 s and counts as not held; each child may use at most 2 GB of
address space (so a read of /dev/zero ends in MemoryError, not in the machine's swap).

Families (``FAMILIES``, by name; ``benchmarks/hostile_secrets.py`` adds its own when present):
hostile sources (cited files that became FIFOs, devices, sparse giants, sockets; through show,
answer, serve, re-ingest and the code map), full disk (a tmpfs in a private mount namespace,
or the disk-fault shim: ``--disk-layer``; both backends), bad input (deep HTML, config and
query files that are devices, an index dir that is a file, NUL bytes, control characters in
paths, a Qdrant folder held by another process), model replies (a fake local model server
replying what a hostile model would).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from hostile_disk import full_disk
from hostile_input import bad_input, model_replies
from hostile_kit import Family, Kit, Try
from hostile_sources import hostile_sources

FAMILIES: dict[str, Family] = {
    "hostile sources": hostile_sources,
    "full disk": full_disk,
    "bad input": bad_input,
    "model replies": model_replies,
}

try:  # planted secrets and echo disguises, kept beside the redaction work
    import hostile_secrets  # type: ignore[import-not-found]

    # It is also a script of its own: families only when it registers some.
    FAMILIES.update(getattr(hostile_secrets, "FAMILIES", {}))
except ImportError:
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("-v", "--verbose", action="store_true", help="print every try")
    parser.add_argument("--workdir", type=Path, help="keep the work here (default: a temp dir)")
    parser.add_argument(
        "--disk-layer",
        choices=["tmpfs", "fault"],
        default="",
        help="the full-disk family's small disks: a tmpfs in a private mount namespace, or the"
        " disk-fault shim (default: tmpfs where namespaces work)",
    )
    args = parser.parse_args()
    import groundkit

    disk = Kit(Path(tempfile.gettempdir()), args.disk_layer).disk.name
    print(f"groundkit from {Path(groundkit.__file__).parent.parent}; load {_load()}; disk {disk}")
    results: dict[str, list[Try]] = {}
    with tempfile.TemporaryDirectory(prefix="hostile-") as temporary:
        root = args.workdir or Path(temporary)
        for name in args.family or list(FAMILIES):
            started = time.monotonic()
            tries = FAMILIES[name](Kit(root / name.replace(" ", "-"), args.disk_layer))
            results[name] = tries
            held = sum(t.held for t in tries)
            print(
                f"{name:<18} {held:>3}/{len(tries):<3} held  ({time.monotonic() - started:.0f} s)"
            )
            for t in tries:
                if args.verbose or not t.held:
                    print(f"    {'held' if t.held else 'FAIL'}  {t.name}: {t.detail}")
    total = sum(len(t) for t in results.values())
    print(f"{'all':<18} {sum(t.held for ts in results.values() for t in ts):>3}/{total:<3} held")


def _load() -> str:
    return (
        " ".join(Path("/proc/loadavg").read_text().split()[:3])
        if os.path.exists("/proc/loadavg")
        else "?"
    )


if __name__ == "__main__":
    main()
