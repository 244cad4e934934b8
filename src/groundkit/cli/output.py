"""Everything `grk` prints passes here: text that no terminal acts on, and JSON exactly as is.

Documents are other people's text: an OSC 52 sequence stored in one would write the user's
clipboard when a hit is shown, OSC 8 would plant links, a bidi override would reorder what is
read. So while a command runs, standard output and standard error are wrapped: in text mode each
character a terminal would act on is written out as an escape (``\\x1b``); in ``--json`` mode the
few that ``json.dumps`` leaves raw are written as ``\\uXXXX``, the same JSON value. A progress bar
draws on the real standard error (``raw_stderr``), which is its own, trusted output. A command
that speaks a protocol on standard output (``grk serve-mcp``: JSON-RPC) takes the real streams
back for as long as it runs (``protocol_output``): the parsed command decides, never a word of
the command line.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from groundkit.text import for_terminal, json_safe

__all__ = ["neutral_output", "protocol_output", "raw_stderr"]

_raw: list[TextIO] = []


class _Neutral(io.TextIOBase):
    """A text stream that rewrites what is written to it and passes it on.

    A reader that goes away (``grk show --check ID | true``, ``| head -1``) does not change
    what a command decides: what is written after that is dropped, and the command ends with
    the status it would have had. (click would make a broken pipe exit 1, which is
    ``--check``'s "not verified".)
    """

    def __init__(self, inner: TextIO, rewrite: Callable[[str], str]) -> None:
        self._inner = inner
        self._rewrite = rewrite
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                self._inner.write(self._rewrite(text))
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._inner.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        self._gone = True
        # What the stream still buffers is flushed again at exit: let it go nowhere quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._inner.fileno())
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass  # not a file descriptor (a test's capture): nothing is flushed at exit

    def isatty(self) -> bool:
        return self._inner.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._inner, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._inner, "errors", "strict")


@contextmanager
def neutral_output(*, as_json: bool) -> Iterator[None]:
    """Wrap standard output and standard error for the duration of one command."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = _Neutral(out, json_safe if as_json else for_terminal)
    sys.stderr = _Neutral(err, for_terminal)
    _raw.append(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
        _raw.pop()


def raw_stderr() -> TextIO:
    """The real standard error, for output that must drive the terminal (a progress bar)."""
    return _raw[-1] if _raw else sys.stderr


@contextmanager
def protocol_output() -> Iterator[None]:
    """The real standard output and error, for a command whose output is a protocol's bytes
    (``grk serve-mcp``), which no person reads and nothing may rewrite."""
    if not _raw:
        yield
        return
    wrapped = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _unwrapped(sys.stdout), _raw[-1]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = wrapped


def _unwrapped(stream: TextIO) -> TextIO:
    return stream._inner if isinstance(stream, _Neutral) else stream
