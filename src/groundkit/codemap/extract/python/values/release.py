"""Free memory handed back to the system between the solve's rounds.

CPython allocates containers bigger than 512 bytes (a set of more than about 20 values, a long
list) from the C allocator, and glibc keeps what is freed in its heap, counted in the process's
resident size until it is reused. ``Engine.share`` frees most of the solve's large sets at once
(django: 43 MB of set tables after the first round, 49 MB free in the heap through the second
round, which reused little of it), so the second round's end was the map's peak, 13 MB above
the first round's. ``malloc_trim`` returns the free pages inside the heap (``madvise``), not
only its top; it changes no value, and costs milliseconds.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable

__all__ = ["release_free_memory"]


@functools.cache
def _trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (macOS, musl)."""
    try:
        library = ctypes.CDLL(None)  # (the process's own symbols: libc's among them)
        trim: Callable[[int], int] = library.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    return trim


def release_free_memory() -> bool:
    """Hand the C allocator's free pages back to the system; False where it cannot be asked."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
