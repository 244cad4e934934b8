"""``AnswerReport``: everything `grk answer` tells, as one value with a JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from groundkit.answer.bundle import EvidenceBundle
from groundkit.answer.contract import Answer
from groundkit.answer.excerpt import Excerpt
from groundkit.answer.judge import JudgeVerdict
from groundkit.answer.menu import QuoteMenu
from groundkit.errors import GroundkitError

__all__ = ["AIState", "AIStatus", "AnswerReport"]


class AIState(StrEnum):
    """Why there is, or is not, an explanation beside the evidence."""

    ANSWERED = "answered"  # a validated answer (possibly an abstention)
    NO_EVIDENCE = "no_evidence"  # nothing was retrieved, so no model was asked
    DISABLED = "disabled"  # AI off for this collection, or no such opt-in
    UNAVAILABLE = "unavailable"  # no credential, no keychain, a missing package
    FAILED = "failed"  # the provider failed, timed out or rate limited
    REFUSED = "refused"  # the model's answer broke the citation contract, or was cut off


@dataclass(frozen=True, slots=True)
class AIStatus:
    state: AIState
    profile: str | None = None
    provider: str | None = None
    model: str | None = None
    error: GroundkitError | None = None
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": str(self.state),
            "profile": self.profile,
            "provider": self.provider,
            "model": self.model,
            "reason": self.error.to_dict() if self.error else None,
            "warning": self.warning,
        }


@dataclass(frozen=True, slots=True)
class AnswerReport:
    """The question, the evidence (always), and the validated answer or why there is none.

    ``extracted`` is the answer groundkit composed from the evidence's best sentences, with no
    model, whenever ``answer`` is None and there was evidence (AI off, or a model's answer that
    failed or was refused): never a model's words, and labelled so wherever it is shown.

    ``refused_reply`` is the model's reply when it was refused (secret shapes and the profile's
    key scrubbed), for `--show-reply` on a terminal only: it is in no JSON form and no repr, so
    that nothing which serialises or logs a report carries model text that failed the contract.
    """

    query: str
    rewritten_query: str | None
    bundle: EvidenceBundle
    ai: AIStatus
    answer: Answer | None = None
    judge: JudgeVerdict | None = None
    judge_error: GroundkitError | None = None
    quotes: QuoteMenu | None = None  # with constrained quotes: the spans offered and cut
    refused_reply: str | None = field(default=None, repr=False)
    extracted: Answer | None = None
    # The best passage around the answer shown, when it is the evidence's own sentences
    # (extracted, or picked by a model), with those sentences marked (``answer.excerpt``).
    excerpt: Excerpt | None = None
    # The question was stop words alone ("the of and"): nothing was searched, as `grk search`
    # says; an empty bundle then is not "no passages found".
    no_searchable_words: bool = False

    def to_dict(self) -> dict[str, Any]:
        judge: dict[str, Any] | None = None
        if self.judge is not None:
            judge = self.judge.to_dict()
        elif self.judge_error is not None:
            judge = {"advisory": True, "error": self.judge_error.to_dict()}
        return {
            "query": self.query,
            "rewritten_query": self.rewritten_query,
            "evidence": self.bundle.to_dict(),
            "ai": self.ai.to_dict(),
            "answer": self.answer.to_dict() if self.answer else None,
            "judge": judge,
            "quotes": self.quotes.to_dict() if self.quotes else None,
            "extracted": self.extracted.to_dict() if self.extracted else None,
            "excerpt": self.excerpt.to_dict() if self.excerpt else None,
            "no_searchable_words": self.no_searchable_words,
        }
