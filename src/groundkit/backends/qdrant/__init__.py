"""A collection on Qdrant: ``[collections.NAME] backend = "qdrant"`` in grk.toml, with ``url``
(a cluster) or ``path`` (Qdrant's engine in this process). See ``backend``, ``layout`` (how the
collection lies in Qdrant and how a write becomes visible at once), ``sparse`` (BM25 with our
analyzer) and docs/decisions/0015-qdrant-backend.md.

qdrant-client and qdrant-edge-py come with the ``qdrant`` extra and are imported only here.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from groundkit.errors import ErrorCode

if TYPE_CHECKING:
    from groundkit.backends.qdrant.backend import QdrantBackend
    from groundkit.backends.qdrant.transport import Spec, Transport
    from groundkit.config import CollectionConfig
    from groundkit.secret import Secret

__all__ = ["drop_collection", "open_qdrant", "transport_for"]


def open_qdrant(name: str, config: CollectionConfig, *, create: bool) -> QdrantBackend:
    """The backend of collection ``name`` as ``config`` places it (``collection.not_found``
    when it is not there and ``create`` is off)."""
    from groundkit.backends.qdrant.backend import QdrantBackend

    return QdrantBackend(name, transport_for(name, config), spec_of(config), create=create)


def drop_collection(name: str, config: CollectionConfig) -> None:
    """Delete the Qdrant collection behind ``name`` and everything in it."""
    from groundkit.backends.qdrant.meta import read_meta
    from groundkit.errors import NotFoundError

    transport = transport_for(name, config)
    try:
        if not transport.exists():
            raise NotFoundError(
                ErrorCode.COLLECTION_NOT_FOUND,
                f"no collection named {name!r} on its Qdrant cluster",
                hint="check remote_name in grk.toml",
            )
        read_meta(transport)  # never delete a collection groundkit did not make
        transport.drop()
    finally:
        transport.close()


def spec_of(config: CollectionConfig) -> Spec:
    from groundkit.backends.qdrant.transport import Spec

    return Spec(
        dense=None,
        shards=config.shards,
        replicas=config.replicas,
        write_consistency=config.write_consistency,
        on_disk=config.on_disk,
        quantization=config.quantization,
    )


def transport_for(name: str, config: CollectionConfig) -> Transport:
    remote = config.remote_name or name
    if config.path is not None:
        from groundkit.backends.qdrant.edge import EdgeTransport

        return EdgeTransport(remote, os.path.expanduser(config.path))
    from groundkit.backends.qdrant.transport import ClientTransport

    assert config.url is not None
    return ClientTransport(
        remote, url=config.url, key=cluster_key(name, config), timeout_s=config.timeout_s
    )


def cluster_key(name: str, config: CollectionConfig) -> Secret | None:
    """The cluster's API key: from ``api_key_env`` (an error if it is unset or empty), or with
    ``keychain`` from the keychain entry ``qdrant:NAME``; else none (a cluster without keys)."""
    from groundkit.credentials import KeyStore, read_key

    if config.api_key_env or config.keychain:
        return read_key(f"qdrant:{name}", config.api_key_env, KeyStore())
    return None
