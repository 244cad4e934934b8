"""A logging guard every entry point installs: secret-shaped values never reach a log.

Each record's message and arguments are redacted as the record is made (so every handler,
present or future, sees the redacted text), and the ``httpx``/``httpcore`` loggers, which would
log request and response details at DEBUG, are held at WARNING. groundkit itself never logs a
provider request or response body.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from groundkit.answer.patterns import SECRET_SHAPES

__all__ = ["install_log_guard", "scrub"]

_installed: list[bool] = []  # non-empty once the factory is wrapped


# A file path in a traceback is a run of base64 characters too (`/srv/app/lib/python/site/...`):
# it stays readable when each of its segments reads like a name (lower case after a first
# capital, digits, no other mix), which a random key almost never does.
_PATH_SEGMENT = re.compile(r"[A-Za-z0-9]?[a-z0-9]*")


def scrub(text: str) -> str:
    """``text`` with every secret shape replaced by ``<redacted>``; file paths are kept."""
    for pattern in SECRET_SHAPES:
        pieces, at = [], 0
        for start, end in pattern.spans(text):
            pieces += [text[at:start], _unless_a_path(text[start:end])]
            at = end
        text = "".join([*pieces, text[at:]])
    return text


def _unless_a_path(value: str) -> str:
    if "/" in value and all(_PATH_SEGMENT.fullmatch(s) for s in value.split("/")):
        return value
    return "<redacted>"


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
        record.msg, record.args = scrub(message), None
        return record

    logging.setLogRecordFactory(factory)
    _installed.append(True)
