"""Evaluation datasets: the golden corpus (shipped in the package) and BEIR-format folders.

A dataset names what to ingest and the queries to ask. Golden judgments give their evidence as
exact quotes; they become character spans only once the documents are stored, because a quote
must be found in the text groundkit stores (after HTML and PDF extraction), not in the file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from groundkit.errors import ErrorCode, UsageError
from groundkit.types import Chunk, Document

__all__ = [
    "CATEGORIES",
    "Dataset",
    "EvalQuery",
    "Gold",
    "GoldSpan",
    "Judgments",
    "golden_corpus",
    "load_beir",
    "load_golden",
    "resolve",
]

CATEGORIES = ("factual", "paraphrase", "multi_span", "no_answer", "adversarial")
Level = Literal["chunk", "document"]
QrelsByQuery = dict[str, dict[str, int]]


@dataclass(frozen=True, slots=True)
class Gold:
    """One piece of gold evidence: ``quote`` occurs exactly once in the stored ``source``."""

    source: str
    quote: str
    grade: int


@dataclass(frozen=True, slots=True)
class EvalQuery:
    id: str
    text: str
    category: str
    gold: tuple[Gold, ...] = ()


@dataclass(frozen=True, slots=True)
class Dataset:
    """What to ingest (``inputs``) and what to ask; ``hash`` covers every file it was read from."""

    name: str
    kind: Literal["golden", "beir"]
    split: str | None
    root: Path
    inputs: tuple[Path, ...]
    queries: tuple[EvalQuery, ...]
    hash: str
    # BEIR's judgments come as document-level qrels; golden ones are resolved from quotes.
    qrels: Mapping[str, Mapping[str, int]] | None = None

    @property
    def levels(self) -> tuple[Level, ...]:
        return ("chunk", "document") if self.kind == "golden" else ("document",)

    def document_key(self, source: str, external_id: str | None) -> str:
        """How a stored document is named in judgments: its path under the golden ``docs``
        folder, or its BEIR record id."""
        if self.kind == "beir":
            return str(external_id)
        if Path(source).is_absolute():  # stored before sources were kept relative
            return Path(source).relative_to(self.inputs[0].resolve()).as_posix()
        return source  # already relative to the docs folder that was ingested


class GoldSpan(NamedTuple):
    """Where one gold quote was found: ``[start, end)`` of the stored text of ``source``.

    A named tuple, so a run report writes it as the array ``[source, start, end, grade]``.
    """

    source: str  # the document key, as judgments name it
    start: int
    end: int
    grade: int


@dataclass(frozen=True, slots=True)
class Judgments:
    """Per level, per query id, the graded relevance of chunk ids or document keys."""

    qrels: Mapping[Level, QrelsByQuery]
    spans: Mapping[str, tuple[GoldSpan, ...]]  # by query id; empty for BEIR


def _invalid(where: str, message: str) -> UsageError:
    return UsageError(ErrorCode.EVAL_DATASET, f"{where}: {message}")


def _digest(paths: Iterable[Path], root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


_JUDGMENT_KEYS = {"id", "query", "category", "gold"}
_GOLD_KEYS = {"source", "quote", "grade"}


def _judgment(raw: Any, where: str, sources: set[str]) -> EvalQuery:
    if not isinstance(raw, dict) or not _JUDGMENT_KEYS <= raw.keys() <= _JUDGMENT_KEYS | {"note"}:
        raise _invalid(where, f"a judgment has exactly the keys {sorted(_JUDGMENT_KEYS)} (+ note)")
    qid, text, category, gold = raw["id"], raw["query"], raw["category"], raw["gold"]
    if not isinstance(qid, str) or not qid or not isinstance(text, str) or not text.strip():
        raise _invalid(where, "id and query must be non-empty strings")
    if category not in CATEGORIES:
        raise _invalid(where, f"category {category!r} is not one of {', '.join(CATEGORIES)}")
    if not isinstance(gold, list) or (category == "no_answer") != (not gold):
        raise _invalid(where, "gold is a list, empty exactly when the category is no_answer")
    evidence = []
    for item in gold:
        if not isinstance(item, dict) or item.keys() != _GOLD_KEYS:
            raise _invalid(where, f"gold evidence has exactly the keys {sorted(_GOLD_KEYS)}")
        source, quote, grade = item["source"], item["quote"], item["grade"]
        if source not in sources:
            raise _invalid(where, f"gold source {source!r} is not a document of the corpus")
        if not isinstance(quote, str) or not quote.strip():
            raise _invalid(where, "a gold quote must be non-empty text")
        if type(grade) is not int or grade not in (1, 2):
            raise _invalid(where, "a gold grade is 1 (supporting) or 2 (answers)")
        evidence.append(Gold(source, quote, grade))
    return EvalQuery(qid, text, category, tuple(evidence))


def golden_corpus() -> Path:
    """The golden corpus shipped as package data (``groundkit/eval/golden``), so ``grk eval``
    works from any folder after ``pip install``, not only in a checkout."""
    from importlib.resources import files

    # An installed wheel or an editable checkout: both are folders on disk, never a zip.
    return Path(str(files("groundkit.eval") / "golden"))


def load_golden(root: str | Path) -> Dataset:
    """``root/docs/`` (the documents) and ``root/judgments.jsonl``. Malformed judgments fail the
    load with the line that is wrong; quotes are checked later, by ``resolve``."""
    root = Path(root)
    docs, path = root / "docs", root / "judgments.jsonl"
    if not docs.is_dir() or not path.is_file():
        raise _invalid(str(root), "a golden corpus has docs/ and judgments.jsonl")
    files = [p for p in docs.rglob("*") if p.is_file()]
    sources = {p.relative_to(docs).as_posix() for p in files}
    queries: list[EvalQuery] = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise _invalid(where, f"not JSON ({exc.msg})") from None
            queries.append(_judgment(raw, where, sources))
    _unique_ids(queries, str(path))
    return Dataset(
        name=root.resolve().name,
        kind="golden",
        split=None,
        root=root,
        inputs=(docs,),
        queries=tuple(queries),
        hash=_digest([*files, path], root),
    )


def load_beir(root: str | Path, split: str) -> Dataset:
    """A BEIR folder: ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/SPLIT.tsv``. Only queries
    judged in the split are asked."""
    root = Path(root)
    corpus, queries_path, qrels_path = (
        root / "corpus.jsonl",
        root / "queries.jsonl",
        root / "qrels" / f"{split}.tsv",
    )
    for needed in (corpus, queries_path, qrels_path):
        if not needed.is_file():
            raise _invalid(str(root), f"a BEIR dataset needs {needed.relative_to(root)}")
    qrels: QrelsByQuery = {}
    with qrels_path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            fields = line.rstrip("\n").split("\t")
            if number == 1 and not fields[-1].lstrip("-").isdigit():
                continue  # the header
            if len(fields) != 3 or not fields[2].lstrip("-").isdigit():
                raise _invalid(f"{qrels_path}:{number}", "expected query-id, corpus-id, score")
            qrels.setdefault(fields[0], {})[fields[1]] = int(fields[2])
    queries = []
    with queries_path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                record = json.loads(line)
                if str(record["_id"]) in qrels:
                    queries.append(EvalQuery(str(record["_id"]), record["text"], "beir"))
    if not queries:
        raise _invalid(str(root), f"no query in queries.jsonl is judged in the {split!r} split")
    _unique_ids(queries, str(queries_path))
    return Dataset(
        name=root.resolve().name,
        kind="beir",
        split=split,
        root=root,
        inputs=(corpus,),
        queries=tuple(queries),
        hash=_digest([corpus, queries_path, qrels_path], root),
        qrels=qrels,
    )


def _unique_ids(queries: list[EvalQuery], where: str) -> None:
    seen: set[str] = set()
    for query in queries:
        if query.id in seen:
            raise _invalid(where, f"query id {query.id!r} appears twice")
        seen.add(query.id)


def resolve(dataset: Dataset, documents: Iterable[Document], chunks: Iterable[Chunk]) -> Judgments:
    """The dataset's judgments against what was stored.

    A golden quote must occur exactly once in its stored document, or the load fails. A chunk is
    relevant when it overlaps a gold span, graded by the best span it overlaps; a document by the
    best span it holds.
    """
    if dataset.kind == "beir":
        assert dataset.qrels is not None
        return Judgments({"document": {q: dict(r) for q, r in dataset.qrels.items()}}, {})
    stored = {dataset.document_key(d.source, d.external_id): d for d in documents}
    by_document: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_document.setdefault(chunk.document_id, []).append(chunk)
    chunk_qrels: QrelsByQuery = {}
    doc_qrels: QrelsByQuery = {}
    spans: dict[str, tuple[GoldSpan, ...]] = {}
    for query in dataset.queries:
        found: list[GoldSpan] = []
        for gold in query.gold:
            document = stored.get(gold.source)
            if document is None:
                raise _invalid(query.id, f"{gold.source!r} was not stored (was it skipped?)")
            count = document.text.count(gold.quote)
            if count != 1:
                problem = "is not in" if count == 0 else f"occurs {count} times in"
                raise _invalid(query.id, f"the quote {gold.quote[:60]!r} {problem} {gold.source}")
            start = document.text.index(gold.quote)
            end = start + len(gold.quote)
            found.append(GoldSpan(gold.source, start, end, gold.grade))
            grades = doc_qrels.setdefault(query.id, {})
            grades[gold.source] = max(grades.get(gold.source, 0), gold.grade)
            for chunk in by_document.get(document.document_id, []):
                if chunk.start < end and start < chunk.end:
                    grades = chunk_qrels.setdefault(query.id, {})
                    grades[chunk.chunk_id] = max(grades.get(chunk.chunk_id, 0), gold.grade)
        spans[query.id] = tuple(found)
    return Judgments({"chunk": chunk_qrels, "document": doc_qrels}, spans)
