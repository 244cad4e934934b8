"""`grk search`, `grk show` and `grk status` as a person and a script use them: half-embedded
collections say so, near-duplicates are folded, batch hits are whole, ranks are readable,
citations are path:line, and drift is judged on the cited span."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import groundkit.collection as collection_module
from grk_runner import Grk
from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.testing import FakeEmbedder

PLATYPUS = (
    "The platypus hunts at dusk in slow rivers, closing its eyes and ears underwater and finding "
    "shrimp and larvae by the faint electric fields their muscles make, which the receptors in "
    "its soft bill pick up from a few centimetres away."
)


class InterruptedEmbedder:
    """The fake embedder, with Ctrl-C pressed at its ``stop_at``-th batch of documents."""

    def __init__(self, stop_at: int | None) -> None:
        self._inner = FakeEmbedder()
        self.stop_at = stop_at

    @property
    def identity(self) -> EmbedderIdentity:
        return self._inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document" and self.stop_at is not None:
            self.stop_at -= 1
            if self.stop_at == 0:
                raise KeyboardInterrupt
        return self._inner.embed(texts, input_type)


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def half_embedded(grk: Grk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """40 notes, of which `grk ingest --dense` embedded 8 before Ctrl-C."""
    import groundkit.pipeline.vectors as vectors_module

    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(40):
        (notes / f"n{i:02}.md").write_text(f"# Note {i}\n\nThe numbat{i} eats termites.\n")
    embedder = InterruptedEmbedder(stop_at=3)
    monkeypatch.setattr(collection_module, "create_embedder", lambda config: embedder)
    monkeypatch.setattr(vectors_module, "COMMIT_EVERY", 8)
    monkeypatch.setenv("GRK_EMBED_BATCH_SIZE", "4")
    assert grk("ingest", "--dense", "--quiet", str(notes)) == 130
    embedder.stop_at = None  # searching embeds only the query
    return notes


def test_a_half_embedded_collection_says_how_many_chunks_lack_vectors(
    grk: Grk, half_embedded: Path
) -> None:
    hybrid = grk.json("search", "numbat3 termites")
    dense = grk.json("search", "--mode", "dense", "numbat3 termites")
    bm25 = grk.json("search", "--mode", "bm25", "numbat3 termites")
    assert grk("search", "numbat3 termites") == 0
    warned = grk.err

    assert hybrid["missing_vectors"] == dense["missing_vectors"] == 32
    assert bm25["missing_vectors"] == 0  # bm25 reaches every chunk
    assert "warning: 32 chunks have no vector yet" in warned
    assert grk("search", "--mode", "bm25", "numbat3 termites") == 0
    assert "warning" not in grk.err


def test_status_shows_vector_coverage_and_formats_as_a_table(grk: Grk, half_embedded: Path) -> None:
    assert grk("status") == 0
    shown = grk.out

    assert re.search(r"^vectors\s+8 of 40 chunks \(20%\); 32 missing", shown, re.MULTILINE)
    assert re.search(r"^format\s+documents$", shown, re.MULTILINE)
    assert re.search(r"^markdown\s+40$", shown, re.MULTILINE)
    assert "{" not in shown  # no Python dict
    status = grk.json("status")
    assert (status["vectors"], status["chunks"], status["missing_vectors"]) == (8, 40, 32)


@pytest.fixture
def mirrored(grk: Grk, tmp_path: Path) -> Path:
    """One page as .md, as .html and inside all.html, and two other pages."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "platypus.md").write_text(f"# Platypus\n\n{PLATYPUS}\n")
    page = f"<h1>Platypus</h1><p>{PLATYPUS}</p>"
    (docs / "platypus.html").write_text(f"<html><body><main>{page}</main></body></html>")
    (docs / "all.html").write_text(
        f"<html><body><main>{page}<h1>Numbat</h1><p>The numbat eats termites.</p></main></body>"
        "</html>"
    )
    (docs / "rivers.md").write_text("# Rivers\n\nThe platypus lives in slow rivers at dusk.\n")
    (docs / "eyes.txt").write_text("Underwater the platypus closes its eyes and ears.\n")
    assert grk("ingest", "--quiet", str(docs)) == 0
    return docs


COPIES = {"platypus.md", "platypus.html", "all.html"}


def test_near_duplicates_are_folded_into_the_best_hit_and_counted(grk: Grk, mirrored: Path) -> None:
    hits = grk.json("search", "-k", "3", "platypus dusk rivers eyes")["hits"]
    unfolded = grk.json("search", "-k", "3", "--no-collapse", "platypus dusk rivers eyes")["hits"]
    assert grk("search", "-k", "3", "platypus dusk rivers eyes") == 0
    text = grk.out

    assert sum(h["source"] in COPIES for h in unfolded) >= 2
    [best] = [h for h in hits if h["source"] in COPIES]
    assert best["folded"] == 2
    assert {f["source"] for f in best["folded_hits"]} | {best["source"]} == COPIES
    assert len(hits) == 3
    assert "(+2 near-duplicates: " in text


def test_batch_search_returns_what_single_search_returns(
    grk: Grk, mirrored: Path, tmp_path: Path
) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "a", "text": "platypus dusk rivers eyes"}\n{"id": "b", "text": "numbat"}\n'
    )

    assert grk("search", "--queries", str(queries), "--json") == 0
    lines = [json.loads(line) for line in grk.out.splitlines()]
    single = [grk.json("search", text) for text in ("platypus dusk rivers eyes", "numbat")]

    assert [line.pop("query_id") for line in lines] == ["a", "b"]
    assert lines == single
    first = lines[0]["hits"][0]
    assert {"text", "snippet", "rank", "ranks", "metadata", "line", "folded"} <= set(first)
    assert [h["folded"] for h in lines[0]["hits"] if h["source"] in COPIES] == [2]


def test_text_output_shows_ranks_and_path_line_not_raw_scores(
    grk: Grk, half_embedded: Path
) -> None:
    hits = grk.json("search", "numbat3 termites")["hits"]
    assert grk("search", "numbat3 termites") == 0
    text = grk.out

    first = hits[0]
    assert first["ranks"].keys() >= {"bm25", "dense", "fused"}  # hybrid
    assert text.startswith(f"#1  {first['source']}:{first['line']}-{first['end_line']}  [")
    ranks = f"bm25 #{first['ranks']['bm25']} · dense #{first['ranks']['dense']}"
    assert ranks in text.splitlines()[1]
    assert f"{first['score']:.3f}" not in text  # the fused score stays in --json


def test_show_prints_path_line_and_check_exits_1_unless_verified(grk: Grk, tmp_path: Path) -> None:
    guide = tmp_path / "guide.md"
    intro = "# Field guide\n\n" + "A guide to the creek, its banks and its animals. " * 6 + "\n\n"
    cited = "## Platypus\n\n" + PLATYPUS + "\n"
    guide.write_text(intro + cited)
    grk("ingest", "--quiet", "--chunk-size", "300", str(guide))
    [hit] = [h for h in grk.json("search", "platypus electric")["hits"] if "Platypus" in h["text"]]
    chunk = hit["chunk_id"]

    assert grk("show", "--check", chunk) == 0
    assert grk.out.startswith(f"guide.md:{hit['line']}-{hit['end_line']}  [{chunk} ")
    guide.write_text(intro.replace("Field guide", "Creek guide, second edition") + cited)
    assert grk("show", "--check", chunk) == 0  # an edit far from the cited text
    assert "verification: verified (moved: now at guide.md:" in grk.out
    moved = grk.json("show", chunk)["moved_to"]
    assert guide.read_text()[moved["start"] : moved["end"]] == hit["text"]
    guide.write_text(intro + cited.replace("dusk", "dawn"))
    assert grk("show", "--check", chunk) == 1
    assert "verification: drifted" in grk.out
    assert grk("show", chunk) == 0  # without --check, showing is not a failure
    guide.unlink()
    assert grk("show", "--check", "--json", chunk) == 1
    assert json.loads(grk.out)["verification"] == "missing"


def test_the_search_collapse_setting_turns_folding_off_and_the_flag_back_on(
    grk: Grk, mirrored: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRK_SEARCH_COLLAPSE", "false")
    off = grk.json("search", "-k", "3", "platypus dusk rivers eyes")["hits"]
    on = grk.json("search", "-k", "3", "--collapse", "platypus dusk rivers eyes")["hits"]

    assert all(h["folded"] == 0 for h in off)
    assert sum(h["source"] in COPIES for h in off) >= 2
    assert [h["folded"] for h in on if h["source"] in COPIES] == [2]


def test_status_of_a_collection_without_vectors_says_it_is_searched_by_bm25(
    grk: Grk, mirrored: Path
) -> None:
    assert grk("status") == 0

    assert re.search(r"^vectors\s+none \(searched by bm25 alone", grk.out, re.MULTILINE)
    assert re.search(r"^html\s+2$", grk.out, re.MULTILINE)
    assert grk.json("status")["missing_vectors"] == 0


def test_a_search_with_documents_pending_says_so_on_the_terminal_and_in_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from groundkit.cli import render

    render.hits([], pending=3, as_json=False)
    err = capsys.readouterr().err
    assert "warning: 3 documents are stored but not yet searchable" in err
    render.hits([], pending=3, as_json=True)
    assert json.loads(capsys.readouterr().out)["pending"] == 3
