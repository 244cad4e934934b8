"""Near-duplicates do not fill the top of the list: the same passage stored as .md, .html and in
an all.html is one hit, with the copies folded into it."""

from __future__ import annotations

from pathlib import Path

import pytest

import groundkit

PASSAGE = (
    "The platypus hunts at dusk in slow rivers, closing its eyes and ears underwater and finding "
    "shrimp and larvae by the faint electric fields their muscles make, which the receptors in "
    "its soft bill pick up from a few centimetres away."
)


@pytest.fixture
def mirrored(tmp_path: Path) -> Path:
    """One page as Markdown, as HTML, and again inside an all.html, beside two other pages."""
    docs = tmp_path / "docs"
    docs.mkdir()
    body = PASSAGE.replace("electric fields", "[electric fields](https://example.org/e)")
    (docs / "platypus.md").write_text(f"# Platypus\n\n{body}\n")
    html = f"<h1>Platypus</h1><p>{PASSAGE}</p>"
    (docs / "platypus.html").write_text(f"<html><body><main>{html}</main></body></html>")
    other = "<h1>Numbat</h1><p>The numbat eats termites and hunts nothing at dusk.</p>"
    (docs / "all.html").write_text(f"<html><body><main>{html}{other}</main></body></html>")
    (docs / "rivers.md").write_text("# Rivers\n\nThe platypus lives in slow rivers at dusk.\n")
    (docs / "eyes.txt").write_text("Underwater the platypus closes its eyes and ears.\n")
    return docs


def test_the_same_page_in_three_files_takes_one_place_not_three(
    tmp_path: Path, mirrored: Path
) -> None:
    copies = {"platypus.md", "platypus.html", "all.html"}
    with groundkit.open_collection("m", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(mirrored)])
        hits = coll.search("platypus dusk rivers eyes", top_k=3)
        assert sum(h.citation.source in copies for h in hits) == 1
        unfolded = coll.search("platypus dusk rivers eyes", top_k=3, collapse=False)

    assert sum(h.citation.source in copies for h in unfolded) >= 2  # the fault, when not folded
    [best] = [h for h in hits if h.citation.source in copies]
    assert {c.source for c in best.folded} | {best.citation.source} == copies
    assert [h.rank for h in hits] == [1, 2, 3]  # top_k is still filled after folding
    assert {h.citation.source for h in hits} - copies == {"rivers.md", "eyes.txt"}


@pytest.mark.parametrize("top_k", [4, 60])  # 60: the long walk's batches (BatchFolding)
def test_top_k_is_filled_even_when_many_copies_rank_above_the_rest(
    tmp_path: Path, top_k: int
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(100):  # a hundred copies of one page outrank everything else
        (docs / f"copy{i:03}.md").write_text(f"# Platypus\n\n{PASSAGE} Platypus platypus.\n")
        if i % 2:  # half of them cut short: near-duplicates, not the same words
            (docs / f"copy{i:03}.md").write_text(f"# Platypus\n\n{PASSAGE[:-30]} Platypus.\n")
    others = [f"n{i:02}" for i in range(top_k - 1)]
    for name in others:
        (docs / f"{name}.txt").write_text(f"A platypus note, {name}, about something else.\n")
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        hits = coll.search("platypus", top_k=top_k)

    assert len(hits) == top_k
    assert len(hits[0].folded) == 99
    assert {h.citation.source for h in hits[1:]} == {f"{name}.txt" for name in others}


def test_the_setting_turns_collapsing_off(tmp_path: Path, mirrored: Path) -> None:
    settings = groundkit.Settings().replace(
        search=groundkit.Settings().search.replace(collapse=False)
    )
    with groundkit.open_collection("m", index_dir=tmp_path / "index", settings=settings) as coll:
        coll.ingest([str(mirrored)])
        hits = coll.search("platypus dusk electric", top_k=3)

    assert all(not h.folded for h in hits)
    assert len({h.citation.source for h in hits}) == 3
