"""One ingest run, from the inputs a user named to a collection whose derived indexes are in line.

``run.run_ingest`` walks and reads the inputs and stores their documents in one transaction
(``documents``), brings the derived indexes in line, then embeds what lacks a vector in batches
that each commit (``vectors``), so an interrupted embedding keeps its work.
"""

from groundkit.pipeline.documents import document_id_for
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.run import Interrupted, run_ingest, sync_derived

__all__ = ["Interrupted", "Progress", "document_id_for", "run_ingest", "sync_derived"]
