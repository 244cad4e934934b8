"""What a source file says now where a drifted citation points: shown beside the stored text.

A stand-in, kept small and apart on purpose: span-level drift (the cited passage re-located in
the current file, with moved offsets) belongs to ``Collection.show`` and replaces this function
when it lands. Until then the file is read again the way it was ingested (the same loader, so
offsets mean the same thing) and its text at the cited offsets is shown, with the place where
the cited text now starts when the file still holds it somewhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from groundkit.errors import GroundkitError
from groundkit.ingest.formats import Format
from groundkit.ingest.loaders import Rejected, load
from groundkit.types import Citation, Document

__all__ = ["FileNow", "file_now"]

_CONTEXT = 200  # characters of the current file shown on each side of the cited offsets


@dataclass(frozen=True, slots=True)
class FileNow:
    """``text``: the current file's text at the cited offsets (``lead`` and ``tail`` around it),
    or None with ``note`` saying why it cannot be shown. ``moved_to``: where the cited text
    starts in the current file, when it is there but elsewhere."""

    text: str | None
    lead: str = ""
    tail: str = ""
    moved_to: int | None = None
    note: str = ""


def file_now(document: Document, citation: Citation, cited: str) -> FileNow:
    if document.external_id is not None or document.format == "records":
        return FileNow(None, note="a record in a records file: open the file to compare")
    if document.location.startswith(("http://", "https://")) or not document.location:
        return FileNow(None, note="a web page: groundkit never fetches it again to compare")
    try:
        with open(document.location, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return FileNow(None, note="the file is gone")
    except OSError:
        return FileNow(None, note="the file cannot be read")
    try:
        loaded = load(data, origin=document.location, fmt=cast(Format, document.format)).loaded
    except (Rejected, GroundkitError):
        return FileNow(None, note="the file can no longer be read as it was ingested")
    if not loaded:
        return FileNow(None, note="the file can no longer be read as it was ingested")
    now = loaded[0].text
    start, end = citation.start, citation.end
    found = now.find(cited) if cited else -1
    return FileNow(
        now[start:end],
        lead=now[max(0, start - _CONTEXT) : start],
        tail=now[end : end + _CONTEXT],
        moved_to=found if found >= 0 and found != start else None,
    )
