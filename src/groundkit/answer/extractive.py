"""The extractive provider: an answer made of the evidence's own sentences, with no model.

Nothing leaves the process and no model runs, so it needs no opt-in: `grk answer` shows its
answer whenever no model's answer is shown (AI off, or a model that failed or was refused), and
a profile may name it (``provider = "extractive"``) to make it the answer. Its reply goes
through ``validate_answer`` as a model's does, and passes by construction (``answer.extract``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.answer.chat import ChatModel
from groundkit.answer.contract import QuoteRules
from groundkit.answer.extract import Sentence, candidates, choose, rank, reply_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.embed.base import Embedder

__all__ = ["SENTENCES", "Answerer", "Extractive"]

SENTENCES = 3  # the few a reader takes in at a glance


@dataclass(frozen=True, slots=True)
class Extractive:
    """Answers with the ``sentences`` that best match the question (BM25 and, where the
    collection has one, its embedder)."""

    sentences: int = SENTENCES
    provider: str = "extractive"
    local: bool = True

    @property
    def model_name(self) -> str:
        return "sentences"

    def compose(
        self,
        question: str,
        bundle: EvidenceBundle,
        *,
        embedder: Embedder | None,
        min_quote_chars: int,
    ) -> str:
        """The reply (answer JSON) made of the best sentences of ``bundle`` for ``question``."""
        rules = QuoteRules.of(min_quote_chars, question, bundle.query)
        ranked = rank(question, candidates(bundle, rules, question), embedder)
        return self.compose_ranked(ranked)

    def compose_ranked(self, ranked: Sequence[Sentence]) -> str:
        """The reply made of the best of ``ranked`` (the bundle's sentences, best first)."""
        return reply_of(choose(ranked, self.sentences))


Answerer = ChatModel | Extractive  # what a profile builds: a model, or no model at all
