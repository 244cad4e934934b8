"""A spinner while a model runs: a local model can take a minute to answer, a hosted one a while.

It draws on the real standard error, and only when that is a terminal and the output is text:
never on standard output, never into ``--json``, a pipe or a log. It goes away when the call
returns (transient), so what stays on the screen is the report.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

from groundkit.cli.output import raw_stderr

if TYPE_CHECKING:
    from groundkit.answer.chat import ChatModel
    from groundkit.answer.report import AIStatus
    from groundkit.answer.service import Busy

__all__ = ["model_spinner"]


def model_spinner(chat: ChatModel | AIStatus, *, enabled: bool) -> Busy:
    """What the answer path wraps each call of ``chat`` in: a spinner naming the model and what
    it is doing, with the time elapsed; a no-op when disabled, when there is no model to call, or
    when standard error is not a terminal."""
    from groundkit.answer.report import AIStatus

    stream = raw_stderr()
    if isinstance(chat, AIStatus) or not (enabled and stream.isatty()):
        return lambda doing: nullcontext()
    model = f"{chat.provider} {chat.model_name}"

    @contextmanager
    def spin(doing: str) -> Iterator[None]:
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        console = Console(file=stream)
        # Nothing else is redirected through it: standard output stays the report's alone.
        with Progress(
            *columns,
            console=console,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        ) as bars:
            # A model name is the user's text ("org/m[v2]"): never read as rich markup.
            bars.add_task(escape(f"{model}: {doing}"), total=None)
            yield

    return spin
