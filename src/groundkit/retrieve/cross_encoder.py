"""Cross-encoder rerankers loaded offline from a local folder or an installed package.

The runtime follows what the model folder holds:

- ``model.onnx`` + ``tokenizer.json``: onnxruntime and tokenizers (``groundkit[embed]``). Each
  (query, passage) pair is tokenized as one input, truncated to ``max_position_embeddings`` from
  ``config.json`` (at most 512), and the ``logits`` output is the score: a (batch, 1) output is
  used as is; for a (batch, 2) classifier the last column, the "relevant" class, is used.
- ``config.json`` with weights (no ``model.onnx``): a sentence-transformers ``CrossEncoder`` on
  PyTorch (``groundkit[embed-torch]``), with the Hugging Face hub switched off.

Nothing is ever downloaded: anything else is a ``ConfigError`` naming ``rerank.model``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundkit.errors import ConfigError, ErrorCode, ModelError, missing_extra

__all__ = ["OnnxCrossEncoder", "SentenceTransformersCrossEncoder", "load_cross_encoder"]

BATCH_SIZE = 32
_MAX_LENGTH = 512  # BERT-style position tables; RoBERTa reports 514 but holds 512 usable


def load_cross_encoder(model: str) -> OnnxCrossEncoder | SentenceTransformersCrossEncoder:
    """The cross-encoder ``model`` (a folder path or an installed package name) names.

    Raises ``ConfigError`` (``config.invalid_value``) when it is neither, or holds no known
    layout, and ``GroundkitError`` (``dependency.missing_extra``) when its runtime is missing.
    """
    folder, name = _model_folder(model)
    if (folder / "model.onnx").is_file():
        if not (folder / "tokenizer.json").is_file():
            raise _invalid(name, "holds model.onnx but no tokenizer.json beside it")
        return OnnxCrossEncoder(folder, name=name)
    if (folder / "config.json").is_file():
        return SentenceTransformersCrossEncoder(folder, name=name)
    raise _invalid(
        name, "holds neither model.onnx with tokenizer.json nor a Hugging Face config.json"
    )


def _invalid(name: str, what: str) -> ConfigError:
    return ConfigError(
        ErrorCode.CONFIG_INVALID,
        f"rerank.model {name!r} {what}",
        hint="set rerank.model to a folder (or installed package) holding model.onnx and"
        " tokenizer.json, or a sentence-transformers CrossEncoder",
    )


def _model_folder(model: str) -> tuple[Path, str]:
    path = Path(model).expanduser()
    if path.is_dir():
        return path, path.resolve().name
    spec = importlib.util.find_spec(model) if model.isidentifier() else None
    if spec is None or not spec.submodule_search_locations:
        # Only the last part of a path is named: messages never carry machine paths.
        raise _invalid(path.name, "is neither a folder nor an installed package")
    root = Path(next(iter(spec.submodule_search_locations)))
    for marker in ("model.onnx", "config.json"):
        found = sorted(root.rglob(marker))
        if found:
            return found[0].parent, model
    return root, model


def _require(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise missing_extra(exc.name or module, extra) from None


def _relevance(logits: Any, count: int, name: str) -> list[float]:
    """One finite float per passage: (n,) or (n, 1) as is, (n, 2) the last ("relevant") column."""
    scores: npt.NDArray[np.float64] = np.asarray(logits, dtype=np.float64)
    if scores.ndim == 2 and scores.shape[1] in (1, 2):
        scores = scores[:, -1]
    if scores.shape != (count,) or not np.isfinite(scores).all():
        raise ModelError(
            ErrorCode.RERANK_INVALID,
            f"the rerank model {name!r} returned scores of shape {np.shape(logits)}"
            f" (or non-finite values) for {count} passages",
            hint="use a cross-encoder with one relevance logit, or two classes (last = relevant)",
        )
    return [float(s) for s in scores]


class OnnxCrossEncoder:
    """A cross-encoder exported to ONNX, scored in batches of ``BATCH_SIZE`` pairs."""

    def __init__(self, folder: Path, *, name: str) -> None:
        ort = _require("onnxruntime", "embed")
        tokenizers = _require("tokenizers", "embed")
        self._name = name
        try:
            self._tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
            options = ort.SessionOptions()
            options.intra_op_num_threads = os.cpu_count() or 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            self._session = ort.InferenceSession(
                str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime and tokenizers raise their own untyped errors
            raise _invalid(name, f"could not be loaded ({type(exc).__name__})") from None
        self._tokenizer.enable_truncation(max_length=_max_length(folder))
        pad = next(
            (p for p in ("[PAD]", "<pad>") if self._tokenizer.token_to_id(p) is not None), None
        )
        pad_id = self._tokenizer.token_to_id(pad) if pad else 0
        self._tokenizer.enable_padding(pad_id=pad_id, pad_token=pad or "[PAD]")  # to the longest
        self._inputs = {i.name for i in self._session.get_inputs()}
        outputs = [o.name for o in self._session.get_outputs()]
        self._output = "logits" if "logits" in outputs else outputs[0]

    @property
    def name(self) -> str:
        return self._name

    def score(self, query: str, passages: Sequence[str]) -> Sequence[float]:
        out: list[float] = []
        for start in range(0, len(passages), BATCH_SIZE):
            batch = passages[start : start + BATCH_SIZE]
            encoded = self._tokenizer.encode_batch([(query, p) for p in batch])
            feeds = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            feeds = {k: v for k, v in feeds.items() if k in self._inputs}
            logits = self._session.run([self._output], feeds)[0]
            out.extend(_relevance(logits, len(batch), self._name))
        return out


def _max_length(folder: Path) -> int:
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        given = int(config["max_position_embeddings"])
    except (OSError, ValueError, KeyError, TypeError):
        return _MAX_LENGTH
    return max(8, min(given, _MAX_LENGTH))


class SentenceTransformersCrossEncoder:
    """A sentence-transformers ``CrossEncoder`` on PyTorch, loaded from a folder on the CPU."""

    def __init__(self, folder: Path, *, name: str) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"  # a local folder must never turn into a download
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        st = _require("sentence_transformers", "embed-torch")
        self._name = name
        try:
            self._model = st.CrossEncoder(str(folder), device="cpu")
        except (OSError, ValueError) as exc:  # missing or unreadable weights, unknown model type
            raise _invalid(name, f"could not be loaded ({type(exc).__name__})") from None

    @property
    def name(self) -> str:
        return self._name

    def score(self, query: str, passages: Sequence[str]) -> Sequence[float]:
        if not passages:
            return []
        logits = self._model.predict(
            [(query, p) for p in passages],
            batch_size=BATCH_SIZE,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return _relevance(logits, len(passages), self._name)
