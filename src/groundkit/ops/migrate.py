"""Moving a collection up: `grk migrate NAME --to qdrant` (``backends.qdrant.migrate``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.collection import STORE_FILE, collection_path
from groundkit.config import Settings
from groundkit.errors import ConfigError, ErrorCode, NotFoundError
from groundkit.pipeline import Progress

if TYPE_CHECKING:
    from groundkit.backends.qdrant.migrate import Migration

__all__ = ["to_qdrant"]


def to_qdrant(settings: Settings, name: str, progress: Progress | None = None) -> Migration:
    """Copy the embedded collection ``name`` to the Qdrant collection grk.toml names for it, and
    check the copy; returns the ``Migration`` (its ``ok`` says whether the check passed)."""
    from groundkit.backends.embedded import EmbeddedBackend
    from groundkit.backends.qdrant import open_qdrant
    from groundkit.backends.qdrant.migrate import migrate

    config = settings.collection_config(name)
    if config.backend != "qdrant":
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"grk.toml does not place collection {name!r} on Qdrant",
            hint=f'add [collections.{name}] with backend = "qdrant" and its url first',
        )
    folder = collection_path(settings.index_dir, name)
    if not (folder / STORE_FILE).is_file():
        raise NotFoundError(
            ErrorCode.COLLECTION_NOT_FOUND,
            f"no embedded collection named {name!r} to migrate",
            hint="check --index-dir",
        )
    source = EmbeddedBackend(folder, settings)
    try:
        target = open_qdrant(name, config, create=True)
        try:
            return migrate(source, target, progress=progress)
        finally:
            target.close()
    finally:
        source.close()
