from __future__ import annotations

from pathlib import Path

import groundkit


def test_ingesting_a_loopback_url_is_refused_by_the_ssrf_guard_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    (tmp_path / "ok.md").write_text("# Fine\n\nA local note about slate roofs.\n")
    with groundkit.open_collection("u", index_dir=tmp_path / "index") as coll:
        report = coll.ingest(
            [
                "http://127.0.0.1:9/secret",
                "http://[::ffff:169.254.169.254]/",
                str(tmp_path / "ok.md"),
            ]
        )
        assert report.new == 1
        assert [s.source for s in report.skipped] == [
            "http://127.0.0.1:9/secret",
            "http://[::ffff:169.254.169.254]/",
        ]
        assert all(s.reason.startswith("url.unsafe") for s in report.skipped)
        assert len(coll.search("slate")) == 1
