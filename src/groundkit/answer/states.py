"""What an answer's ``AIStatus`` says when something stops a model's answer from being shown."""

from __future__ import annotations

from groundkit.answer.report import AIState, AIStatus
from groundkit.errors import AIError, ConfigError, ErrorCode, GroundkitError

__all__ = ["cap_too_small", "cut_off", "degraded", "state_for", "status_of", "warned", "with_state"]


def state_for(error: GroundkitError) -> AIState:
    """The degraded state a failure to build or call a model leads to (``OUTCOMES``: by default
    unavailable, as for credentials, keychain, missing packages, redaction, config)."""
    return AIState(error.outcome.answer_state or AIState.UNAVAILABLE)


def status_of(provider: str, model: str, profile: str | None, state: AIState) -> AIStatus:
    return AIStatus(state, profile, provider, model)


def with_state(status: AIStatus, state: AIState) -> AIStatus:
    return AIStatus(
        state, status.profile, status.provider, status.model, status.error, status.warning
    )


def degraded(status: AIStatus, error: GroundkitError) -> AIStatus:
    return AIStatus(
        state_for(error), status.profile, status.provider, status.model, error, status.warning
    )


def warned(status: AIStatus, warning: str) -> AIStatus:
    return AIStatus(
        status.state, status.profile, status.provider, status.model, status.error, warning
    )


def cut_off(status: AIStatus, limit: int) -> AIError:
    where = f"[profiles.{status.profile}]" if status.profile else "the profile"
    return AIError(
        ErrorCode.AI_REPLY_CUT_OFF,
        f"the model's answer was refused: the reply was cut off at max_tokens={limit} before"
        " it was complete",
        hint=f"raise max_tokens in {where} in grk.toml, or send less evidence (--top-k)",
    )


def cap_too_small(cap: int, capped_by: str, profile: str | None) -> ConfigError:
    """No evidence fits ``cap``: the setting that set it is named (``capped_by``)."""
    if capped_by == "n_ctx":
        where = f"[profiles.{profile}]" if profile else "the profile"
        return ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"no retrieved passage fits the model's context ({cap} bytes of evidence)",
            hint=f"raise n_ctx (or lower max_tokens) in {where} in grk.toml, or use grk search"
            " to read the passages",
        )
    return ConfigError(
        ErrorCode.CONFIG_INVALID,
        f"no retrieved passage fits answer.max_bundle_bytes ({cap})",
        hint="raise answer.max_bundle_bytes in grk.toml, or use grk search to read the passages",
    )
