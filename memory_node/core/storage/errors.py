"""What a storage backend raises, whichever database it runs on."""

from __future__ import annotations

import sqlite3


class MemoryNotWritable(sqlite3.OperationalError):
    """Memory could not be written (read-only file or medium, full disk, I/O error, the database server
    gone): that write is not stored, it is rolled back whole, everything committed before stays, reads keep
    working, and writes succeed again once the database can take them. (A subclass of SQLite's error so that
    callers written for the SQLite memory keep catching it.)"""


class IncompatibleMemory(RuntimeError):
    """The memory cannot be used by this code (a newer schema)."""


def storage_errors() -> tuple[type[BaseException], ...]:
    """The database errors of every backend installed here (to catch a failed optional write)."""
    import sqlite3 as _sqlite3
    out: list[type[BaseException]] = [_sqlite3.Error]
    try:
        import psycopg
        out.append(psycopg.Error)
    except ImportError:
        pass
    return tuple(out)


class MemoryUnavailable(MemoryNotWritable):
    """The database server cannot be reached (restarting, network down): nothing was written or read. The
    connection is re-opened on the next call, so the same write succeeds once the server is back."""
