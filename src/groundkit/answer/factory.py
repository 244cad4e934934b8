"""A profile becomes a ``ChatModel``: endpoint rules, credential, transport, then redaction.

Nothing here falls back to another provider: a profile that cannot be built is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from groundkit.answer.chat import ChatModel, Transport
from groundkit.answer.credentials import KeyStore, read_key
from groundkit.answer.http_chat import Endpoint, default_transport
from groundkit.answer.redact import Pattern, RedactingChat
from groundkit.config import ProfileConfig
from groundkit.errors import ConfigError, ErrorCode
from groundkit.secret import Secret

__all__ = ["TransportFactory", "build_chat"]

TransportFactory = Callable[[ProfileConfig, Endpoint], Transport]


def build_chat(
    name: str,
    profile: ProfileConfig,
    *,
    keys: KeyStore,
    patterns: tuple[Pattern, ...],
    transport: TransportFactory = default_transport,
    environ: Mapping[str, str] | None = None,
) -> ChatModel:
    """The chat model for profile ``name``; off-machine ones are wrapped in ``RedactingChat``.

    Raises:
        ConfigError: a malformed endpoint, or local set on a remote one.
        AuthError: a required key is missing, denied, or the keychain is unavailable.
        GroundkitError: MISSING_EXTRA for llamacpp without its packages.
        AIError: AI_REDACTION_REQUIRED for a remote provider with no pattern.
    """
    chat: ChatModel
    if profile.provider == "llamacpp":
        from groundkit.answer.llamacpp import LlamaCppChat

        return LlamaCppChat(
            profile.model,
            max_tokens=profile.max_tokens,
            n_ctx=profile.n_ctx,
            n_threads=profile.n_threads,
        )
    if profile.provider == "ollama":
        from groundkit.answer.ollama import OLLAMA_URL, OllamaChat

        endpoint = Endpoint(profile.base_url or OLLAMA_URL, local=profile.local, profile=name)
        chat = OllamaChat(
            endpoint=endpoint,
            model=_model(name, profile),
            transport=transport(profile, endpoint),
            key=_key(name, profile, keys, environ, required=False),
            max_tokens=profile.max_tokens,
        )
    else:
        from groundkit.answer.openai_compat import GROQ_MODEL, GROQ_URL, OpenAICompatibleChat

        groq = profile.provider == "groq"
        base = profile.base_url or (GROQ_URL if groq else None)
        if base is None:
            raise ConfigError(
                ErrorCode.CONFIG_INVALID, f"profile {name!r}: openai_compatible needs a base_url"
            )
        endpoint = Endpoint(base, local=profile.local, profile=name)
        chat = OpenAICompatibleChat(
            endpoint=endpoint,
            model=profile.model or (GROQ_MODEL if groq else _model(name, profile)),
            transport=transport(profile, endpoint),
            key=_key(name, profile, keys, environ, required=not endpoint.local),
            response_format=profile.response_format or ("json_schema" if groq else "json_object"),
            max_tokens=profile.max_tokens,
            provider=profile.provider,
        )
    return chat if chat.local else RedactingChat(chat, patterns)


def _model(name: str, profile: ProfileConfig) -> str:
    if not profile.model:
        raise ConfigError(ErrorCode.CONFIG_INVALID, f"profile {name!r} needs a model")
    return profile.model


def _key(
    name: str,
    profile: ProfileConfig,
    keys: KeyStore,
    environ: Mapping[str, str] | None,
    *,
    required: bool,
) -> Secret | None:
    if not required and not profile.api_key_env:
        return None
    return read_key(name, profile.api_key_env, keys, environ)
