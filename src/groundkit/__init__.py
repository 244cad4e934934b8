"""groundkit: answers over your own material, where every citation is checked by a machine.

>>> import groundkit
>>> with groundkit.open_collection("notes", index_dir=".groundkit") as notes:
...     notes.ingest(["docs/"])
...     hits = notes.search("how are citations verified?")
...     notes.show(hits[0].citation.chunk_id).verification
"""

from typing import TYPE_CHECKING, Any

from groundkit.collection import Collection, delete_collection, list_collections, open_collection
from groundkit.config import Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.types import (
    Chunk,
    Citation,
    Document,
    Hit,
    IngestReport,
    ResolvedCitation,
    Skipped,
    Verification,
)

if TYPE_CHECKING:
    from groundkit.codemap.api import CodeMap, list_codemaps, open_codemap

__version__ = "0.1.0"

_CODEMAP = ("CodeMap", "list_codemaps", "open_codemap")


def __getattr__(name: str) -> Any:
    """The code map's names, imported on first use: most commands never need them."""
    if name in _CODEMAP:
        from groundkit.codemap import api

        return getattr(api, name)
    raise AttributeError(f"module 'groundkit' has no attribute {name!r}")


__all__ = [
    "Chunk",
    "Citation",
    "CodeMap",
    "Collection",
    "Document",
    "ErrorCode",
    "GroundkitError",
    "Hit",
    "IngestReport",
    "ResolvedCitation",
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
