"""``Hit``: a frozen value whose snippet and metadata may be made only when first read."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import groundkit
from groundkit.types import Citation, Hit

CITATION = Citation("c", "d1", None, "k1", "a.md", 0, 5, "/a.md", 1, 1)


class Counting:
    def __init__(self, value: object) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_a_snippet_given_as_a_function_is_made_once_and_only_when_read() -> None:
    make_snippet, make_meta = Counting("…torque…"), Counting({"lang": "en"})
    hit = Hit(1, 2.5, CITATION, "torque", make_snippet, make_meta)  # type: ignore[arg-type]
    assert (make_snippet.calls, make_meta.calls) == (0, 0)
    assert hit.snippet == "…torque…"
    assert hit.snippet == "…torque…"
    assert hit.metadata == {"lang": "en"}
    assert hit.metadata == {"lang": "en"}
    assert (make_snippet.calls, make_meta.calls) == (1, 1)


def test_a_hit_is_frozen() -> None:
    hit = Hit(1, 2.5, CITATION, "torque", "torque")
    with pytest.raises(FrozenInstanceError):
        hit.rank = 2
    with pytest.raises(FrozenInstanceError):
        del hit.text


def test_hits_compare_by_value_whether_made_now_or_later() -> None:
    eager = Hit(1, 2.5, CITATION, "torque", "snip", {"a": 1}, {"bm25": 1})
    lazy = Hit(1, 2.5, CITATION, "torque", lambda: "snip", lambda: {"a": 1}, {"bm25": 1})
    assert eager == lazy
    assert eager != Hit(2, 2.5, CITATION, "torque", "snip", {"a": 1}, {"bm25": 1})
    assert "snippet='snip'" in repr(lazy)


def test_a_hit_survives_pickle_and_copy() -> None:
    hit = Hit(1, 2.5, CITATION, "torque", lambda: "snip", lambda: {"a": 1}, folded=(CITATION,))
    assert pickle.loads(pickle.dumps(hit)) == hit
    assert copy.copy(hit) == hit
    assert copy.deepcopy(hit) == hit


def test_search_hits_show_the_snippet_and_metadata_of_their_chunk(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.md").write_text("# Manual\n\n## Setup\n\nCalibrate the torque gauge.\n")
    (docs / "notes.txt").write_text("Widget colours in English.\n")
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        (hit,) = coll.search("torque", mode="bm25", top_k=1)
    assert hit.metadata["heading_path"] == ["Manual"]
    assert "torque gauge" in hit.snippet
    assert hit.to_dict()["snippet"] == hit.snippet
