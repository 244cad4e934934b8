"""A folder's cold code map as its tables, one sorted line per row, to tell whether a change to
the mapper left the map as it was: map with one checkout's code, then the other's, and diff.

    PYTHONPATH=../before/src python benchmarks/codemap_tables.py PATH before.txt
    PYTHONPATH=src python benchmarks/codemap_tables.py PATH after.txt
    diff before.txt after.txt | wc -l    # 0: the same map

Rows of ``files`` (without the modification time, and each file's stored facts by their length
and first bytes), ``nodes`` and ``edges``; the last line of each table counts its rows.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
from pathlib import Path

from groundkit.codemap.api import open_codemap

_TABLES = {
    "files": "path, language, digest, size, extractor, interface_digest, keys, unresolved, web,"
    " resolution, generated, length(interface), length(body), substr(hex(body), 1, 64)",
    "nodes": "*",
    "edges": "*",
}


def table_lines(database: Path) -> list[str]:
    with sqlite3.connect(database) as connection:
        lines = []
        for table, columns in _TABLES.items():
            rows = connection.execute(f"SELECT {columns} FROM {table}").fetchall()
            lines += [f"{table}\t{row!r}" for row in rows]
            lines.append(f"{table}\t#{len(rows)} rows")
    return sorted(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("out")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as index:
        with open_codemap("tables", index_dir=index, create=True) as codemap:
            codemap.update(args.path)
            database = next(Path(index).rglob("map.sqlite"))
        lines = table_lines(database)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines)} lines")


if __name__ == "__main__":
    main()
