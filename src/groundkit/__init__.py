"""groundkit: answers over your own material, where every citation is checked by a machine.

>>> import groundkit
>>> with groundkit.open_collection("notes", index_dir=".groundkit") as notes:
...     notes.ingest(["docs/"])
...     hits = notes.search("how are citations verified?")
...     notes.show(hits[0].citation.chunk_id).verification

Names load on first use, so ``import groundkit`` (and ``grk --help``) stay light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from groundkit.version import __version__

if TYPE_CHECKING:
    from groundkit.codemap.api import CodeMap, list_codemaps, open_codemap
    from groundkit.collection import (
        Collection,
        delete_collection,
        list_collections,
        open_collection,
    )
    from groundkit.config import Settings
    from groundkit.errors import ErrorCode, GroundkitError
    from groundkit.types import (
        Chunk,
        Citation,
        CollectionStatus,
        Document,
        Hit,
        IngestReport,
        ResolvedCitation,
        SearchMode,
        Skipped,
        Verification,
    )

__all__ = [
    "Chunk",
    "Citation",
    "CodeMap",
    "Collection",
    "CollectionStatus",
    "Document",
    "ErrorCode",
    "GroundkitError",
    "Hit",
    "IngestReport",
    "ResolvedCitation",
    "SearchMode",
    "Settings",
    "Skipped",
    "Verification",
    "__version__",
    "delete_collection",
    "list_codemaps",
    "list_collections",
    "open_codemap",
    "open_collection",
]

_HOME = {
    "CodeMap": "codemap.api",
    "list_codemaps": "codemap.api",
    "open_codemap": "codemap.api",
    "Collection": "collection",
    "delete_collection": "collection",
    "list_collections": "collection",
    "open_collection": "collection",
    "Settings": "config",
    "ErrorCode": "errors",
    "GroundkitError": "errors",
    "Chunk": "types",
    "Citation": "types",
    "CollectionStatus": "types",
    "Document": "types",
    "Hit": "types",
    "IngestReport": "types",
    "ResolvedCitation": "types",
    "SearchMode": "types",
    "Skipped": "types",
    "Verification": "types",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'groundkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"groundkit.{_HOME[name]}"), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
