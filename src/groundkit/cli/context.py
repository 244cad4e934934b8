"""The context every command gets: the global flags, turned into settings and collections."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click
import msgspec

from groundkit.config import LoadedSettings, load

if TYPE_CHECKING:
    from groundkit.ops.collections import LocalCollections

__all__ = ["EMBEDDED_HELP", "Context", "pass_ctx"]


class Context:
    def __init__(
        self, flags: dict[str, Any], config_file: str | None, *, embedded: bool = False
    ) -> None:
        self.flags = flags
        self.config_file = config_file
        # --embedded: every collection is the one under the index dir, wherever grk.toml places
        # it (the folder `grk migrate` copied from stays there, and stays reachable).
        self.embedded = embedded

    def settings(self, more: dict[str, Any] | None = None) -> LoadedSettings:
        loaded = load({**self.flags, **(more or {})}, config_file=self.config_file)
        if not self.embedded or not loaded.settings.collections:
            return loaded
        return replace(loaded, settings=msgspec.structs.replace(loaded.settings, collections={}))

    def check_inputs(self, inputs: Sequence[str]) -> None:
        """Refuse, before anything is opened or made, paths that are not there."""
        from groundkit.errors import ErrorCode, UsageError
        from groundkit.ingest.fetch import split_inputs
        from groundkit.ingest.walk import missing_inputs

        missing = missing_inputs(split_inputs(inputs).paths)
        if missing:
            raise UsageError(
                ErrorCode.USAGE,
                "nothing to ingest at " + ", ".join(missing[:5]),
                hint="check the path; nothing was ingested and no collection was made",
            )

    def collections(self, more: dict[str, Any] | None = None) -> LocalCollections:
        """Where this command's operations open collections (close it when done)."""
        from groundkit.ops.collections import LocalCollections

        return LocalCollections(self.settings(more).settings)


_F = TypeVar("_F", bound=Callable[..., Any])

EMBEDDED_HELP = (
    "Use the collections under the index dir even where grk.toml places them on Qdrant"
    " (the embedded copy `grk migrate` left)."
)


def pass_ctx(command: _F) -> _F:
    """Hand the command the context, and accept the global options after the command name too,
    as people type them: `grk search "x" --collection notes`."""

    def run(
        obj: Context,
        /,
        index_dir_here: str | None,
        collection_here: str | None,
        embedded_here: bool,
        **kw: Any,
    ) -> Any:
        here = {"index_dir": index_dir_here, "collection": collection_here}
        flags = {**obj.flags, **{k: v for k, v in here.items() if v is not None}}
        embedded = obj.embedded or embedded_here
        return command(Context(flags, obj.config_file, embedded=embedded), **kw)

    functools.update_wrapper(run, command)  # click names the command after the function
    decorated = click.pass_obj(run)
    decorated = click.option("--embedded", "embedded_here", is_flag=True, help=EMBEDDED_HELP)(
        decorated
    )
    decorated = click.option("--collection", "-c", "collection_here", help="Collection to use.")(
        decorated
    )
    decorated = click.option(
        "--index-dir", "index_dir_here", help="Folder holding the collections."
    )(decorated)
    return cast(_F, decorated)
