"""The embedded backend: one SQLite file (WAL), one writer (core/writer_lock.py), readers on their own
read-only connections. The default memory of one robot."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..schema import MIGRATIONS, SCHEMA_VERSION, statements
from ..writer_lock import WriterLock
from .base import Storage
from .errors import IncompatibleMemory, MemoryNotWritable
from .learned import LearnedRecords
from .records import MemoryRecords
from .sqlite_search import SqliteSearch

# SQLite's primary result codes for "this write cannot happen here": read-only file or medium, I/O error,
# disk (or file-size limit) full
_NOT_WRITABLE_CODES = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL}


def not_writable(path: Path, err: BaseException) -> MemoryNotWritable:
    return MemoryNotWritable(f"memory at {path} could not be written ({err}); the message was not stored, "
                             f"what was stored before is intact")


class SqliteStorage(SqliteSearch, MemoryRecords, LearnedRecords, Storage):
    """A memory file (``:memory:`` for a throwaway one)."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, *, read_only: bool = False, exclusive: bool = False):
        """``exclusive``: take the file's writer lock, so a second process that asks for it too (a second
        node, a CLI forget) is refused with ``MemoryInUse`` instead of writing beside this one."""
        super().__init__()
        self.path = Path(path)
        self.in_memory = str(path) == ":memory:"
        self.read_only = read_only
        self._lock: WriterLock | None = None
        if read_only:
            self._db = self._connect_reader()
            return
        if not self.in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                try:
                    self._lock = WriterLock(self.path).acquire()
                except OSError as err:  # a read-only folder or medium takes no lock file: no writer either
                    raise MemoryNotWritable(f"memory at {self.path} cannot be opened for writing ({err})") \
                        from err
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        except BaseException:
            self._release_lock()
            raise
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            # statement and savepoint journals in memory: on disk, each message of a batch (a savepoint) wrote
            # ~120 KB of sub-journal to /var/tmp, as much as committing it alone (memory_node/bench/batch_bench.py)
            self._db.execute("PRAGMA temp_store=MEMORY")
            self.migrate()
        except sqlite3.OperationalError as err:
            self._db.close()
            self._release_lock()
            # an existing file whose folder takes no -shm file (read-only medium) cannot be opened either
            if getattr(err, "sqlite_errorcode", 0) & 0xFF in _NOT_WRITABLE_CODES | {sqlite3.SQLITE_CANTOPEN}:
                raise MemoryNotWritable(f"memory at {self.path} cannot be opened for writing ({err}); read it "
                                        f"with MemoryStore.open_reader") from err
            raise
        except BaseException:
            self._db.close()
            self._release_lock()
            raise

    def _connect_reader(self) -> sqlite3.Connection:
        if self.in_memory:
            raise ValueError("a reader needs a memory file; an in-memory database has no second connection")
        if not self.path.is_file():
            raise FileNotFoundError(f"no memory at {self.path} (open the writer first)")
        db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                             isolation_level=None)
        try:
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if mode != "wal":  # in rollback-journal mode a reader and the writer would lock each other out
                raise RuntimeError(f"{self.path} is not in WAL mode (open the writer first)")
            if version != SCHEMA_VERSION:
                raise RuntimeError(f"{self.path} has memory schema {version}, this reader expects "
                                   f"{SCHEMA_VERSION} (the writer migrates it)")
        except BaseException:
            db.close()
            raise
        return db

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def connection(self) -> sqlite3.Connection:
        return self._db

    # ---- Storage ---------------------------------------------------------------------------------

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, args)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def migrate(self) -> None:
        # the version lives in the file header (PRAGMA user_version), as it has since the first schema
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise IncompatibleMemory(
                f"{self.path} has memory schema {version}, newer than this memory_node ({SCHEMA_VERSION})")
        for target, sql in MIGRATIONS:
            if target <= version:
                continue
            # executescript() would commit on its own; one statement at a time keeps each step atomic
            with self.transaction():
                for stmt in statements(sql):
                    self._db.execute(stmt)
                self._db.execute(f"PRAGMA user_version={target}")

    def close(self) -> None:
        if not self.read_only:
            try:
                self._db.execute("PRAGMA optimize")  # keeps the query planner's statistics current (SQLite's advice)
            except sqlite3.OperationalError:
                pass  # a full or read-only disk: statistics can wait, closing must not fail
        self._db.close()
        self._release_lock()

    def json_int(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    def total(self, column: str) -> str:
        return f"TOTAL({column})"  # a float: SUM of event-time stamps overflows 64 bits after five of them

    def _begin(self) -> None:
        if self.read_only:
            raise MemoryNotWritable(f"read-only memory on {self.path}: writes go through the writer")
        self._db.execute("BEGIN IMMEDIATE")

    def _translate_error(self, err: BaseException) -> BaseException | None:
        if isinstance(err, MemoryNotWritable) or not isinstance(err, sqlite3.OperationalError):
            return None
        if getattr(err, "sqlite_errorcode", 0) & 0xFF not in _NOT_WRITABLE_CODES:
            return None
        return not_writable(self.path, err)

    def interrupt(self) -> None:
        """Stop the query running on this connection (from another thread: a request past its deadline)."""
        self._db.interrupt()

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file (benchmarks measure the file's size after it)."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def integrity_ok(self) -> bool:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
