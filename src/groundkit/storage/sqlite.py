"""One SQLite file as groundkit keeps it: WAL, a busy timeout, migrations, transactions, faults.

A collection's ``store.sqlite`` and a code map's ``map.sqlite`` are both a ``Database``: opened in
WAL mode (readers never wait for the writer), migrated to the code's schema in one transaction
(``PRAGMA user_version`` holds the version; a file written by a newer groundkit is refused),
written inside ``transaction()`` (taken up front, so two writers never deadlock mid-way), and
every SQLite failure said as one of the few things a person can act on (``faults``): a full
disk, read-only files, a busy writer, a damaged file.

The first cause is the one reported: when a write fails (a full disk), SQLite may already have
rolled the transaction back, and the rollback that follows then fails too; that second failure
never replaces the first.

Where the file cannot be opened for writing (read-only media, or a disk with no byte free, where
SQLite cannot make the ``-shm`` file a WAL reader needs), ``fallback_read_only`` opens it for
reading only, without making any file: as it is when no write-ahead log is pending.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from groundkit.errors import ErrorCode, StoreError
from groundkit.storage.faults import classify_sqlite_error

__all__ = ["Database", "Migration", "Schema"]

_BUSY_S = 10.0
# A migration is SQL, or SQL then a step in Python over the connection (same transaction).
Migration = str | tuple[str, Callable[[sqlite3.Connection], None]]


@dataclass(frozen=True, slots=True)
class Schema:
    """What a kind of file is, to migrate it and to word its errors.

    ``what``: how a person calls it ("collection", "code map"), and ``file`` its file ("collection
    store"); ``too_new_hint``: what to do with a file of a newer schema; ``damaged_hint``: what to
    do with a damaged one; ``page_size``: the page size a new file is made with (SQLite's
    default when None; a file keeps the one it was made with)."""

    migrations: tuple[Migration, ...]
    what: str
    file: str
    too_new_hint: str
    damaged_hint: str
    page_size: int | None = None

    @property
    def version(self) -> int:
        return len(self.migrations)


class Database:
    """One SQLite file, in autocommit mode between ``transaction()`` blocks.

    ``read_only``: whether it was opened for reading only (see the module's docstring). A write
    asked of it then fails with the reason it could not be opened for writing (a full disk, or
    read-only files), not with SQLite's "attempt to write a readonly database".
    """

    def __init__(self, path: Path, schema: Schema, *, fallback_read_only: bool = False) -> None:
        self.path = path
        self.schema = schema
        self.read_only = False
        self._cannot_write: StoreError | None = None
        try:
            self.conn = _open_for_writing(path, schema)
        except StoreError as exc:
            cannot_write = (ErrorCode.STORE_READ_ONLY, ErrorCode.STORE_FULL)
            if not fallback_read_only or exc.code not in cannot_write or not path.is_file():
                raise
            self.conn = _open_for_reading(path, schema, exc)
            self.read_only = True
            self._cannot_write = exc

    def close(self) -> None:
        self.conn.close()

    def fault(self, exc: sqlite3.Error, doing: str) -> StoreError:
        """What ``exc``, raised while ``doing`` something to this file, means to a person."""
        return classify_sqlite_error(
            exc, self.path.parent, doing, damaged_hint=self.schema.damaged_hint
        )

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction, taken up front. An SQLite failure inside it, or at its commit,
        is raised as the ``StoreError`` it means, the first cause kept."""
        if self._cannot_write is not None:
            raise _writing(self._cannot_write, f"the {self.schema.file} could not be written")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._roll_back()
                raise
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:  # locked for too long, disk full, read-only, damaged...
            self._roll_back()
            raise self.fault(exc, f"the {self.schema.file} could not be written") from exc

    @contextmanager
    def savepoint(self, name: str = "input") -> Iterator[None]:
        """A nested transaction inside ``transaction()``: undone alone when its block raises."""
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException as exc:
            try:
                if self.conn.in_transaction:  # else SQLite has undone the whole transaction
                    self.conn.execute(f"ROLLBACK TO {name}")
                    self.conn.execute(f"RELEASE {name}")
            except sqlite3.Error:
                if not isinstance(exc, sqlite3.Error):
                    raise  # the savepoint's writes could not be undone: the run must stop
            raise
        self.conn.execute(f"RELEASE {name}")

    def _roll_back(self) -> None:
        if self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # the first failure is the one to report
                self.conn.execute("ROLLBACK")


def _writing(why: StoreError, doing: str) -> StoreError:
    """``why`` a file could not be opened for writing, said of a write that was then asked."""
    _, _, cause = why.message.partition(": ")
    return StoreError(why.code, f"{doing}: {cause or why.message}", hint=why.hint)


def _open_for_writing(path: Path, schema: Schema) -> sqlite3.Connection:
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # First: a second process opening a new file at the same moment waits, not fails.
        conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_S * 1000)}")
        if schema.page_size is not None:
            # Before the switch to WAL, which writes the first page: then it is fixed.
            conn.execute(f"PRAGMA page_size = {int(schema.page_size)}")
        _to_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        # After migrating: a migration that copies a table (SQLite's way to change a column's
        # constraints) drops the original, which would cascade to the rows that refer to it.
        migrate(conn, schema)
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        raise classify_sqlite_error(
            exc, path.parent, f"cannot open the {schema.what}", damaged_hint=schema.damaged_hint
        ) from exc
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn


def _open_for_reading(path: Path, schema: Schema, why: StoreError) -> sqlite3.Connection:
    """The file for reading only, making no file: through the ``-shm`` file a WAL reader needs
    when it is already there, else, when no write-ahead log is pending, as an immutable file."""
    wal = path.with_name(path.name + "-wal")
    pending = wal.is_file() and wal.stat().st_size > 0
    modes = ["mode=ro"] + ([] if pending else ["mode=ro&immutable=1"])
    for mode in modes:
        conn = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?{mode}",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            conn.execute("PRAGMA query_only = ON")
            # An older one is read as it is; a newer one is refused; one never made (a file
            # created by the failed open, with no schema in it yet) cannot be read at all.
            if _version(conn, schema) == 0:
                conn.close()
                raise why
            return conn
        except sqlite3.Error:
            conn.close()
        except BaseException:
            conn.close()
            raise
    if why.code == ErrorCode.STORE_FULL:
        raise why  # the disk is full, and what is pending in the log cannot be read without room
    raise StoreError(
        ErrorCode.STORE_READ_ONLY,
        f"cannot open the {schema.what}: its files are read-only and it cannot be read as it is",
        hint="open it once where it is writable, so a write-ahead log left by a crash is folded in",
    )


def _to_wal(conn: sqlite3.Connection) -> None:
    """Switch a file to WAL. Two processes making a new file at once can each hold a shared
    lock while asking for the exclusive one the switch needs; SQLite then answers busy at once
    rather than deadlock, without its busy handler, so the switch is retried here."""
    deadline = time.monotonic() + _BUSY_S
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def migrate(conn: sqlite3.Connection, schema: Schema) -> None:
    """Bring the file up to ``schema.version``; refuse one written by a newer groundkit.

    ``conn`` must be in autocommit mode. All pending migrations run in one transaction, decided
    only after taking the write lock (``BEGIN IMMEDIATE``): of two processes opening a new file
    at the same moment, the second finds the first's work done instead of doing it again.
    """
    if _version(conn, schema) == schema.version:
        return  # the common case: no write lock taken on open
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = _version(conn, schema)  # again, under the lock
        for version in range(current + 1, schema.version + 1):
            step = schema.migrations[version - 1]
            script, then = step if isinstance(step, tuple) else (step, None)
            for statement in _statements(script):
                conn.execute(statement)
            if then is not None:
                then(conn)
            conn.execute(
                "INSERT OR REPLACE INTO manifest VALUES ('schema_version', ?)", (str(version),)
            )
            conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def _version(conn: sqlite3.Connection, schema: Schema) -> int:
    current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if current > schema.version:
        raise StoreError(
            ErrorCode.STORE_TOO_NEW,
            f"this {schema.what} uses schema {current}; this groundkit knows up to"
            f" {schema.version}",
            hint=schema.too_new_hint,
        )
    return current


def _statements(script: str) -> Sequence[str]:
    """Split a script into statements (``executescript`` would commit the open transaction)."""
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        if not pending and (not line.strip() or line.strip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    assert not pending.strip(), "a migration ends in an incomplete statement"
    return out
