"""Settings: defaults < ``grk.toml`` < ``GRK_*`` environment variables < command-line flags.

Every key is dotted (``chunk.size``); its environment name is ``GRK_`` plus the key upper-cased
with dots as underscores (``GRK_CHUNK_SIZE``). An unknown key in any layer is an error naming it.

The sections are frozen ``msgspec`` structs: validating them costs microseconds and importing
them milliseconds, so that every ``grk`` command starts quickly (pydantic models took a quarter
of a second to build on each start).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Self, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta

from groundkit.errors import ConfigError, ErrorCode
from groundkit.source_files import Unread, Why, read_regular
from groundkit.types import SearchMode

__all__ = [
    "KEYS",
    "AnswerConfig",
    "ChunkConfig",
    "CodemapConfig",
    "CollectionConfig",
    "EmbedConfig",
    "IngestConfig",
    "LoadedSettings",
    "ProfileConfig",
    "RerankConfig",
    "SearchConfig",
    "ServeConfig",
    "Settings",
    "describe",
    "load",
    "parse_settings",
    "unknown_profile",
]

CONFIG_FILE = "grk.toml"
_CONFIG_ENV = "GRK_CONFIG"  # names the config file; not itself a setting
# GRK_TEST_*: read by opt-in test suites (GRK_TEST_QDRANT_URL), never settings.
_TEST_ENV = "GRK_TEST_"


class _Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Self:
        """Validate one section given as plain data. Raises ``ConfigError``."""
        try:
            return msgspec.convert(data, cls, strict=True)
        except (msgspec.ValidationError, ValueError) as exc:
            raise ConfigError(ErrorCode.CONFIG_INVALID, _reason(exc)) from None

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (not validated: use ``parse_settings`` for input)."""
        return msgspec.structs.replace(self, **changes)


def _d(text: str, **limits: Any) -> Meta:
    return Meta(description=text, **limits)


_SCALED = -1  # chunk.min_size left unset: follows chunk.size down


class ChunkConfig(_Section, frozen=True):
    size: Annotated[int, _d("Most characters in one chunk.", ge=50, le=100_000)] = 1000
    min_size: Annotated[
        int,
        _d(
            "Chunks shorter than this merge into a neighbour when they fit"
            " (default: 200, or a fifth of chunk.size when that is smaller).",
            ge=0,
        ),
    ] = _SCALED

    def __post_init__(self) -> None:
        # An unset min_size follows the size down, so that `--chunk-size 100` alone is valid.
        if self.min_size == _SCALED:
            msgspec.structs.force_setattr(self, "min_size", min(200, self.size // 5))
        if self.min_size > self.size:
            raise ValueError("chunk.min_size must not exceed chunk.size")


class IngestConfig(_Section, frozen=True):
    dense: Annotated[bool, _d("Also embed every chunk (turns dense search on).")] = False
    sentences: Annotated[
        bool,
        _d(
            "With dense: also embed each chunk's quotable sentences, so `grk answer` embeds none"
            " while its reader waits (about 0.7x more embedding at ingest).",
        ),
    ] = False
    max_file_bytes: Annotated[int, _d("Larger files are skipped.", ge=1)] = 50_000_000
    url_max_bytes: Annotated[int, _d("Larger URL bodies are refused.", ge=1)] = 20_000_000
    url_timeout_s: Annotated[float, _d("Total time for one URL fetch.", gt=0, le=600)] = 20.0
    helpers: Annotated[
        int,
        _d(
            "Processes that read, chunk and fingerprint files beside the one writing the store:"
            " -1 picks by the machine's cores, the run's size and, on two cores, what making"
            " its files costs (docs/ingest.md), 0 none.",
            ge=-1,
            le=64,
        ),
    ] = -1


class SearchConfig(_Section, frozen=True):
    top_k: Annotated[int, _d("Hits returned by default.", ge=1, le=1000)] = 10
    snippet_chars: Annotated[int, _d("Length of a hit's snippet.", ge=40, le=4000)] = 240
    mode: Annotated[SearchMode, _d("auto: hybrid when the collection has vectors, else bm25.")] = (
        SearchMode.AUTO
    )
    rrf_k: Annotated[int, _d("Reciprocal-rank fusion constant.", ge=1, le=10_000)] = 60
    candidates: Annotated[
        int, _d("Hits fetched from each arm before fusion or rerank.", ge=1, le=10_000)
    ] = 100
    min_similarity: (
        Annotated[
            float,
            _d(
                "Abstain (return nothing) when the best dense similarity is below this.",
                ge=-1,
                le=1,
            ),
        ]
        | None
    ) = None
    rerank: Annotated[bool, _d("Rerank the fused candidates with rerank.model.")] = False
    collapse: Annotated[
        bool,
        _d(
            "Fold near-duplicate hits (the same passage stored twice, say as .md and .html)"
            " into the best of them."
        ),
    ] = True
    ann_threshold: (
        Annotated[
            int,
            _d("Live vectors from which an HNSW index answers dense queries (None: never).", ge=1),
        ]
        | None
    ) = 100_000


class EmbedConfig(_Section, frozen=True):
    provider: Annotated[
        Literal["local", "ollama", "openai"],
        _d("local: a model in-process; ollama or openai: an HTTP endpoint."),
    ] = "local"
    model: Annotated[
        str, _d("A model name the provider knows, an installed package, or a local path.")
    ] = "all-MiniLM-L6-v2"
    runtime: Annotated[
        Literal["onnx", "sentence-transformers"], _d("How a local model runs: ONNX or PyTorch.")
    ] = "onnx"
    query_prefix: Annotated[str, _d("Put before every query (e5-style models).")] = ""
    document_prefix: Annotated[str, _d("Put before every passage.")] = ""
    base_url: Annotated[str | None, _d("Endpoint of an HTTP provider.")] = None
    api_key_env: Annotated[
        str | None,
        _d("Name of the environment variable holding the API key (never the key)."),
    ] = None
    batch_size: Annotated[int, _d("Texts per embedding request.", ge=1, le=2048)] = 32
    timeout_s: Annotated[float, _d("Per-request timeout.", gt=0, le=3600)] = 60.0


class RerankConfig(_Section, frozen=True):
    model: Annotated[
        str | None, _d("A cross-encoder: a local path or an installed package. None: off.")
    ] = None
    top_n: Annotated[int, _d("Fused candidates the reranker rescores.", ge=1, le=1000)] = 50


_INLINE_KEYS = frozenset({"api_key", "key", "token"})
_TABLES = frozenset({"profiles", "collections"})  # tables of tables, keyed by the user's names


# How much a model writes: prose with any quote, checked afterwards (free); prose with quotes
# the schema lists (constrained); or only the numbers of the sentences that answer (pick).
QuoteMode = Literal["constrained", "free", "pick"]


class ProfileConfig(_Section, frozen=True):
    """One language-model provider profile: ``[profiles.NAME]`` in grk.toml. Never a key."""

    provider: Annotated[
        Literal["openai_compatible", "groq", "ollama", "llamacpp", "extractive"],
        _d(
            "openai_compatible (any /chat/completions server), groq (its preset),"
            " ollama (/api/chat), llamacpp (a GGUF model in process) or extractive (no model:"
            " the evidence's sentences that best match the question)."
        ),
    ]
    base_url: Annotated[str | None, _d("Endpoint (groq and ollama have defaults).")] = None
    model: Annotated[
        str | None,
        _d("Model name, or for llamacpp a .gguf path (default: the SmolLM2 package)."),
    ] = None
    local: Annotated[
        bool, _d("The endpoint is on this machine (loopback): no redaction, http allowed.")
    ] = False
    api_key_env: Annotated[
        str | None, _d("Name of the environment variable holding the key (else the keychain).")
    ] = None
    response_format: Annotated[
        Literal["json_schema", "json_object", "text"] | None,
        _d(
            "What an openai_compatible endpoint supports (default json_schema for groq,"
            " json_object otherwise); our validation is the gate in every case."
        ),
    ] = None
    timeout_s: Annotated[float, _d("Total time for one request.", gt=0, le=3600)] = 60.0
    connect_timeout_s: Annotated[float, _d("Time to connect.", gt=0, le=600)] = 10.0
    max_tokens: Annotated[int, _d("Most tokens in one reply.", ge=16, le=65_536)] = 1024
    quotes: Annotated[
        QuoteMode | None,
        _d(
            "pick: the model only picks sentences of the evidence by number, and the answer is"
            " those sentences; constrained: it writes prose, and the response schema lists the"
            " exact spans a citation may quote; free: prose with any quote, checked afterwards"
            " (default: pick for llamacpp, constrained for other local profiles, free"
            " otherwise). The citation check is the same in all three."
        ),
    ] = None
    n_ctx: Annotated[int, _d("llamacpp: context window in tokens.", ge=512, le=131_072)] = 4096
    n_threads: (
        Annotated[int, _d("llamacpp: CPU threads (default: the cores, at most 4).", ge=1, le=256)]
        | None
    ) = None


def unknown_profile(name: str, known: Iterable[str]) -> ConfigError:
    """``ai.unknown_profile``: no ``[profiles.NAME]`` in the configuration. The hint names the
    profiles there are, so a typo (``grok`` for ``groq``) shows, and says how to add one."""
    names = sorted(known)
    there = f"the profiles configured are {', '.join(names)}" if names else "none is configured"
    return ConfigError(
        ErrorCode.AI_UNKNOWN_PROFILE,
        f"no profile {name!r} in the configuration",
        hint=f"{there}; add a [profiles.{name}] table to grk.toml for a new one",
    )


class AnswerConfig(_Section, frozen=True):
    max_bundle_bytes: Annotated[
        int, _d("Cap on the serialised evidence sent to a model.", ge=500, le=2_000_000)
    ] = 24_000
    redact_patterns: Annotated[
        list[str], _d("Extra regular expressions whose matches are redacted before sending.")
    ] = []
    redact_names: Annotated[
        list[str], _d("Literal names (people, projects) redacted before sending.")
    ] = []
    min_quote_chars: Annotated[
        int,
        _d("Shortest quote a citation may have (shorter ones refuse the answer).", ge=1, le=1000),
    ] = 16


class ServeConfig(_Section, frozen=True):
    host: Annotated[str, _d("Address `grk serve` binds; non-loopback needs --allow-remote.")] = (
        "127.0.0.1"
    )
    port: Annotated[int, _d("Port `grk serve` listens on.", ge=1, le=65535)] = 8765
    secret_env: Annotated[
        str,
        _d(
            "Name of the environment variable holding the shared secret (never the secret)."
            " Unset or empty: the mutating routes and tools do not exist.",
            pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        ),
    ] = "GROUNDKIT_SERVE_SECRET"  # noqa: S105 (the name of a variable, not a secret)
    public_host: Annotated[
        str | None, _d("A further Host name clients use to reach the server (e.g. a proxy).")
    ] = None
    max_body_bytes: Annotated[
        int, _d("Larger request bodies get 413.", ge=1024, le=1_073_741_824)
    ] = 1_048_576
    max_concurrent: Annotated[
        int, _d("Requests served at once; more get 503 at once.", ge=1, le=10_000)
    ] = 64
    ingest_roots: Annotated[
        list[str],
        _d(
            "Folders a client of `grk serve` / `grk serve-mcp` may make the server ingest"
            " (symlinks and .. resolved first). Empty: path ingest over REST/MCP is refused;"
            " URLs still work."
        ),
    ] = []

    def __post_init__(self) -> None:
        # GRK_* names are settings, and an unknown one is an error: the secret cannot live there.
        if self.secret_env.upper().startswith("GRK_"):
            raise ValueError("serve.secret_env must not start with GRK_ (those names are settings)")


class CodemapConfig(_Section, frozen=True):
    max_file_bytes: Annotated[int, _d("Larger source files are skipped by `grk map`.", ge=1)] = (
        2_000_000
    )
    parse_seconds: Annotated[
        float, _d("A source file that takes longer to parse is skipped as too_slow.", gt=0)
    ] = 10.0


_URL = r"^https?://[^\s]+$"
_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$"


class CollectionConfig(_Section, frozen=True):
    """Where one collection lives: ``[collections.NAME]`` in grk.toml. Never a key."""

    backend: Annotated[
        Literal["embedded", "qdrant"],
        _d("embedded: SQLite and index files under index_dir; qdrant: a Qdrant collection."),
    ] = "embedded"
    url: (
        Annotated[
            str,
            _d("qdrant: the cluster's URL (http or https, REST port, usually 6333).", pattern=_URL),
        ]
        | None
    ) = None
    path: Annotated[
        str | None,
        _d(
            "qdrant, instead of url: a folder run by Qdrant's engine inside the process"
            " (qdrant-edge); one process at a time."
        ),
    ] = None
    remote_name: (
        Annotated[
            str,
            _d(
                "qdrant: the collection's name on the cluster (default: its name here).",
                pattern=_NAME,
            ),
        ]
        | None
    ) = None
    api_key_env: Annotated[
        str | None,
        _d("qdrant: the environment variable holding the cluster's API key (never the key)."),
    ] = None
    keychain: Annotated[
        bool,
        _d(
            "qdrant: read the API key from the OS keychain entry qdrant:NAME instead"
            " (`grk auth set qdrant:NAME`). Neither: the cluster takes no key."
        ),
    ] = False
    shards: Annotated[
        int, _d("qdrant: shards of a new collection (shard_number).", ge=1, le=1000)
    ] = 1
    replicas: Annotated[
        int,
        _d("qdrant: copies of each shard of a new collection (replication_factor).", ge=1, le=100),
    ] = 1
    write_consistency: Annotated[
        int,
        _d("qdrant: replicas that must confirm a write (write_consistency_factor).", ge=1, le=100),
    ] = 1
    on_disk: Annotated[
        bool,
        _d(
            "qdrant: keep payload, dense vectors and the BM25 index on disk (memory-mapped),"
            " not in RAM."
        ),
    ] = False
    quantization: Annotated[
        Literal["none", "int8"],
        _d("qdrant: int8 scalar quantization of dense vectors (a quarter of the memory)."),
    ] = "none"
    timeout_s: Annotated[float, _d("qdrant: time for one request.", gt=0, le=3600)] = 30.0

    def __post_init__(self) -> None:
        if self.backend == "qdrant" and (self.url is None) == (self.path is None):
            raise ValueError("a qdrant collection needs exactly one of url and path")
        if self.backend == "embedded" and (self.url or self.path):
            raise ValueError('url and path are for backend = "qdrant"')


class Settings(_Section, frozen=True):
    index_dir: Annotated[str, _d("Folder holding every collection.")] = ".groundkit"
    collection: Annotated[str, _d("Collection used when none is named.")] = "default"
    chunk: ChunkConfig = ChunkConfig()
    ingest: IngestConfig = IngestConfig()
    search: SearchConfig = SearchConfig()
    embed: EmbedConfig = EmbedConfig()
    rerank: RerankConfig = RerankConfig()
    answer: AnswerConfig = AnswerConfig()
    profiles: Annotated[
        dict[str, ProfileConfig],
        _d("Language-model provider profiles, [profiles.NAME] in grk.toml."),
    ] = {}
    serve: ServeConfig = ServeConfig()
    codemap: CodemapConfig = CodemapConfig()
    collections: Annotated[
        dict[str, CollectionConfig],
        _d("Where each collection lives, [collections.NAME] in grk.toml (default: embedded)."),
    ] = {}

    def collection_config(self, name: str) -> CollectionConfig:
        """Where collection ``name`` lives: its ``[collections.NAME]`` table, or embedded."""
        return self.collections.get(name) or _EMBEDDED


_EMBEDDED = CollectionConfig()


def _leaf_types(section: type[_Section], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, hint in get_type_hints(section, include_extras=True).items():
        if isinstance(hint, type) and issubclass(hint, _Section):
            out.update(_leaf_types(hint, f"{prefix}{name}."))
        else:
            out[f"{prefix}{name}"] = hint
    return out


KEYS: dict[str, Any] = _leaf_types(Settings)
ENV_NAMES: dict[str, str] = {"GRK_" + k.upper().replace(".", "_"): k for k in KEYS}


def describe(key: str) -> str:
    """The documentation of one dotted key."""
    hints = [KEYS[key], *get_args(KEYS[key])]
    for hint in hints:
        for meta in getattr(hint, "__metadata__", ()):
            if isinstance(meta, Meta) and meta.description:
                return meta.description
    return ""


def parse_settings(data: Mapping[str, Any]) -> Settings:
    """Validate nested settings (as a TOML file spells them). Raises ``ConfigError``."""
    for table in ("profiles", "collections"):
        for name, entry in (data.get(table) or {}).items():
            # A key written into grk.toml ends up in backups and commits: refuse it by name.
            if isinstance(entry, Mapping) and _INLINE_KEYS & set(entry):
                who = name if table == "profiles" else f"qdrant:{name}"
                raise ConfigError(
                    ErrorCode.CONFIG_INVALID,
                    f"invalid value for {table}.{name}: a key may not be written in grk.toml",
                    hint="name its environment variable in api_key_env, or store it with"
                    f" `grk auth set {who}`",
                )
    for name, entry in (data.get("collections") or {}).items():
        try:  # alone first, so that an error names the table (msgspec says "[...]" of a dict)
            msgspec.convert(entry, CollectionConfig, strict=True)
        except (msgspec.ValidationError, ValueError) as exc:
            message, _, where = str(exc).partition(" - at `$")
            key = f"collections.{name}{where.rstrip('`')}"
            raise ConfigError(
                ErrorCode.CONFIG_INVALID, f"invalid value for {key}: {message.replace('`', '')}"
            ) from None
    try:
        return msgspec.convert(data, Settings, strict=True)
    except (msgspec.ValidationError, ValueError) as exc:
        raise ConfigError(ErrorCode.CONFIG_INVALID, _reason(exc)) from None


@dataclass(frozen=True, slots=True)
class LoadedSettings:
    settings: Settings
    sources: dict[str, str]  # key -> "default" | "grk.toml" | "env GRK_X" | "flag --x"

    def rows(self) -> list[tuple[str, Any, str]]:
        flat = _flatten(self.settings.to_dict())
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
        if not name.startswith("GRK_") or name == _CONFIG_ENV or name.startswith(_TEST_ENV):
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
    return LoadedSettings(parse_settings(_nest(values)), sources)


def _config_path(config_file: str | None, env: Mapping[str, str]) -> tuple[Path | None, bool]:
    if config_file:
        return Path(config_file), True
    if env.get(_CONFIG_ENV):
        return Path(env[_CONFIG_ENV]), True
    return Path(CONFIG_FILE), False


# No configuration comes near this; `--config /dev/zero` would otherwise read until memory ends.
MAX_CONFIG_BYTES = 1_000_000


def _read_file(path: Path) -> dict[str, Any]:
    raw = read_regular(str(path), MAX_CONFIG_BYTES)
    if isinstance(raw, Unread):
        why = {
            Why.MISSING: "no such file",
            Why.NOT_REGULAR: "not a regular file",
            Why.OVERSIZED: f"larger than {MAX_CONFIG_BYTES:,} bytes",
        }.get(raw.why, raw.reason)
        raise ConfigError(ErrorCode.CONFIG_FILE, f"cannot read config file {path.name} ({why})")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
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
    """One value, validated against its key's type and limits; environment values are text."""
    if key in _TABLES:  # a table of tables: validated whole, with the rest
        return value
    try:
        if strings and _optional(KEYS[key]) and value == "":
            return None  # GRK_SEARCH_MIN_SIMILARITY= unsets it
        checked = msgspec.convert(value, KEYS[key], strict=not strings)
    except msgspec.ValidationError as exc:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"invalid value for {key} (from {origin}): {_reason(exc, with_path=False)}",
        ) from None
    return checked.value if isinstance(checked, SearchMode) else checked


def _optional(hint: Any) -> bool:
    """Whether ``None`` is a valid value of ``hint`` (``Annotated`` and unions looked through)."""
    if hint is type(None):
        return True
    if get_origin(hint) is Annotated:
        return _optional(get_args(hint)[0])
    return get_origin(hint) in (Union, UnionType) and any(_optional(a) for a in get_args(hint))


def _reason(exc: Exception, *, with_path: bool = True) -> str:
    """msgspec says "Expected `int` >= 50 - at `$.chunk.size`": say it as this module does."""
    text = str(exc)
    message, _, where = text.partition(" - at `$")
    message = message.replace("`", "")
    if not with_path:
        return message
    key = where.rstrip("`").lstrip(".").replace("[", ".").replace("]", "").replace("'", "")
    return f"invalid value for {key or 'settings'}: {message}"


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
