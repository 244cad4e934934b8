"""Settings: defaults < ``grk.toml`` < ``GRK_*`` environment variables < command-line flags.

Every key is dotted (``chunk.size``); its environment name is ``GRK_`` plus the key upper-cased
with dots as underscores (``GRK_CHUNK_SIZE``). An unknown key in any layer is an error naming it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from groundkit.errors import ConfigError, ErrorCode

__all__ = [
    "AnswerConfig",
    "ChunkConfig",
    "CodemapConfig",
    "EmbedConfig",
    "IngestConfig",
    "LoadedSettings",
    "ProfileConfig",
    "RerankConfig",
    "SearchConfig",
    "ServeConfig",
    "Settings",
    "load",
]

CONFIG_FILE = "grk.toml"
_CONFIG_ENV = "GRK_CONFIG"  # names the config file; not itself a setting


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class ChunkConfig(_Frozen):
    size: int = Field(1000, ge=50, le=100_000, description="Most characters in one chunk.")
    min_size: int = Field(
        200,
        ge=0,
        description="Chunks shorter than this merge into a neighbour when they fit"
        " (default: 200, or a fifth of chunk.size when that is smaller).",
    )

    @model_validator(mode="before")
    @classmethod
    def _scale_default_min(cls, data: Any) -> Any:
        # An unset min_size follows the size down, so that `--chunk-size 100` alone is valid.
        if isinstance(data, dict) and "min_size" not in data:
            size = data.get("size", 1000)
            if isinstance(size, int):
                return {**data, "min_size": min(200, size // 5)}
        return data

    @model_validator(mode="after")
    def _min_fits(self) -> ChunkConfig:
        if self.min_size > self.size:
            raise ValueError("chunk.min_size must not exceed chunk.size")
        return self


class IngestConfig(_Frozen):
    dense: bool = Field(False, description="Also embed every chunk (turns dense search on).")
    max_file_bytes: int = Field(50_000_000, ge=1, description="Larger files are skipped.")
    url_max_bytes: int = Field(20_000_000, ge=1, description="Larger URL bodies are refused.")
    url_timeout_s: float = Field(20.0, gt=0, le=600, description="Total time for one URL fetch.")


class SearchConfig(_Frozen):
    top_k: int = Field(10, ge=1, le=1000, description="Hits returned by default.")
    snippet_chars: int = Field(240, ge=40, le=4000, description="Length of a hit's snippet.")
    mode: Literal["auto", "bm25", "dense", "hybrid"] = Field(
        "auto", description="auto: hybrid when the collection has vectors, else bm25."
    )
    rrf_k: int = Field(60, ge=1, le=10_000, description="Reciprocal-rank fusion constant.")
    candidates: int = Field(
        100, ge=1, le=10_000, description="Hits fetched from each arm before fusion or rerank."
    )
    min_similarity: float | None = Field(
        None,
        ge=-1,
        le=1,
        description="Abstain (return nothing) when the best dense similarity is below this.",
    )
    rerank: bool = Field(False, description="Rerank the fused candidates with rerank.model.")
    ann_threshold: int | None = Field(
        100_000,
        ge=1,
        description="Live vectors from which an HNSW index answers dense queries (None: never).",
    )


class EmbedConfig(_Frozen):
    provider: Literal["local", "ollama", "openai"] = Field(
        "local", description="local: a model in-process; ollama or openai: an HTTP endpoint."
    )
    model: str = Field(
        "all-MiniLM-L6-v2",
        description="A model name the provider knows, an installed package, or a local path.",
    )
    runtime: Literal["onnx", "sentence-transformers"] = Field(
        "onnx", description="How a local model runs: ONNX (light) or PyTorch."
    )
    query_prefix: str = Field("", description="Put before every query (e5-style models).")
    document_prefix: str = Field("", description="Put before every passage.")
    base_url: str | None = Field(None, description="Endpoint of an HTTP provider.")
    api_key_env: str | None = Field(
        None, description="Name of the environment variable holding the API key (never the key)."
    )
    batch_size: int = Field(32, ge=1, le=2048, description="Texts per embedding request.")
    timeout_s: float = Field(60.0, gt=0, le=3600, description="Per-request timeout.")


class RerankConfig(_Frozen):
    model: str | None = Field(
        None, description="A cross-encoder: a local path or an installed package. None: off."
    )
    top_n: int = Field(50, ge=1, le=1000, description="Fused candidates the reranker rescores.")


class ProfileConfig(_Frozen):
    """One language-model provider profile: ``[profiles.NAME]`` in grk.toml. Never a key."""

    provider: Literal["openai_compatible", "groq", "ollama", "llamacpp"] = Field(
        description="openai_compatible (any /chat/completions server), groq (its preset),"
        " ollama (/api/chat) or llamacpp (a GGUF model in process)."
    )
    base_url: str | None = Field(None, description="Endpoint (groq and ollama have defaults).")
    model: str | None = Field(
        None, description="Model name, or for llamacpp a .gguf path (default: the SmolLM2 package)."
    )
    local: bool = Field(
        False, description="The endpoint is on this machine (loopback): no redaction, http allowed."
    )
    api_key_env: str | None = Field(
        None, description="Name of the environment variable holding the key (else the keychain)."
    )
    response_format: Literal["json_schema", "json_object", "text"] | None = Field(
        None,
        description="What an openai_compatible endpoint supports (default json_schema for groq,"
        " json_object otherwise); our validation is the gate in every case.",
    )
    timeout_s: float = Field(60.0, gt=0, le=3600, description="Total time for one request.")
    connect_timeout_s: float = Field(10.0, gt=0, le=600, description="Time to connect.")
    max_tokens: int = Field(1024, ge=16, le=65_536, description="Most tokens in one reply.")

    @model_validator(mode="before")
    @classmethod
    def _no_inline_key(cls, data: Any) -> Any:
        # A key written into grk.toml ends up in backups and commits: refuse it by name.
        if isinstance(data, dict) and ({"api_key", "key", "token"} & set(data)):
            raise ValueError(
                "a key may not be written in grk.toml: name its environment variable in"
                " api_key_env, or store it with `grk auth set PROFILE`"
            )
        return data


class AnswerConfig(_Frozen):
    max_bundle_bytes: int = Field(
        24_000, ge=500, le=2_000_000, description="Cap on the serialised evidence sent to a model."
    )
    redact_patterns: list[str] = Field(
        [], description="Extra regular expressions whose matches are redacted before sending."
    )
    redact_names: list[str] = Field(
        [], description="Literal names (people, projects) redacted before sending."
    )


class ServeConfig(_Frozen):
    host: str = Field(
        "127.0.0.1", description="Address `grk serve` binds; non-loopback needs --allow-remote."
    )
    port: int = Field(8765, ge=1, le=65535, description="Port `grk serve` listens on.")
    secret_env: str = Field(
        "GROUNDKIT_SERVE_SECRET",
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="Name of the environment variable holding the shared secret (never the"
        " secret). Unset or empty: the mutating routes and tools do not exist.",
    )
    public_host: str | None = Field(
        None, description="A further Host name clients use to reach the server (e.g. a proxy)."
    )
    max_body_bytes: int = Field(
        1_048_576, ge=1024, le=1_073_741_824, description="Larger request bodies get 413."
    )
    max_concurrent: int = Field(
        64, ge=1, le=10_000, description="Requests served at once; more get 503 at once."
    )
    ingest_roots: list[str] = Field(
        [],
        description="Folders a client of `grk serve` / `grk serve-mcp` may make the server ingest"
        " (symlinks and .. resolved first). Empty: path ingest over REST/MCP is refused; URLs"
        " still work.",
    )

    @model_validator(mode="after")
    def _secret_env_outside_settings(self) -> ServeConfig:
        # GRK_* names are settings, and an unknown one is an error: the secret cannot live there.
        if self.secret_env.upper().startswith("GRK_"):
            raise ValueError("serve.secret_env must not start with GRK_ (those names are settings)")
        return self


class CodemapConfig(_Frozen):
    max_file_bytes: int = Field(
        2_000_000, ge=1, description="Larger source files are skipped by `grk map`."
    )


class Settings(_Frozen):
    index_dir: str = Field(".groundkit", description="Folder holding every collection.")
    collection: str = Field("default", description="Collection used when none is named.")
    chunk: ChunkConfig = ChunkConfig()
    ingest: IngestConfig = IngestConfig()
    search: SearchConfig = SearchConfig()
    embed: EmbedConfig = EmbedConfig()
    rerank: RerankConfig = RerankConfig()
    answer: AnswerConfig = AnswerConfig()
    profiles: dict[str, ProfileConfig] = Field(
        {}, description="Language-model provider profiles, [profiles.NAME] in grk.toml."
    )
    serve: ServeConfig = ServeConfig()
    codemap: CodemapConfig = CodemapConfig()


def _leaf_types(model: type[BaseModel], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        ann = info.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            out.update(_leaf_types(ann, f"{prefix}{name}."))
        else:
            out[f"{prefix}{name}"] = ann
    return out


KEYS: dict[str, Any] = _leaf_types(Settings)
ENV_NAMES: dict[str, str] = {"GRK_" + k.upper().replace(".", "_"): k for k in KEYS}


@dataclass(frozen=True, slots=True)
class LoadedSettings:
    settings: Settings
    sources: dict[str, str]  # key -> "default" | "grk.toml" | "env GRK_X" | "flag --x"

    def rows(self) -> list[tuple[str, Any, str]]:
        flat = _flatten(self.settings.model_dump())
        return [(key, flat[key], self.sources[key]) for key in KEYS]


def load(
    flags: Mapping[str, Any] | None = None,
    *,
    config_file: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> LoadedSettings:
    """Resolve every layer once. Raises ``ConfigError`` naming the offending key."""
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    sources: dict[str, str] = dict.fromkeys(KEYS, "default")

    path, explicit = _config_path(config_file, env)
    if path is not None and (explicit or path.is_file()):
        for key, value in _read_file(path).items():
            values[key] = _check(key, value, f"{path.name}", strings=False)
            sources[key] = path.name
    for name, raw in env.items():
        if not name.startswith("GRK_") or name == _CONFIG_ENV:
            continue
        if name not in ENV_NAMES:
            raise ConfigError(
                ErrorCode.CONFIG_UNKNOWN_KEY,
                f"unknown environment variable {name}",
                hint="known: " + ", ".join(sorted(ENV_NAMES)),
            )
        key = ENV_NAMES[name]
        values[key] = _check(key, raw, f"env {name}", strings=True)
        sources[key] = f"env {name}"
    for key, value in (flags or {}).items():
        if value is None:
            continue
        if key not in KEYS:
            raise ConfigError(ErrorCode.CONFIG_UNKNOWN_KEY, f"unknown setting {key!r}")
        values[key] = _check(key, value, "flag", strings=False)
        sources[key] = "flag"
    try:
        settings = Settings.model_validate(_nest(values))
    except ValidationError as exc:
        raise ConfigError(ErrorCode.CONFIG_INVALID, _describe(exc)) from None
    return LoadedSettings(settings, sources)


def _config_path(config_file: str | None, env: Mapping[str, str]) -> tuple[Path | None, bool]:
    if config_file:
        return Path(config_file), True
    if env.get(_CONFIG_ENV):
        return Path(env[_CONFIG_ENV]), True
    return Path(CONFIG_FILE), False


def _read_file(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            ErrorCode.CONFIG_FILE, f"cannot read config file {path.name} ({exc.strerror})"
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            ErrorCode.CONFIG_FILE, f"config file {path.name} is not valid TOML ({exc})"
        ) from None
    flat = _flatten(data)
    for key in flat:
        if key not in KEYS:
            raise ConfigError(
                ErrorCode.CONFIG_UNKNOWN_KEY,
                f"unknown key {key!r} in {path.name}",
                hint="run `grk config show` to list the keys",
            )
    return flat


def _check(key: str, value: Any, origin: str, *, strings: bool) -> Any:
    adapter: TypeAdapter[Any] = TypeAdapter(KEYS[key])
    try:
        if strings:
            return adapter.validate_strings(value, strict=False)
        if isinstance(value, int) and not isinstance(value, bool) and KEYS[key] is float:
            return float(value)
        return adapter.validate_python(value, strict=True)
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"]
        raise ConfigError(
            ErrorCode.CONFIG_INVALID, f"invalid value for {key} (from {origin}): {reason}"
        ) from None


def _describe(exc: ValidationError) -> str:
    err = exc.errors()[0]
    key = ".".join(str(p) for p in err["loc"])
    return f"invalid value for {key or 'settings'}: {err['msg']}"


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in data.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping) and key not in KEYS:
            out.update(_flatten(value, key + "."))
        else:
            out[key] = value
    return out


def _nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in flat.items():
        *parents, leaf = key.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out
