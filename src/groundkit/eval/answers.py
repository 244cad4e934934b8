"""Answer quality: ask a dataset's questions through the real answer path and count outcomes.

For each question, each model and each quote mode the answer path runs exactly as `grk answer`
runs it (retrieve, bundle, one call, ``validate_answer``), and the outcome is one of
``answered``, ``abstained``, ``refused`` (with the contract rule that refused it), ``failed``
(the provider failed) or ``no_evidence``. An answered question also says whether it cites a
relevant document (by the dataset's judgments) and which share of its items quote relevant
documents only. Both quote modes of one question are asked back to back, so a local model's
prompt cache serves the second.

Usefulness, beside validity: given ``labels`` (for each question, strings a reader needs, such
as ``benchmarks/labels/golden.json``), an answer *contains the answer* when its cited text holds
one of them; *shown* counts what a reader gets above the evidence: the answer, or when there is
none (refused, failed), the extracted one. The extractive answerer (``Extractive``) is one
system of its own (mode ``extracted``), whatever the quote modes asked.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec

from groundkit.answer.contract import Answer, Cited, CitedEdge, CitedQuote
from groundkit.answer.extractive import Answerer, Extractive
from groundkit.answer.report import AIState, AnswerReport
from groundkit.answer.service import QuoteMode, answer_question
from groundkit.answer.shown import ShownSentences
from groundkit.collection import open_collection
from groundkit.config import Settings
from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.datasets import Dataset, resolve
from groundkit.eval.record import Record

__all__ = [
    "OUTCOMES",
    "AnswerOutcome",
    "AnswerRun",
    "Labels",
    "Outcome",
    "SystemInfo",
    "SystemMode",
    "contains_answer",
    "outcome_of",
    "refusal_rule",
    "run_answer_eval",
]

Outcome = Literal["answered", "abstained", "refused", "failed", "no_evidence", "unavailable"]
OUTCOMES: tuple[Outcome, ...] = (
    "answered",
    "abstained",
    "refused",
    "failed",
    "no_evidence",
    "unavailable",
)
_NUMBERS = re.compile(r"\d+")
SystemMode = QuoteMode | Literal["extracted"]
Labels = Mapping[str, Sequence[str] | None]  # per question id; None: it has no answer


class AnswerOutcome(Record, frozen=True):
    """One question asked of one system (a model with a quote mode); a row of the report's
    ``outcomes``, written key for key."""

    query_id: str
    system: str
    outcome: Outcome
    reason: str | None  # the contract rule (refused) or error code (failed), numbers as N
    seconds: float
    relevant_in_evidence: bool | None  # None: the question has nothing relevant (no-answer)
    cites_relevant: bool | None  # answered only
    items: int
    items_all_relevant: int
    cut_off: bool  # the model stopped at max_tokens
    completion_tokens: int | None
    tokens_per_second: float | None
    prompt_tokens: int | None
    enum_bytes: int | None  # constrained: span text in the schema
    spans_omitted: int | None
    contains_answer: bool | None = None  # a cited text holds a label; None: none to hold
    shown_contains_answer: bool | None = None  # the same for the answer or, else, the extract


@dataclass(frozen=True, slots=True)
class SystemInfo:
    """What a system is: a provider's model asked in one quote mode."""

    provider: str
    model: str
    quotes: SystemMode
    load_seconds: float | None  # what loading the model cost (an in-process model only)


@dataclass(frozen=True, slots=True)
class AnswerRun:
    dataset: Dataset
    systems: dict[str, SystemInfo]  # by system name, "model/quote mode"
    outcomes: list[AnswerOutcome]
    top_k: int
    ingest_s: float
    questions: list[str] = field(default_factory=list)  # query ids asked, in order


def refusal_rule(message: str) -> str:
    """The rule a refusal names, without item numbers: ``item N, citation N: the quote ...``."""
    rule = message.split("refused: ", 1)[-1]
    return _NUMBERS.sub("N", rule)


def outcome_of(report: AnswerReport) -> tuple[Outcome, str | None]:
    state = report.ai.state
    if state == AIState.ANSWERED and report.answer is not None:
        return ("abstained" if report.answer.abstained else "answered"), None
    error = report.ai.error
    if state == AIState.REFUSED and error is not None:
        return "refused", refusal_rule(error.message)
    if state == AIState.NO_EVIDENCE:
        return "no_evidence", None
    if state == AIState.FAILED:
        return "failed", str(error.code) if error else None
    return "unavailable", str(error.code) if error else None


def run_answer_eval(
    dataset: Dataset,
    settings: Settings,
    work_dir: Path,
    chats: Sequence[tuple[str, Answerer]],
    *,
    quotes: Sequence[QuoteMode] = ("free", "constrained"),
    limit: int | None = None,
    top_k: int = 3,
    on_answer: Callable[[AnswerOutcome], None] | None = None,
    on_report: Callable[[AnswerOutcome, AnswerReport, Answerer], None] | None = None,
    labels: Labels | None = None,
    dense: bool = False,
) -> AnswerRun:
    """Ingest ``dataset`` into ``work_dir`` (bm25 only; ``dense``: with the configured embedder
    too, and hybrid retrieval) and ask its first ``limit`` questions of every ``(name, chat)``
    in every quote mode."""
    settings = settings.replace(index_dir=str(work_dir), collection="answers")
    asked = list(dataset.queries[:limit] if limit else dataset.queries)
    outcomes: list[AnswerOutcome] = []
    with open_collection(settings=settings, create=True) as collection:
        t0 = time.perf_counter()
        split = ShownSentences(settings.answer.min_quote_chars)  # as `grk ingest` stores them
        ingest = collection.ingest(list(dataset.inputs), dense=dense, sentences=split)
        ingest_s = time.perf_counter() - t0
        if ingest.skipped:
            raise UsageError(
                ErrorCode.EVAL_DATASET,
                f"{len(ingest.skipped)} dataset inputs could not be ingested",
            )
        judgments = resolve(dataset, collection.documents(), collection.chunks())
        relevant = {
            q: {d for d, grade in grades.items() if grade > 0}
            for q, grades in judgments.qrels["document"].items()
        }
        keys = {
            d.document_id: dataset.document_key(d.source, d.external_id)
            for d in collection.documents()
        }
        for query in asked:
            wanted = (labels or {}).get(query.id)
            for name, chat in chats:
                for mode in _modes(chat, quotes):
                    t1 = time.perf_counter()
                    asks = None if mode == "extracted" else mode
                    report = answer_question(collection, query.text, chat, top_k=top_k, quotes=asks)
                    seconds = time.perf_counter() - t1
                    got = _score(query.id, f"{name}/{mode}", report, seconds, chat, relevant, keys)
                    got = _useful(got, report, wanted)
                    outcomes.append(got)
                    if on_report:
                        on_report(got, report, chat)
                    if on_answer:
                        on_answer(got)
    systems = {  # after the questions: an in-process model has paid for loading by now
        f"{name}/{mode}": SystemInfo(
            chat.provider, chat.model_name, mode, _seconds(getattr(chat, "load_seconds", None))
        )
        for name, chat in chats
        for mode in _modes(chat, quotes)
    }
    return AnswerRun(dataset, systems, outcomes, top_k, round(ingest_s, 3), [q.id for q in asked])


def contains_answer(answer: Answer | None, wanted: Sequence[str] | None) -> bool | None:
    """Whether a cited text of ``answer`` holds one of ``wanted`` (case and runs of whitespace
    folded; an edge counts with its whole evidence line). None: nothing is wanted."""
    if wanted is None:
        return None
    if answer is None:
        return False
    cited = [
        _fold(c.edge.evidence if isinstance(c, CitedEdge) else c.cited_text)
        for c in answer.citations
    ]
    return any(_fold(w) in text for w in wanted for text in cited)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _modes(chat: Answerer, quotes: Sequence[QuoteMode]) -> Sequence[SystemMode]:
    return ("extracted",) if isinstance(chat, Extractive) else quotes


def _useful(
    got: AnswerOutcome, report: AnswerReport, wanted: Sequence[str] | None
) -> AnswerOutcome:

    shown = report.answer if report.answer is not None else report.extracted
    return msgspec.structs.replace(
        got,
        contains_answer=contains_answer(report.answer, wanted),
        shown_contains_answer=contains_answer(shown, wanted),
    )


def _score(
    query_id: str,
    system: str,
    report: AnswerReport,
    seconds: float,
    chat: Answerer,
    relevant: dict[str, set[str]],
    keys: dict[str, str],
) -> AnswerOutcome:
    outcome, reason = outcome_of(report)
    wanted = relevant.get(query_id) or set()
    in_evidence = (
        any(keys.get(i.document_id) in wanted for i in report.bundle.passages) if wanted else None
    )
    cites = None
    items = all_relevant = 0
    if outcome == "answered" and report.answer is not None:
        answer = report.answer
        cited = [keys.get(_document(c)) for c in answer.citations]
        cites = any(k in wanted for k in cited)
        items = len(answer.items)
        all_relevant = sum(
            all(keys.get(_document(answer.citations[m - 1])) in wanted for m in item.markers)
            for item in answer.items
        )
    timings = getattr(chat, "last_timings", None) or {}
    menu = report.quotes
    return AnswerOutcome(
        query_id=query_id,
        system=system,
        outcome=outcome,
        reason=reason,
        seconds=round(seconds, 3),
        relevant_in_evidence=in_evidence,
        cites_relevant=cites,
        items=items,
        items_all_relevant=all_relevant,
        cut_off=getattr(chat, "last_finish_reason", None) == "length",
        completion_tokens=_int(timings.get("predicted_n")),
        tokens_per_second=_float(timings.get("predicted_per_second")),
        prompt_tokens=_int(timings.get("prompt_n")),
        enum_bytes=menu.enum_bytes if menu else None,
        spans_omitted=menu.omitted if menu else None,
    )


def _document(cited: Cited) -> str:
    """The cited document's id; a code-map edge is no document of the dataset."""
    return cited.document_id if isinstance(cited, CitedQuote) else ""


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) else None


def _float(value: Any) -> float | None:
    return round(float(value), 2) if isinstance(value, int | float) else None


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None
