"""The operations every surface calls: the CLI, REST, MCP and the web UI are adapters over them.

Each operation takes a typed request (or a few plain arguments) and returns a typed result;
what a surface adds is only its own parsing and its own way of showing the result.

* ``collections``: search, show, verify, status, list, ingest, delete, reindex, over any source
  of collections (``Collections``: the CLI opens them per command, ``LocalCollections``; the
  server shares open ones across requests, ``serve.runtime.Runtime``).
* ``codemap``: map, overview, trace, blast, diff, edge, export, list.
* ``answer``: a question answered from a collection (and a map), or about a symbol, through the
  one answer session (``answer.session``).
"""
