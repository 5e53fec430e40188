"""The site backend: one PostgreSQL database that several robots (several memory nodes) write and read at
once. The server orders their transactions, so there is no writer lock; each store holds one connection
(readers: their own, read-only). Queries are the shared ones of records.py and learned.py (``?``
placeholders are rewritten to psycopg's ``%s``) plus postgres_search.py."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from .base import Storage
from .errors import IncompatibleMemory, MemoryNotWritable, MemoryUnavailable
from .learned import LearnedRecords
from .postgres_schema import MIGRATIONS, SCHEMA_VERSION
from .postgres_search import PostgresSearch
from .records import MemoryRecords
from . import redact  # noqa: I001 - the package is initialised before a backend module is imported

# any number: the lock two nodes starting on one new database take so that one of them migrates it
_MIGRATION_LOCK = 0x6D656D6F


class PostgresStorage(PostgresSearch, MemoryRecords, LearnedRecords, Storage):
    dialect = "postgresql"

    def __init__(self, url: str, *, read_only: bool = False, connect_timeout: float = 5.0):
        super().__init__()
        self.url = url
        self.read_only = read_only
        self.name = redact(url)
        self._sql: dict[str, str] = {}
        self._in_snapshot = False
        self._connect_timeout = max(1, int(connect_timeout))
        self._conn = self._connect()
        try:
            if read_only:
                version = self.schema_version()
                if version != SCHEMA_VERSION:
                    raise RuntimeError(f"{self.name} has memory schema {version}, this reader expects "
                                       f"{SCHEMA_VERSION} (the writer migrates it)")
            else:
                self.migrate()
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> psycopg.Connection:
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self._connect_timeout)
            if self.read_only:
                conn.execute("SET default_transaction_read_only = on")
            return conn
        except psycopg.OperationalError as err:
            raise MemoryUnavailable(f"memory unavailable: {self.name} cannot be reached ({err})") from err

    def _usable(self) -> psycopg.Connection:
        """The connection, re-opened if the server dropped it (a restart) and no transaction was open on it
        (one that was is lost whole: its writes raise, and the caller writes them again)."""
        if self._conn.closed or self._conn.broken:
            if self._tx_depth:
                raise MemoryUnavailable(f"memory unavailable: the connection to {self.name} was lost")
            self._conn = self._connect()
        return self._conn

    def _run(self, sql: str, args: list | None) -> psycopg.Cursor:
        conn = self._usable()
        try:
            return conn.execute(sql, args)
        except psycopg.OperationalError as err:
            if not (conn.closed or conn.broken):
                raise
            # an idle connection learns that the server restarted only when it is next used: outside a
            # transaction or snapshot, nothing depended on it, so the statement runs again on a new one
            if not (self._tx_depth or self._in_snapshot):
                try:
                    return self._usable().execute(sql, args)
                except psycopg.OperationalError:
                    pass
            raise MemoryUnavailable(f"memory unavailable: {self.name} went away ({err})") from err

    @property
    def connection(self) -> None:
        return None  # no SQLite connection (MemoryStore.db says so)

    def _translate(self, sql: str) -> str:
        out = self._sql.get(sql)
        if out is None:
            out = self._sql[sql] = sql.replace("%", "%%").replace("?", "%s")
        return out

    # ---- Storage ---------------------------------------------------------------------------------

    def execute(self, sql: str, args: Sequence[Any] = ()) -> psycopg.Cursor:
        if not args:  # without parameters psycopg leaves '%' alone (and a script may hold several statements)
            return self._run(sql, None)
        return self._run(self._translate(sql), list(args))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            conn = self._usable()
            try:
                with conn.cursor() as cur:
                    cur.executemany(self._translate(sql), rows)
            except psycopg.OperationalError as err:
                if conn.closed or conn.broken:
                    raise MemoryUnavailable(f"memory unavailable: {self.name} went away ({err})") from err
                raise

    @property
    def in_transaction(self) -> bool:
        if self._conn.closed or self._conn.broken:
            return False  # the server ended it
        return self._conn.info.transaction_status != TransactionStatus.IDLE

    def schema_version(self) -> int:
        exists = self.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]
        if not exists:
            return 0
        return self.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]

    def migrate(self) -> None:
        with self.transaction(pipelined=False):
            # two nodes starting on one new database: the second waits here, then finds the schema done
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._conn.execute("CREATE TABLE IF NOT EXISTS schema_version("
                               "version INTEGER PRIMARY KEY, applied_ns BIGINT NOT NULL)")
            version = self.schema_version()
            if version > SCHEMA_VERSION:
                raise IncompatibleMemory(f"{self.name} has memory schema {version}, newer than this memory_node "
                                         f"({SCHEMA_VERSION})")
            for target, sql in MIGRATIONS:
                if target <= version:
                    continue
                # a savepoint: one migration applies whole or not at all
                with self.transaction(pipelined=False):
                    self._conn.execute(sql)  # no parameters: the whole script runs as one simple query
                    self._conn.execute("INSERT INTO schema_version VALUES(%s, (extract(epoch FROM now()) * 1e9)::bigint)",
                                       (target,))

    def close(self) -> None:
        self._conn.close()

    def interrupt(self) -> None:
        self._conn.cancel_safe()

    def json_int(self, column: str, key: str) -> str:
        return f"(({column})::jsonb->>'{key}')::bigint"

    def total(self, column: str) -> str:
        return f"COALESCE(SUM({column}), 0)"

    def _begin(self) -> None:
        if self.read_only:
            raise MemoryNotWritable(f"read-only memory on {self.name}: writes go through the writer")
        self.execute("BEGIN")

    def _pipelined(self) -> AbstractContextManager[Any]:
        # a scene graph's writes were one round trip each (about 50 for a graph of 20 objects), each waiting
        # for the server process to be scheduled: pipelined, the graph waits only where it reads
        return self._usable().pipeline()

    def _begin_snapshot(self) -> None:
        self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        self._in_snapshot = True

    def _end_snapshot(self) -> None:
        self._in_snapshot = False
        self.execute("COMMIT")

    def _translate_error(self, err: BaseException) -> BaseException | None:
        if isinstance(err, MemoryNotWritable) or not isinstance(err, psycopg.OperationalError):
            return None
        if self._conn.closed or self._conn.broken:
            return MemoryUnavailable(f"memory unavailable: {self.name} went away ({err}); the message was not "
                                     f"stored, what was stored before is intact")
        return MemoryNotWritable(f"memory at {self.name} could not be written ({err}); the message was not stored, "
                                 f"what was stored before is intact")

    def integrity_ok(self) -> bool:
        return self.execute("SELECT 1").fetchone()[0] == 1
