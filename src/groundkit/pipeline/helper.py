"""A helper process of ``pipeline.helpers``: ``python -m groundkit.pipeline.helper``.

Reads ``(file, settings, known, chunking)`` tasks from standard input and writes each one's
``Prepared`` to standard output, in order, until its input ends.
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the writer's to handle
    # Standard output carries the answers: anything a parser prints goes to nothing instead.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, sys.stdout.fileno())
    sys.stdout = sys.stderr
    from groundkit.pipeline.helpers import prepare_file, receive, send

    tasks = sys.stdin.buffer
    while isinstance(task := receive(tasks), tuple):
        send(answers, prepare_file(*task))


if __name__ == "__main__":
    main()
