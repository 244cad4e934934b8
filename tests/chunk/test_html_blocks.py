"""A ``#`` line inside an HTML comment, a raw HTML block or front matter is no heading; and the
chunker finds the headings markdown-it-py finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.html_blocks import block_names

from groundkit.chunk import ChunkSettings, chunk_text
from groundkit.chunk.html_blocks import BLOCK_TAGS
from groundkit.chunk.markdown import markdown_sections


def headings(text: str) -> list[list[str]]:
    return [s.metadata["heading_path"] for s in markdown_sections(text)]


def heading_lines(text: str) -> list[int]:
    """The 0-based lines where the chunker starts a section at a heading."""
    return [text.count("\n", 0, s.start) for s in markdown_sections(text) if s.lead]


def reference_lines(text: str) -> list[int]:
    """Where markdown-it-py (CommonMark, raw HTML on) finds ATX headings."""
    tokens = MarkdownIt("commonmark").parse(text)
    return [
        t.map[0]
        for t in tokens
        if t.type == "heading_open" and t.markup.startswith("#") and t.map is not None
    ]


def test_a_heading_inside_an_html_comment_is_no_heading() -> None:
    # As in attrs' docs/index.md: a note for the docs build, commented out.
    text = (
        "# attrs\n\nClasses without boilerplate.\n\n<!--\n"
        "# This is mainly called from RTD's pre_build job!\n\n## Nor this\n-->\n\n"
        "## Getting started\n\nInstall it.\n"
    )
    assert headings(text) == [["attrs"], ["attrs", "Getting started"]]


def test_a_heading_inside_a_raw_html_block_is_no_heading_until_a_blank_line_ends_it() -> None:
    text = (
        '<div align="center">\n# Logo text\n</div>\n\n# Title\n\n'
        "<script>\n# a comment in a script\n\n# still the script\n</script>\n\n"
        "<details>\n\n# A real heading inside details\n\n</details>\n"
    )
    assert headings(text) == [[], ["Title"], ["A real heading inside details"]]


def test_front_matter_is_no_heading_but_a_lone_thematic_break_is_no_front_matter() -> None:
    yaml = "---\ntitle: Guide\n# a YAML comment\n---\n# Guide\n\nText.\n"
    toml = '+++\ntitle = "Guide"\n# a TOML comment\n+++\n\n# Guide\n'
    breaks = "---\n# Chapter\n\nText.\n\n---\n\n# Next\n"
    assert headings(yaml) == [[], ["Guide"]]
    assert headings(toml) == [[], ["Guide"]]
    assert headings(breaks) == [[], ["Chapter"], ["Next"]]


def test_a_lone_tag_does_not_interrupt_a_paragraph_and_a_block_tag_does() -> None:
    text = "Some text\n<span>\n# Heading after a paragraph\n\nMore text\n<div>\n# Not one\n"
    assert heading_lines(text) == reference_lines(text) == [2]


def test_the_chunks_of_a_commented_out_section_keep_the_heading_path_before_it() -> None:
    text = "# Usage\n\nCall it.\n\n<!--\n# Internal\n\nNot for readers.\n-->\n"
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(1000, 0))
    assert [s.metadata["heading_path"] for s in spans] == [["Usage"]]


def test_the_block_tags_are_commonmarks_as_markdown_it_lists_them() -> None:
    assert frozenset(block_names) == BLOCK_TAGS


_LINES = st.sampled_from(
    [
        "# Heading",
        "## Sub heading",
        "   ### Indented heading",
        "Plain text",
        "#hashtag text",
        "",
        "   ",
        "<!--",
        "<!-- a whole comment -->",
        "-->",
        "text -->",
        "<div>",
        '<div class="note">',
        "</div>",
        "<DIV>",
        "<span>",
        '<a href="x">',
        "</span>",
        "<span>text</span>",
        "<pre>",
        "</pre>",
        "<script>",
        "</script>",
        "<?php echo 1; ?>",
        "<?php",
        "?>",
        "<!DOCTYPE html>",
        "<![CDATA[",
        "]]>",
        "<br/>",
        "<custom-tag attr=1>",
        "```",
        "~~~",
        "    <div>",
        "<notatag",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINES, max_size=25))
def test_the_chunker_finds_the_atx_headings_markdown_it_finds(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    assert heading_lines(text) == reference_lines(text)
