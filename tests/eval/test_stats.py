"""The paired bootstrap and its verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from groundkit.eval.stats import paired_bootstrap


def test_identical_systems_are_indistinguishable_with_a_zero_interval() -> None:
    scores = [0.1, 0.5, 0.9, 0.3]
    delta = paired_bootstrap(scores, scores)
    assert (delta.delta, delta.low, delta.high) == (0.0, 0.0, 0.0)
    assert delta.verdict == "indistinguishable"


def test_a_consistent_gain_on_every_query_is_better() -> None:
    base = list(np.linspace(0.1, 0.8, 50))
    delta = paired_bootstrap(base, [b + 0.05 for b in base])
    assert delta.delta == pytest.approx(0.05)
    assert delta.low > 0
    assert delta.verdict == "better"


def test_a_consistent_loss_is_worse() -> None:
    base = list(np.linspace(0.2, 0.9, 50))
    assert paired_bootstrap(base, [b - 0.1 for b in base]).verdict == "worse"


def test_pairing_sees_a_small_gain_that_unpaired_noise_would_hide() -> None:
    # Queries differ wildly in difficulty, but the other system gains a little on each one.
    rng = np.random.default_rng(1)
    base = list(rng.uniform(0, 1, 200))
    other = [min(1.0, b + 0.02) for b in base]
    assert paired_bootstrap(base, other).verdict == "better"


def test_one_lucky_query_is_not_a_win() -> None:
    base = [0.5] * 30
    other = [0.5] * 29 + [1.0]
    assert paired_bootstrap(base, other).verdict == "indistinguishable"


def test_the_interval_is_reproducible() -> None:
    rng = np.random.default_rng(7)
    base, other = list(rng.uniform(0, 1, 40)), list(rng.uniform(0, 1, 40))
    assert paired_bootstrap(base, other) == paired_bootstrap(base, other)


def test_unequal_or_empty_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="equally long"):
        paired_bootstrap([0.1], [0.1, 0.2])
    with pytest.raises(ValueError, match="equally long"):
        paired_bootstrap([], [])
