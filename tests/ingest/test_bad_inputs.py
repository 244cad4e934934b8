"""Inputs that cannot be ingested are skipped one by one; the run, and the collection, carry on.

Also the incremental side of the same promise: re-ingesting does only what changed, and a file
that turns bad never costs the document already stored from it.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from groundkit import Collection, ErrorCode, GroundkitError, Settings
from groundkit.cli.main import main
from groundkit.config import ChunkConfig, IngestConfig
from pdfs import make_pdf

GOOD = "the good file talks about the wallaroo\n"


def assert_consistent(collection: Collection) -> None:
    status = collection.status()
    assert status.lexical_chunks == status.chunks
    assert status.pending == 0


def encrypted_pdf() -> bytes:
    """A PDF whose trailer says it is encrypted with a user password that is not empty."""
    pdf = make_pdf(["the secret plans"])
    encrypt = (
        b"/Encrypt << /Filter /Standard /V 1 /R 2 /P -4 /O <%s> /U <%s> >> /ID [<%s> <%s>] "
        % (b"11" * 32, b"22" * 32, b"33" * 16, b"33" * 16)
    )
    return pdf.replace(b"trailer\n<< ", b"trailer\n<< " + encrypt)


def truncated_pdf() -> bytes:
    pdf = make_pdf(["a page that is cut off half way"])
    return pdf[: len(pdf) // 2]


BAD_FILES = {
    "latin-1": ("latin1.txt", "caf\u00e9 cr\u00e8me".encode("latin-1")),
    "empty": ("empty.md", b""),
    "whitespace-only": ("blank.md", b" \n\t\r\n \xc2\xa0\n"),
    "binary": ("blob.txt", b"GIF89a\x00\x01\x02 not text"),
    "bad utf-16": ("wide.txt", b"\xff\xfe\x00\xd8"),  # a lone surrogate
    "corrupt pdf": ("corrupt.pdf", b"%PDF-1.4\nthis is not a pdf at all\n%%EOF\n"),
    "truncated pdf": ("truncated.pdf", truncated_pdf()),
    "pdf that is not one": ("fake.pdf", b"just some words in a file named .pdf"),
    "encrypted pdf": ("locked.pdf", encrypted_pdf()),
    "pdf with no text layer": ("scan.pdf", make_pdf(["", ""])),
    "html with no text": ("blank.html", b"<html><head></head><body><div> </div></body></html>"),
    "binary html": ("blob.html", b"<html>\x00\x00\x00</html>"),
    "jsonl with no records": ("none.jsonl", b"\n  \n\n"),
    # A PDF on which pypdf itself fails with an AttributeError, found by fuzzing: a parser's bug
    # must cost only its own file.
    "pdf that breaks the parser": (
        "parser-bug.pdf",
        (Path(__file__).parent.parent / "fixtures" / "pypdf-attributeerror.pdf").read_bytes(),
    ),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    (root / "good.md").write_text(GOOD, encoding="utf-8")
    return root


# Nothing to ingest in them, so nothing is lost: passed over, not a failure (exit 0).
EMPTY = {"empty", "whitespace-only", "jsonl with no records"}


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_file_is_skipped_and_the_rest_is_ingested(case: str, tree: Path, open_col) -> None:
    name, data = BAD_FILES[case]
    (tree / name).write_bytes(data)

    col = open_col()
    report = col.ingest([str(tree)])

    left = report.passed_over if case in EMPTY else report.skipped
    assert report.partial == (case not in EMPTY)
    assert [s.source for s in left] == [name]
    assert left[0].reason
    assert report.new == 1
    assert [h.citation.source for h in col.search("wallaroo")] == ["good.md"]
    assert col.status().documents == 1
    assert_consistent(col)


def test_a_record_with_a_lone_surrogate_escape_is_skipped_alone(tree: Path, open_col) -> None:
    (tree / "r.jsonl").write_bytes(
        b'{"id": "1", "text": "a wombat record"}\n{"id": "2", "text": "bad \\ud800 half"}\n'
    )

    col = open_col()
    report = col.ingest([str(tree)])

    assert [s.source for s in report.skipped] == ["r.jsonl:2"]
    assert report.new == 2
    assert_consistent(col)


def test_every_bad_file_at_once_is_listed_with_its_own_reason(tree: Path, open_col) -> None:
    for name, data in BAD_FILES.values():
        (tree / name).write_bytes(data)

    col = open_col()
    report = col.ingest([str(tree)])

    assert sorted(s.source for s in [*report.skipped, *report.passed_over]) == sorted(
        name for name, _ in BAD_FILES.values()
    )
    assert sorted(s.source for s in report.passed_over) == sorted(
        BAD_FILES[case][0] for case in EMPTY
    )
    assert all(s.reason for s in report.skipped)
    assert report.new == 1
    assert len(col.search("wallaroo")) == 1
    assert_consistent(col)


def test_a_file_whose_path_is_not_utf8_is_skipped_and_the_rest_is_ingested(
    tree: Path, open_col
) -> None:
    """A name from an old Latin-1 system has no faithful text form: skipped, shown escaped."""
    (tree / os.fsdecode(b"caf\xe9.md")).write_text("# Cafe\n\nThe bilby drinks no coffee.\n")
    latin = tree / os.fsdecode(b"d\xe9p\xf4t")
    latin.mkdir()
    (latin / "inside.md").write_text("# Inside\n\nThe quokka smiles.\n")

    col = open_col()
    report = col.ingest([str(tree)])

    reason = "its path is not valid UTF-8 (rename it so that groundkit can read it)"
    assert {(s.source, s.reason) for s in report.skipped} == {
        ("caf\\xe9.md", reason),
        ("d\\xe9p\\xf4t/inside.md", reason),
    }
    assert report.new == 1
    assert len(col.search("wallaroo")) == 1
    # Named alone, a file or a folder with such a path is skipped the same way.
    assert [s.reason for s in col.ingest([str(latin / "inside.md")]).skipped] == [reason]
    assert [s.reason for s in col.ingest([str(latin)]).skipped] == [reason]
    assert_consistent(col)


def test_a_file_over_max_file_bytes_is_skipped(tree: Path, open_col) -> None:
    (tree / "big.txt").write_bytes(b"wallaby " * 13)  # 104 bytes
    (tree / "exact.txt").write_bytes(b"x" * 93 + b" potoroo\n")  # 102 bytes
    (tree / "fits.txt").write_bytes(b"y" * 91 + b" bettong\n")  # exactly 100 bytes

    col = open_col(Settings(ingest=IngestConfig(max_file_bytes=100)))
    report = col.ingest([str(tree)])

    assert sorted(s.source for s in report.skipped) == ["big.txt", "exact.txt"]
    assert report.new == 2  # good.md and fits.txt
    assert col.search("wallaby potoroo") == []
    assert len(col.search("bettong")) == 1
    assert_consistent(col)


def test_a_dangling_symlink_named_explicitly_is_a_usage_error_before_anything_is_read(
    tree: Path, open_col
) -> None:
    dangling = tree / "dangling.md"
    dangling.symlink_to(tree / "missing.md")

    col = open_col()
    with pytest.raises(GroundkitError) as refused:
        col.ingest([str(dangling), str(tree / "good.md")])

    assert refused.value.code == ErrorCode.USAGE
    assert col.status().documents == 0


def test_a_named_pipe_named_explicitly_is_skipped(tree: Path, open_col) -> None:
    fifo = tree / "pipe.txt"
    os.mkfifo(fifo)

    col = open_col()
    report = col.ingest([str(fifo), str(tree / "good.md")])

    assert [s.source for s in report.skipped] == [str(fifo)]
    assert report.new == 1


def test_a_named_pipe_in_a_walked_folder_is_passed_over_not_waited_on(tree: Path, open_col) -> None:
    fifo = tree / "pipe.txt"
    os.mkfifo(fifo)
    col = open_col()
    result = {}

    worker = threading.Thread(
        target=lambda: result.update(report=col.ingest([str(tree)])), daemon=True
    )
    worker.start()
    worker.join(timeout=3)
    blocked = worker.is_alive()
    if blocked:
        with open(fifo, "wb"):  # give the blocked reader a writer, so the thread can finish
            pass
        worker.join()

    assert not blocked
    assert [s.source for s in result["report"].passed_over] == ["pipe.txt"]
    assert not result["report"].partial


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission_is_skipped(tree: Path, open_col) -> None:
    locked = tree / "locked.md"
    locked.write_text("the locked file", encoding="utf-8")
    locked.chmod(0)

    col = open_col()
    report = col.ingest([str(tree)])

    assert [s.source for s in report.skipped] == ["locked.md"]
    assert report.new == 1


NUL_ROUTES = {
    # decode_text sniffs only the first 8 KiB for NUL bytes
    "late NUL in a text file": ("late-nul.txt", b"alpha " * 1500 + b"\x00 zulu after the nul\n"),
    # a JSON escape is not a NUL byte in the file, but is one in the text
    "escaped NUL in a record": ("r.jsonl", b'{"id": "1", "text": "alpha \\u0000 zulu after"}\n'),
}


@pytest.mark.parametrize("route", NUL_ROUTES)
def test_a_nul_character_never_corrupts_a_citation(route: str, tree: Path, open_col) -> None:
    name, data = NUL_ROUTES[route]
    (tree / name).write_bytes(data)

    col = open_col()
    col.ingest([str(tree)])
    hits = col.search("alpha zulu", top_k=100)

    assert hits
    for hit in hits:
        assert hit.text == col.show(hit.citation.chunk_id).text
        assert len(hit.text) == hit.citation.end - hit.citation.start
    assert col.search("zulu")


def test_a_skipped_file_makes_grk_ingest_exit_3_with_the_skipped_list_in_json(
    tree: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "blob.txt").write_bytes(b"\x00\x01binary")

    status = main(["--index-dir", str(index_dir), "ingest", "--json", str(tree)])

    assert status == 3
    out = json.loads(capsys.readouterr().out)
    assert out["new"] == 1
    assert [s["source"] for s in out["skipped"]] == ["blob.txt"]
    assert all(s["reason"] for s in out["skipped"])
    assert main(["--index-dir", str(index_dir), "search", "--json", "wallaroo"]) == 0
    assert len(json.loads(capsys.readouterr().out)["hits"]) == 1


# -- incremental ingest -------------------------------------------------------------------------


@pytest.fixture
def three(tree: Path) -> Path:
    (tree / "a.md").write_text("# Alpha\n\nthe first file is about the quokka\n", encoding="utf-8")
    (tree / "sub").mkdir()
    (tree / "sub" / "b.txt").write_text("the second file is about the bilby\n", encoding="utf-8")
    return tree


def test_re_ingesting_an_unchanged_tree_writes_nothing(three: Path, open_col) -> None:
    col = open_col()
    first = col.ingest([str(three)])
    again = col.ingest([str(three)])

    assert (first.new, first.unchanged) == (3, 0)
    assert again.to_dict() == {
        "new": 0,
        "changed": 0,
        "unchanged": 3,
        "removed": 0,
        "skipped": [],
        "passed_over": [],
        "ignored": 0,
        "chunks_written": 0,
        "chunks_embedded": 0,
        "chunks_split": 0,
    }
    assert_consistent(col)


def test_a_modified_file_is_the_only_one_re_ingested(three: Path, open_col) -> None:
    col = open_col()
    col.ingest([str(three)])
    (three / "sub" / "b.txt").write_text("the second file is now about the numbat\n")
    report = col.ingest([str(three)])

    assert (report.new, report.changed, report.unchanged, report.removed) == (0, 1, 2, 0)
    assert report.chunks_written == 1
    assert col.search("bilby") == []
    assert [h.citation.source for h in col.search("numbat")] == ["sub/b.txt"]
    assert_consistent(col)


def test_a_deleted_file_is_removed_with_its_hits(three: Path, open_col) -> None:
    col = open_col()
    col.ingest([str(three)])
    (three / "a.md").unlink()
    report = col.ingest([str(three)])

    assert (report.removed, report.unchanged) == (1, 2)
    assert col.search("quokka") == []
    assert col.status().documents == 2
    assert_consistent(col)


def test_changing_the_chunk_size_re_chunks_every_document(three: Path, open_col) -> None:
    col = open_col()
    col.ingest([str(three)])
    old = {h.citation.chunk_id for h in col.search("quokka bilby wallaroo")}
    col.close()

    col = open_col(Settings(chunk=ChunkConfig(size=500, min_size=100)))
    report = col.ingest([str(three)])

    assert (report.changed, report.unchanged) == (3, 0)
    new = {h.citation.chunk_id for h in col.search("quokka bilby wallaroo")}
    assert len(new) == 3
    assert not new & old
    assert_consistent(col)


@pytest.mark.parametrize("damage", ["binary", "empty", "dangling symlink", "undecodable"])
def test_a_file_that_turns_bad_keeps_its_stored_document(
    damage: str, three: Path, open_col
) -> None:
    col = open_col()
    col.ingest([str(three)])
    [before] = col.search("bilby")
    target = three / "sub" / "b.txt"
    target.unlink()
    if damage == "binary":
        target.write_bytes(b"\x00\x01\x02")
    elif damage == "empty":
        target.write_bytes(b"")
    elif damage == "undecodable":
        target.write_bytes(b"the \xff\xfe\xfd bytes")
    else:
        target.symlink_to(three / "nowhere.txt")

    report = col.ingest([str(three)])

    left = report.skipped if damage in ("binary", "undecodable") else report.passed_over
    assert [s.source for s in left] == ["sub/b.txt"]
    assert (report.removed, report.changed, report.unchanged) == (0, 0, 2)
    [after] = col.search("bilby")
    assert after.citation == before.citation
    assert col.show(after.citation.chunk_id).text == before.text
    assert_consistent(col)


def _deep_html(depth: int) -> bytes:
    return (
        "<html><body><p>The wallaroo hops across the red plains at dusk.</p>"
        + "<div>" * depth
        + "deep"
        + "</div>" * depth
        + "<p>After the deep part the numbat eats termites.</p></body></html>"
    ).encode()


@pytest.mark.parametrize("depth", [300, 100_000])
def test_html_nested_deeper_than_the_parser_allows_is_skipped_with_the_reason(
    depth: int, tree: Path, open_col
) -> None:
    # Before: ingested cut short at the depth limit (the numbat lost, exit 0), or as "empty".
    pytest.importorskip("trafilatura")
    (tree / "deep.html").write_bytes(_deep_html(depth))
    report = open_col().ingest([str(tree)])
    assert [s.source for s in report.skipped] == ["deep.html"]
    assert "excessive depth" in report.skipped[0].reason
    assert "the text after it would be lost" in report.skipped[0].reason


def test_html_nested_within_the_parser_limit_is_ingested_whole(tree: Path, open_col) -> None:
    pytest.importorskip("trafilatura")
    (tree / "deep.html").write_bytes(_deep_html(200))
    col = open_col()
    assert col.ingest([str(tree)]).skipped == ()
    assert [h.citation.source for h in col.search("numbat termites")] == ["deep.html"]
