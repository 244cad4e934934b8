"""The extractive provider, as the registry names it: ``groundkit.answer.extractive``, which
runs no model (it lives outside this package so that `grk answer` with AI off loads none)."""

from __future__ import annotations

from groundkit.answer.extractive import SENTENCES, Answerer, Extractive

__all__ = ["SENTENCES", "Answerer", "Extractive"]
