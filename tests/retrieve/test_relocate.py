"""Finding a cited passage in a source's current text: where it was, near there, or anywhere."""

from __future__ import annotations

import pytest

from groundkit.retrieve.relocate import NEAR_CHARS, relocate


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("xxABCxx", 2, 2),  # where it was
        ("xxxxABCxx", 2, 4),  # moved a little
        ("ABCxxxxxxABC", 8, 9),  # the nearer of two
        ("ABCxxxxABC", 5, 7),  # equally near? the nearer start wins: 7 is 2 away, 0 is 5
        (
            "ABC" + "x" * (NEAR_CHARS * 3),
            NEAR_CHARS * 2,
            0,
        ),  # beyond the bounded search: found anywhere
        ("xxABxx", 2, None),  # gone
    ],
)
def test_relocate_finds_the_nearest_occurrence(text: str, start: int, expected: int | None) -> None:
    assert relocate("ABC", text, start) == expected


def test_an_occurrence_near_the_old_offset_wins_over_an_earlier_one_far_away() -> None:
    text = "ABC" + "x" * (NEAR_CHARS * 2) + "ABC" + "x" * 10
    assert relocate("ABC", text, NEAR_CHARS * 2) == NEAR_CHARS * 2 + 3
