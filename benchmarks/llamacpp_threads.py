"""llama.cpp threads on a small machine: busy-waiting OpenMP workers against passive ones.

    .venv/bin/python benchmarks/llamacpp_threads.py [--model PATH] [--load] [--repeat 3]

Each configuration runs in a fresh process (OpenMP reads ``OMP_WAIT_POLICY`` once, when the
library loads): one chat completion of a fixed 560-token prompt and 128 generated tokens through
``LlamaCppChat``. ``--load`` keeps one other core busy for the whole run with a spinning process,
as another job on a shared 2-core machine does. Prints median wall seconds, prompt and generation
tokens per second, and the model's load time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

_CHILD = """
import json, sys, time
from groundkit.answer.providers.llamacpp import LlamaCppChat
chat = LlamaCppChat(sys.argv[1] or None, max_tokens=128, n_threads=int(sys.argv[2]))
text = open(sys.argv[3], encoding="utf-8").read()
t0 = time.perf_counter()
chat.complete("Answer briefly.", "Question: how are citations checked?\\n\\nSources:\\n" + text)
wall = time.perf_counter() - t0
t = chat.last_timings or {}
print(json.dumps({"wall": wall, "load": chat.load_seconds, "prompt_tps":
                  t.get("prompt_per_second"), "gen_tps": t.get("predicted_per_second")}))
"""


def _spin(stop_at: float) -> None:
    while time.time() < stop_at:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="", help="a .gguf path (default: the SmolLM2 package)")
    parser.add_argument("--load", action="store_true", help="keep one other core busy")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sample = Path(__file__).resolve().parents[1] / "docs" / "samples" / "citations.md"
    configs = [("ACTIVE", 2), ("PASSIVE", 2), ("PASSIVE", 1)]
    spinner = None
    if args.load:  # bounded: it stops by itself after 20 minutes at most
        spinner = multiprocessing.Process(target=_spin, args=(time.time() + 1200,), daemon=True)
        spinner.start()
    rows = []
    try:
        for policy, threads in configs:
            runs = []
            for _ in range(args.repeat):
                env = {**os.environ, "OMP_WAIT_POLICY": policy}
                out = subprocess.run(
                    [sys.executable, "-c", _CHILD, args.model, str(threads), str(sample)],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                    timeout=1800,
                )
                runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
            rows.append(
                (
                    policy,
                    threads,
                    statistics.median(r["wall"] for r in runs),
                    statistics.median(r["prompt_tps"] or 0 for r in runs),
                    statistics.median(r["gen_tps"] or 0 for r in runs),
                    statistics.median(r["load"] for r in runs),
                )
            )
    finally:
        if spinner is not None:
            spinner.terminate()
    print(f"other core busy: {args.load}; median of {args.repeat} fresh processes")
    print(
        f"{'OMP_WAIT_POLICY':<16}{'threads':>8}{'wall s':>9}{'prompt t/s':>12}{'gen t/s':>9}"
        f"{'load s':>8}"
    )
    for policy, threads, wall, ptps, gtps, load in rows:
        print(f"{policy:<16}{threads:>8}{wall:>9.2f}{ptps:>12.1f}{gtps:>9.1f}{load:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
