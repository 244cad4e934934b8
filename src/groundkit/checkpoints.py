"""Named points in a long write where a test may step in: to kill the process there, or to fill
the disk. Production code only names the points; nothing here acts unless a test registers a
hook, which only tests do (see ``tests/crash_hooks.py``)."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["checkpoint", "set_hook"]

_hook: list[Callable[[str], None]] = []


def checkpoint(name: str) -> None:
    """Mark that a write has reached point ``name`` (e.g. ``after-store-commit``)."""
    if _hook:
        _hook[0](name)


def set_hook(hook: Callable[[str], None] | None) -> None:
    """For tests: call ``hook`` at every checkpoint (None: stop)."""
    _hook.clear()
    if hook is not None:
        _hook.append(hook)
