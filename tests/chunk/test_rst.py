"""reStructuredText section titles give chunks their breadcrumbs."""

from __future__ import annotations

from pathlib import Path

from groundkit import Settings
from groundkit.chunk import ChunkSettings, chunk_text
from groundkit.chunk.rst import rst_sections
from groundkit.config import ChunkConfig

GUIDE = """\
=============
 Field guide
=============

The animals of the southern forests.

Marsupials
==========

The quokka lives on a few islands.

Night walkers
-------------

The bilby digs burrows in sandy soil.

Birds
=====

The lyrebird copies the calls of other birds.
"""


def paths(text: str) -> list[list[str]]:
    return [s.metadata["heading_path"] for s in rst_sections(text)]


def test_title_levels_follow_the_order_adornment_styles_are_first_met() -> None:
    assert paths(GUIDE) == [
        ["Field guide"],
        ["Field guide", "Marsupials"],
        ["Field guide", "Marsupials", "Night walkers"],
        ["Field guide", "Birds"],
    ]


def test_an_overlined_style_differs_from_the_same_character_underlined() -> None:
    text = "=====\nTop\n=====\n\nSub\n===\n\nx\n\nTop two\n=======\n\ny\n"
    # "=" underlined alone is the second style met, so both such titles sit below "Top".
    assert paths(text)[1:] == [["Top", "Sub"], ["Top", "Top two"]]


def test_each_section_starts_at_its_title_and_keeps_it_with_its_text() -> None:
    sections = rst_sections(GUIDE)
    heads = [GUIDE[s.start : s.start + s.lead] for s in sections]
    assert heads == [
        "=============\n Field guide\n=============\n",
        "Marsupials\n==========\n",
        "Night walkers\n-------------\n",
        "Birds\n=====\n",
    ]


def test_lines_that_only_look_like_titles_are_text() -> None:
    text = (
        "Intro paragraph line\n"
        "continues here\n"
        "--------------\n"  # not the first line of its block
        "\n"
        "Too short\n"
        "----\n"  # shorter than its title
        "\n"
        "    Indented\n"
        "    --------\n"  # indented, no overline
        "\n"
        "----------\n"  # a transition
        "\n"
        "Mismatched\n"
        "==========\n"
        "----------\n"
    )
    sections = rst_sections(text)
    assert [s.metadata["heading_path"] for s in sections] == [[], ["Mismatched"]]


def test_chunks_of_an_rst_text_carry_their_title_path() -> None:
    body = "Calibrate the widget with the torque gauge every ninety days. " * 8
    text = f"Manual\n======\n\nSetup\n-----\n\n{body}\n\nSafety\n------\n\n{body}"
    spans = chunk_text(text, format="rst", settings=ChunkSettings(400, 100))
    assert [s.metadata["heading_path"] for s in spans] == [
        ["Manual"],  # the first chunk starts at the top title: "Setup" follows it closely
        ["Manual", "Setup"],
        ["Manual", "Safety"],
        ["Manual", "Safety"],
    ]
    assert text[spans[2].start :].startswith("Safety\n------\n\nCalibrate")


def test_an_ingested_rst_file_gives_each_hit_its_title_path(tmp_path: Path, open_col) -> None:
    (tmp_path / "guide.rst").write_text(GUIDE, encoding="utf-8")

    col = open_col(Settings(chunk=ChunkConfig(size=120, min_size=0)))
    col.ingest(["guide.rst"])

    assert col.status().formats == {"rst": 1}
    hits = {word: col.search(word) for word in ("quokka", "bilby", "lyrebird")}
    assert {word: [h.metadata["heading_path"] for h in found] for word, found in hits.items()} == {
        "quokka": [["Field guide", "Marsupials"]],
        "bilby": [["Field guide", "Marsupials", "Night walkers"]],
        "lyrebird": [["Field guide", "Birds"]],
    }
