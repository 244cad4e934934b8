"""The language-model boundary: a model may explain evidence, never add to it.

Evidence is document passages or code-map edges, behind one interface (``evidence``). Flow:
``access.resolve_chat`` (opt-in, profile, credential, endpoint rules, redaction) gives a
``ChatModel`` or the reason there is none; ``service.answer_question`` (passages, and with a code
map the matching edges) or ``service.ask_code`` (a symbol's edges) builds the ``EvidenceBundle``,
asks once and passes the reply through ``contract.validate_answer``, the only way to obtain an
``Answer``. On any failure the ``AnswerReport`` carries the evidence and the reason. Names are
loaded on first use so that ``import groundkit`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundkit.answer.access import Runtime, resolve_chat
    from groundkit.answer.bundle import BundleItem, EvidenceBundle, build_bundle
    from groundkit.answer.chat import ChatModel, Transport
    from groundkit.answer.contract import ANSWER_SCHEMA, Answer, CitedQuote, validate_answer
    from groundkit.answer.echo import EchoReport, render_echo, run_echo_check
    from groundkit.answer.edges import CitedEdge, EdgeItem
    from groundkit.answer.evidence import EvidenceItem, Origins
    from groundkit.answer.report import AIState, AIStatus, AnswerReport
    from groundkit.answer.service import answer_question, ask_code
    from groundkit.secret import Secret

__all__ = [
    "ANSWER_SCHEMA",
    "AIState",
    "AIStatus",
    "Answer",
    "AnswerReport",
    "BundleItem",
    "ChatModel",
    "CitedEdge",
    "CitedQuote",
    "EchoReport",
    "EdgeItem",
    "EvidenceBundle",
    "EvidenceItem",
    "Origins",
    "Runtime",
    "Secret",
    "Transport",
    "answer_question",
    "ask_code",
    "build_bundle",
    "render_echo",
    "resolve_chat",
    "run_echo_check",
    "validate_answer",
]

_HOME = {
    "Runtime": "access",
    "resolve_chat": "access",
    "BundleItem": "bundle",
    "EvidenceBundle": "bundle",
    "build_bundle": "bundle",
    "ChatModel": "chat",
    "Transport": "chat",
    "ANSWER_SCHEMA": "contract",
    "Answer": "contract",
    "CitedQuote": "contract",
    "validate_answer": "contract",
    "CitedEdge": "edges",
    "EdgeItem": "edges",
    "EvidenceItem": "evidence",
    "Origins": "evidence",
    "EchoReport": "echo",
    "render_echo": "echo",
    "run_echo_check": "echo",
    "AIState": "report",
    "AIStatus": "report",
    "AnswerReport": "report",
    "Secret": "groundkit.secret",
    "answer_question": "service",
    "ask_code": "service",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'groundkit.answer' has no attribute {name!r}")
    home = _HOME[name]
    module = home if home.startswith("groundkit.") else f"groundkit.answer.{home}"
    return getattr(importlib.import_module(module), name)
