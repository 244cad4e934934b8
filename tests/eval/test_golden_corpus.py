"""The committed golden corpus keeps its floors, its category mix, and quotes that resolve."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from groundkit import Collection
from groundkit.eval.datasets import CATEGORIES, Dataset, golden_corpus, load_golden, resolve

GOLDEN = golden_corpus()
MIN_PER_CATEGORY = 12


@pytest.fixture(scope="module")
def golden() -> Dataset:
    return load_golden(GOLDEN)


def test_the_corpus_has_ten_documents_of_every_format(golden: Dataset) -> None:
    docs = [p for p in (GOLDEN / "docs").iterdir() if p.is_file()]
    assert len(docs) >= 10
    assert {".md", ".html", ".pdf", ".txt"} <= {p.suffix for p in docs}


def test_there_are_sixty_judgments_in_every_category(golden: Dataset) -> None:
    counts = Counter(q.category for q in golden.queries)
    assert sum(counts.values()) >= 60
    assert set(counts) == set(CATEGORIES)
    assert min(counts.values()) >= MIN_PER_CATEGORY, counts


def test_multi_span_queries_have_several_valid_spans(golden: Dataset) -> None:
    for query in golden.queries:
        if query.category == "multi_span":
            assert len(query.gold) >= 2, query.id


def test_adversarial_documents_carry_injected_instructions(golden: Dataset) -> None:
    sources = {g.source for q in golden.queries if q.category == "adversarial" for g in q.gold}
    texts = [(GOLDEN / "docs" / s).read_text(errors="replace").lower() for s in sources]
    markers = ("ignore all previous instructions", "system:", "assistant")
    assert sum(any(m in t for m in markers) for t in texts) >= 2


def test_every_gold_quote_resolves_once_in_the_stored_text(
    golden: Dataset,
    open_col: Callable[..., Collection],
) -> None:
    collection = open_col()
    report = collection.ingest(list(golden.inputs))
    assert not report.skipped
    judged = resolve(golden, collection.documents(), collection.chunks())  # raises on a bad quote
    documents = {d.source: d.text for d in collection.documents()}
    for query in golden.queries:
        assert len(judged.spans[query.id]) == len(query.gold)
        for span, gold in zip(judged.spans[query.id], query.gold, strict=True):
            text = documents[span.source]  # stored relative to the docs folder ingested
            assert text[span.start : span.end] == gold.quote
        if query.category != "no_answer":
            assert judged.qrels["chunk"][query.id]
