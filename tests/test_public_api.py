from __future__ import annotations

from pathlib import Path

import groundkit

SRC = Path(groundkit.__file__).parent


def test_the_public_api_is_exactly_what_all_declares() -> None:
    assert sorted(groundkit.__all__) == [
        "Chunk",
        "Citation",
        "CodeMap",
        "Collection",
        "CollectionStatus",
        "Document",
        "ErrorCode",
        "GroundkitError",
        "Hit",
        "IngestReport",
        "ResolvedCitation",
        "SearchMode",
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
