"""The SQLite store (the source of truth) and the indexes derived from it."""
