"""The chunks that may fold, decided once per ingest: a search that folds only them gives the hits
of the walk that sets every hit against every kept one."""

from __future__ import annotations

import threading
from pathlib import Path
from random import Random
from typing import Any
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import groundkit
from groundkit.retrieve import near as near_module
from groundkit.retrieve import near_join
from groundkit.retrieve.duplicates import Fingerprint, fingerprint, near_duplicates
from groundkit.retrieve.engine import LocalEngine
from groundkit.retrieve.near import NearSnapshot
from groundkit.retrieve.near_join import near_flags

WIDE = [f"w{i}" for i in range(300)]


def _texts(
    vocabulary: list[str], *, words: tuple[int, int], most: int
) -> st.SearchStrategy[list[str]]:
    passage = st.lists(st.sampled_from(vocabulary), min_size=words[0], max_size=words[1])
    return st.lists(passage.map(" ".join), min_size=2, max_size=most)


def _with_copies(texts: list[str], rnd: Random) -> list[str]:
    """``texts`` and as many copies of them: with words dropped, a part, inside a longer text,
    or the same, in a random order."""
    for _ in range(len(texts)):
        words = rnd.choice(texts).split()
        cut = rnd.randrange(len(words) + 1)
        copies = (
            [w for w in words if rnd.random() > 0.1],
            words[cut : cut + rnd.randrange(len(words) + 1)],
            words + rnd.choice(texts).split(),
            words,
        )
        texts.append(" ".join(rnd.choice(copies)))
    rnd.shuffle(texts)
    return texts


def _pairwise(prints: list[Fingerprint]) -> list[int]:
    return [
        i
        for i, a in enumerate(prints)
        if any(near_duplicates(a, b) for j, b in enumerate(prints) if j != i)
    ]


@given(_texts(WIDE, words=(0, 80), most=15), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_the_flagged_chunks_are_those_the_pairwise_test_finds_a_near_duplicate_for(
    texts: list[str], rnd: Random
) -> None:
    prints = [fingerprint(t) for t in _with_copies(texts, rnd)]
    assert near_flags([p.to_bytes() for p in prints]) == _pairwise(prints)


@given(_texts(WIDE[:40], words=(10, 60), most=12), st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_too_many_pairs_to_count_flag_more_chunks_never_fewer(
    texts: list[str], rnd: Random
) -> None:
    prints = [fingerprint(t) for t in _with_copies(texts, rnd)]
    with patch.object(near_join, "_MAX_PAIRS", 0):
        flagged = near_flags([p.to_bytes() for p in prints])
    assert set(_pairwise(prints)) <= set(flagged)


@given(_texts(WIDE[:40], words=(10, 60), most=12), st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_pairs_past_the_counting_budget_flag_more_chunks_never_fewer(
    texts: list[str], rnd: Random
) -> None:
    prints = [fingerprint(t) for t in _with_copies(texts, rnd)]
    folds = [p.to_bytes() for p in prints]
    exact = near_flags(folds)
    with (
        patch.object(near_join, "_MIN_COUNTED", 1),
        patch.object(near_join, "_COUNTED_PER_CHUNK", 0),
    ):
        flagged = near_flags(folds)
    assert set(exact) <= set(flagged)


def test_pairs_past_the_counting_budget_are_flagged_without_reading_their_fingerprints() -> None:
    # 40 copies of one passage, each with a word of its own: 780 pairs, every one near.
    words = [f"w{i}" for i in range(60)]
    folds = [fingerprint(" ".join([*words, f"own{k}"])).to_bytes() for k in range(40)]
    read: set[int] = set()

    class Recording(list[bytes]):
        def __getitem__(self, i: int) -> bytes:  # type: ignore[override]
            read.add(i)
            return super().__getitem__(i)

    a, b = zip(*[(i, j) for i in range(40) for j in range(i + 1, 40)], strict=True)
    flagged = near_join._counted(Recording(folds), np.array(a), np.array(b), 3)
    assert flagged.tolist() == list(range(40))
    assert len(read) <= 6


def _hugepage_advice() -> bool:
    """Whether numpy asks for huge pages (``madvise``) for a large array it makes now."""
    from numpy._core.multiarray import _set_madvise_hugepage as switch

    was: bool = switch(True)
    switch(was)
    return was


def test_the_join_makes_its_arrays_without_huge_page_advice_and_puts_numpys_setting_back() -> None:
    # A 3-gram shared by two passages takes the join to its probes: watched there.
    words = [f"w{i}" for i in range(60)]
    folds = [fingerprint(" ".join([*words, f"own{k}"])).to_bytes() for k in range(3)]
    probes, seen = near_join._probes, []

    def watched(*args: Any) -> Any:
        seen.append(_hugepage_advice())
        return probes(*args)

    from numpy._core.multiarray import _set_madvise_hugepage as switch

    found = _hugepage_advice()
    try:
        for before in (True, False):
            switch(before)
            with patch.object(near_join, "_probes", watched):
                assert near_flags(folds) == [0, 1, 2]
            assert _hugepage_advice() is before
    finally:
        switch(found)
    assert seen == [False, False]


def test_two_joins_at_once_put_numpys_setting_back_as_the_first_found_it() -> None:
    # The first join ends while the second is still inside it: the order that left the advice
    # off when each put back what it had found.
    words = [f"w{i}" for i in range(60)]
    folds = [fingerprint(" ".join([*words, f"own{k}"])).to_bytes() for k in range(3)]
    probes, inside, first_done = near_join._probes, threading.Barrier(2), threading.Event()
    order: list[str] = []

    def watched(*args: Any) -> Any:
        inside.wait(timeout=60)
        if threading.current_thread().name == "second":
            assert first_done.wait(timeout=60)
        return probes(*args)

    def join(name: str) -> None:
        with patch.object(near_join, "_probes", watched):
            near_flags(folds)
        order.append(name)

    from numpy._core.multiarray import _set_madvise_hugepage as switch

    found = switch(True)
    try:
        second = threading.Thread(target=join, args=("second",), name="second")
        second.start()
        join("first")
        first_done.set()
        second.join(timeout=60)
        assert order == ["first", "second"]
        assert _hugepage_advice() is True
    finally:
        switch(found)


def test_a_snapshot_reads_back_as_written_and_a_torn_one_not_at_all() -> None:
    snapshot = NearSnapshot(41, 40, [3, 9, 27])
    data = snapshot.to_bytes()
    assert NearSnapshot.from_bytes(data) == snapshot
    assert NearSnapshot.from_bytes(data[:-1]) is None
    assert NearSnapshot.from_bytes(b"GKNEAR0\0" + data[8:]) is None
    assert [rowid for rowid in range(30) if snapshot.may_fold(rowid)] == [3, 9, 27]
    with patch.object(near_module, "_SET_UP_TO", 0):  # looked up by binary search
        searched = NearSnapshot(41, 40, [3, 9, 27])
    assert [rowid for rowid in range(30) if searched.may_fold(rowid)] == [3, 9, 27]
    assert snapshot.among(range(10)) == searched.among(range(10)) == {3, 9}


PASSAGE = (
    "The platypus hunts at dusk in slow rivers, closing its eyes and ears underwater and finding "
    "shrimp and larvae by the faint electric fields their muscles make, which the receptors in "
    "its soft bill pick up from a few centimetres away."
)


def _mirrors(docs: Path, rnd: Random, pages: int = 40) -> None:
    """Pages on one subject, a third of them copied again and again: whole, cut short, with a
    sentence more, or with their words shuffled a little."""
    words = PASSAGE.split()
    for i in range(pages):
        own = words[:]
        rnd.shuffle(own)
        text = " ".join(own[: rnd.randrange(12, len(own))]) + f" platypus page {i}."
        (docs / f"p{i:03}.md").write_text(text + "\n")
        if i % 3 == 0:
            for copy in range(rnd.randrange(1, 6)):
                kind = rnd.randrange(3)
                variant = text if kind == 0 else text[: int(len(text) * 0.9)]
                if kind == 2:
                    variant = text + " It sleeps by day in a burrow."
                (docs / f"p{i:03}-copy{copy}.txt").write_text(variant + "\n")


def _searches(coll: groundkit.Collection) -> list[list[groundkit.Hit]]:
    queries = ("platypus", "platypus dusk rivers", "electric fields bill", "shrimp larvae page")
    return [coll.search(q, top_k=k, mode="bm25") for q in queries for k in (1, 4, 10, 60)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_folding_only_the_flagged_chunks_gives_the_hits_of_the_full_walk(
    tmp_path: Path, seed: int
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _mirrors(docs, Random(seed))
    with groundkit.open_collection("m", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        fast = _searches(coll)
        with patch.object(LocalEngine, "near", lambda self: None):
            full = _searches(coll)
    assert fast == full
    assert any(hit.folded for hits in fast for hit in hits)  # copies were folded


def test_equal_scores_keep_their_order_when_the_first_round_is_only_top_k_deep(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(60):  # the same length, one "platypus" each: every score the same
        (docs / f"n{i:03}.txt").write_text(f"platypus note number {i:03} of many\n")
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        fast = [coll.search("platypus", top_k=k, mode="bm25") for k in (3, 10, 19)]
        with patch.object(LocalEngine, "near", lambda self: None):
            full = [coll.search("platypus", top_k=k, mode="bm25") for k in (3, 10, 19)]
    assert len({h.score for h in fast[2]}) == 1
    assert fast == full


def test_a_chunk_added_after_the_index_was_made_is_folded_the_whole_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "platypus.md").write_text(f"# Platypus\n\n{PASSAGE}\n")
    (docs / "numbat.md").write_text("# Numbat\n\nThe numbat eats termites, and no platypus.\n")
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        # As when few chunks are added to many: the sync leaves the file as it was.
        monkeypatch.setattr(near_module, "_LAG_FRACTION", 0)
        (docs / "platypus.html").write_text(f"<html><body><p>{PASSAGE}</p></body></html>")
        coll.ingest([str(docs)])
        hits = coll.search("platypus dusk rivers", top_k=2, mode="bm25")
    assert [c.source for c in hits[0].folded] in (["platypus.html"], ["platypus.md"])
    assert hits[1].citation.source == "numbat.md"


def test_a_lost_index_is_made_again_when_the_collection_opens(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(f"# A\n\n{PASSAGE}\n")
    (docs / "b.txt").write_text(f"{PASSAGE}\n")
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        before = coll.search("platypus", top_k=2)
    made = tmp_path / "index" / "c" / "near.bin"
    flagged = NearSnapshot.from_bytes(made.read_bytes())
    assert flagged is not None
    assert len(flagged.flagged) == 2
    made.write_bytes(b"torn")
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        assert coll.search("platypus", top_k=2) == before
        assert coll.status().pending == 0
    assert NearSnapshot.from_bytes(made.read_bytes()) == flagged
