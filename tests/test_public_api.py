from __future__ import annotations

import ast
from pathlib import Path

import groundkit

SRC = Path(groundkit.__file__).parent


def test_the_public_api_is_exactly_what_all_declares() -> None:
    assert sorted(groundkit.__all__) == [
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
    for name in groundkit.__all__:
        assert hasattr(groundkit, name)


# Lower layers never import higher ones: types/errors/config <- ingest, chunk <- index
# <- retrieve <- pipeline, collection <- eval, testing <- cli. The CLI may reach the shipped
# fakes (`grk eval --fake-embedder`); the fakes never reach the CLI.
_LAYER = {
    "types": 0,
    "secret": 0,
    "errors": 0,
    "config": 0,
    "ingest": 1,
    "chunk": 1,
    "index": 2,
    "retrieve": 3,
    "pipeline": 4,
    "collection": 4,
    "answer": 4,  # retrieve <- answer; it names Collection only for type checking
    "eval": 5,
    "serve": 5,
    "testing": 5,
    "cli": 6,
}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return _LAYER.get(parts[1]) if parts[0] == "groundkit" and len(parts) > 1 else None


def test_imports_flow_one_way_down_the_pipeline() -> None:
    wrong = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC.parent).with_suffix("")
        here = _layer(".".join(rel.parts))
        if here is None:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                there = _layer(node.module)
                if there is not None and there > here:
                    wrong.append(f"{rel} imports {node.module}")
    assert wrong == []
