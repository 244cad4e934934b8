"""The persisted BM25 index over chunks (tantivy), derived from the store.

Queries are built in code from the analyzer's own tokens (an OR of term queries), never handed to
tantivy's query parser, so user text such as ``title:(x`` is searched as words. The analyzer is
not saved inside the index, so it is registered on every open under a versioned name; the store's
manifest records that name and a mismatch triggers a rebuild.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

import tantivy

from groundkit.errors import ErrorCode, IndexLockedError, StoreError

__all__ = ["ANALYZER", "LexicalIndex"]

# Bump the suffix whenever the analyzer below, or what ``Store.indexed_texts`` feeds it, changes:
# the stored postings depend on both, and a changed name makes every collection rebuild on open.
ANALYZER = "grk_en_v2"
_HEAP_BYTES = 64_000_000


def _analyzer() -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stopword("english"))
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("chunk", stored=True, indexed=True)
    builder.add_unsigned_field("doc", indexed=True)
    builder.add_text_field("text", tokenizer_name=ANALYZER, index_option="freq")
    return builder.build()


class LexicalIndex:
    """A folder holding one collection's tantivy index."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._analyzer = _analyzer()
        path.mkdir(parents=True, exist_ok=True)
        self._schema = _schema()
        try:
            self._index = tantivy.Index(self._schema, path=str(path), reuse=True)
        except ValueError as exc:
            # tantivy's message names files by absolute path; it stays on __cause__ only.
            raise StoreError(
                ErrorCode.INDEX_FAILED,
                "the lexical index cannot be opened",
                hint="run `grk reindex` to rebuild it from the store",
            ) from exc
        self._index.register_tokenizer(ANALYZER, self._analyzer)
        self._searcher = self._index.searcher()

    def tokens(self, text: str) -> list[str]:
        return self._analyzer.analyze(text)

    @property
    def num_chunks(self) -> int:
        return int(self._searcher.num_docs)

    def search(
        self, tokens: Sequence[str], limit: int, allowed: Sequence[int] | None = None
    ) -> list[tuple[int, float]]:
        """``(chunk rowid, BM25 score)``, best first. ``allowed`` restricts to those chunks."""
        terms = list(dict.fromkeys(tokens))
        if not terms or limit <= 0 or (allowed is not None and not allowed):
            return []
        should = [
            (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "text", t)) for t in terms
        ]
        query = tantivy.Query.boolean_query(should)
        if allowed is not None:
            only = tantivy.Query.term_set_query(self._schema, "chunk", list(allowed))
            query = tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Must, query),
                    (tantivy.Occur.Must, tantivy.Query.const_score_query(only, 0.0)),
                ]
            )
        searcher = self._searcher
        result = searcher.search(query, limit, count=False)
        return [(searcher.doc(addr)["chunk"][0], score) for score, addr in result.hits]

    def sync(
        self,
        delete_docs: Iterable[int],
        add_chunks: Iterable[tuple[int, int, str]],
        *,
        clear: bool = False,
    ) -> None:
        """Delete the postings of some documents, add chunks, and commit.

        ``add_chunks`` yields ``(chunk rowid, document rowid, text)``. With ``clear``, every
        posting is dropped first (a rebuild). Idempotent: replaying it after a crash is safe.
        """
        try:
            writer = self._index.writer(_HEAP_BYTES, 1)
        except ValueError as exc:
            if "lock" in str(exc).lower():
                raise IndexLockedError() from exc
            raise
        try:
            if clear:
                writer.delete_all_documents()
            # By query: a term delete with a Python int builds an i64 term that never matches
            # this u64 field.
            doomed = list(delete_docs)
            if doomed:
                writer.delete_documents_by_query(
                    tantivy.Query.term_set_query(self._schema, "doc", doomed)
                )
            for chunk, doc, text in add_chunks:
                document = tantivy.Document()
                document.add_unsigned("chunk", chunk)
                document.add_unsigned("doc", doc)
                document.add_text("text", text)
                writer.add_document(document)
            writer.commit()
            writer.wait_merging_threads()
        except BaseException:
            writer.rollback()
            raise
        self.refresh()

    def refresh(self) -> None:
        self._index.reload()
        self._searcher = self._index.searcher()

    @classmethod
    def fresh(cls, path: Path) -> LexicalIndex:
        """An empty index in place of whatever is at ``path``: damaged, or of another analyzer."""
        shutil.rmtree(path, ignore_errors=True)
        return cls(path)
