"""CPU milliseconds to redact a typical evidence bundle before it goes to a hosted provider.

    PYTHONPATH=src .venv/bin/python benchmarks/redaction_speed.py [--rounds 30] [--docs DIR]

The bundle is what ``grk answer`` sends at its default size: the question and 8 passages of about
1,200 characters, cut from ``--docs`` (``docs/samples`` by default: prose with curly quotes and
dashes, so the non-ASCII path is taken, as it is for most real documents). Each round redacts the
system text and the user text through ``RedactingChat`` over a scripted model, as a call to a
hosted provider does, and takes the CPU time of the process (a busy machine inflates wall time
more). Prints the median and best CPU ms per bundle, for an ASCII-only bundle and the real one.

Only public names that every version of redaction has are used, so the same script measures
another checkout's code: ``PYTHONPATH=/path/to/other/src``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat
from groundkit.testing.chat import ScriptedChat

SYSTEM = 'Answer only from the sources between <source id="N"> and </source>. Reply with JSON only.'
QUESTION = "How do I configure the answer provider and where are citations checked?"
PASSAGES = 8
PASSAGE_CHARS = 1_200


def _passages(docs: Path) -> list[str]:
    texts = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(docs.rglob("*"))
        if p.suffix in (".md", ".txt", ".html", ".rst")
    ]
    pieces = [t[i : i + PASSAGE_CHARS] for t in texts for i in range(0, len(t), PASSAGE_CHARS)]
    if not pieces:
        raise SystemExit(f"no .md/.txt/.html/.rst text under {docs}")
    # A passage with a typical non-ASCII character or two (a curly quote, a dash), so that a
    # set of plain ASCII samples still measures the path most real documents take.
    pieces[0] = pieces[0] + " \u2014 see \u201cConfiguration\u201d."
    return [pieces[i % len(pieces)] for i in range(PASSAGES)]


def _user(passages: list[str]) -> str:
    sources = "".join(f'<source id="{i}">\n{p}\n</source>\n' for i, p in enumerate(passages, 1))
    return f"Question:\n{QUESTION}\n\nSources:\n{sources}"


def _cpu_ms(user: str, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        chat = RedactingChat(ScriptedChat(['{"items": []}'], local=False), DEFAULT_PATTERNS)
        start = time.process_time()
        chat.complete(SYSTEM, user)
        out.append((time.process_time() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--docs", type=Path, default=Path("docs/samples"))
    args = parser.parse_args()
    passages = _passages(args.docs)
    ascii_user = _user([p.encode("ascii", "ignore").decode() for p in passages])
    real_user = _user(passages)
    _cpu_ms(real_user, 2)  # first use loads rule files and fills caches: not a bundle's cost
    print(f"bundle: {PASSAGES} passages, {len(real_user):,} characters, from {args.docs}")
    print(f"{'bundle':<22}{'median CPU ms':>15}{'best CPU ms':>13}")
    for name, user in (("ASCII only", ascii_user), ("as written", real_user)):
        times = _cpu_ms(user, args.rounds)
        print(f"{name:<22}{statistics.median(times):>15.1f}{min(times):>13.1f}")


if __name__ == "__main__":
    main()
