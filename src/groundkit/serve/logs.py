"""Where the servers log: stderr only, one line per event.

In ``grk serve-mcp`` stdout carries the MCP protocol and nothing else, so every handler here
writes to stderr; the root logger gets one too, so that no library's ``basicConfig`` can
install a handler of its own (it does nothing once the root has a handler).
"""

from __future__ import annotations

import logging
import sys

__all__ = ["configure_logging"]


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(handler)
        root.setLevel(logging.WARNING)
    ours = logging.getLogger("groundkit")
    ours.setLevel(level)
    if not ours.handlers:
        ours.addHandler(handler)
        ours.propagate = False
