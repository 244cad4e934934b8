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

__all__ = ["install_log_guard", "scrub"]

_SECRET = re.compile(
    r"-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----"
    r"|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}"
    r"|\b(?:sk|gsk|ghp|gho|ghs|ghu|github_pat|xox[abpr])[-_][A-Za-z0-9_-]{10,}"
    r"|\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"
    r"|(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])",
    re.IGNORECASE,
)
_installed: list[bool] = []  # non-empty once the factory is wrapped


def scrub(text: str) -> str:
    return _SECRET.sub("<redacted>", text)


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
