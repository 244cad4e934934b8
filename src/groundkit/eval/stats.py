"""Paired-bootstrap confidence intervals for the difference between two systems."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

__all__ = ["Delta", "paired_bootstrap"]

Verdict = Literal["better", "worse", "indistinguishable"]

RESAMPLES, SEED = 2000, 20240  # fixed, so a run's intervals are reproducible


@dataclass(frozen=True, slots=True)
class Delta:
    """Mean per-query difference ``other - base`` and its percentile interval."""

    delta: float
    low: float
    high: float
    level: float

    @property
    def verdict(self) -> Verdict:
        """Better or worse only when the whole interval lies on one side of zero."""
        if self.low > 0:
            return "better"
        if self.high < 0:
            return "worse"
        return "indistinguishable"

    def to_dict(self) -> dict[str, float | str]:
        return {
            "delta": self.delta,
            "low": self.low,
            "high": self.high,
            "level": self.level,
            "verdict": self.verdict,
        }


def paired_bootstrap(
    base: Sequence[float],
    other: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = 0.95,
) -> Delta:
    """Both systems were scored on the same queries, so queries are resampled with replacement
    and each resample keeps a query's two scores together (paired)."""
    diff = np.asarray(other, np.float64) - np.asarray(base, np.float64)
    if diff.ndim != 1 or diff.size == 0 or len(base) != len(other):
        raise ValueError("need two equally long, non-empty score lists")
    picks = np.random.default_rng(seed).integers(0, diff.size, size=(resamples, diff.size))
    means = diff[picks].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return Delta(float(diff.mean()), float(low), float(high), level)
