"""How much work chunking does, counted rather than timed (seconds live in benchmarks/chunking.py).

Two counters, both deterministic: the section reads that ``pack`` makes through the sequence it
is given, and the Python lines the chunker runs (``sys.settrace``, limited to its own files).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, overload

import groundkit.chunk
from groundkit.chunk import ChunkSettings, Section, chunk_text, pack
from groundkit.chunk.markdown import markdown_sections

_CHUNK_DIR = str(Path(groundkit.chunk.__file__).parent)


class CountingSections(Sequence[Section]):
    """Sections that count how often ``pack`` reads one of them."""

    def __init__(self, sections: list[Section]) -> None:
        self._sections = sections
        self.reads = 0

    def __len__(self) -> int:
        return len(self._sections)

    @overload
    def __getitem__(self, index: int) -> Section: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Section]: ...
    def __getitem__(self, index: int | slice) -> Section | Sequence[Section]:
        got = self._sections[index]
        self.reads += len(got) if isinstance(got, list) else 1
        return got

    def __iter__(self) -> Iterator[Section]:
        for section in self._sections:
            self.reads += 1
            yield section


def lines_run(work: Callable[[], object]) -> int:
    """How many lines of the chunker's own code ``work`` runs (loop iterations included)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(_CHUNK_DIR) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        work()
    finally:
        sys.settrace(previous)
    return count


def tiny_headings(n: int) -> str:
    """Like the 1.4 MB file with 120,000 headings of issue 10: a heading and a word each."""
    return "".join(f"# h{i}\nx\n" for i in range(n))


def nested_list(n: int) -> str:
    """A deeply nested Markdown list: items indented up to 80 levels, again and again."""
    return "".join("  " * (i % 80) + f"- item {i} of the list\n" for i in range(n))


def test_pack_reads_each_section_a_bounded_number_of_times() -> None:
    # Each chunk used to rebuild the list of every section start to find its own section: reads
    # grew with chunks x sections (about 850,000 here).
    text = tiny_headings(4000)
    sections = CountingSections(markdown_sections(text))
    spans = pack(text, sections, ChunkSettings(1000, 200))

    assert len(spans) > 100
    assert sections.reads <= 4 * len(sections)


def test_chunking_work_grows_linearly_with_the_number_of_headings() -> None:
    cfg = ChunkSettings(1000, 200)
    small, large = tiny_headings(500), tiny_headings(2000)

    ratio = lines_run(lambda: chunk_text(large, format="markdown", settings=cfg)) / lines_run(
        lambda: chunk_text(small, format="markdown", settings=cfg)
    )

    assert ratio < 4.5  # four times the headings: quadratic work would be about 16 times


def test_chunking_work_grows_linearly_with_a_nested_list() -> None:
    cfg = ChunkSettings(1000, 200)
    small, large = nested_list(3000), nested_list(12000)

    ratio = lines_run(lambda: chunk_text(large, format="markdown", settings=cfg)) / lines_run(
        lambda: chunk_text(small, format="markdown", settings=cfg)
    )

    assert ratio < 4.5


def test_packing_work_follows_the_chunks_not_the_words() -> None:
    # The same length of text in words of 2 and of 20 letters, one paragraph: the chunker used to
    # make one atom (and one recursive call) per word before packing them back together.
    cfg = ChunkSettings(1000, 200)
    short_words = "ab " * 20_000
    long_words = ("abcdefghij" * 2 + " ") * 2_858

    short_work = lines_run(lambda: chunk_text(short_words, format="text", settings=cfg))
    long_work = lines_run(lambda: chunk_text(long_words, format="text", settings=cfg))

    assert short_work < 1.5 * long_work


def test_a_heading_line_with_thousands_of_spaces_is_parsed_at_once(tmp_path: Path) -> None:
    # The heading pattern used to backtrack over the spaces in three nested ways: 5,000 spaces
    # took over five minutes. Run in a child process so that a regression cannot hang the suite;
    # the limit is about a hundred times what the work takes on a busy machine.
    text = "# title" + " " * 20_000 + "end\n\nbody text\n"
    script = (
        "import sys\n"
        "from groundkit.chunk import ChunkSettings, chunk_text\n"
        "spans = chunk_text(sys.stdin.read(), format='markdown', settings=ChunkSettings())\n"
        "print(spans[0].metadata['heading_path'][0][-3:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "end"
