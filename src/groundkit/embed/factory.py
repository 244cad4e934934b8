"""Build the embedder that ``embed.*`` settings describe. Heavy modules load only when chosen."""

from __future__ import annotations

from groundkit.config import EmbedConfig
from groundkit.embed.base import Embedder

__all__ = ["create_embedder"]


def create_embedder(config: EmbedConfig) -> Embedder:
    if config.provider == "local":
        from groundkit.embed.local import load_local_embedder

        return load_local_embedder(config)
    from groundkit.embed.http import create_http_embedder

    return create_http_embedder(config)
