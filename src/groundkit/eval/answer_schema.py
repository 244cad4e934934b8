"""The `grk eval answers` report as frozen structs: the JSON file is these structs, key for key.

``build_answer_report`` makes an ``AnswerEvalReport``; ``read_answer_report`` decodes a file
straight into one (see ``eval.record``). Each row of ``outcomes`` is an ``eval.answers``
``AnswerOutcome``.
"""

from __future__ import annotations

from typing import Final, Literal

from groundkit.eval.answers import AnswerOutcome, SystemMode
from groundkit.eval.record import Record

__all__ = [
    "ANSWER_SCHEMA_ID",
    "AnswerConfig",
    "AnswerDatasetInfo",
    "AnswerEvalReport",
    "Interval",
    "OutcomeCounts",
    "Rates",
    "SystemSummary",
]

ANSWER_SCHEMA_ID: Final = "groundkit.eval.answers/1"


class AnswerDatasetInfo(Record, frozen=True):
    name: str
    kind: Literal["golden", "beir"]
    split: str | None
    hash: str
    questions: int  # asked (``--limit`` may ask fewer than the dataset holds)


class AnswerConfig(Record, frozen=True, omit_defaults=True):
    top_k: int  # passages per answer
    ingest_s: float
    retrieval: str
    # How an in-process model ran, recorded by benchmarks/answer_quality.py; `grk eval answers`
    # leaves them out (None is not written).
    threads: int | None = None
    max_tokens: int | None = None
    n_ctx: int | None = None
    omp_wait_policy: str | None = None
    system: str | None = None  # the answer system text: "default", or the file it came from
    grammar: dict[str, int | float] | None = None  # constrained-schema grammar cost, by measure


class Interval(Record, frozen=True):
    """A rate over questions with its 95% bootstrap interval."""

    mean: float
    low: float
    high: float


class Rates(Record, frozen=True):
    validated: Interval  # answered or abstained: the contract passed
    cites_relevant: Interval
    cites_relevant_of_answered: float | None  # None: nothing answered
    items_all_relevant: float | None  # share of answered items citing relevant documents only
    relevant_in_evidence: float | None  # None: no question had anything relevant
    # Of the questions with labels: the answer's cited text holds one (answered only), and what
    # a reader is shown (the answer, else the extracted one) does.
    contains_answer: float | None = None
    shown_contains_answer: float | None = None


class OutcomeCounts(Record, frozen=True):
    """Questions per outcome (``eval.answers.OUTCOMES``)."""

    answered: int
    abstained: int
    refused: int
    failed: int
    no_evidence: int
    unavailable: int


class SystemSummary(Record, frozen=True):
    """One system (a model in one quote mode) over every question asked."""

    provider: str
    model: str
    quotes: SystemMode
    load_seconds: float | None
    questions: int
    counts: OutcomeCounts
    refusals: dict[str, int]  # refusal rule: count, most common first
    failures: dict[str, int]  # error code: count, most common first
    cut_off: int  # replies stopped by max_tokens
    rates: Rates
    median_seconds: float | None
    median_tokens_per_second: float | None
    median_enum_bytes: float | None
    spans_omitted: int


class AnswerEvalReport(Record, frozen=True):
    schema: Literal["groundkit.eval.answers/1"]  # required: a file without it is not a run
    run_id: str
    groundkit: str  # the version that wrote it
    dataset: AnswerDatasetInfo
    config: AnswerConfig
    systems: dict[str, SystemSummary]
    outcomes: tuple[AnswerOutcome, ...]
