"""A kill -9 anywhere in an ingest into a Qdrant collection shows no document twice and none in
part; the next ingest finishes the change. Both ways of holding the collection are killed: a
cluster, a loopback server in a process of its own (groundkit.testing.qdrant_server) that outlives
the killed `grk` as a cluster would; and Qdrant's engine in process (`path`), whose shard files
the killed `grk` was writing itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit.collection import Collection
from groundkit.config import parse_settings
from groundkit.testing.qdrant_server import server_process

HOOKS = Path(__file__).parents[1] / "crash_hooks.py"
_FILES = 150  # two chunks each: a second ingest sends more than one batch before it commits


def _write_tree(root: Path, version: int) -> None:
    """Every note at ``version``; from version 2 on, the last ten are gone."""
    root.mkdir(exist_ok=True)
    for i in range(_FILES):
        path = root / f"note{i:03}.md"
        if version > 1 and i >= _FILES - 10:
            path.unlink(missing_ok=True)
            continue
        body = f"Version {version} of note{i:03} says token{i}v{version}. " * 14
        path.write_text(f"# Note {i}\n\n{body}\n\n## More\n\n{body}\n", encoding="utf-8")


@pytest.fixture(params=["url", "path"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The collection's settings: a cluster's address, or a shard folder in this process."""
    if request.param == "path":
        yield {"path": str(tmp_path / "shard")}
        return
    with server_process() as address:
        yield {"url": address}


def _config(tmp_path: Path, where: dict[str, str]) -> Path:
    config = tmp_path / "grk.toml"
    ((key, value),) = where.items()
    config.write_text(
        f'index_dir = "{tmp_path / "index"}"\n[ingest]\nhelpers = 0\n'
        f'[collections.default]\nbackend = "qdrant"\n{key} = "{value}"\n'
    )
    return config


def _ingest(config: Path, tree: Path, crash_at: str | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    grk = ["--config", str(config), "ingest", "--quiet", str(tree)]
    if crash_at:
        run = [sys.executable, str(HOOKS), crash_at, "kill", *grk]
    else:
        run = [sys.executable, "-m", "groundkit.cli.main", *grk]
    return subprocess.run(run, env=env, capture_output=True, check=False).returncode


def _open(where: dict[str, str]) -> Collection:
    settings = parse_settings({"collections": {"default": {"backend": "qdrant", **where}}})
    return groundkit.open_collection("default", settings=settings, create=False)


def _versions(where: dict[str, str]) -> dict[str, int]:
    """Each visible document's version, after checking that it is there once and whole."""
    with _open(where) as collection:
        documents = collection.documents()
        chunks = collection.chunks()
    sources = Counter(d.source for d in documents)
    assert max(sources.values()) == 1, "a document is visible twice"
    per_document = Counter(c.document_id for c in chunks)
    versions = {}
    for document in documents:
        assert per_document[document.document_id] == 2, "a document is visible in part"
        mine = [c for c in chunks if c.document_id == document.document_id]
        seen = {int(c.text.split("Version ")[1].split()[0]) for c in mine}
        assert len(seen) == 1, "a document's chunks are of two versions"
        versions[document.source] = seen.pop()
    return versions


# Where each kill lands, and what a reader sees after it: the run before, or the run whole.
_KILLS = [
    ("mid-ingest", "before"),  # reading files, nothing sent
    ("qdrant-batch-sent", "before"),  # a batch of the new version sent, more to come
    ("qdrant-before-flip", "before"),  # all sent, the old marked dead, not yet committed
    ("qdrant-after-flip", "after"),  # committed, the dead not yet collected
]


def test_kill_9_shows_the_collection_before_or_after_the_run_and_the_next_run_finishes(
    tmp_path: Path, where: dict[str, str]
) -> None:
    tree, config = tmp_path / "tree", _config(tmp_path, where)
    _write_tree(tree, 1)
    assert _ingest(config, tree) == 0
    assert set(_versions(where).values()) == {1}
    for version, (crash_at, outcome) in enumerate(_KILLS, start=2):
        _write_tree(tree, version)
        assert _ingest(config, tree, crash_at) == -signal.SIGKILL, crash_at
        found = _versions(where)
        seen = version - 1 if outcome == "before" else version
        expected = _FILES if seen == 1 else _FILES - 10
        assert (len(found), set(found.values())) == (expected, {seen}), crash_at

        assert _ingest(config, tree) == 0, crash_at
        found = _versions(where)
        assert (len(found), set(found.values())) == (_FILES - 10, {version}), crash_at
    with _open(where) as collection:
        status = collection.status()
        assert (status.documents, status.chunks, status.pending) == (_FILES - 10, 280, 0)
        hits = collection.search(f"token7v{version}", mode="bm25")
        assert {h.citation.source for h in hits} == {"note007.md"}
        assert collection.search("token7v2", mode="bm25") == []
