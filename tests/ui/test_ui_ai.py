"""What the pages say about AI for a collection, before any model is involved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from groundkit.errors import missing_extra
from groundkit.serve.ui.ai import ai_view


class WithoutTheAIExtra:
    """An AI environment on a machine without the ``ai`` extra: the opt-in file cannot be found."""

    def opt_ins(self) -> Any:
        raise missing_extra("platformdirs", "ai")


def test_without_the_ai_extra_ai_is_off_and_the_note_says_what_turning_it_on_needs(
    tmp_path: Path,
) -> None:
    view = ai_view(WithoutTheAIExtra(), tmp_path)  # type: ignore[arg-type]
    assert not view.enabled
    assert view.note == "off (turning it on needs `pip install 'groundkit[ai]'`)"
    assert "platformdirs" not in view.note  # a package name the user never chose reads as a fault
