"""Code fences as CommonMark reads them, and as trafilatura writes them for HTML."""

from __future__ import annotations

from pathlib import Path

from groundkit import Collection, Hit, Settings
from groundkit.chunk.markdown import markdown_sections
from groundkit.config import ChunkConfig

# Small chunks that never merge across a section, so each heading gets its own chunk.
SMALL_CHUNKS = Settings(chunk=ChunkConfig(size=120, min_size=0))


def paths(text: str, *, html: bool = False) -> list[list[str]]:
    return [s.metadata["heading_path"] for s in markdown_sections(text, glued_fences=html)]


def only_hit(collection: Collection, query: str) -> Hit:
    hits = collection.search(query)
    assert len(hits) == 1, [h.text for h in hits]
    return hits[0]


def test_a_fence_indented_by_up_to_three_spaces_hides_comment_lines() -> None:
    for indent in ("", " ", "  ", "   "):
        text = f"# Real\n\n{indent}```sh\n# install\n{indent}```\n\n## After\n"
        assert paths(text) == [["Real"], ["Real", "After"]], repr(indent)


def test_four_spaces_are_no_fence() -> None:
    # An indented code block: its "#" lines are indented too much to be headings anyway.
    text = "# Real\n\n    ```\n    # indented code\n\n## After\n"
    assert paths(text) == [["Real"], ["Real", "After"]]


def test_a_fence_is_not_closed_by_a_shorter_run() -> None:
    # A Markdown example inside a four-backtick fence, as trafilatura writes code that holds
    # three backticks: the inner ``` used to close the fence, making "# inside" a heading.
    text = "# Real\n\n ````md\n```\n# inside\n```\n ````\n\n## After\n"
    assert paths(text) == [["Real"], ["Real", "After"]]


def test_a_closing_fence_carries_no_info_string() -> None:
    text = "# Real\n\n```\n# a\n```js\n# b\n```\n\n## After\n"
    assert paths(text) == [["Real"], ["Real", "After"]]


def test_a_tilde_fence_is_closed_only_by_tildes() -> None:
    text = "# Real\n\n~~~\n```\n# inside\n~~~\n## After\n"
    assert paths(text) == [["Real"], ["Real", "After"]]


def test_backticks_in_the_info_string_make_inline_code_not_a_fence() -> None:
    text = "# Real\n\n```inline```\n\n## Middle\n\n```\n# code\n```\n## After\n"
    assert paths(text) == [["Real"], ["Real", "Middle"], ["Real", "After"]]


def test_an_unclosed_fence_runs_to_the_end_of_the_document() -> None:
    text = "# Real\n\n```\n# one\n\n## two\n"
    assert paths(text) == [["Real"]]


def test_a_fence_glued_to_a_line_of_text_counts_only_in_html() -> None:
    text = "# Real\n\n- item text ```\n# install\nnpm i\n```\n\n## After\n"
    assert paths(text, html=True) == [["Real"], ["Real", "After"]]
    # In a Markdown file CommonMark decides: that line is text, "# install" a heading, and the
    # lone ``` opens a fence that is never closed.
    assert paths(text) == [["Real"], ["install"]]


def test_a_backtick_run_closing_inline_code_opens_no_fence() -> None:
    text = "# Real\n\nrun ```a``b``` here and ```x```\n\n## After\n"
    assert paths(text, html=True) == [["Real"], ["Real", "After"]]


NODE_LIKE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Modules</title></head><body><main><article>
<h2>Modules</h2>
<p>Modules are loaded from the file system when they are first required by a program.</p>
<ul><li>Install the quokka package before you start, with the command below. <pre><code
class="language-bash"># quokka comment
npm install quokka
</code></pre></li></ul>
<p>A longer paragraph that explains the wombat loader and what it does with each module.</p>
<pre><code class="language-markdown">```js
# numbat comment
```
</code></pre>
<h3>Caching</h3>
<p>Modules are cached after the first time they are loaded, so the bilby is read once only.</p>
</article></main></body></html>
"""


def test_html_code_after_text_or_holding_fences_keeps_the_page_breadcrumbs(
    tmp_path: Path, open_col
) -> None:
    (tmp_path / "all.html").write_text(NODE_LIKE, encoding="utf-8")

    col = open_col(SMALL_CHUNKS)
    col.ingest(["all.html"])

    assert only_hit(col, "npm").metadata["heading_path"] == ["Modules"]
    assert only_hit(col, "numbat").metadata["heading_path"] == ["Modules"]
    assert only_hit(col, "bilby").metadata["heading_path"] == ["Modules", "Caching"]
