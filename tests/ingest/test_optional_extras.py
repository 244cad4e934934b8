from __future__ import annotations

import sys
from pathlib import Path

import pytest

import groundkit


@pytest.mark.parametrize(
    ("module", "name", "extra"), [("trafilatura", "page.html", "html"), ("pypdf", "doc.pdf", "pdf")]
)
def test_a_file_whose_format_library_is_missing_is_skipped_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, name: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # what an install without the extra looks like
    (tmp_path / name).write_bytes(b"<html><body><p>some content here</p></body></html>")
    (tmp_path / "ok.md").write_text("# Fine\n\nA plain note about copper pipes.\n")
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        report = coll.ingest([str(tmp_path)])
        assert report.new == 1
        assert [s.source for s in report.skipped] == [name]
        assert f"groundkit[{extra}]" in report.skipped[0].reason
        assert len(coll.search("copper")) == 1
