"""Golden and BEIR datasets: loading, and resolving quotes against the stored text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from groundkit import Collection
from groundkit.config import ChunkConfig, Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.eval.datasets import Dataset, load_beir, load_golden, resolve

OpenCollection = Callable[..., Collection]

ALPHA = (
    "# Alpha\n\nThe alpha pump runs at 40 litres a minute.\n\n## Service\n\nService it yearly.\n"
)
BETA = "Beta notes.\nThe beta valve opens at 3 bar. The alpha pump is older.\n"


def judgment(qid: str = "q1", category: str = "factual", **over: Any) -> dict[str, Any]:
    gold = [{"source": "alpha.md", "quote": "runs at 40 litres a minute", "grade": 2}]
    return {"id": qid, "query": "how fast is the pump", "category": category, "gold": gold} | over


def make_golden(root: Path, rows: list[dict[str, Any]]) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "alpha.md").write_text(ALPHA)
    (root / "docs" / "beta.txt").write_text(BETA)
    (root / "judgments.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def resolved(dataset: Dataset, open_col: OpenCollection, size: int = 1000) -> Any:
    collection = open_col(Settings(chunk=ChunkConfig(size=size, min_size=0)))
    collection.ingest(list(dataset.inputs))
    return resolve(dataset, collection.documents(), collection.chunks())


def test_a_quote_becomes_the_span_it_occupies_in_the_stored_text(
    tmp_path: Path, open_col: OpenCollection
) -> None:
    dataset = load_golden(make_golden(tmp_path / "g", [judgment()]))
    judged = resolved(dataset, open_col)
    (span,) = judged.spans["q1"]
    assert (span.source, span.grade) == ("alpha.md", 2)
    assert ALPHA[span.start : span.end] == "runs at 40 litres a minute"
    assert judged.qrels["document"]["q1"] == {"alpha.md": 2}
    assert len(judged.qrels["chunk"]["q1"]) == 1


def test_only_chunks_overlapping_the_span_are_relevant(
    tmp_path: Path, open_col: OpenCollection
) -> None:
    row = judgment(gold=[{"source": "alpha.md", "quote": "Service it yearly.", "grade": 1}])
    dataset = load_golden(make_golden(tmp_path / "g", [row]))
    collection = open_col(Settings(chunk=ChunkConfig(size=60, min_size=0)))
    collection.ingest(list(dataset.inputs))
    chunks = [c for c in collection.chunks() if c.text.strip()]
    judged = resolve(dataset, collection.documents(), chunks)
    relevant = judged.qrels["chunk"]["q1"]
    assert relevant
    assert all("Service it yearly." in c.text for c in chunks if c.chunk_id in relevant)
    assert any(c.chunk_id not in relevant for c in chunks)


def test_a_no_answer_query_has_no_judgments(tmp_path: Path, open_col: OpenCollection) -> None:
    rows = [judgment(), judgment("q2", "no_answer", gold=[])]
    judged = resolved(load_golden(make_golden(tmp_path / "g", rows)), open_col)
    assert "q2" not in judged.qrels["chunk"]
    assert judged.spans["q2"] == ()


@pytest.mark.parametrize(
    ("quote", "problem"),
    [("runs at 41 litres", "is not in"), ("The alpha pump", "occurs 2 times")],
)
def test_a_quote_that_does_not_resolve_exactly_once_fails_the_load(
    tmp_path: Path, open_col: OpenCollection, quote: str, problem: str
) -> None:
    row = judgment(gold=[{"source": "beta.txt", "quote": quote, "grade": 2}])
    dataset = load_golden(make_golden(tmp_path / "g", [row]))
    (tmp_path / "g" / "docs" / "beta.txt").write_text(BETA + "The alpha pump again.\n")  # twice
    with pytest.raises(GroundkitError) as caught:
        resolved(dataset, open_col)
    assert caught.value.code == ErrorCode.EVAL_DATASET
    assert problem in caught.value.message


@pytest.mark.parametrize(
    "row",
    [
        judgment(category="trivia"),
        judgment(category="no_answer"),  # no_answer with gold evidence
        judgment(gold=[]),  # answerable without any
        judgment(gold=[{"source": "gamma.md", "quote": "x", "grade": 2}]),
        judgment(gold=[{"source": "alpha.md", "quote": "runs at", "grade": True}]),
        judgment(gold=[{"source": "alpha.md", "quote": "runs at", "grade": 3}]),
        judgment(gold=[{"source": "alpha.md", "quote": " ", "grade": 2}]),
        judgment(gold=[{"source": "alpha.md", "quote": "runs", "grade": 2, "page": 1}]),
        judgment(extra="field"),
        judgment(query=""),
    ],
)
def test_a_malformed_judgment_fails_the_load_naming_its_line(
    tmp_path: Path, row: dict[str, Any]
) -> None:
    root = make_golden(tmp_path / "g", [judgment("q0"), row])
    with pytest.raises(GroundkitError) as caught:
        load_golden(root)
    assert caught.value.code == ErrorCode.EVAL_DATASET
    assert "judgments.jsonl:2" in caught.value.message


def test_a_repeated_query_id_fails_the_load(tmp_path: Path) -> None:
    with pytest.raises(GroundkitError, match="appears twice"):
        load_golden(make_golden(tmp_path / "g", [judgment(), judgment()]))


def test_the_dataset_hash_changes_with_any_document(tmp_path: Path) -> None:
    root = make_golden(tmp_path / "g", [judgment()])
    before = load_golden(root).hash
    assert load_golden(root).hash == before
    (root / "docs" / "beta.txt").write_text(BETA + "more\n")
    assert load_golden(root).hash != before


def test_a_beir_folder_asks_only_the_queries_judged_in_the_split(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": "", "text": "x"}))
    queries = [{"_id": "1", "text": "judged"}, {"_id": "2", "text": "not judged"}]
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries))
    (tmp_path / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    dataset = load_beir(tmp_path, "dev")
    assert [q.id for q in dataset.queries] == ["1"]
    assert dataset.qrels == {"1": {"d1": 1}}
    with pytest.raises(GroundkitError, match=r"qrels/test\.tsv"):
        load_beir(tmp_path, "test")
