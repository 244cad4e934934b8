"""The metadata and source filters of a search, as SQL over the store's chunks and documents."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["chunk_filter"]


def chunk_filter(source_glob: str | None, where: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """The query (and its parameters) for the rowids of the chunks whose source matches the
    glob and whose metadata has every pair.

    A key is looked up in the chunk's metadata first, then in its document's. A string value
    also matches a stored number or boolean spelled that way (``"2020"`` matches ``2020``,
    ``"true"`` matches ``true``), since command-line values arrive as text.
    """
    clauses: list[str] = []
    params: list[Any] = []
    if source_glob is not None:
        # As shown (relative to the folder ingested), or as stored before paths were kept.
        clauses.append("(coalesce(d.path, d.source) GLOB ? OR d.source GLOB ?)")
        params.extend([source_glob, source_glob])
    for key, value in where.items():
        path = "$." + json.dumps(key)
        meta = (
            "(CASE WHEN json_type(c.metadata, ?) IS NOT NULL THEN c.metadata ELSE d.metadata END)"
        )
        if isinstance(value, str):
            clauses.append(
                f"(CASE json_type({meta}, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'"
                f" WHEN 'text' THEN json_extract({meta}, ?)"
                f" WHEN 'integer' THEN CAST(json_extract({meta}, ?) AS TEXT)"
                f" WHEN 'real' THEN CAST(json_extract({meta}, ?) AS TEXT) END) = ?"
            )
            params.extend([path, path] * 4 + [value])
        else:
            clauses.append(f"json_extract({meta}, ?) IS json_extract(?, '$')")
            params.extend([path, path, json.dumps(value)])
    sql = "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc"
    if clauses:
        sql += " WHERE " + " AND ".join(clauses)
    return sql, params
