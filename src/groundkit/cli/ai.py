"""`grk ai enable|disable|status`: which collections and code maps may use AI, with which profile.

A bare NAME is a collection; ``map:NAME`` is a code map (`grk ask`, `grk answer --with-code`).
Both are kept in the same opt-in file, by folder.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import click

from groundkit.cli.context import Context, pass_ctx
from groundkit.config import unknown_profile
from groundkit.errors import ErrorCode, GroundkitError, NotFoundError

if TYPE_CHECKING:
    from groundkit.answer.optin import AISettings

_MAP = "map:"  # groundkit.answer.access.MAP_PREFIX, spelled here so that --help stays light

__all__ = ["ai_group"]


def _runtime_settings() -> AISettings:
    from groundkit.cli.answer import make_ai_environment

    return make_ai_environment().opt_ins()


@click.group("ai")
def ai_group() -> None:
    """Turn AI answers on or off per collection or code map (off by default).

    NAME is a collection; map:NAME is a code map.
    """


@ai_group.command("enable")
@click.argument("collection", metavar="NAME")
@click.option("--profile", required=True, help="The [profiles.NAME] it may use.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def enable(obj: Context, collection: str, profile: str, as_json: bool) -> None:
    """Allow collection NAME (or code map map:NAME) to send evidence to PROFILE's model."""
    from groundkit.answer.logguard import install_log_guard

    install_log_guard()
    if collection.startswith(_MAP):
        settings = obj.settings().settings
        _check_profile(settings.profiles, profile)
        from groundkit.ops.codemap import summary

        found = summary(settings, collection[len(_MAP) :])
        _runtime_settings().enable(found.folder, profile)
        name = found.name
        _say(
            {"map": name, "ai": "enabled", "profile": profile},
            as_json,
            f"AI enabled for map {name!r} with profile {profile!r}",
        )
        return
    settings = obj.settings({"collection": collection}).settings
    _check_profile(settings.profiles, profile)
    from groundkit.ops import collections as ops  # loaded with the command

    try:
        with obj.collections({"collection": collection}) as local:
            _runtime_settings().enable(ops.folder_of(local), profile)
            name = local.settings.collection
    except NotFoundError as exc:
        raise _maybe_a_map(exc, settings.index_dir, collection) from None
    _say(
        {"collection": name, "ai": "enabled", "profile": profile},
        as_json,
        f"AI enabled for {name!r} with profile {profile!r}",
    )


def _check_profile(profiles: Mapping[str, object], profile: str) -> None:
    if profile not in profiles:
        raise unknown_profile(profile, profiles)


def _maybe_a_map(exc: NotFoundError, index_dir: str, name: str) -> GroundkitError:
    """A collection that is not there but a code map of that name is: say how to name it."""
    from groundkit.codemap.api import list_codemaps

    if exc.code != ErrorCode.COLLECTION_NOT_FOUND or name not in list_codemaps(index_dir):
        return exc
    return NotFoundError(exc.code, exc.message, hint=f"for the code map, name it {_MAP}{name}")


@ai_group.command("disable")
@click.argument("collection", metavar="NAME")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def disable(obj: Context, collection: str, as_json: bool) -> None:
    """Stop collection NAME (or code map map:NAME) from using AI."""
    if collection.startswith(_MAP):
        from groundkit.codemap.api import map_dir

        name = collection[len(_MAP) :]
        # Disabling works even for a map that is gone: it is not opened.
        removed = _runtime_settings().disable(map_dir(obj.settings().settings.index_dir, name))
        _say(
            {"map": name, "ai": "disabled", "was_enabled": removed},
            as_json,
            f"AI disabled for map {name!r}" + ("" if removed else " (it was not enabled)"),
        )
        return
    settings = obj.settings({"collection": collection}).settings
    # Disabling works even for a collection that is gone: it is not opened.
    path = Path(settings.index_dir) / collection
    removed = _runtime_settings().disable(path)
    _say(
        {"collection": collection, "ai": "disabled", "was_enabled": removed},
        as_json,
        f"AI disabled for {collection!r}" + ("" if removed else " (it was not enabled)"),
    )


@ai_group.command("status")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def status(obj: Context, as_json: bool) -> None:
    """Every collection and code map that allows AI, and its profile."""
    opt_ins = _runtime_settings()
    entries = opt_ins.load()
    if as_json:
        click.echo(json.dumps({"enabled": entries, "warning": opt_ins.warning}))
        return
    if opt_ins.warning:
        click.echo(f"warning: {opt_ins.warning}", err=True)
    if not entries:
        click.echo("AI is off for every collection and code map")
    for path, profile in entries.items():
        kind = "map" if Path(path).parent.name == "_maps" else "collection"
        click.echo(f"{kind:<10}  {path}  profile={profile}")


def _say(data: dict[str, object], as_json: bool, text: str) -> None:
    click.echo(json.dumps(data) if as_json else text)
