"""The code map: a persisted architecture graph of a repository, every edge with checkable
evidence. No model anywhere; the analysed code is read, never imported or run."""
