"""``--judge``: an advisory second opinion on whether the answer is faithful to its sources.

It never changes the outcome or the exit status, and it gives no numeric score: a verdict, the
claims it found unsupported, and its reasoning. Output that breaks the schema is an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from groundkit.answer import strict
from groundkit.answer.bundle import EvidenceBundle
from groundkit.answer.chat import ChatModel
from groundkit.answer.contract import Answer
from groundkit.answer.prompts import JUDGE_SYSTEM, judge_user
from groundkit.answer.scrub import scrub_secrets
from groundkit.errors import AIError, ErrorCode

__all__ = ["JUDGE_SCHEMA", "JudgeVerdict", "judge_answer"]

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "faithful": {"type": "boolean"},
        "unsupported_claims": {"type": "array", "items": {"type": "string"}},
        "reasoning": {"type": "string"},
    },
    "required": ["faithful", "unsupported_claims", "reasoning"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class JudgeVerdict:
    faithful: bool
    unsupported_claims: tuple[str, ...]
    reasoning: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "advisory": True,
            "faithful": self.faithful,
            "unsupported_claims": list(self.unsupported_claims),
            "reasoning": self.reasoning,
        }


def judge_answer(
    chat: ChatModel,
    question: str,
    bundle: EvidenceBundle,
    answer: Answer,
    *,
    scrub: Callable[[str], str] = scrub_secrets,
) -> JudgeVerdict:
    """Raises ``AIError`` (``ai.judge_invalid`` for output off the schema). The verdict's prose
    is scrubbed of secret shapes (and, with ``scrub``, the profile's key)."""
    shown = json.dumps(
        {
            "items": [
                {
                    "text": item.text,
                    "citations": [answer.citations[m - 1].source for m in item.markers],
                }
                for item in answer.items
            ]
        },
        ensure_ascii=False,
    )
    raw = chat.complete(
        JUDGE_SYSTEM, judge_user(question, bundle, shown), response_schema=JUDGE_SCHEMA
    )
    try:
        data = strict.loads(raw)
    except (ValueError, TypeError):
        _invalid("not one strict JSON object")
    if not isinstance(data, dict) or set(data) != set(JUDGE_SCHEMA["required"]):
        _invalid("not an object with exactly faithful, unsupported_claims and reasoning")
    claims = data["unsupported_claims"]
    if type(data["faithful"]) is not bool:
        _invalid("faithful is not a boolean")
    if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
        _invalid("unsupported_claims is not a list of strings")
    if not isinstance(data["reasoning"], str):
        _invalid("reasoning is not a string")
    if not all(strict.printable(text) for text in (*claims, data["reasoning"])):
        _invalid("it has a control character or a lone surrogate")
    return JudgeVerdict(data["faithful"], tuple(scrub(c) for c in claims), scrub(data["reasoning"]))


def _invalid(what: str) -> NoReturn:
    raise AIError(ErrorCode.AI_JUDGE_INVALID, f"the judge's verdict was refused: {what}")
