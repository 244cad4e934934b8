from __future__ import annotations

import json
from pathlib import Path

import groundkit

_FILLER = "Plain words about nothing in particular fill this sentence. " * 20
# A rival that matches the second query word more strongly than the target chunk does alone.
_RIVAL = "Platinum and brine appear once each here. " + "Other rival words. " * 3 + "\n"


def test_a_later_chunk_of_a_record_is_found_by_its_title_but_cites_only_its_own_text(
    tmp_path: Path,
) -> None:
    record = {"id": "r1", "title": "Zeolite catalysts", "text": _FILLER + "Platinum doping helps."}
    rival = {"id": "r2", "text": _RIVAL}
    (tmp_path / "c.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(rival) + "\n")
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path / "c.jsonl")])
        top = coll.search("zeolite platinum")[0]
    assert top.citation.external_id == "r1"
    assert "Platinum doping" in top.text
    assert "Zeolite" not in top.text


def test_a_later_chunk_of_a_markdown_section_is_found_by_its_heading(tmp_path: Path) -> None:
    (tmp_path / "m.md").write_text(
        f"# Manual\n\n## Quenching\n\n{_FILLER}\n\n{_FILLER}\n\nUse brine at the end.\n"
    )
    (tmp_path / "rival.txt").write_text(_RIVAL)
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path)])
        top = coll.search("quenching brine")[0]
    assert "Use brine" in top.text
    assert "Quenching" not in top.text
    assert top.metadata["heading_path"] == ["Manual", "Quenching"]
