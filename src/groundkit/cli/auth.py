"""`grk auth set|status|delete PROFILE`: provider keys in the OS keychain.

``set`` reads the key from a hidden prompt, or from stdin when stdin is not a terminal; never
from the command line, where it would land in shell history and process listings.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from groundkit.cli.context import Context, pass_ctx
from groundkit.config import unknown_profile
from groundkit.errors import ErrorCode, UsageError

if TYPE_CHECKING:
    from groundkit.answer.credentials import KeyStore

__all__ = ["auth_group"]


_CLUSTER = "qdrant:"  # the keychain entry of a Qdrant collection's cluster key: qdrant:NAME


def _known(obj: Context, profile: str) -> bool:
    """A provider profile of grk.toml, or ``qdrant:NAME`` for a collection it places on Qdrant."""
    settings = obj.settings().settings
    if profile.startswith(_CLUSTER):
        return settings.collection_config(profile[len(_CLUSTER) :]).backend == "qdrant"
    return profile in settings.profiles


def _keys() -> KeyStore:
    from groundkit.answer.logguard import install_log_guard
    from groundkit.cli.answer import make_ai_environment

    install_log_guard()
    return make_ai_environment().keys


@click.group("auth")
def auth_group() -> None:
    """Store, check or remove a provider profile's key in the OS keychain."""


@auth_group.command(
    "set", context_settings={"ignore_unknown_options": True, "allow_extra_args": True}
)
@click.argument("profile")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def set_key(obj: Context, profile: str, as_json: bool) -> None:
    """Store PROFILE's key, read from a hidden prompt or from stdin (``qdrant:NAME``: the key of
    the Qdrant cluster collection NAME lives on, read when its table says keychain = true)."""
    if click.get_current_context().args:
        # Refused without echoing: the extra word is probably the key itself.
        raise UsageError(
            ErrorCode.USAGE,
            "grk auth set takes only the profile name: the key is never read from the command line",
            hint=f"run `grk auth set {profile}` and type the key, or pipe it on stdin",
        )
    if not _known(obj, profile):
        from groundkit.answer.logguard import scrub

        shown = scrub(profile)  # the key itself, typed where the profile name goes
        raise unknown_profile(shown, obj.settings().settings.profiles)
    if sys.stdin is not None and sys.stdin.isatty():
        key = click.prompt(f"key for {profile}", hide_input=True, err=True)
    else:
        key = sys.stdin.readline() if sys.stdin is not None else ""
    key = key.strip()
    if not key:
        raise UsageError(ErrorCode.USAGE, "no key was given", hint="type it, or pipe it on stdin")
    _keys().set(profile, key)
    click.echo(json.dumps({"profile": profile, "key": "stored"}) if as_json else "stored")


@auth_group.command("status")
@click.argument("profile")
@click.option("--json", "as_json", is_flag=True)
def status(profile: str, as_json: bool) -> None:
    """Whether a key is stored for PROFILE: stored, missing, denied or unavailable."""
    state = _keys().status(profile)
    click.echo(json.dumps({"profile": profile, "key": state}) if as_json else state)


@auth_group.command("delete")
@click.argument("profile")
@click.option("--json", "as_json", is_flag=True)
def delete(profile: str, as_json: bool) -> None:
    """Remove PROFILE's key from the keychain."""
    removed = _keys().delete(profile)
    if as_json:
        click.echo(json.dumps({"profile": profile, "deleted": removed}))
    else:
        click.echo("deleted" if removed else "no key was stored")
