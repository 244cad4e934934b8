"""Whether a collection may use AI, and with which model: opt-in, profile, credential, build.

Everything that can stop a model from being asked is decided here, before any network: the
result is a ``ChatModel`` or the ``AIStatus`` that says why not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from groundkit.answer.chat import ChatModel
from groundkit.answer.credentials import KeyStore
from groundkit.answer.factory import TransportFactory, build_chat
from groundkit.answer.http_chat import default_transport
from groundkit.answer.optin import AISettings
from groundkit.answer.redact import build_patterns
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import state_for
from groundkit.config import Settings
from groundkit.errors import AIError, ConfigError, ErrorCode, GroundkitError

__all__ = ["Runtime", "enabled_profile", "resolve_chat"]


@dataclass
class Runtime:
    """The process edges the answer path touches: keychain, opt-in file, HTTP transport."""

    keys: KeyStore = field(default_factory=KeyStore)
    ai_settings: AISettings | None = None  # None: the file in the user's config dir
    transport: TransportFactory = default_transport
    environ: Mapping[str, str] | None = None

    def opt_ins(self) -> AISettings:
        if self.ai_settings is None:
            self.ai_settings = AISettings()
        return self.ai_settings


def enabled_profile(runtime: Runtime, collection_path: Path) -> str | None:
    """The profile this collection allows, or None (also when the opt-in file is unreadable)."""
    try:
        opt_in = runtime.opt_ins().get(collection_path)
    except GroundkitError:
        return None
    return opt_in.profile if opt_in else None


def resolve_chat(
    settings: Settings, collection_path: Path, name: str, *, profile: str | None, runtime: Runtime
) -> ChatModel | AIStatus:
    """The model this collection may ask, or why there is none."""
    try:
        opt_ins = runtime.opt_ins()
        opt_in = opt_ins.get(collection_path)
    except GroundkitError as exc:  # platformdirs missing
        return AIStatus(state_for(exc), profile, error=exc)
    warning = opt_ins.warning
    error: GroundkitError
    if opt_in is None:
        error = AIError(
            ErrorCode.AI_DISABLED,
            f"AI is off for collection {name!r}",
            hint=f"turn it on with `grk ai enable {name} --profile NAME`",
        )
        return AIStatus(AIState.DISABLED, profile, error=error, warning=warning)
    chosen = profile or opt_in.profile
    if chosen != opt_in.profile:
        error = AIError(
            ErrorCode.AI_DISABLED,
            f"collection {name!r} allows AI only with profile {opt_in.profile!r}",
            hint=f"run `grk ai enable {name} --profile {chosen}` to allow this one instead",
        )
        return AIStatus(AIState.DISABLED, chosen, error=error, warning=warning)
    config = settings.profiles.get(chosen)
    if config is None:
        error = ConfigError(
            ErrorCode.AI_UNKNOWN_PROFILE,
            f"no profile {chosen!r} in the configuration",
            hint=f"add a [profiles.{chosen}] table to grk.toml",
        )
        return AIStatus(AIState.UNAVAILABLE, chosen, error=error, warning=warning)
    try:
        patterns = build_patterns(settings.answer.redact_patterns, settings.answer.redact_names)
        return build_chat(
            chosen,
            config,
            keys=runtime.keys,
            patterns=patterns,
            transport=runtime.transport,
            environ=runtime.environ,
        )
    except GroundkitError as exc:
        return AIStatus(state_for(exc), chosen, config.provider, config.model, exc, warning)
