"""The two kinds of evidence, set up alike, so that one test drives both through the same gate.

A *passage kit* is a collection holding the wombat and echidna documents; an *edge kit* is a
mapped repository whose edges' evidence lines carry the same sentences, so the same quotes (and
the same bad quotes) apply to either. Each kit gives a bundle whose item 1 holds the wombat text,
a two-item bundle ``[echidna, wombat]``, what ``validate_answer`` re-reads through, and ways to
read its origin past groundkit's API and to take a source away.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from answer_helpers import bundle_for

from groundkit import Collection
from groundkit.answer.bundle import CodeEvidence, EvidenceBundle, build_bundle
from groundkit.answer.code import symbol_edges
from groundkit.answer.evidence import Origins
from groundkit.codemap.api import CodeMap, open_codemap

# The statements quote the same sentences as the documents. "\n\n" is written as an escape in
# the source, so the evidence line reads `claws.\n\nA` where the document has a blank line: a
# quote that folds it into one space is wrong for both.
ZOO = """\
def wombat():
    note("The wombat digs long burrows with its strong claws.\\n\\nA wombat eats grasses, roots and bark \u2014 and the odd caf\u00e9 crumb.")


def echidna():
    note("A guide to echidnas: the echidna lays an egg, like the platypus.")


def note(text):
    return text
"""  # noqa: E501


class PassageKit:
    kind = "passage"

    def __init__(self, col: Collection) -> None:
        self.col = col
        self.resolve: Any = col.show  # the bare Collection.show still works as the origin

    def bundle(self, query: str = "wombat burrows") -> EvidenceBundle:
        return bundle_for(self.col, query)

    def two(self) -> EvidenceBundle:
        bundle = bundle_for(self.col, "wombat echidna")
        assert [Path(i.source).name for i in bundle.passages] == ["echidna.txt", "wombat.md"]
        return bundle

    def origin_text(self, bundle: EvidenceBundle, number: int) -> str:
        """The text a citation's offsets refer to, read straight from SQLite."""
        item = bundle.passages[number - 1]
        with sqlite3.connect(self.col.path / "store.sqlite") as db:
            row = db.execute(
                "SELECT text FROM documents WHERE document_id = ?", (item.document_id,)
            ).fetchone()
        return str(row[0])

    def named(self, cited: Any) -> str:
        return str(cited.source_name)

    def take_away(self, bundle: EvidenceBundle, number: int) -> None:
        self.col.delete_document(bundle.passages[number - 1].document_id)


class EdgeKit:
    kind = "edge"

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "zoo"
        self.root.mkdir()
        (self.root / "zoo.py").write_text(ZOO, encoding="utf-8")
        self.map: CodeMap = open_codemap("zoo", index_dir=tmp_path / "index", create=True)
        self.map.update(self.root, workers=1)
        self.resolve = Origins(code=self.map)

    def close(self) -> None:
        self.map.close()

    def _edges(self, symbol: str) -> list[CodeEvidence]:
        _, found = symbol_edges(self.map, symbol, scope="trace", depth=1)
        return found

    def _bundle(self, query: str, edges: list[CodeEvidence]) -> EvidenceBundle:
        return build_bundle(
            (), collection=None, query=query, max_bytes=24_000, edges=edges, code_map="zoo"
        )

    def bundle(self, query: str = "wombat burrows") -> EvidenceBundle:
        bundle = self._bundle(query, self._edges("zoo.wombat"))
        assert len(bundle.items) == 1
        return bundle

    def two(self) -> EvidenceBundle:
        return self._bundle(
            "wombat echidna", self._edges("zoo.echidna") + self._edges("zoo.wombat")
        )

    def origin_text(self, bundle: EvidenceBundle, number: int) -> str:
        """The evidence line, read straight from the map's SQLite."""
        edge = bundle.edges[number - 1].edge
        with sqlite3.connect(self.map.folder / "map.sqlite") as db:
            rows = db.execute("SELECT evidence FROM edges").fetchall()
        found = [str(r[0]) for r in rows if str(r[0]) == edge.evidence]
        assert len(found) == 1
        return found[0]

    def named(self, cited: Any) -> str:
        return str(cited.edge.source.qualname)

    def take_away(self, bundle: EvidenceBundle, number: int) -> None:
        """Delete the function whose edge this is, and map again."""
        gone = bundle.edges[number - 1].edge.source.qualname.rsplit(".", 1)[1]
        kept = [block for block in ZOO.split("\n\n\n") if not block.startswith(f"def {gone}(")]
        (self.root / "zoo.py").write_text("\n\n\n".join(kept), encoding="utf-8")
        self.map.update(self.root, workers=1)
