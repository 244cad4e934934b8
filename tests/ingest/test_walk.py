"""Which files a folder walk ingests: recursion, hidden files, .gitignore, symlinks, file types."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import groundkit
from groundkit import Collection, ErrorCode, GroundkitError

# Every file written here holds this word, so one search lists every ingested document.
MARK = "quokka"


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{MARK} {text or path.name}\n", encoding="utf-8")
    return path


def ingested(collection: Collection, root: Path) -> set[str]:
    """Where the ingested documents were read, relative to ``root`` (outside it, absolute)."""
    out = set()
    for hit in collection.search(MARK, top_k=1000, collapse=False):  # copies count here
        source = Path(hit.citation.location)
        out.add(source.relative_to(root).as_posix() if source.is_relative_to(root) else str(source))
    return out


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    return root


def test_a_folder_is_walked_recursively(tree: Path, open_col) -> None:
    write(tree / "a.md")
    write(tree / "one" / "b.txt")
    write(tree / "one" / "two" / "three" / "c.py")

    col = open_col()
    report = col.ingest([str(tree)])

    assert report.new == 3
    assert not report.partial
    assert ingested(col, tree) == {"a.md", "one/b.txt", "one/two/three/c.py"}


def test_sources_are_shown_relative_to_the_folder_and_located_absolutely(
    tree: Path, open_col
) -> None:
    write(tree / "sub" / "a.md")

    col = open_col()
    col.ingest(["tree"])  # the working directory is tmp_path

    [hit] = col.search(MARK)
    assert hit.citation.source == "sub/a.md"
    assert hit.citation.location == str(tree / "sub" / "a.md")
    assert [h.citation.source for h in col.search(MARK, source="sub/*")] == ["sub/a.md"]


def test_hidden_files_and_folders_are_not_ingested(tree: Path, open_col) -> None:
    write(tree / "visible.md")
    write(tree / ".hidden.md")
    write(tree / ".git" / "notes.md")
    write(tree / "sub" / ".cache" / "deep" / "x.md")
    write(tree / "sub" / "kept.md")

    col = open_col()
    report = col.ingest([str(tree)])

    assert ingested(col, tree) == {"visible.md", "sub/kept.md"}
    assert report.ignored == 0  # hidden files are passed over, not counted as unknown types


def test_a_hidden_folder_named_as_the_root_is_still_walked(tmp_path: Path, open_col) -> None:
    root = tmp_path / ".notes"
    write(root / "a.md")

    col = open_col()
    col.ingest([str(root)])

    assert ingested(col, root) == {"a.md"}


def test_gitignored_files_are_not_ingested(tree: Path, open_col) -> None:
    (tree / ".gitignore").write_text("*.txt\nbuild/\n/top-only.md\n", encoding="utf-8")
    write(tree / "a.md")
    write(tree / "a.txt")
    write(tree / "deep" / "b.txt")
    write(tree / "build" / "out.md")
    write(tree / "top-only.md")
    write(tree / "deep" / "top-only.md")  # an anchored pattern matches only at its own level

    col = open_col()
    col.ingest([str(tree)])

    assert ingested(col, tree) == {"a.md", "deep/top-only.md"}


def test_a_negated_gitignore_pattern_brings_a_file_back(tree: Path, open_col) -> None:
    (tree / ".gitignore").write_text("*.txt\n!keep.txt\n", encoding="utf-8")
    write(tree / "drop.txt")
    write(tree / "keep.txt")
    write(tree / "sub" / "keep.txt")
    write(tree / "sub" / "drop.txt")

    col = open_col()
    col.ingest([str(tree)])

    assert ingested(col, tree) == {"keep.txt", "sub/keep.txt"}


def test_a_nested_gitignore_applies_only_below_its_folder(tree: Path, open_col) -> None:
    (tree / "sub" / ".gitignore").parent.mkdir()
    (tree / "sub" / ".gitignore").write_text("private.md\n", encoding="utf-8")
    write(tree / "private.md")
    write(tree / "sub" / "private.md")
    write(tree / "sub" / "inner" / "private.md")
    write(tree / "sub" / "public.md")

    col = open_col()
    col.ingest([str(tree)])

    assert ingested(col, tree) == {"private.md", "sub/public.md"}


def test_a_nested_gitignore_can_re_include_what_a_parent_excludes(tree: Path, open_col) -> None:
    (tree / ".gitignore").write_text("*.txt\n", encoding="utf-8")
    write(tree / "top.txt")
    write(tree / "sub" / "wanted.txt")
    (tree / "sub" / ".gitignore").write_text("!wanted.txt\n", encoding="utf-8")

    col = open_col()
    col.ingest([str(tree)])

    # `git status --untracked-files=all` lists sub/wanted.txt and not top.txt.
    assert ingested(col, tree) == {"sub/wanted.txt"}


def test_a_symlink_to_a_file_outside_the_tree_is_refused_and_reported(
    tmp_path: Path, tree: Path, open_col
) -> None:
    secret = write(tmp_path / "outside" / "secret.md", "credentials")
    write(tree / "a.md")
    link = tree / "link.md"
    link.symlink_to(secret)

    col = open_col()
    report = col.ingest([str(tree)])

    assert ingested(col, tree) == {"a.md"}
    assert [(s.source, s.reason) for s in report.passed_over] == [
        ("link.md", "symlink leaves the ingested tree")
    ]
    assert not report.partial  # refused on purpose: not a failure
    assert col.search("credentials") == []


def test_a_symlink_that_leaves_the_tree_through_a_relative_path_is_refused(
    tmp_path: Path, tree: Path, open_col
) -> None:
    write(tmp_path / "outside.md")
    (tree / "sub").mkdir()
    link = tree / "sub" / "up.md"
    link.symlink_to(Path("..") / ".." / "outside.md")

    col = open_col()
    report = col.ingest([str(tree)])

    assert [s.source for s in report.passed_over] == ["sub/up.md"]
    assert ingested(col, tree) == set()


def test_a_symlink_to_a_file_inside_the_tree_is_followed(tree: Path, open_col) -> None:
    write(tree / "real" / "target.md", "shared words")
    (tree / "alias.md").symlink_to(Path("real") / "target.md")

    col = open_col()
    report = col.ingest([str(tree)])

    assert not report.partial
    # Both names are documents: the link is cited by the name the user sees.
    assert ingested(col, tree) == {"alias.md", "real/target.md"}


def test_a_symlinked_folder_inside_the_tree_is_not_walked_twice(tree: Path, open_col) -> None:
    write(tree / "real" / "a.md")
    (tree / "again").symlink_to("real", target_is_directory=True)
    (tree / "real" / "loop").symlink_to("..", target_is_directory=True)

    col = open_col()
    report = col.ingest([str(tree)])

    assert not report.partial
    assert ingested(col, tree) == {"real/a.md"}


def test_a_broken_symlink_in_the_tree_is_passed_over_with_its_reason(tree: Path, open_col) -> None:
    write(tree / "a.md")
    broken = tree / "gone.md"
    broken.symlink_to(tree / "never-existed.md")

    col = open_col()
    report = col.ingest([str(tree)])

    assert [(s.source, s.reason) for s in report.passed_over] == [("gone.md", "broken symlink")]
    assert not report.partial
    assert ingested(col, tree) == {"a.md"}


def test_a_loop_of_symlinks_is_skipped_with_its_reason_and_the_rest_ingested(
    tree: Path, open_col
) -> None:
    write(tree / "c.md", "# Fine\n\nA note on slate.\n")
    (tree / "a.md").symlink_to("b.md")
    (tree / "b.md").symlink_to("a.md")

    col = open_col()
    report = col.ingest([str(tree)])

    assert sorted((s.source, s.reason) for s in report.passed_over) == [
        ("a.md", "symlink loop"),
        ("b.md", "symlink loop"),
    ]
    assert not report.partial
    assert ingested(col, tree) == {"c.md"}
    with pytest.raises(GroundkitError) as named:  # named, it is a path that leads nowhere
        col.ingest([str(tree / "a.md")])
    assert named.value.code == ErrorCode.USAGE


def test_unknown_extensions_in_a_walk_are_counted_as_ignored(tree: Path, open_col) -> None:
    write(tree / "a.md")
    write(tree / "photo.jpg")
    write(tree / "archive.tar.gz")
    write(tree / "sub" / "data.bin")
    write(tree / "README")  # known by its name
    (tree / "changelog.gz").write_bytes(b"\x1f\x8b\x08\x00 compressed")  # that name, compressed
    write(tree / "Makefile")

    col = open_col()
    report = col.ingest([str(tree)])

    assert report.ignored == 4
    assert not report.partial
    assert ingested(col, tree) == {"a.md", "README", "Makefile"}


def test_a_named_file_with_an_unknown_extension_is_ingested_as_text(tree: Path, open_col) -> None:
    notes = write(tree / "notes.weird", "wombat")

    col = open_col()
    report = col.ingest([str(notes)])

    assert report.new == 1
    assert report.ignored == 0
    assert col.status().formats == {"text": 1}
    assert [h.citation.source for h in col.search("wombat")] == ["notes.weird"]


def test_a_named_symlink_is_read_wherever_it_points(tmp_path: Path, tree: Path, open_col) -> None:
    target = write(tmp_path / "elsewhere" / "a.md", "numbat")
    link = tree / "link.md"
    link.symlink_to(target)

    col = open_col()
    report = col.ingest([str(link)])

    # Only a walk confines symlinks; a path the user names is theirs to choose.
    assert not report.partial
    assert [h.citation.source for h in col.search("numbat")] == ["link.md"]


def test_a_path_that_does_not_exist_is_a_usage_error_before_anything_is_read(
    tree: Path, open_col
) -> None:
    a = write(tree / "a.md")

    col = open_col()
    with pytest.raises(GroundkitError) as refused:
        col.ingest([str(tree / "nope.md"), str(a)])

    assert refused.value.code == ErrorCode.USAGE
    assert "path 1 of 2" in refused.value.message
    assert str(tree) not in refused.value.message  # a server's caller's paths are not echoed
    assert col.status().documents == 0


def test_files_removed_from_a_walked_folder_are_removed_from_the_collection(
    tree: Path, open_col
) -> None:
    write(tree / "a.md")
    gone = write(tree / "sub" / "b.md")

    col = open_col()
    col.ingest([str(tree)])
    os.remove(gone)
    report = col.ingest([str(tree)])

    assert report.removed == 1
    assert ingested(col, tree) == {"a.md"}


def test_a_file_that_becomes_gitignored_is_removed_on_the_next_walk(tree: Path, open_col) -> None:
    write(tree / "a.md")
    write(tree / "draft.md")

    col = open_col()
    col.ingest([str(tree)])
    (tree / ".gitignore").write_text("draft.md\n", encoding="utf-8")
    report = col.ingest([str(tree)])

    assert report.removed == 1
    assert ingested(col, tree) == {"a.md"}


def test_walking_a_subfolder_does_not_remove_documents_of_its_siblings(
    tree: Path, open_col
) -> None:
    write(tree / "left" / "a.md")
    write(tree / "right" / "b.md")
    write(tree / "left-over" / "c.md")  # shares a name prefix with left/

    col = open_col()
    col.ingest([str(tree)])
    report = col.ingest([str(tree / "left")])

    assert report.removed == 0
    assert report.unchanged == 1
    assert ingested(col, tree) == {"left/a.md", "right/b.md", "left-over/c.md"}


def test_a_file_reached_twice_in_one_run_is_counted_once(tree: Path, open_col) -> None:
    write(tree / "a.md")

    col = open_col()
    report = col.ingest([str(tree), str(tree / "a.md"), "tree/a.md"])

    assert (report.new, report.unchanged) == (1, 0)


def test_the_index_dir_inside_an_ingested_tree_is_never_ingested(tmp_path: Path) -> None:
    (tmp_path / "ok.md").write_text("# Fine\n\nA plain note about copper pipes.\n")
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path)])
        report = coll.ingest([str(tmp_path)])
    assert (report.new, report.unchanged, report.ignored, report.skipped) == (0, 1, 0, ())


def test_an_unreadable_folder_is_reported_and_what_came_from_it_is_kept(
    tree: Path, open_col, monkeypatch: pytest.MonkeyPatch
) -> None:
    sub = tree / "sub"
    sub.mkdir(exist_ok=True)
    (sub / "koala.md").write_text("# Koala\n\nThe koala sleeps most of the day.\n")
    col = open_col()
    col.ingest([str(tree)])
    assert len(col.search("koala")) == 1

    # Tests run as root, whom file modes do not stop: refuse the listing at the OS edge instead.
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if Path(path) == sub:
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = col.ingest([str(tree)])

    assert [(s.source, s.reason) for s in report.skipped] == [
        ("sub", "unreadable directory: permission denied")
    ]
    assert report.removed == 0
    assert len(col.search("koala")) == 1
