"""Find a cited passage in its source's current text: where it was, near there, or anywhere.

Pure string search, so that drift is judged on the cited span: an edit far from it (a title, a
new section above) leaves it found, at the same or a moved offset.
"""

from __future__ import annotations

__all__ = ["NEAR_CHARS", "relocate"]

# How far either side of the old offset the bounded search looks before searching everything.
NEAR_CHARS = 4096


def relocate(cited: str, text: str, start: int, *, near: int = NEAR_CHARS) -> int | None:
    """The offset of ``cited`` in ``text``, or None when it is not there.

    In this order: at ``start`` exactly; else the occurrence nearest ``start`` within ``near``
    characters of it; else the occurrence nearest ``start`` anywhere. "Nearest" compares the
    distance of the occurrence's start from ``start``; a tie goes to the earlier one.
    """
    if not cited:
        return start if 0 <= start <= len(text) else None
    if text.startswith(cited, start):
        return start
    lo, hi = max(0, start - near), min(len(text), start + near + len(cited))
    found = _nearest(cited, text, start, lo, hi)
    if found is None and (lo > 0 or hi < len(text)):
        found = _nearest(cited, text, start, 0, len(text))
    return found


def _nearest(cited: str, text: str, start: int, lo: int, hi: int) -> int | None:
    """The occurrence of ``cited`` inside ``text[lo:hi]`` whose start is nearest ``start``."""
    pivot = min(max(start, lo), hi)
    after = text.find(cited, pivot, hi)
    # The last occurrence starting before the pivot: it may run past the pivot.
    before = text.rfind(cited, lo, min(hi, pivot + len(cited) - 1))
    candidates = [at for at in (before, after) if at != -1]
    if not candidates:
        return None
    return min(candidates, key=lambda at: (abs(at - start), at))
