"""How long this process lives: a command's (``grk`` run from a shell), which ends when the
command does, or a host's (a server, a program using the library, a test run), which goes on
after it closes a collection.

A store that a command only read has nothing to save when that command's process ends: the
system releases its files and locks at the exit. Closing it can cost more than the command's own
work (Qdrant's engine in a folder syncs every file it mapped and drops them from the page cache,
so the next command reads them from disk again), so a store may leave a read-only handle to the
exit of a command's process. A host's process closes everything as it always has.
"""

from __future__ import annotations

__all__ = ["end_with_command", "ends_with_command", "host_process"]

_state = {"ends_with_command": False}


def end_with_command() -> None:
    """Say that this process ends when its command does (``grk``'s entry point says so)."""
    _state["ends_with_command"] = True


def ends_with_command() -> bool:
    """Whether this process ends with its command (see the module's docstring)."""
    return _state["ends_with_command"]


def host_process() -> None:
    """Say that this process goes on after its collections close (a server's runtime says so,
    even when ``grk serve`` started it): every store is closed as it always was."""
    _state["ends_with_command"] = False
