"""Tiny, randomly initialised models saved to disk, so tests exercise the real loading code.

No cross-encoder is packaged on PyPI, so the ONNX reranker path is tested with a model built here:
a WordPiece ``tokenizer.json`` and a ``model.onnx`` that embeds tokens, mean-pools them over the
attention mask and projects to logits. It needs ``onnx`` (a dev dependency) and ``tokenizers``.

    folder = write_tiny_cross_encoder(tmp_path / "ce", favour="volcano")
    settings = Settings(rerank=RerankConfig(model=str(folder)))
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["write_tiny_cross_encoder"]

_SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]")
_WORDS = (
    "the a an and or of to in on for with is are was be it this that as by at from not no"
    " what how why when where which who does do can rock granite marble basalt quartz stone"
    " volcano lava river water sea cloud rain wind tree forest animal bird fish wombat echidna"
    " search index query document passage answer model test data file text word"
).split()
_HIDDEN = 16
_FAVOUR_LOGIT = 200.0  # added to the summed logits by each favoured token, before mean pooling


def write_tiny_cross_encoder(
    folder: Path,
    *,
    seed: int = 0,
    favour: str | None = None,
    labels: int = 1,
    max_position_embeddings: int = 128,
    words: Sequence[str] = (),
) -> Path:
    """Write ``model.onnx``, ``tokenizer.json`` and ``config.json`` of a tiny cross-encoder.

    Args:
        folder: created if missing; returned.
        seed: the weights are drawn from numpy with it, so the same seed gives the same model.
        favour: a lower-case word that pushes the relevance logit far up wherever it appears, so
            a test can assert that reranking moves the passage holding it to the top.
        labels: the width of ``logits`` (batch, labels); the favoured word raises the last
            ("relevant") column and lowers the others.
        max_position_embeddings: written to ``config.json``; the loader truncates pairs to it.
        words: extra whole-word tokens for the vocabulary (any other word is spelled in letters).
    """
    if not 1 <= labels <= _HIDDEN:
        raise ValueError(f"labels must be from 1 to {_HIDDEN}")
    folder.mkdir(parents=True, exist_ok=True)
    extra = [*words, *([favour] if favour else [])]
    vocab = _vocabulary(extra)
    _write_tokenizer(folder / "tokenizer.json", vocab)
    rng = np.random.default_rng(seed)
    tokens = (rng.standard_normal((len(vocab), _HIDDEN)) * 0.02).astype(np.float32)
    types = (rng.standard_normal((2, _HIDDEN)) * 0.02).astype(np.float32)
    weight = rng.standard_normal((_HIDDEN, labels)).astype(np.float32)
    bias = (rng.standard_normal(labels) * 0.1).astype(np.float32)
    if favour:
        # Choose the favoured token's embedding e so that e @ weight == target exactly.
        target = np.full(labels, -_FAVOUR_LOGIT)
        target[-1] = _FAVOUR_LOGIT
        tokens[vocab[favour]] = (target @ np.linalg.pinv(weight)).astype(np.float32)
    _write_graph(folder / "model.onnx", tokens, types, weight, bias)
    config = {"model_type": "groundkit-tiny-cross-encoder", "num_labels": labels}
    config["max_position_embeddings"] = max_position_embeddings
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return folder


def _vocabulary(extra: Sequence[str]) -> dict[str, int]:
    pieces = [*string.ascii_lowercase, *string.digits]
    entries = [*_SPECIAL, *pieces, *(f"##{p}" for p in pieces), *_WORDS]
    for word in extra:
        if not (word.isalpha() and word.islower()):
            raise ValueError(f"vocabulary words must be lower-case letters, got {word!r}")
        entries.append(word)
    return {token: i for i, token in enumerate(dict.fromkeys(entries))}


def _write_tokenizer(path: Path, vocab: dict[str, int]) -> None:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))  # noqa: S106 - a token
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer.save(str(path))


def _write_graph(
    path: Path,
    tokens: npt.NDArray[np.float32],
    types: npt.NDArray[np.float32],
    weight: npt.NDArray[np.float32],
    bias: npt.NDArray[np.float32],
) -> None:
    """Gather token + type embeddings -> mask-weighted mean pool -> MatMul -> Add bias."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def ids(name: str) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])

    node = helper.make_node
    nodes = [
        node("Gather", ["tokens", "input_ids"], ["tok"]),
        node("Gather", ["types", "token_type_ids"], ["typ"]),
        node("Add", ["tok", "typ"], ["hidden"]),
        node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        node("Unsqueeze", ["mask", "axis2"], ["mask3"]),
        node("Mul", ["hidden", "mask3"], ["masked"]),
        node("ReduceSum", ["masked", "axis1"], ["summed"], keepdims=0),
        node("ReduceSum", ["mask3", "axis1"], ["count"], keepdims=0),
        node("Max", ["count", "eps"], ["safe_count"]),
        node("Div", ["summed", "safe_count"], ["pooled"]),
        node("MatMul", ["pooled", "weight"], ["projected"]),
        node("Add", ["projected", "bias"], ["logits"]),
    ]
    constants: dict[str, npt.NDArray[Any]] = {
        "tokens": tokens,
        "types": types,
        "weight": weight,
        "bias": bias,
        "axis1": np.array([1], np.int64),
        "axis2": np.array([2], np.int64),
        "eps": np.array([1e-9], np.float32),
    }
    graph = helper.make_graph(
        nodes,
        "tiny_cross_encoder",
        [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
        [
            helper.make_tensor_value_info(
                "logits", TensorProto.FLOAT, ["batch", int(weight.shape[1])]
            )
        ],
        initializer=[numpy_helper.from_array(v, name) for name, v in constants.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # old enough for any onnxruntime that groundkit supports
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
