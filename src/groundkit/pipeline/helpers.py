"""Helper processes that read, load, chunk and fingerprint files ahead of the one that writes.

An ingest's pure work (parsing, chunking, fingerprinting: ``documents.prepare``) and its SQLite
writes each take a large part of a big run, and both are Python holding one GIL. On a machine
with two cores or more, a big run hands the pure work to helper processes a few files ahead of
the writer, which writes what they give back in the order of the walk: the store ends up exactly
as an ingest in one process leaves it (same rows, same rowids). Only the writer touches the
store, inside the run's one transaction, so whatever a helper did is lost with the run, never
half written.

A helper is ``python -m groundkit.pipeline.helper`` speaking length-prefixed pickles over its
standard input and output, not ``multiprocessing``: that would run the caller's main script
again in each helper (an unguarded script would ingest from inside its helpers), or fork a
process whose threads a fork copies stopped mid-way. Helpers ignore Ctrl-C (the writer handles
it and rolls back) and end when their input closes, the writer's death included. A helper that
dies (a parser that crashed its process) leaves its files to the writer, which makes them
itself. Starting one costs about half a second, so small runs do without.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Generic, TypeVar

from groundkit.chunk import ChunkSettings
from groundkit.config import Settings
from groundkit.ingest.walk import FileInput
from groundkit.pipeline.documents import Prepared, Submit, prepare, read_file

__all__ = [
    "AHEAD_BYTES",
    "AHEAD_FILES",
    "AUTO",
    "FROM_BYTES",
    "FROM_FILES",
    "HELP_AFTER_S",
    "Helpers",
    "Making",
    "Reading",
    "helper_count",
]

AUTO = -1
FROM_FILES = 16  # below this many files to read, or
FROM_BYTES = 4_000_000  # this many bytes, helpers start slower than they help
AHEAD_FILES = 64  # given to helpers before the writer reaches them, at most, and
AHEAD_BYTES = 64_000_000  # at most this many bytes of them
_MOST = 8
HELP_AFTER_S = 1.0  # helpers start once reading in this process has taken this long
# On fewer cores than this, helpers start only when making files (reading, loading, chunking,
# fingerprinting) took at least MAKING_SHARE of the writer's thread until then (``Making``).
# With two, the index's thread has much of the other core: a helper's gain is the part of the
# writer's work it takes over; its cost, its start, the pickles both ways, and work slowed beside
# the writer's. Measured on two cores (benchmarks/README.md, "Helper processes on two cores"):
# scale.py's JSONL records, 0.65 of the writer's first second, took more CPU with helpers than
# without in 45 of 48 runs, and more wall time in about half; Rust's HTML manuals, 0.90-0.92,
# 25% less wall time for the same CPU.
SHARED_CORES = 3
MAKING_SHARE = 0.8
_GONE = object()  # a helper's output ended

T = TypeVar("T")
U = TypeVar("U")


def helper_count(setting: int, files: int, size: int, share: float | None = None) -> int:
    """How many helpers a run of ``files`` files of ``size`` bytes in all gets (0: none).
    ``share``: of the writer's thread so far, the part spent making files (None: unknown)."""
    if setting != AUTO:
        return setting
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cpus or 1) < 2 or files < FROM_FILES or size < FROM_BYTES:
        return 0
    if (cpus or 1) < SHARED_CORES and share is not None and share < MAKING_SHARE:
        return 0
    return min(cpus or 1, _MOST)


def prepare_file(
    file: FileInput, settings: Settings, known: dict[str, str], chunking: ChunkSettings
) -> Prepared:
    """``prepare`` as a helper runs it: an exception from an input's reader comes back as its
    name, as the writer's own ``write_one`` would have reported it."""
    try:
        return prepare(lambda: read_file(file, settings), file.path, known, chunking)
    except Exception as exc:
        return Prepared(failed=type(exc).__name__)


def send(stream: IO[bytes], item: object) -> None:
    blob = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(blob).to_bytes(8, "little") + blob)
    stream.flush()


def receive(stream: IO[bytes]) -> object:
    """The next item, or ``_GONE`` when the stream ended."""
    header = stream.read(8)
    if len(header) < 8:
        return _GONE
    size = int.from_bytes(header, "little")
    blob = stream.read(size)
    # Only from a helper this process started, running this same code.
    return _GONE if len(blob) < size else pickle.loads(blob)  # noqa: S301


class _Helper:
    def __init__(self) -> None:
        # The helper imports groundkit as this process found it, installed or not.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "groundkit.pipeline.helper"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.results: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.alive = True
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        # Drained as results come, so that a helper never waits on a full pipe while the writer
        # waits on it to take a task: neither can block the other.
        assert self.process.stdout is not None
        while (item := receive(self.process.stdout)) is not _GONE:
            self.results.put(item)
        self.results.put(_GONE)

    def close(self, *, at_once: bool) -> None:
        """End the helper: when its input is read to the end, or ``at_once`` (a run stopped
        short has queued work nobody will take)."""
        assert self.process.stdin is not None
        if at_once:
            self.process.kill()
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join()
        assert self.process.stdout is not None
        self.process.stdout.close()


class Helpers:
    """``count`` helper processes, given files in turn."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._helpers: list[_Helper] = []
        self._turn = 0

    def __enter__(self) -> Helpers:
        for _ in range(self.count):
            try:
                self._helpers.append(_Helper())
            except OSError:  # no interpreter to start (a frozen app): the writer reads alone
                break
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        for helper in self._helpers:
            helper.close(at_once=kind is not None)

    def submit(
        self, file: FileInput, settings: Settings, known: dict[str, str], chunking: ChunkSettings
    ) -> Callable[[], Prepared]:
        """What to call, when the writer gets to ``file``, for what it is made of."""

        def here() -> Prepared:
            return prepare(lambda: read_file(file, settings), file.path, known, chunking)

        helper = self._next()
        if helper is None:
            return here
        assert helper.process.stdin is not None
        try:
            send(helper.process.stdin, (file, settings, known, chunking))
        except OSError:  # it died: a closed pipe
            helper.alive = False
            return here

        def result() -> Prepared:
            # A helper answers its files in the order it was given them.
            item = helper.results.get() if helper.alive else _GONE
            if isinstance(item, Prepared):
                return item
            helper.alive = False
            return here()

        return result

    def _next(self) -> _Helper | None:
        for _ in range(len(self._helpers)):
            helper = self._helpers[self._turn % len(self._helpers)]
            self._turn += 1
            if helper.alive:
                return helper
        return None


class Making:
    """The CPU time this thread has spent making files itself (``timed`` wraps each maker),
    from the end of the first one on: the first file pays for imports (numpy, a parser) that
    the others do not, and in the second a run is judged on, they were most of it."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.since: float | None = None  # this thread's time when the first file was made

    def timed(self, make: Callable[[], T]) -> Callable[[], T]:
        def made() -> T:
            start = time.thread_time()
            try:
                return make()
            finally:
                end = time.thread_time()
                if self.since is None:
                    self.since = end
                else:
                    self.seconds += end - start

        return made

    def share(self) -> float | None:
        """Of this thread's time since the first file was made, the part spent making files
        (None: too little to tell)."""
        if self.since is None or self.seconds <= 0:
            return None
        return min(1.0, self.seconds / max(time.thread_time() - self.since, 1e-9))


class Reading(Generic[T, U]):
    """What each item (a file to read) is made of, handed out in order: made in this process at
    first and, from the moment reading has taken ``HELP_AFTER_S`` with ``FROM_FILES`` files and
    ``FROM_BYTES`` bytes or more still to read (``helper_count``), by helper processes, started
    up to ``AHEAD_FILES`` items and ``AHEAD_BYTES`` ahead. A run that finds nearly everything
    unchanged inside its files never pays for starting them. ``making``, when given, is what
    the items made here cost this thread: on two cores it decides (``helper_count``).

    ``start(item, submit)`` begins an item: with ``submit`` None it must make it lazily, in this
    process, when its result is called. ``size(item)`` is its size in bytes."""

    def __init__(
        self,
        items: Sequence[T],
        start: Callable[[T, Submit | None], U],
        size: Callable[[T], int],
        setting: int,
        making: Making | None = None,
    ) -> None:
        self._items, self._start, self._size, self._setting = items, start, size, setting
        self._making = making
        self._helpers: Helpers | None = None
        self._decided = setting != AUTO and setting <= 0

    def __enter__(self) -> Iterator[tuple[T, U]]:
        return self._handed_out()

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._helpers is not None:
            self._helpers.__exit__(kind)

    def _handed_out(self) -> Iterator[tuple[T, U]]:
        items, began = self._items, time.monotonic()
        started: deque[tuple[T, U, int]] = deque()
        held = 0
        for at, item in enumerate(items):
            if (
                not self._decided
                and (self._setting != AUTO or time.monotonic() - began >= HELP_AFTER_S)
                and not self._too_soon()
            ):
                share = self._making.share() if self._making is not None else None
                self._begin_helping(items[at:], share)
            size = self._size(item)
            ahead = AHEAD_FILES if self._helpers else 1
            while started and (len(started) >= ahead or held + size > AHEAD_BYTES):
                first, made, first_size = started.popleft()
                held -= first_size
                yield first, made
            submit = self._helpers.submit if self._helpers else None
            started.append((item, self._start(item, submit), size))
            held += size
        while started:
            first, made, _ = started.popleft()
            yield first, made

    def _too_soon(self) -> bool:
        """Whether the decision waits for a file made after the first (on a busy machine a
        second can pass before that one is made)."""
        making = self._making
        return self._setting == AUTO and making is not None and making.share() is None

    def _begin_helping(self, left: Sequence[T], share: float | None) -> None:
        self._decided = True
        count = helper_count(self._setting, len(left), sum(map(self._size, left)), share)
        if count:
            self._helpers = Helpers(count).__enter__()
