"""A capacity plan for a collection on Qdrant: memory and disk at 10M and 100M chunks.

    .venv/bin/python benchmarks/capacity.py [--chunk-payload B] [--doc-payload-per-chunk B]
        [--sparse-entries N] [--dims D] [--node-ram-gb G] [--replicas R]

This is arithmetic, not a measurement of a cluster (none runs here). Its inputs are what
``benchmarks/backends.py`` measured per point on SciFact (the defaults; pass your own corpus's
figures, printed by that script as "per chunk point: ..."), and Qdrant's published sizing rule
(docs "Capacity planning"): vectors held in RAM cost ``points x dimensions x bytes x 1.5``, the
half more for indexes, point versions and the segments an optimisation makes. int8 scalar
quantization keeps one byte per dimension in RAM (``always_ram``) and the float32 originals on
disk, read only to rescore. The BM25 sparse index costs an id and a weight (8 bytes) per entry,
and payloads are stored as JSON; with ``on_disk = true`` both are memory-mapped, so RAM for them
is page cache (the more of it, the faster), not a requirement.

Nodes: enough that every replica's share fits in ``--node-ram-gb`` with 30 % left for the page
cache and queries; shards: two per node, so the cluster can grow by moving shards, not
re-sharding.
"""

from __future__ import annotations

import argparse
import math

GB = 1e9
SIZING_FACTOR = 1.5  # Qdrant's rule: indexes, point versions, optimisation segments
SPARSE_ENTRY_BYTES = 8  # u32 dimension id + f32 weight
USABLE_RAM = 0.7  # of a node's RAM, for the resident part of the collection


def plan(args: argparse.Namespace, chunks: float) -> dict[str, float]:
    """Bytes per part of the collection at ``chunks`` chunks (one replica)."""
    return {
        "dense f32 in RAM": chunks * args.dims * 4 * SIZING_FACTOR,
        "dense int8 in RAM": chunks * args.dims * 1 * SIZING_FACTOR,
        "dense f32 on disk": chunks * args.dims * 4,
        "sparse index (mapped)": chunks * args.sparse_entries * SPARSE_ENTRY_BYTES,
        "payload (mapped)": chunks * (args.chunk_payload + args.doc_payload_per_chunk),
    }


def nodes_for(resident: float, args: argparse.Namespace) -> int:
    return max(
        args.replicas, math.ceil(resident * args.replicas / (args.node_ram_gb * GB * USABLE_RAM))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunk-payload", type=float, default=1743, help="bytes per chunk point")
    parser.add_argument(
        "--doc-payload-per-chunk", type=float, default=996, help="document point bytes / chunks"
    )
    parser.add_argument("--sparse-entries", type=float, default=58.1, help="per chunk")
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--node-ram-gb", type=float, default=64)
    parser.add_argument("--replicas", type=int, default=2)
    args = parser.parse_args()
    print(
        f"# capacity.py: per chunk {args.chunk_payload:.0f} B payload +"
        f" {args.doc_payload_per_chunk:.0f} B of its document's, {args.sparse_entries} sparse"
        f" entries, {args.dims} dimensions; nodes of {args.node_ram_gb:.0f} GB, {args.replicas}"
        " replicas\n"
    )
    print("| per 1M chunks, one replica | GB |")
    print("|---|---:|")
    for part, size in plan(args, 1e6).items():
        print(f"| {part} | {size / GB:.2f} |")
    print(
        "\n| chunks | vectors | RAM needed, one replica (GB) | disk, one replica (GB) |"
        " nodes | shards | replicas |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    for chunks in (10e6, 100e6):
        parts = plan(args, chunks)
        disk = (
            parts["dense f32 on disk"] + parts["sparse index (mapped)"] + parts["payload (mapped)"]
        )
        for label, resident, extra in (
            ("float32 in RAM", parts["dense f32 in RAM"], 0.0),
            ("int8 in RAM, float32 on disk", parts["dense int8 in RAM"], chunks * args.dims),
        ):
            nodes = nodes_for(resident, args)
            stored = (disk + extra) / GB
            print(
                f"| {chunks / 1e6:.0f}M | {label} | {resident / GB:.0f} | {stored:.0f} |"
                f" {nodes} | {2 * nodes} | {args.replicas} |"
            )


if __name__ == "__main__":
    main()
