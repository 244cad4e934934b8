"""kill -9 at a random moment of an ingest into a Qdrant collection, N times: what a reader sees
after each kill, and after the next ingest resumes.

    .venv/bin/python benchmarks/backends_crash.py [--trials 20] [--notes 200] [--workdir DIR]

The "cluster" is ``groundkit.testing.qdrant_server`` in a process of its own (Qdrant's REST API
on loopback over a local-mode collection), so it outlives the killed writer as a cluster would.
Each trial rewrites every note to a new version (and, every third, removes a few and adds a few),
starts an ingest with dense vectors (the deterministic fake embedder, so that the vector phase
is part of every run), kills it with SIGKILL after a uniformly random delay within one ingest's
measured duration, then reads the collection back: every document once, each with all its
chunks, all of one version. Then the ingest runs again to the end and the same is checked, with
every note now at the new version.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import groundkit
from groundkit.config import parse_settings
from groundkit.testing.qdrant_server import server_process

_DRIVER = """
import sys
import groundkit
from groundkit.config import parse_settings
from groundkit.testing import FakeEmbedder
settings = parse_settings({"ingest": {"helpers": 0}, "collections": {"default": {
    "backend": "qdrant", "url": sys.argv[1], "timeout_s": 60}}})
with groundkit.open_collection("default", settings=settings, embedder=FakeEmbedder()) as c:
    c.ingest([sys.argv[2]], dense=True)
"""


def write_notes(root: Path, version: int, count: int) -> set[str]:
    """Every note at ``version``; which notes exist shifts every third version."""
    shift = (version // 3) * 5
    wanted = {f"note{(i + shift) % (count + 40):03}.md" for i in range(count)}
    root.mkdir(exist_ok=True)
    for path in root.glob("*.md"):
        if path.name not in wanted:
            path.unlink()
    for name in wanted:
        body = f"Version {version} of {name} says word{version}. " * 14
        (root / name).write_text(f"# {name}\n\n{body}\n\n## More\n\n{body}\n", encoding="utf-8")
    return wanted


def read_back(url: str) -> tuple[int, int, Counter[int], int, int]:
    """(documents, duplicates, versions seen, documents in part, vectors missing)."""
    settings = parse_settings({"collections": {"default": {"backend": "qdrant", "url": url}}})
    with groundkit.open_collection("default", settings=settings, create=False) as collection:
        documents = collection.documents()
        chunks = collection.chunks()
        status = collection.status()
    twice = sum(n - 1 for n in Counter(d.source for d in documents).values() if n > 1)
    per_document: dict[str, set[int]] = {}
    counts = Counter(c.document_id for c in chunks)
    for chunk in chunks:
        per_document.setdefault(chunk.document_id, set()).add(
            int(chunk.text.split("Version ")[1].split()[0])
        )
    partial = sum(
        1 for d in documents if counts[d.document_id] != 2 or len(per_document[d.document_id]) != 1
    )
    versions = Counter(next(iter(v)) for v in per_document.values() if len(v) == 1)
    return len(documents), twice, versions, partial, status.missing_vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--notes", type=int, default=200)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="grk-crash-"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    tree = work / "notes"
    rng = random.Random(args.seed)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    print(f"# backends_crash.py: {args.trials} trials, {args.notes} notes of 2 chunks; "
          f"load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    with server_process() as url:
        run = [sys.executable, "-c", _DRIVER, url, str(tree)]
        write_notes(tree, 1, args.notes)
        subprocess.run(run, env=env, check=True)
        # A trial's ingest changes every note: time one such ingest, start to end, to aim by.
        write_notes(tree, 2, args.notes)
        t0 = time.perf_counter()
        subprocess.run(run, env=env, check=True)
        full = time.perf_counter() - t0
        print(f"an ingest changing every note: {full:.1f} s; kills land uniformly in that\n")
        print(
            "| trial | killed after s | killed | visible: documents | twice | in part |"
            " versions | after resume: documents | twice | in part | vectors missing |"
        )
        print("|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|")
        totals = Counter[str]()
        for trial in range(1, args.trials + 1):
            version = trial + 2
            wanted = write_notes(tree, version, args.notes)
            delay = rng.uniform(0, full)
            process = subprocess.Popen(run, env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)  # fmt: skip
            time.sleep(delay)
            killed = process.poll() is None
            if killed:
                process.send_signal(signal.SIGKILL)
            process.wait()
            documents, twice, versions, partial, _ = read_back(url)
            subprocess.run(run, env=env, check=True)
            after, twice_after, versions_after, partial_after, missing = read_back(url)
            assert set(versions_after) == {version}, versions_after
            assert after == len(wanted)
            totals.update(
                twice=twice + twice_after,
                partial=partial + partial_after,
                killed=int(killed),
                missing=missing,
            )
            shown = ", ".join(f"v{v}: {n}" for v, n in sorted(versions.items()))
            print(f"| {trial} | {delay:.2f} | {'yes' if killed else 'no (done)'} | {documents} |"
                  f" {twice} | {partial} | {shown} | {after} | {twice_after} | {partial_after} |"
                  f" {missing} |")  # fmt: skip
    print(f"\nkilled mid-run: {totals['killed']} of {args.trials}; documents visible twice:"
          f" {totals['twice']}; documents visible in part: {totals['partial']};"
          f" vectors missing after resuming: {totals['missing']}")  # fmt: skip
    print(f"load average at the end: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
