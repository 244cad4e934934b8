"""Shared helpers for the answer tests: the fixture texts and reply builders."""

from __future__ import annotations

import json
from typing import Any

from groundkit import Collection
from groundkit.answer.bundle import EvidenceBundle, build_bundle

WOMBAT = (
    "The wombat digs long burrows with its strong claws.\n\n"
    "A wombat eats grasses, roots and bark \u2014 and the odd caf\u00e9 crumb."
    " Write to keeper@example.org about the wombats.\n"
)
ECHIDNA = "A guide to echidnas: the echidna lays an egg, like the platypus.\n"


def bundle_for(collection: Collection, query: str, max_bytes: int = 24_000) -> EvidenceBundle:
    hits = collection.search(query)
    return build_bundle(hits, collection=collection.name, query=query, max_bytes=max_bytes)


def reply(*items: dict[str, Any]) -> str:
    return json.dumps({"items": list(items)})


def item(text: str, *cites: tuple[Any, Any]) -> dict[str, Any]:
    return {"text": text, "citations": [{"source": s, "quote": q} for s, q in cites]}
