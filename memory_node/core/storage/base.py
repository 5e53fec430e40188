"""The storage interface under the memory engine: one database connection and its transactions.

The engine (core/store.py, rules.py, consolidation.py, retrieval.py) reads and writes memory only through a
``Storage``: the named operations of ``records.MemoryRecords`` and ``learned.LearnedRecords`` (written once, in
SQL both backends run), and the search operations each backend implements for its own text index. Nothing
above this package writes SQL. A backend supplies what differs: connecting, transactions and savepoints,
schema migrations, the few dialect expressions (``json_int``, ``total``) and the full-text search.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any


class Storage(abc.ABC):
    """One connection to a memory database. Writes happen inside ``transaction()``; reads anywhere."""

    #: "sqlite" or "postgresql"
    dialect: str = ""
    read_only: bool = False

    def __init__(self) -> None:
        self._tx_depth = 0  # nesting of transaction(): 0 = none open, >0 = savepoints inside one

    # ---- what a backend implements ---------------------------------------------------------------

    @abc.abstractmethod
    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """Run one statement (``?`` placeholders); the result iterates rows and has fetchone/fetchall."""

    @abc.abstractmethod
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""

    @property
    @abc.abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open on this connection."""

    @abc.abstractmethod
    def schema_version(self) -> int:
        """The schema version this database is at (0: empty)."""

    @abc.abstractmethod
    def migrate(self) -> None:
        """Bring the schema to this code's version, one migration per transaction."""

    @abc.abstractmethod
    def close(self) -> None:
        """Close the connection (the database stays)."""

    @abc.abstractmethod
    def json_int(self, column: str, key: str) -> str:
        """SQL for an integer field of a JSON document column."""

    @abc.abstractmethod
    def total(self, column: str) -> str:
        """SQL for the sum of an integer column that is 0 over no rows and never overflows."""

    @abc.abstractmethod
    def interrupt(self) -> None:
        """Stop the query running on this connection (called from another thread)."""

    def checkpoint(self) -> None:
        """Make what was committed durable in the database's main files (a no-op where nothing to do)."""

    def integrity_ok(self) -> bool:
        """Whether the database reports itself intact."""
        return True

    def _begin(self) -> None:
        self.execute("BEGIN")

    def _translate_error(self, err: BaseException) -> BaseException | None:
        """The error a failed write should raise instead of ``err`` (None: raise it as it is)."""
        return None

    def _pipelined(self) -> AbstractContextManager[Any]:
        """Around one transaction or savepoint: a server backend sends the statements whose results nobody
        reads without waiting for each, and on leaving waits for all of them, so an error is raised inside
        the transaction (or savepoint) whose statement caused it. Nothing to do for a file."""
        return nullcontext()

    # ---- transactions --------------------------------------------------------------------------

    @contextmanager
    def transaction(self, *, pipelined: bool = True) -> Iterator["Storage"]:
        """One atomic write; nested calls are savepoints inside it, so one message of a batch can fail and
        be undone alone. A COMMIT that fails is undone too: a transaction left open would make every later
        BEGIN fail. ``pipelined=False``: statements go one at a time (a script of several statements in one
        string, which a pipeline refuses)."""
        depth = self._tx_depth
        try:
            if depth == 0:
                self._begin()
            else:
                self.execute(f"SAVEPOINT sp{depth}")
            self._tx_depth = depth + 1
            try:
                try:
                    with self._pipelined() if pipelined else nullcontext():
                        yield self
                except BaseException:
                    self._undo(depth)
                    raise
                try:
                    self.execute("COMMIT" if depth == 0 else f"RELEASE SAVEPOINT sp{depth}")
                except BaseException:
                    self._undo(depth)
                    raise
            finally:
                self._tx_depth = depth
        except Exception as err:
            translated = self._translate_error(err)
            if translated is None:
                raise
            raise translated from err

    def _undo(self, depth: int) -> None:
        # SQLite rolls back by itself when the disk is full: an unconditional ROLLBACK then raised "cannot
        # rollback - no transaction is active", which hid the real error (test/core/test_store_faults.py)
        if not self.in_transaction:
            return
        if depth == 0:
            self.execute("ROLLBACK")
        else:
            self.execute(f"ROLLBACK TO SAVEPOINT sp{depth}")
            self.execute(f"RELEASE SAVEPOINT sp{depth}")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state (a read-only connection only; a writer's own thread is the
        only one that changes memory, so it needs none). Nests."""
        if not self.read_only or self.in_transaction:
            yield
            return
        self._begin_snapshot()
        try:
            yield
        finally:
            self._end_snapshot()

    def _begin_snapshot(self) -> None:
        self.execute("BEGIN")

    def _end_snapshot(self) -> None:
        self.execute("COMMIT")  # a read transaction: nothing to commit, it only ends the snapshot
