"""One ingest run, from the inputs a user named to a collection whose derived indexes are in line.

``run.run_ingest`` walks and reads the inputs and stores their documents in one transaction
(``documents``), brings the derived indexes in line, then embeds what lacks a vector in batches
that each commit (``vectors``), so an interrupted embedding keeps its work.

The names below are imported when first asked for: a helper process (``pipeline.helper``) needs
only ``documents``, and importing ``run`` (URL fetching, http.client, email parsing) doubled the
time a helper took to start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundkit.pipeline.documents import document_id_for
    from groundkit.pipeline.progress import Progress
    from groundkit.pipeline.run import Interrupted, run_ingest, sync_derived

__all__ = ["Interrupted", "Progress", "document_id_for", "run_ingest", "sync_derived"]

_HOME = {
    "Interrupted": "run",
    "Progress": "progress",
    "document_id_for": "documents",
    "run_ingest": "run",
    "sync_derived": "run",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
