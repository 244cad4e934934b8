"""A logging guard every entry point installs: secret-shaped values never reach a log.

Each record's message and arguments are redacted as the record is made (so every handler,
present or future, sees the redacted text), and the ``httpx``/``httpcore`` loggers, which would
log request and response details at DEBUG, are held at WARNING. groundkit itself never logs a
provider request or response body.
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["install_log_guard", "scrub"]

_installed: list[bool] = []  # non-empty once the factory is wrapped
_WITHHELD = "<log message withheld: it could not be checked for secrets>"


def scrub(text: str) -> str:
    """``text`` with every secret shape replaced by ``<redacted>``; file paths are kept. The
    shapes read the text folded, as redaction does (a key with a zero-width space, in fullwidth
    or look-alike letters, is still a key), and the original span is replaced."""
    # Imported at the first record, not at start-up: every command installs the guard, and a
    # command that logs nothing need not compile the shapes' modules (see tests/test_startup.py).
    from groundkit.answer.fold import fold
    from groundkit.answer.patterns import SECRET_SHAPES

    folded = fold(text)
    taken = [False] * (len(text) + 1)
    spans = []
    for pattern in SECRET_SHAPES:  # the first shape to claim a span has it
        for found in pattern.spans(folded.text):
            start, end = folded.span(*found)
            if not any(taken[start:end]):
                spans.append((start, end))
                taken[start:end] = [True] * (end - start)
    pieces, at = [], 0
    for start, end in sorted(spans):
        pieces += [text[at:start], _unless_a_path(text[start:end])]
        at = end
    return "".join([*pieces, text[at:]])


def _unless_a_path(value: str) -> str:
    # A file path in a traceback is a run of base64 characters too: it stays readable.
    from groundkit.answer.pattern import looks_like_path

    return value if looks_like_path(value) else "<redacted>"


def install_log_guard() -> None:
    """Idempotent: wrap the record factory once and quieten the HTTP client loggers."""
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error handling
            return record
        try:
            record.msg = scrub(message)
        except Exception:  # the shapes could not be imported (say, at shutdown): withhold it
            record.msg = _WITHHELD
        record.args = None
        return record

    logging.setLogRecordFactory(factory)
    _installed.append(True)
