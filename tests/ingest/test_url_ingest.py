from __future__ import annotations

from pathlib import Path

import pytest

import groundkit
from groundkit.ingest.fetch import as_utf8
from groundkit.ingest.loaders import Rejected


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


def test_a_declared_charset_is_honoured_for_text_but_not_for_html() -> None:
    latin = "café crème".encode("latin-1")
    assert as_utf8(latin, "iso-8859-1", "text") == "café crème".encode()
    assert as_utf8(latin, "iso-8859-1", "html") == latin
    assert as_utf8(b"plain", None, "markdown") == b"plain"


def test_a_body_that_is_not_in_its_declared_charset_is_rejected() -> None:
    with pytest.raises(Rejected):
        as_utf8(b"\xff\xfe", "utf-16-be-nonsense", "text")
    with pytest.raises(Rejected):
        as_utf8(b"\xe9", "ascii", "text")


def test_other_url_schemes_are_refused_by_name_and_an_upper_case_scheme_is_a_url(
    tmp_path: Path,
) -> None:
    with groundkit.open_collection("u", index_dir=tmp_path / "index") as coll:
        report = coll.ingest(
            [
                "file:///etc/passwd",
                "gopher://example.org/",
                "ftp://example.org/f",
                "HTTP://127.0.0.1:9/",
            ]
        )
    reasons = {s.source: s.reason for s in report.skipped}
    assert reasons["file:///etc/passwd"] == "file:// URLs are not supported (only http and https)"
    assert reasons["gopher://example.org/"].startswith("gopher:// URLs are not supported")
    assert reasons["ftp://example.org/f"].startswith("ftp:// URLs are not supported")
    # Fetched as the http URL it is (and refused by the address check), not looked for on disk.
    assert reasons["http://127.0.0.1:9/"].startswith("url.unsafe")
