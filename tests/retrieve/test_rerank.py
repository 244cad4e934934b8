"""The cross-encoder rerank stage: real loading and scoring with a tiny model saved to disk."""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import numpy as np
import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError
from groundkit.cli.main import main
from groundkit.config import RerankConfig, Settings
from groundkit.errors import ConfigError
from groundkit.retrieve.cross_encoder import BATCH_SIZE, load_cross_encoder
from groundkit.retrieve.rerank import Reranker, load_reranker
from groundkit.testing.tiny_models import write_tiny_cross_encoder

QUERY = "granite rock"
DOCS = {
    "dense.md": "# Granite\n\nGranite is a rock. Granite rock, granite rock: granite all over.\n",
    "marble.md": "# Marble\n\nMarble is a rock, and some granite sits beside it.\n",
    "volcano.md": "# Far away\n\nA volcano far away once threw out a little granite among"
    " its many other stones, ashes and cinders.\n",
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def favours_volcano(tmp_path: Path) -> Path:
    return write_tiny_cross_encoder(tmp_path / "ce-volcano", favour="volcano")


def _sources(hits: list[groundkit.Hit]) -> list[str]:
    return [Path(h.citation.source).name for h in hits]


def test_a_tiny_onnx_cross_encoder_loads_from_a_folder_and_scores_pairs_deterministically(
    tmp_path: Path,
) -> None:
    folder = write_tiny_cross_encoder(tmp_path / "tiny-ce")
    passages = ["granite is a rock", "marble is a rock", "the sea and the wind"]
    first = load_cross_encoder(str(folder))
    again = load_cross_encoder(str(folder)).score(QUERY, passages)

    assert isinstance(first, Reranker)
    assert first.name == "tiny-ce"
    assert first.score(QUERY, passages) == again
    assert all(isinstance(s, float) for s in again)
    assert len(set(again)) == 3  # different passages, different scores
    assert list(first.score(QUERY, [])) == []


def test_the_same_seed_builds_the_same_model_and_another_seed_a_different_one(
    tmp_path: Path,
) -> None:
    scores = [
        load_cross_encoder(str(write_tiny_cross_encoder(tmp_path / f"m{i}", seed=s))).score(
            QUERY, ["granite is a rock"]
        )
        for i, s in enumerate([7, 7, 8])
    ]
    assert scores[0] == scores[1] != scores[2]


def test_batched_and_padded_pairs_score_as_they_do_one_at_a_time(tmp_path: Path) -> None:
    reranker = load_cross_encoder(str(write_tiny_cross_encoder(tmp_path / "ce")))
    passages = [" ".join(["granite", "rock", "sea"][: 1 + i % 3] * (1 + i)) for i in range(40)]
    assert len(passages) > BATCH_SIZE
    together = reranker.score(QUERY, passages)
    alone = [reranker.score(QUERY, [p])[0] for p in passages]
    assert together == pytest.approx(alone, abs=1e-5)


@pytest.mark.parametrize("labels", [1, 2])
def test_the_favoured_word_scores_highest_with_one_logit_or_with_the_relevant_last_class(
    tmp_path: Path, labels: int
) -> None:
    folder = write_tiny_cross_encoder(tmp_path / "ce", favour="volcano", labels=labels)
    scores = load_cross_encoder(str(folder)).score(QUERY, list(DOCS.values()))
    assert int(np.argmax(scores)) == list(DOCS).index("volcano.md")


def test_pairs_are_truncated_to_the_models_max_position_embeddings(tmp_path: Path) -> None:
    folder = write_tiny_cross_encoder(tmp_path / "ce", favour="volcano", max_position_embeddings=32)
    reranker = load_cross_encoder(str(folder))
    filler = "stone " * 60
    late, none, early = reranker.score(QUERY, [filler + "volcano", filler, "volcano " + filler])
    assert late == none  # the favoured word fell past the 32-token limit
    assert early > none + 1


def test_an_installed_package_carrying_the_model_files_loads_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "site" / "tiny_ce_package"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    write_tiny_cross_encoder(package / "model", favour="volcano")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))

    reranker = load_cross_encoder("tiny_ce_package")

    assert reranker.name == "tiny_ce_package"
    scores = reranker.score(QUERY, list(DOCS.values()))
    assert int(np.argmax(scores)) == list(DOCS).index("volcano.md")


@pytest.mark.parametrize(
    "layout",
    ["missing folder", "empty folder", "onnx without tokenizer", "plain module", "no such package"],
)
def test_a_model_that_is_not_a_cross_encoder_is_a_config_error_naming_rerank_model(
    tmp_path: Path, layout: str
) -> None:
    folder = tmp_path / "not-a-model"
    model = str(folder)
    if layout == "empty folder":
        folder.mkdir()
    elif layout == "onnx without tokenizer":
        write_tiny_cross_encoder(folder)
        (folder / "tokenizer.json").unlink()
    elif layout == "plain module":
        model = "string"  # importable, but a module, not a package folder
    elif layout == "no such package":
        model = "no_such_cross_encoder_package"

    with pytest.raises(ConfigError) as err:
        load_reranker(RerankConfig(model=model))

    assert err.value.code == ErrorCode.CONFIG_INVALID
    assert "rerank.model" in err.value.message
    assert str(tmp_path) not in str(err.value)  # never an absolute machine path


def test_a_damaged_model_onnx_is_a_config_error(tmp_path: Path) -> None:
    folder = write_tiny_cross_encoder(tmp_path / "ce")
    (folder / "model.onnx").write_bytes(b"not an onnx graph")
    with pytest.raises(ConfigError) as err:
        load_cross_encoder(str(folder))
    assert err.value.code == ErrorCode.CONFIG_INVALID


def test_a_model_with_more_than_two_classes_is_refused_when_it_scores(tmp_path: Path) -> None:
    reranker = load_cross_encoder(str(write_tiny_cross_encoder(tmp_path / "ce", labels=3)))
    with pytest.raises(GroundkitError) as err:
        reranker.score(QUERY, ["granite"])
    assert err.value.code == ErrorCode.RERANK_INVALID


def test_without_sentence_transformers_a_hugging_face_folder_asks_for_the_torch_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "hf-cross-encoder"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "bert", "num_labels": 1}))
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails, as uninstalled

    with pytest.raises(GroundkitError) as err:
        load_reranker(RerankConfig(model=str(folder)))

    assert err.value.code == ErrorCode.MISSING_EXTRA
    assert err.value.hint == "pip install 'groundkit[embed-torch]'"


class _FakeCrossEncoder:
    """Stands in for sentence_transformers.CrossEncoder: a two-class head, 'volcano' relevant."""

    seen: list[dict[str, Any]] = []  # noqa: RUF012 - one record per construction, read by the test

    def __init__(self, folder: str, *, device: str) -> None:
        self.seen.append(
            {
                "folder": folder,
                "device": device,
                "offline": (os.environ.get("HF_HUB_OFFLINE"), os.environ["TRANSFORMERS_OFFLINE"]),
            }
        )

    def predict(self, pairs: list[tuple[str, str]], **_: Any) -> np.ndarray:
        return np.array([[0.0, float("volcano" in p)] for _, p in pairs], np.float32)


def test_a_hugging_face_folder_runs_on_sentence_transformers_offline_on_the_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "hf-cross-encoder"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    fake = types.ModuleType("sentence_transformers")
    fake.CrossEncoder = _FakeCrossEncoder  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "0")
    _FakeCrossEncoder.seen.clear()

    reranker = load_cross_encoder(str(folder))

    assert _FakeCrossEncoder.seen == [
        {"folder": str(folder), "device": "cpu", "offline": ("1", "1")}
    ]
    assert reranker.name == "hf-cross-encoder"
    assert reranker.score(QUERY, ["granite", "a volcano"]) == [0.0, 1.0]


def test_rerank_moves_the_passage_the_model_prefers_to_the_top_of_bm25_hits(
    tmp_path: Path, docs: Path, favours_volcano: Path
) -> None:
    settings = Settings(rerank=RerankConfig(model=str(favours_volcano)))
    with groundkit.open_collection("r", index_dir=tmp_path / "index", settings=settings) as coll:
        coll.ingest([str(docs)])
        plain = coll.search(QUERY, mode="bm25")
        reranked = coll.search(QUERY, mode="bm25", rerank=True)

    assert _sources(plain)[-1] == "volcano.md"
    assert _sources(reranked)[0] == "volcano.md"
    assert sorted(_sources(reranked)) == sorted(_sources(plain))
    for hit in reranked:
        assert set(hit.ranks) == {"bm25", "rerank"}
        assert hit.ranks["rerank"] == hit.rank
    assert reranked[0].ranks["bm25"] == len(plain)


def test_grk_search_rerank_uses_the_model_named_in_the_environment(
    tmp_path: Path,
    docs: Path,
    favours_volcano: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "ingest", "--quiet", str(docs)]) == 0
    monkeypatch.setenv("GRK_RERANK_MODEL", str(favours_volcano))
    capsys.readouterr()

    assert main(["--index-dir", index, "search", QUERY, "--rerank", "--json"]) == 0

    hits = json.loads(capsys.readouterr().out)["hits"]
    assert Path(hits[0]["source"]).name == "volcano.md"
    assert [h["ranks"]["rerank"] for h in hits] == [1, 2, 3]
    assert all("bm25" in h["ranks"] for h in hits)


def test_grk_search_rerank_without_a_model_fails_with_a_usage_status(
    tmp_path: Path, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "ingest", "--quiet", str(docs)]) == 0
    capsys.readouterr()

    assert main(["--index-dir", index, "search", QUERY, "--rerank", "--json"]) == 2

    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == ErrorCode.RERANK_NOT_CONFIGURED


def test_hits_past_the_reranked_head_follow_in_their_first_stage_order(
    tmp_path: Path, docs: Path, favours_volcano: Path
) -> None:
    settings = Settings(rerank=RerankConfig(model=str(favours_volcano), top_n=1))
    with groundkit.open_collection("r", index_dir=tmp_path / "index", settings=settings) as coll:
        coll.ingest([str(docs)])
        plain = coll.search(QUERY, mode="bm25")
        reranked = coll.search(QUERY, mode="bm25", rerank=True)
    assert _sources(reranked) == _sources(plain)  # only the head was rescored
    assert [set(h.ranks) for h in reranked] == [{"bm25", "rerank"}, {"bm25"}, {"bm25"}]


def test_a_broken_rerank_setting_fails_a_batch_once_instead_of_per_query(
    tmp_path: Path, docs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "ingest", "--quiet", str(docs)]) == 0
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "1", "text": "granite"}\n{"id": "2", "text": "rock"}\n')
    monkeypatch.setenv("GRK_RERANK_MODEL", str(tmp_path / "no-such-model"))
    capsys.readouterr()

    status = main(["--index-dir", index, "search", "--queries", str(queries), "--rerank", "--json"])

    assert status == 2
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [
        {"error": {"code": "config.invalid_value", "message": ANY, "hint": ANY}}
    ]
