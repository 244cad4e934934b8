"""Whether a collection or a code map may use AI, as the pages say it: the opt-in file `grk ai`
writes (a map is keyed by its folder, as a collection is).

Reading it never calls a model or the network; a model is only ever called from the answer page
and the code map's ask box, on the server, after the same checks `grk answer` and `grk ask` make
(``answer.access.resolve_chat``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from groundkit.errors import ErrorCode, GroundkitError

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment

__all__ = ["AIEnvironmentFactory", "AIView", "ai_view"]

AIEnvironmentFactory = Callable[[], "AIEnvironment"]


@dataclass(frozen=True, slots=True)
class AIView:
    enabled: bool
    profile: str | None
    note: str  # one line for a person: "on, profile box" / "off" / why it cannot be read


def ai_view(ai_environment: AIEnvironment, collection_path: Path) -> AIView:
    try:
        settings = ai_environment.opt_ins()
        opt_in = settings.get(collection_path)
    except GroundkitError as exc:
        if exc.code == ErrorCode.MISSING_EXTRA:  # off, and turning it on needs the extra first
            return AIView(False, None, f"off (turning it on needs `{exc.hint}`)")
        return AIView(False, None, f"off ({exc.message})")
    if opt_in is None:
        return AIView(
            False, None, "off" if settings.warning is None else f"off ({settings.warning})"
        )
    return AIView(True, opt_in.profile, f"on, profile {opt_in.profile}")
