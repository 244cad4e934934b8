"""The persisted BM25 index over chunks (tantivy), derived from the store.

Queries are built in code from the analyzer's own tokens (an OR of term queries), never handed to
tantivy's query parser, so user text such as ``title:(x`` is searched as words. The analyzer is
not saved inside the index, so it is registered on every open under a versioned name, which the
store's manifest records; a mismatch makes the collection rebuild the index.

The index lives in a generation folder (``lexical.N``) named by ``lexical.json``. A rebuild fills
the next generation beside the current one and then replaces the pointer file, so a search
running meanwhile sees the old index or the new one, never an empty one.

Deleted postings stay in tantivy's segments until a merge drops them, and BM25's statistics
(the number of documents and each term's document frequency) still count them. So a collection
that has had documents replaced ranks differently from one ingested cleanly. When the index holds
deleted postings, each query term is boosted by the ratio of its idf over the live documents to
the idf tantivy computes, which restores clean idf exactly; what remains is the average document
length, which still counts deleted postings (see docs/decisions/0007-derived-indexes.md).
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

import tantivy

from groundkit.errors import ErrorCode, IndexLockedError, StoreError
from groundkit.index.disk import disk_usage
from groundkit.index.store import Store
from groundkit.storage.faults import classify_os_error, disk_full, nearly_full

__all__ = ["ANALYZER", "PARALLEL_FROM", "LexicalIndex", "analyzer"]

# Bump the suffix whenever the analyzer, the schema or what ``Store.indexed_texts`` feeds the
# index changes: the stored postings depend on all three.
ANALYZER = "grk_en_v3"
# A thread's budget. tantivy writes a segment each time a thread's arena fills it: 64 MB holds
# some 159,000 chunks of scale.py's records (two segments at 100k records, eight at 500k). No
# merge ran at either size, and larger segments cost the indexing thread more, not less: at 500k,
# run side by side, 128 MB (four segments) took 8% more CPU a document than 64 MB and 512 MB (one)
# 21% more; at 100k the budgets were alike within the noise.
_HEAP_PER_THREAD = 64_000_000
# An ingest of this many documents or more hands them to the index as it goes (on one thread:
# index/feed.py says why); an apply of this many deletions, and a rebuild, index on every core,
# since each thread writes a segment of its own for merges to fold.
PARALLEL_FROM = 1000
_POINTER = "lexical.json"
_LEGACY = "lexical"  # the single folder of collections made before generations
_OPEN_ATTEMPTS = 3  # a rebuild may swap the folder away between reading the pointer and opening


def analyzer() -> tantivy.TextAnalyzer:
    """groundkit's BM25 analyzer (``ANALYZER``); the scale benchmark builds raw tantivy with it."""
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
    # A hit's chunk is read from the fast field, never from tantivy's document store: storing it
    # too cost the indexing threads some 5% (a chunk's postings are the same either way).
    builder.add_unsigned_field("chunk", indexed=True, fast=True)
    builder.add_unsigned_field("doc", indexed=True)
    # One term every posting carries: its document frequency is the number of postings, deleted
    # ones included, which is the document count tantivy's idf uses.
    builder.add_unsigned_field("all", indexed=True)
    builder.add_text_field("text", tokenizer_name=ANALYZER, index_option="freq")
    return builder.build()


_MAX_CLAUSES = 50_000


def _idf(documents: int, frequency: int) -> float:
    """BM25's idf, as tantivy computes it."""
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


class LexicalIndex:
    """One collection's tantivy index: the current generation folder under ``root``."""

    name = "lexical"
    build = ANALYZER

    def __init__(
        self, root: Path, *, in_step: Callable[[], tuple[int, int] | None] | None = None
    ) -> None:
        self.root = root
        # ``in_step``: the store's version if the store has no change this index has not
        # applied, else None. Asked just before each searcher opens and kept as ``opened_in_step``
        # (None once this process writes the index): while the store's version is still that
        # one, every chunk the searcher finds is stored, and a search need not ask.
        self._in_step = in_step
        self.opened_in_step: tuple[int, int] | None = None
        self._analyzer = analyzer()
        self._schema = _schema()
        self._index: tantivy.Index | None = None
        self._failure: BaseException | None = None
        # Each term's clause under the current searcher, with its correction for deleted
        # postings (None: only deleted postings have it). Counting a term walks its postings:
        # once per searcher.
        self._clauses: dict[str, tuple[tantivy.Occur, tantivy.Query] | None] = {}
        self.folder: str | None = None
        self._open_current()

    # -- opening --------------------------------------------------------------------------------
    def _current(self) -> str:
        try:
            return str(json.loads((self.root / _POINTER).read_text())["folder"])
        except (OSError, ValueError, KeyError, TypeError):
            return _LEGACY

    def _open_current(self) -> None:
        """Open the generation the pointer names; on failure the index is left unopened, for the
        collection to rebuild (a lost, damaged or older folder)."""
        self.opened_in_step = None
        for _ in range(_OPEN_ATTEMPTS):
            mark = self._in_step() if self._in_step else None
            folder = self._current()
            try:
                index = tantivy.Index.open(str(self.root / folder))
            except ValueError as exc:
                self._failure = exc
                if folder == self._current():
                    break  # not a swap in between: the folder itself is lost or damaged
                continue
            index.register_tokenizer(ANALYZER, self._analyzer)
            searcher = index.searcher()
            try:
                total = searcher.doc_freq("all", 1)
            except ValueError as exc:  # an index of an older schema: rebuilt by the collection
                self._failure = exc
                break
            self._index, self.folder, self._failure = index, folder, None
            self._searcher, self._total = searcher, total
            self._clauses = {}
            self.opened_in_step = mark
            return
        self._index, self.folder = None, None

    @property
    def opened(self) -> bool:
        return self._index is not None

    def refresh(self) -> None:
        """See what another process committed, or the generation a rebuild swapped in."""
        self.opened_in_step = None
        mark = self._in_step() if self._in_step else None
        if self._index is None or self._current() != self.folder:
            self._open_current()
            return
        try:
            self._index.reload()
        except ValueError:
            self._open_current()
            return
        self._searcher = self._index.searcher()
        self._total = self._searcher.doc_freq("all", 1)
        self._clauses = {}
        self.opened_in_step = mark

    def _require(self) -> tantivy.Index:
        if self._index is None:
            # tantivy takes a lock file even to read, which read-only media cannot hold.
            found = self._failure and classify_os_error(
                self._failure, self.root, "the search index cannot be opened"
            )
            raise found or StoreError(
                ErrorCode.INDEX_FAILED,
                "the lexical index cannot be opened",
                hint="run `grk reindex` to rebuild it from the store",
            )
        return self._index

    # -- reading --------------------------------------------------------------------------------
    def tokens(self, text: str) -> list[str]:
        return self._analyzer.analyze(text)

    @property
    def num_chunks(self) -> int:
        return int(self._searcher.num_docs) if self._index is not None else 0

    @property
    def stale_postings(self) -> int:
        """Deleted postings still in the segments (they skew BM25 until corrected or merged)."""
        return int(self._total - self._searcher.num_docs) if self._index is not None else 0

    def search(
        self, tokens: Sequence[str], limit: int, allowed: Sequence[int] | None = None
    ) -> list[tuple[int, float]]:
        """``(chunk rowid, BM25 score)``, best first. ``allowed`` restricts to those chunks."""
        self._require()
        terms = list(dict.fromkeys(tokens))
        if not terms or limit <= 0 or (allowed is not None and not allowed):
            return []
        should = self._should(terms)
        if not should:
            return []
        searcher = self._searcher
        query = tantivy.Query.boolean_query(should)
        if allowed is not None:
            only = tantivy.Query.term_set_query(self._schema, "chunk", list(allowed))
            query = tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Must, query),
                    (tantivy.Occur.Must, tantivy.Query.const_score_query(only, 0.0)),
                ]
            )
        hits = searcher.search(query, limit, count=False).hits  # each read converts them all
        if not hits:
            return []
        ids = searcher.fast_field_values("chunk", [addr for _, addr in hits])
        return [(int(i or 0), score) for (score, _), i in zip(hits, ids, strict=True)]

    def _should(self, terms: list[str]) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        """Each term's clause, made once per searcher (making them cost some 15 µs a search)."""
        clauses, should = self._clauses, []
        for term in terms:
            try:
                clause = clauses[term]
            except KeyError:  # (a lookup then a read could meet another thread's clear)
                if len(clauses) >= _MAX_CLAUSES:
                    clauses.clear()
                clause = clauses[term] = self._clause(term)
            if clause is not None:
                should.append(clause)
        return should

    def _clause(self, term: str) -> tuple[tantivy.Occur, tantivy.Query] | None:
        """``term``'s clause; None when only deleted postings have it."""
        searcher = self._searcher
        query = tantivy.Query.term_query(self._schema, "text", term)
        live = int(searcher.num_docs)
        if self._total == live:  # no deleted postings: tantivy's statistics are exact
            return tantivy.Occur.Should, query
        boost = self._boost(searcher, query, term, live)
        return (
            None
            if boost is None
            else (tantivy.Occur.Should, tantivy.Query.boost_query(query, boost))
        )

    def _boost(
        self, searcher: tantivy.Searcher, query: tantivy.Query, term: str, live: int
    ) -> float | None:
        counted = int(searcher.doc_freq("text", term))
        if not counted:
            return None
        matching = int(getattr(searcher.search(query, 1, count=True), "count", 0) or 0)
        if not matching:
            return None  # only deleted postings have it
        return _idf(live, matching) / _idf(self._total, counted)

    def entries(self) -> int:
        return self.num_chunks

    def expected(self, store: Store) -> int:
        return store.counts()[1]

    def source_rows(
        self, store: Store, documents: Sequence[int] | None
    ) -> Iterator[tuple[int, int, str]]:
        return store.indexed_texts(documents)

    def size_bytes(self) -> int:
        if self.folder is None:
            return 0
        return disk_usage(self.root / self.folder)

    # -- writing (the caller holds the collection's write lock) ---------------------------------
    def sync(self, delete_docs: Iterable[int], add_chunks: Iterable[tuple[int, int, str]]) -> None:
        """Delete the postings of some documents, add chunks, and commit. Idempotent: replaying
        it after a crash is safe. ``add_chunks`` yields ``(chunk rowid, document rowid, text)``.
        """
        index = self._require()
        doomed = list(delete_docs)
        self._write(index, doomed, add_chunks, parallel=len(doomed) >= PARALLEL_FROM)
        self.refresh()

    def rebuild(self, chunks: Iterable[tuple[int, int, str]]) -> None:
        """Build a new generation from ``chunks`` beside the current one, then swap it in."""
        taken = {p.name for p in self.root.glob("lexical*")}
        generation = 1
        while f"lexical.{generation}" in taken:
            generation += 1
        folder = f"lexical.{generation}"
        (self.root / folder).mkdir(parents=True)
        try:
            index = tantivy.Index(self._schema, path=str(self.root / folder))
            index.register_tokenizer(ANALYZER, self._analyzer)
            self._write(index, (), chunks, parallel=True)
            pointer = self.root / f"{_POINTER}.tmp"
            pointer.write_text(json.dumps({"folder": folder}))
            with open(pointer, "rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(pointer, self.root / _POINTER)
        except BaseException:
            shutil.rmtree(self.root / folder, ignore_errors=True)
            raise
        self._open_current()
        # Readers in other processes keep the old generation's files open until they refresh.
        for old in self.root.glob("lexical*"):
            if old.is_dir() and old.name != folder:
                shutil.rmtree(old, ignore_errors=True)

    def _write(
        self,
        index: tantivy.Index,
        delete_docs: Iterable[int],
        add_chunks: Iterable[tuple[int, int, str]],
        *,
        parallel: bool,
    ) -> None:
        writer = self.writer(index, parallel=parallel)
        try:
            self.delete(writer, list(delete_docs))
            self.add(writer, add_chunks)
            writer.commit()
            writer.wait_merging_threads()
        except BaseException as exc:
            self.failed(writer, exc)

    def writer(self, index: tantivy.Index | None = None, *, parallel: bool) -> tantivy.IndexWriter:
        """A writer of ``index`` (default: the current generation), on every core when
        ``parallel``, with the files a crash left behind collected first."""
        index = self._require() if index is None else index
        self.opened_in_step = None  # the searcher may be behind what this writer commits
        threads = max(1, min(os.cpu_count() or 1, 4)) if parallel else 1
        try:
            writer = index.writer(_HEAP_PER_THREAD * threads, threads)
        except ValueError as exc:
            if "lock" in str(exc).lower():
                raise IndexLockedError() from exc
            raise self._io_error(exc) from exc
        try:
            # A kill between tantivy writing a file and naming it in meta.json leaves the file
            # behind (a `<segment>.<opstamp>.del` one); a replay of the same change would write
            # the same name and fail. Files meta.json does not name go first: the replay is then
            # the write it replays.
            writer.garbage_collect_files()
        except BaseException as exc:
            self.failed(writer, exc)
        return writer

    def delete(self, writer: tantivy.IndexWriter, docs: Sequence[int]) -> None:
        """Delete the postings of the documents ``docs`` (rowids) through ``writer``."""
        if docs:
            # By query: a term delete with a Python int builds an i64 term that never matches
            # this u64 field.
            writer.delete_documents_by_query(
                tantivy.Query.term_set_query(self._schema, "doc", list(docs))
            )

    @staticmethod
    def add(writer: tantivy.IndexWriter, chunks: Iterable[tuple[int, int, str]]) -> None:
        """Add ``(chunk rowid, document rowid, text)`` through ``writer``."""
        for chunk, doc, text in chunks:
            document = tantivy.Document()
            document.add_unsigned("chunk", chunk)
            document.add_unsigned("doc", doc)
            document.add_unsigned("all", 1)
            document.add_text("text", text)
            writer.add_document(document)

    def failed(self, writer: tantivy.IndexWriter, exc: BaseException) -> NoReturn:
        """Roll ``writer`` back after ``exc`` and raise it (an I/O failure said as such)."""
        writer.rollback()
        if isinstance(exc, ValueError | OSError):
            raise self._io_error(exc) from exc
        raise exc

    def _io_error(self, exc: BaseException) -> BaseException:
        what = "the search index could not be written"
        found = classify_os_error(exc, self.root, what)
        if found is not None:
            return found
        # A worker thread that died of an I/O error is reported without the error itself
        # ("An index writer was killed"): a disk with no room left explains it.
        if nearly_full(self.root):
            return disk_full(self.root, what)
        return StoreError(
            ErrorCode.INDEX_FAILED,
            f"{what} ({type(exc).__name__})",
            hint="run `grk reindex` to rebuild it from the store",
        )
