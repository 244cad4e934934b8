"""The model providers, and the one registry that makes a profile a ``ChatModel``.

Each provider (``http`` is what the HTTP ones share) has one builder in ``PROVIDERS``, keyed by
the name a profile gives (``[profiles.NAME] provider = ...``): endpoint rules, credential and
transport are applied there; then ``build_chat`` wraps any model that is not local in redaction.
A builder makes an ``Answerer``: a ``ChatModel``, or ``Extractive``, which runs no model.
Nothing here falls back to another provider: a profile that cannot be built is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from groundkit.answer.chat import ChatModel, Transport
from groundkit.answer.credentials import KeyStore, read_key
from groundkit.answer.extractive import Answerer, Extractive
from groundkit.answer.providers.http import Endpoint, default_transport
from groundkit.answer.providers.llamacpp import LlamaCppChat
from groundkit.answer.providers.ollama import OLLAMA_URL, OllamaChat
from groundkit.answer.providers.openai_compat import (
    GROQ_MODEL,
    GROQ_URL,
    OpenAICompatibleChat,
    ResponseFormat,
)
from groundkit.answer.redact import RedactingChat, Shape
from groundkit.config import ProfileConfig
from groundkit.errors import ConfigError, ErrorCode
from groundkit.secret import Secret

__all__ = ["PROVIDERS", "Answerer", "Edges", "TransportFactory", "build_chat"]

TransportFactory = Callable[[ProfileConfig, Endpoint], Transport]


@dataclass(frozen=True, slots=True)
class Edges:
    """What a builder may reach outside the process: the keychain, the environment (a key
    named by ``api_key_env``) and the HTTP transport."""

    keys: KeyStore
    transport: TransportFactory
    environ: Mapping[str, str] | None

    def key(self, name: str, profile: ProfileConfig, *, required: bool) -> Secret | None:
        if not required and not profile.api_key_env:
            return None
        return read_key(name, profile.api_key_env, self.keys, self.environ)


Builder = Callable[[str, ProfileConfig, Edges], Answerer]


def _extractive(name: str, profile: ProfileConfig, edges: Edges) -> Answerer:
    return Extractive()


def _llamacpp(name: str, profile: ProfileConfig, edges: Edges) -> ChatModel:
    return LlamaCppChat(
        profile.model,
        max_tokens=profile.max_tokens,
        n_ctx=profile.n_ctx,
        n_threads=profile.n_threads,
    )


def _ollama(name: str, profile: ProfileConfig, edges: Edges) -> ChatModel:
    endpoint = Endpoint(profile.base_url or OLLAMA_URL, local=profile.local, profile=name)
    return OllamaChat(
        endpoint=endpoint,
        model=_model(name, profile),
        transport=edges.transport(profile, endpoint),
        key=edges.key(name, profile, required=False),
        max_tokens=profile.max_tokens,
    )


def _openai_compatible(name: str, profile: ProfileConfig, edges: Edges) -> ChatModel:
    if profile.base_url is None:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID, f"profile {name!r}: openai_compatible needs a base_url"
        )
    return _chat_completions(name, profile, edges, profile.base_url, _model(name, profile))


def _groq(name: str, profile: ProfileConfig, edges: Edges) -> ChatModel:
    """Groq's preset of the OpenAI-compatible API: its endpoint, a default model, and strict
    JSON schema output."""
    base, model = profile.base_url or GROQ_URL, profile.model or GROQ_MODEL
    return _chat_completions(name, profile, edges, base, model, response_format="json_schema")


def _chat_completions(
    name: str,
    profile: ProfileConfig,
    edges: Edges,
    base: str,
    model: str,
    *,
    response_format: ResponseFormat = "json_object",
) -> ChatModel:
    endpoint = Endpoint(base, local=profile.local, profile=name)
    return OpenAICompatibleChat(
        endpoint=endpoint,
        model=model,
        transport=edges.transport(profile, endpoint),
        key=edges.key(name, profile, required=not endpoint.local),
        response_format=profile.response_format or response_format,
        max_tokens=profile.max_tokens,
        provider=profile.provider,
    )


PROVIDERS: dict[str, Builder] = {
    "extractive": _extractive,
    "llamacpp": _llamacpp,
    "ollama": _ollama,
    "openai_compatible": _openai_compatible,
    "groq": _groq,
}


def build_chat(
    name: str,
    profile: ProfileConfig,
    *,
    keys: KeyStore,
    patterns: tuple[Shape, ...],
    transport: TransportFactory = default_transport,
    environ: Mapping[str, str] | None = None,
) -> Answerer:
    """The model for profile ``name`` (or the extractive answerer, which is none); off-machine
    ones are wrapped in ``RedactingChat``.

    Raises:
        ConfigError: a malformed endpoint, or local set on a remote one.
        AuthError: a required key is missing, denied, or the keychain is unavailable.
        GroundkitError: MISSING_EXTRA for llamacpp without its packages.
        AIError: AI_REDACTION_REQUIRED for a remote provider with no pattern.
    """
    chat = PROVIDERS[profile.provider](name, profile, Edges(keys, transport, environ))
    if isinstance(chat, Extractive) or chat.local:
        return chat
    return RedactingChat(chat, patterns)


def _model(name: str, profile: ProfileConfig) -> str:
    if not profile.model:
        raise ConfigError(ErrorCode.CONFIG_INVALID, f"profile {name!r} needs a model")
    return profile.model
