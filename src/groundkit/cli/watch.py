"""`grk ingest --watch`: ingest, then ingest again whatever changes, until Ctrl-C.

The file watcher is watchfiles (the ``watch`` extra), run in a thread of its own from before the
first round, so a change made while a round runs is not lost: it starts the next round. A round
starts once the watched folders have been quiet for ``QUIET_MS`` (or ``MOST_MS`` after the first
change, if they never go quiet), and re-ingests each input (as the user named it) under which
something changed that a walk would read, by the walker's own rules (``would_walk``). The
ingest is the ordinary incremental one, so only what changed is read again.

Between rounds nothing is open: the collection's write lock is held only while a round runs, so
`grk search`, `grk reindex` or another writer can use the collection in between.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundkit.errors import missing_extra
from groundkit.ingest.walk import Filters, would_walk

__all__ = ["MOST_MS", "QUIET_MS", "Watched", "watch"]

QUIET_MS = 500  # a round starts once nothing has changed for this long...
MOST_MS = 5_000  # ...or this long after the first change, if changes never stop
_READY_S = 30.0  # how long the watcher may take to register its folders
_WAKE_S = 0.5  # the main thread wakes this often, so Ctrl-C is handled promptly
_RETRY_S = 2.0  # a round that could not run (another writer) is tried again after this

Change = tuple[Any, str]  # (watchfiles.Change, path)


@dataclass(frozen=True, slots=True)
class Watched:
    """The inputs being watched, as absolute paths, and the rules of their walk."""

    roots: tuple[str, ...]
    filters: Filters
    index_dir: str  # groundkit's own files: writing them must not start another round

    def affected(self, changes: Iterable[Change]) -> list[str]:
        """The roots, in the order given, under which a change can matter to a walk."""
        paths = [path for _, path in changes if not self._ours(path)]
        return [root for root in self.roots if any(self._matters(path, root) for path in paths)]

    def _ours(self, path: str) -> bool:
        return Path(os.path.realpath(path)).is_relative_to(self.index_dir)

    def _matters(self, path: str, root: str) -> bool:
        if os.path.isdir(root):
            return would_walk(path, root, self.filters)
        return os.path.abspath(path) == root  # a file named on its own is always read


class _Changes:
    """watchfiles in a daemon thread, its change sets queued for the main thread."""

    def __init__(self, roots: Sequence[str]) -> None:
        try:
            import watchfiles
        except ImportError as exc:
            raise missing_extra(exc.name or "watchfiles", "watch") from None
        self._watch = watchfiles.watch
        self._roots = tuple(roots)
        self._queue: queue.SimpleQueue[set[Change] | BaseException] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="grk-watch", daemon=True)

    def _run(self) -> None:
        try:
            for changes in self._watch(
                *self._roots,
                watch_filter=None,  # the walker's rules decide, in the main thread
                step=QUIET_MS,
                debounce=MOST_MS,
                stop_event=self._stop,
                rust_timeout=int(_WAKE_S * 1000),
                yield_on_timeout=True,  # the first yield says the folders are registered
                raise_interrupt=False,
            ):
                self._ready.set()
                if changes:
                    self._queue.put(changes)
        except BaseException as exc:  # handed to the main thread, which raises it
            self._queue.put(exc)
        finally:
            self._ready.set()

    def __enter__(self) -> _Changes:
        self._thread.start()
        self._ready.wait(_READY_S)
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def wait(self, timeout: float | None) -> set[Change]:
        """Every change seen until now, waiting up to ``timeout`` seconds (None: until one)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        changes: set[Change] = set()
        while not changes:
            left = _WAKE_S if deadline is None else min(_WAKE_S, deadline - time.monotonic())
            if left <= 0:
                break
            changes |= self._take(block=True, timeout=left)
        return changes | self._take(block=False)

    def _take(self, *, block: bool, timeout: float | None = None) -> set[Change]:
        taken: set[Change] = set()
        try:
            item = self._queue.get(block=block, timeout=timeout)
            while True:
                if isinstance(item, BaseException):
                    raise item
                taken |= item
                item = self._queue.get(block=False)
        except queue.Empty:
            return taken


Round = Callable[[Sequence[str]], bool]
"""Runs one ingest of the given roots; False when it could not run and should be retried."""


def watch(watched: Watched, run_round: Round) -> None:
    """Ingest every root, then each root again whenever something in it changes; returns only by
    raising (``KeyboardInterrupt`` on Ctrl-C)."""
    with _Changes(watched.roots) as changes:
        pending: list[str] = list(watched.roots)
        while True:
            if pending:
                present = [root for root in pending if os.path.exists(root)]
                pending = [] if not present or run_round(present) else present
            found = changes.wait(_RETRY_S if pending else None)
            pending = [*pending, *(r for r in watched.affected(found) if r not in pending)]
