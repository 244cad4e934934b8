"""Whether a collection or a code map may use AI, and with which model: opt-in, profile,
credential, build.

Everything that can stop a model from being asked is decided here, before any network: the
result is a ``ChatModel`` or the ``AIStatus`` that says why not. A collection and a code map opt
in the same way (``grk ai enable NAME`` / ``grk ai enable map:NAME``); a question that sends
evidence from both needs both to allow the same profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from groundkit.answer.credentials import KeyStore
from groundkit.answer.optin import AISettings, fallback_path
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.states import state_for
from groundkit.config import ProfileConfig, Settings, unknown_profile
from groundkit.errors import AIError, ErrorCode, GroundkitError

if TYPE_CHECKING:
    from groundkit.answer.chat import Transport
    from groundkit.answer.providers import Answerer, TransportFactory
    from groundkit.answer.providers.http import Endpoint

__all__ = ["MAP_PREFIX", "AIEnvironment", "AIScope", "enabled_profile", "resolve_chat"]

MAP_PREFIX = "map:"  # `grk ai enable map:NAME`: a code map, where a bare NAME is a collection


@dataclass(frozen=True, slots=True)
class AIScope:
    """Something whose evidence may go to a model: a collection or a code map, by its folder
    (the key of the opt-in file) and the name a person types."""

    folder: Path
    name: str
    kind: Literal["collection", "map"] = "collection"

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name!r}"

    @property
    def typed(self) -> str:
        """How `grk ai enable` names it."""
        return self.name if self.kind == "collection" else f"{MAP_PREFIX}{self.name}"


def _default_transport(config: ProfileConfig, endpoint: Endpoint) -> Transport:
    from groundkit.answer.providers.http import default_transport

    return default_transport(config, endpoint)


@dataclass
class AIEnvironment:
    """The process edges the answer path touches: keychain, opt-in file, HTTP transport."""

    keys: KeyStore = field(default_factory=KeyStore)
    ai_settings: AISettings | None = None  # None: the file in the user's config dir
    transport: TransportFactory = _default_transport
    environ: Mapping[str, str] | None = None

    def opt_ins(self) -> AISettings:
        if self.ai_settings is None:
            self.ai_settings = AISettings()
        return self.ai_settings


def enabled_profile(environment: AIEnvironment, collection_path: Path) -> str | None:
    """The profile this collection allows, or None (also when the opt-in file is unreadable)."""
    try:
        opt_in = environment.opt_ins().get(collection_path)
    except GroundkitError:
        return None
    return opt_in.profile if opt_in else None


def resolve_chat(
    settings: Settings,
    collection_path: Path,
    name: str,
    *,
    profile: str | None,
    environment: AIEnvironment,
    kind: Literal["collection", "map"] = "collection",
    also: Sequence[AIScope] = (),
) -> Answerer | AIStatus:
    """The model this collection (or, with ``kind="map"``, this code map) may ask, or why there
    is none. Each of ``also`` (a code map whose edges join a collection's passages) must allow
    the same profile, or AI is disabled for the whole question."""
    first = AIScope(collection_path, name, kind)
    try:
        opt_ins = environment.opt_ins()
        opt_in = opt_ins.get(collection_path)
    except GroundkitError as exc:  # platformdirs missing
        if exc.code == ErrorCode.MISSING_EXTRA and not _was_enabled(collection_path):
            return AIStatus(AIState.DISABLED, profile, error=_off(first, exc.hint))
        return AIStatus(state_for(exc), profile, error=exc)
    warning = opt_ins.warning
    if opt_in is None:
        return AIStatus(AIState.DISABLED, profile, error=_off(first), warning=warning)
    chosen = profile or opt_in.profile
    if profile is not None and profile not in settings.profiles:
        # Named but not configured: say so before suggesting that anything allow it.
        error = unknown_profile(profile, settings.profiles)
        return AIStatus(AIState.UNAVAILABLE, profile, error=error, warning=warning)
    for scope, allowed in [(first, opt_in), *((s, opt_ins.get(s.folder)) for s in also)]:
        if allowed is None:
            return AIStatus(AIState.DISABLED, chosen, error=_off(scope), warning=warning)
        if chosen != allowed.profile:
            other = AIError(
                ErrorCode.AI_DISABLED,
                f"{scope.label} allows AI only with profile {allowed.profile!r}",
                hint=f"run `grk ai enable {scope.typed} --profile {chosen}` to allow this one"
                " instead",
            )
            return AIStatus(AIState.DISABLED, chosen, error=other, warning=warning)
    config = settings.profiles.get(chosen)
    if config is None:
        error = unknown_profile(chosen, settings.profiles)
        return AIStatus(AIState.UNAVAILABLE, chosen, error=error, warning=warning)
    # The providers load only for a profile that is allowed: with AI off, `grk answer` imports
    # none of them (a third of its start-up, measured by benchmarks/reader_questions.py).
    from groundkit.answer.providers import build_chat
    from groundkit.answer.redact import build_patterns

    try:
        patterns = build_patterns(settings.answer.redact_patterns, settings.answer.redact_names)
        return build_chat(
            chosen,
            config,
            keys=environment.keys,
            patterns=patterns,
            transport=environment.transport,
            environ=environment.environ,
        )
    except GroundkitError as exc:
        return AIStatus(state_for(exc), chosen, config.provider, config.model, exc, warning)


def _was_enabled(folder: Path) -> bool:
    """Whether the opt-in file where platformdirs would keep it allows ``folder``: AI that was
    turned on before the ``ai`` extra went is unavailable for want of it, not off."""
    try:
        return AISettings(fallback_path()).get(folder) is not None
    except (GroundkitError, OSError, RuntimeError):  # RuntimeError: no home directory
        return False


def _off(scope: AIScope, install: str | None = None) -> AIError:
    """AI is off for ``scope``; ``install`` is the command that installs what turning it on
    needs, when that is missing too."""
    hint = f"turn it on with `grk ai enable {scope.typed} --profile NAME`"
    if install:
        hint = f"{hint}, after `{install}`"
    return AIError(ErrorCode.AI_DISABLED, f"AI is off for {scope.label}", hint=hint)
