"""Chunking speed on adversarial Markdown and on a real corpus, before and after, and linearity.

    .venv/bin/python benchmarks/chunking.py [--baseline REV] [--scifact PATH] [--repeat 3]
        [--cap 180]

Each case is chunked by ``chunk_text`` with the default settings (size 1000, min_size 200)
unless the case says otherwise; the time is the CPU time of this process (the machine is shared,
and wall time swings with what else runs), the median of ``--repeat`` runs (more for quick
cases, one when a run takes longer than 10 s). With ``--baseline REV`` the
chunker as it was at git revision REV (its ``src/groundkit/chunk`` read with ``git show`` into a
temporary package) is timed in the same run, and the table says whether both made exactly the
same chunks (offsets and metadata). A baseline run longer than ``--cap`` seconds is stopped and
shown as ``>cap``; that works for Python loops, not inside one regex call, so the regex case is
kept small.

Cases: Markdown files of 10k to 100k tiny headings (``# h1\\nx\\n``, the shape of the 1.4 MB
file of issue 10; the 120k case is that file, 1.3 MB here), a 9 MB list nested up to 80
levels, one heading line with 1,000 spaces, 4 MB of one-word fragments padded with spaces at
chunk size 50, the SciFact corpus (``title + "\\n" + text`` per record, chunked as text and as
Markdown), and the Markdown and HTML samples in ``docs/samples`` (HTML converted by the loader
first, as ingest does).
The linearity check is the time per heading at 100k divided by that at 10k (1.0 is linear), and
for the current chunker also at 400k divided by 100k: below about 50k headings Python's cyclic
garbage collector has not yet started full collections, which then add a constant share per
object, so the second ratio shows the algorithm's growth better.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundkit.chunk import ChunkSettings, chunk_text

REPO = Path(__file__).resolve().parent.parent
ChunkText = Callable[..., list[Any]]


@dataclass(frozen=True)
class Case:
    name: str
    format: str
    docs: list[str]
    size: int = 1000
    min_size: int = 200
    headings: int = 0  # counted for the linearity check


class Capped(Exception):
    pass


@contextmanager
def cap(seconds: float | None) -> Iterator[None]:
    if seconds is None:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Capped

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def tiny_headings(n: int) -> str:
    return "".join(f"# h{i}\nx\n" for i in range(n))


def nested_list(target: int) -> str:
    lines, size, i = [], 0, 0
    while size < target:
        line = "  " * (i % 80) + f"- item {i} of a deeply nested list\n"
        lines.append(line)
        size += len(line)
        i += 1
    return "".join(lines)


def scifact(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as fh:
        return [f"{r['title']}\n{r['text']}" for r in map(json.loads, fh)]


def samples() -> tuple[list[str], list[str]]:
    from groundkit.ingest.loaders import load

    folder = REPO / "docs" / "samples"
    markdown = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))]
    html = [
        load(p.read_bytes(), origin=p.name, fmt="html").loaded[0].text
        for p in sorted(folder.glob("*.html"))
    ]
    return markdown, html


def cases(args: argparse.Namespace) -> list[Case]:
    out = [
        Case(f"{n // 1000}k headings", "markdown", [tiny_headings(n)], headings=n)
        for n in args.headings
    ]
    out.append(Case("120k headings (issue 10's file)", "markdown", [tiny_headings(120_000)]))
    out.append(Case("nested list, 80 levels", "markdown", [nested_list(9_000_000)]))
    out.append(Case("heading line, 1,000 spaces", "markdown", ["# a" + " " * 1000 + "b\n\nx\n"]))
    fragments = ("x " + "y" + " " * 49) * 80_000
    out.append(Case("padded fragments, size 50", "text", [fragments], 50, 10))
    if args.scifact.is_file():
        docs = scifact(args.scifact)
        out += [
            Case("SciFact as text", "text", docs),
            Case("SciFact as markdown", "markdown", docs),
        ]
    markdown, html = samples()
    out.append(Case("docs/samples .md x200", "markdown", markdown * 200))
    out.append(Case("docs/samples .html x200", "html", html * 200))
    return out


def run(impl: tuple[ChunkText, Any], case: Case) -> list[list[tuple[int, int, Any]]]:
    chunk, settings = impl
    cfg = settings(case.size, case.min_size)
    return [
        [(s.start, s.end, s.metadata) for s in chunk(d, format=case.format, settings=cfg)]
        for d in case.docs
    ]


def timed(
    impl: tuple[ChunkText, Any], case: Case, repeat: int, limit: float | None
) -> tuple[float | None, list[list[tuple[int, int, Any]]] | None]:
    """Median seconds (None when capped) and the chunks of the last run.

    At least ``repeat`` runs, more for quick cases (until half a second, at most 25), one when a
    run takes over 10 s. Garbage from earlier cases is collected before each run.
    """
    times: list[float] = []
    chunks = None
    while len(times) < max(repeat, 25 if sum(times) < 0.5 else 0):
        gc.collect()
        start = time.process_time()
        try:
            with cap(limit):
                chunks = run(impl, case)
        except Capped:
            return None, None
        times.append(time.process_time() - start)
        if times[-1] > 10:
            break
    return statistics.median(times), chunks


def load_baseline(rev: str) -> tuple[ChunkText, Any]:
    """``chunk_text`` and ``ChunkSettings`` of ``src/groundkit/chunk`` at ``rev``, from git."""
    git = ["git", "-C", str(REPO)]
    names = subprocess.run(
        [*git, "ls-tree", "--name-only", rev, "src/groundkit/chunk/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    root = Path(tempfile.mkdtemp(prefix="chunk-baseline-"))
    package = root / "chunk_baseline"
    package.mkdir()
    for name in names:
        if name.endswith(".py"):
            source = subprocess.run(
                [*git, "show", f"{rev}:{name}"], capture_output=True, text=True, check=True
            ).stdout
            source = source.replace("groundkit.chunk", "chunk_baseline")
            (package / Path(name).name).write_text(source, encoding="utf-8")
    sys.path.insert(0, str(root))
    module = importlib.import_module("chunk_baseline")
    return module.chunk_text, module.ChunkSettings


def seconds(value: float | None, limit: float) -> str:
    return f">{limit:.0f}" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="git revision of the chunker to compare with")
    parser.add_argument(
        "--scifact", type=Path, default=REPO.parent / "shared/data/scifact/corpus.jsonl"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=180.0, help="seconds per baseline run")
    parser.add_argument(
        "--headings",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[10_000, 20_000, 40_000, 100_000],
    )
    args = parser.parse_args()

    current = (chunk_text, ChunkSettings)
    baseline = load_baseline(args.baseline) if args.baseline else None
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"command: .venv/bin/python benchmarks/chunking.py {' '.join(sys.argv[1:])}")
    print(f"after: HEAD {head}" + (f"; before: {args.baseline}" if baseline else ""))
    print()
    print("| case | MB | chunks | before s | after s | speed-up | same chunks |")
    print("|---|---:|---:|---:|---:|---:|---|")
    per_heading: dict[str, dict[int, float | None]] = {"before": {}, "after": {}}
    for case in cases(args):
        after, chunks = timed(current, case, args.repeat, None)
        before, old_chunks = (None, None)
        if baseline:
            before, old_chunks = timed(baseline, case, args.repeat, args.cap)
        megabytes = sum(map(len, case.docs)) / 1e6
        count = sum(map(len, chunks or []))
        ratio = "" if before is None or after is None else f"{before / after:.1f}x"
        same = "" if old_chunks is None else ("yes" if old_chunks == chunks else "NO")
        if baseline and before is None:
            ratio = f">{args.cap / after:.0f}x" if after else ""
        shown_before = seconds(before, args.cap) if baseline else "-"
        print(
            f"| {case.name} | {megabytes:.2f} | {count} | {shown_before} | "
            f"{seconds(after, 0)} | {ratio} | {same} |"
        )
        if case.headings:
            n = case.headings
            per_heading["after"][n] = None if after is None else after / n
            per_heading["before"][n] = None if before is None else before / n
    print()
    low, high = min(args.headings), max(args.headings)
    for label, values in per_heading.items():
        _linearity(label, values.get(low), low, values.get(high), high)
    big = 4 * high
    after, _ = timed(current, Case("", "markdown", [tiny_headings(big)]), 1, None)
    _linearity("after", per_heading["after"].get(high), high, after and after / big, big)


def _linearity(label: str, a: float | None, low: int, b: float | None, high: int) -> None:
    if a and b:
        print(
            f"linearity ({label}): {a * 1e6:.2f} us per heading at {low // 1000}k,"
            f" {b * 1e6:.2f} us at {high // 1000}k: ratio {b / a:.2f} (1.0 is linear)"
        )


if __name__ == "__main__":
    main()
