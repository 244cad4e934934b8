"""The ingest's progress on a terminal: each phase with its count, the file at hand, and for
embedding the chunks per second and the time left, measured, not guessed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from groundkit.cli.output import raw_stderr
from groundkit.text import for_terminal

if TYPE_CHECKING:  # the pipeline loads when an ingest runs, not with every command
    from groundkit.pipeline.progress import Progress

__all__ = ["progress_display"]

_LABEL = {
    "walking": "walking",
    "reading": "reading and chunking",
    "writing": "writing",
    "indexing": "indexing",
    "fingerprinting": "fingerprinting",
    "embedding": "embedding",
    "sentences": "embedding sentences",
    "parsing": "parsing",
    "resolving": "resolving",
    "copying": "copying documents",
    "copying vectors": "copying vectors",
}
_ITEM_WIDTH = 48


@contextmanager
def progress_display(*, enabled: bool) -> Iterator[Progress | None]:
    """A progress callback drawing on an interactive terminal's standard error; None when
    disabled or when standard error is not a terminal (a log, a pipe, a CI run)."""
    stream = raw_stderr()
    if not (enabled and stream.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.progress import (
        Progress as Bars,
    )

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description:<20}"),
        BarColumn(bar_width=24),
        TextColumn("{task.fields[count]:>9}"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[item]}", style="dim"),
    )
    with Bars(*columns, console=Console(file=stream), transient=True) as bars:
        tasks: dict[str, Any] = {}
        began: dict[str, tuple[float, int]] = {}

        def update(phase: str, done: int, total: int | None, item: str | None = None) -> None:
            for other, task in tasks.items():  # a phase that is over shows as done, and is still
                if other != phase and not bars.tasks[task].finished:
                    size = bars.tasks[task].completed or 1
                    bars.update(task, total=size, completed=size, item="")
                    bars.stop_task(task)
            if phase not in tasks:
                tasks[phase] = bars.add_task(
                    _LABEL.get(phase, phase), total=total, rate="", item="", count=""
                )
                began[phase] = (time.monotonic(), done)
            bars.update(
                tasks[phase],
                completed=done,
                total=total,
                rate=_rate(phase, began[phase], done, total),
                item=_short(item or ""),
                count=f"{done:,}/{total:,}" if total is not None else "",
            )

        yield update


def _rate(phase: str, began: tuple[float, int], done: int, total: int | None) -> str:
    """Chunks per second and the time left, from what was done since the phase began."""
    if phase != "embedding" or total is None:
        return ""
    at, first = began
    elapsed = time.monotonic() - at
    made = done - first
    if elapsed < 1 or made <= 0:
        return "…"
    per_second = made / elapsed
    left = (total - done) / per_second
    return f"{per_second:,.1f} chunks/s, {_duration(left)} left"


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def _short(item: str) -> str:
    """A file name or URL as the display shows it: its end, with what a terminal would act on
    spelled out and rich's markup escaped (a name may hold OSC 52, or ``[link=...]``)."""
    from rich.markup import escape  # rich loads with the display, not with every command

    short = item if len(item) <= _ITEM_WIDTH else "…" + item[-(_ITEM_WIDTH - 1) :]
    return escape(for_terminal(short))
