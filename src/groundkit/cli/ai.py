"""`grk ai enable|disable|status`: which collections may use AI, and with which profile."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from groundkit.cli.context import Context, pass_ctx
from groundkit.errors import ConfigError, ErrorCode

if TYPE_CHECKING:
    from groundkit.answer.optin import AISettings

__all__ = ["ai_group"]


def _runtime_settings() -> AISettings:
    from groundkit.cli.answer import make_runtime

    return make_runtime().opt_ins()


@click.group("ai")
def ai_group() -> None:
    """Turn AI answers on or off per collection (off by default)."""


@ai_group.command("enable")
@click.argument("collection")
@click.option("--profile", required=True, help="The [profiles.NAME] this collection may use.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def enable(obj: Context, collection: str, profile: str, as_json: bool) -> None:
    """Allow COLLECTION to send evidence to the model of PROFILE."""
    from groundkit.answer.logguard import install_log_guard

    install_log_guard()
    settings = obj.settings({"collection": collection}).settings
    if profile not in settings.profiles:
        raise ConfigError(
            ErrorCode.AI_UNKNOWN_PROFILE,
            f"no profile {profile!r} in the configuration",
            hint=f"add a [profiles.{profile}] table to grk.toml first",
        )
    with obj.open(more={"collection": collection}) as opened:
        _runtime_settings().enable(opened.path, profile)
        name = opened.name
    _say(
        {"collection": name, "ai": "enabled", "profile": profile},
        as_json,
        f"AI enabled for {name!r} with profile {profile!r}",
    )


@ai_group.command("disable")
@click.argument("collection")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def disable(obj: Context, collection: str, as_json: bool) -> None:
    """Stop COLLECTION from using AI."""
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
    """Every collection that allows AI, and its profile."""
    opt_ins = _runtime_settings()
    entries = opt_ins.load()
    if as_json:
        click.echo(json.dumps({"enabled": entries, "warning": opt_ins.warning}))
        return
    if opt_ins.warning:
        click.echo(f"warning: {opt_ins.warning}", err=True)
    if not entries:
        click.echo("AI is off for every collection")
    for path, profile in entries.items():
        click.echo(f"{path}  profile={profile}")


def _say(data: dict[str, object], as_json: bool, text: str) -> None:
    click.echo(json.dumps(data) if as_json else text)
