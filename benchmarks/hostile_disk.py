"""Full disk, for real: a disk of a few MB filled to its last byte, on the embedded backend and
on Qdrant's engine in a folder (a ``path`` collection). The disk is a tmpfs in a private mount
namespace (``unshare -rm``, no root needed) or the disk-fault shim preloaded into every process
(tests/disk_layers.py): ``hostile_round.py --disk-layer`` picks one.

A write that runs out of room holds when it is ``store.disk_full`` with exit 1; a read holds
when it works (exit 0) at 0 bytes free; nothing may die of SIGBUS (exit 135) or hang."""

from __future__ import annotations

from hostile_kit import FULL, Kit, Ran, Try

_QDRANT_PATH = (
    '@printf \'[collections.notes]\\nbackend = "qdrant"\\npath = "MNT/qpath"\\n\' > MNT/grk.toml'
)
_CODE = [
    "@mkdir -p MNT/repo/pkg && touch MNT/repo/pkg/__init__.py",
    "@printf 'def a():\\n    return b()\\n\\n\\ndef b():\\n    return 1\\n' > MNT/repo/pkg/m.py",
]

_CHAIN = "".join(f"def f{i}():\\n    return f{i + 1}()\\n" for i in range(60))


def _full(name: str, ran: Ran) -> Try:
    held = (ran.code, ran.error_code) == (1, "store.disk_full")
    return Try(name, held, ran.said())


def _reads(name: str, ran: Ran) -> Try:
    return Try(name, ran.code == 0, ran.said())


def full_disk(kit: Kit) -> list[Try]:
    missing = kit.disk.missing()
    if missing is not None:
        return [Try(f"a {kit.disk.name} disk can be made here", False, missing)]
    tries: list[Try] = []
    made, mapped, status, search, show, shown, traced, more, new, remap = kit.on_small_disk(
        "embedded",
        "3m",
        [
            "GRK ingest -q docs",
            *_CODE,
            "GRK map -q MNT/repo",
            "@printf '# Late\\n\\nA late note.\\n' > MNT/docs/late.md",
            "@printf 'def c():\\n    return 2\\n' >> MNT/repo/pkg/m.py",
            FULL,
            "GRK status",
            "GRK search granite",
            "GRK collections",
            "GRK map show",
            "GRK trace pkg.m.a --map repo",
            "GRK ingest -q docs",
            "GRK -c other ingest -q docs2",
            "GRK map -q MNT/repo",
        ],
    )
    if made.code != 0 or mapped.code != 0:
        return [Try("set-up: ingest and map on a 3 MB disk", False, made.said() + mapped.said())]
    tries += [
        _reads("embedded: status at 0 bytes free", status),
        Try(
            "embedded: search at 0 bytes free",
            search.code == 0 and bool(search.json.get("hits")),
            search.said(),
        ),
        _reads("embedded: collections at 0 bytes free", show),
        _reads("code map: map show at 0 bytes free", shown),
        _reads("code map: trace at 0 bytes free", traced),
        _full("embedded: ingest starting on a full disk", more),
        _full("embedded: a new collection on a full disk", new),
        _full("code map: a map starting on a full disk", remap),
    ]
    # The disk fills right after the store commits: reads go on, and say what is pending.
    _, broke, old, changed, _status = kit.on_small_disk(
        "pending",
        "3m",
        [
            "GRK ingest -q docs",
            "@for f in MNT/docs/d1*.md; do printf '# Changed\\n\\nBasalt note.\\n' > $f; done",
            "HOOKS after-store-commit fill=MNT/filler --index-dir MNT/index ingest -q docs",
            "@cat /dev/zero > MNT/refill 2>/dev/null; true",
            "GRK search granite",
            "GRK search basalt",
            "GRK status",
        ],
    )
    tries += [
        _full("embedded: the disk fills after the store commit", broke),
        Try(
            "embedded: search says what is pending",
            bool(changed.json.get("pending")),
            changed.said(),
        ),
        Try("embedded: old documents still found", bool(old.json.get("hits")), old.said()),
    ]
    # A map that fills the disk halfway through its one transaction.
    *_, mid = kit.on_small_disk(
        "map-mid",
        "8m",
        [
            "@mkdir -p MNT/repo/pkg",
            *(f"@printf '{_CHAIN}' > MNT/repo/pkg/m{j}.py" for j in range(12)),
            "HOOKS mid-map fill=MNT/filler --index-dir MNT/index map -q MNT/repo",
        ],
    )
    tries.append(_full("code map: the disk fills mid-map", mid))
    for size in ("300m", "2m"):
        made, status, search, more = kit.on_small_disk(
            f"qdrant-{size}",
            size,
            [
                _QDRANT_PATH,
                "GRK -c notes ingest -q docs",
                FULL,
                "GRK -c notes status",
                "GRK -c notes search granite",
                "GRK -c notes ingest -q docs2",
            ],
        )
        if size == "2m":
            tries.append(_full("qdrant path: ingest on a 2 MB disk", made))
            continue
        tries += [
            _reads("qdrant path: status at 0 bytes free", status),
            Try(
                "qdrant path: search at 0 bytes free",
                search.code == 0 and bool(search.json.get("hits")),
                search.said(),
            ),
        ]
        tries.append(_full("qdrant path: ingest on a full disk", more))
    return tries
