"""``--rewrite``: one call turns the question into one search query, or fails loudly."""

from __future__ import annotations

from groundkit.answer import strict
from groundkit.answer.chat import ChatModel
from groundkit.answer.prompts import REWRITE_SYSTEM
from groundkit.errors import AIError, ErrorCode

__all__ = ["MAX_QUERY_CHARS", "rewrite_query"]

MAX_QUERY_CHARS = 500


def rewrite_query(chat: ChatModel, question: str) -> str:
    """The rewritten query, or ``ai.rewrite_invalid`` for blank, multi-line, over-long or
    unprintable output: never a silent fallback to the original question."""
    raw = chat.complete(REWRITE_SYSTEM, question).strip()
    if not raw:
        raise _invalid("blank")
    if len(raw) > MAX_QUERY_CHARS:
        raise _invalid(f"longer than {MAX_QUERY_CHARS} characters")
    if "\n" in raw or "\r" in raw:
        raise _invalid("more than one line")
    if not strict.printable(raw):
        raise _invalid("not printable (a control character or a lone surrogate)")
    return raw


def _invalid(what: str) -> AIError:
    return AIError(
        ErrorCode.AI_REWRITE_INVALID,
        f"the rewritten query was {what}",
        hint="run without --rewrite to search with the question as written",
    )
