"""Where a collection's documents, chunks and vectors live: one seam (``base.Backend``), and its
implementations: ``embedded`` (SQLite and index files under the index dir, the default) and
``qdrant`` (a Qdrant collection on a cluster, or Qdrant's engine in the process)."""
