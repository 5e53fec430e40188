"""Where memory is kept: the storage interface (base.py) and its backends, SQLite (embedded, the default)
and PostgreSQL (a site memory that several robots share)."""

from __future__ import annotations

from pathlib import Path

from .base import Storage
from .errors import IncompatibleMemory, MemoryNotWritable

__all__ = ["IncompatibleMemory", "MemoryNotWritable", "Storage", "is_database_url", "open_storage", "redact"]


def is_database_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact(target: str | Path) -> str:
    """A memory's name for logs and messages: a file's path, a database URL without its password."""
    if not is_database_url(target):
        return str(target)
    rest = str(target).split("://", 1)[1]
    userinfo, at, hostpart = rest.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return f"postgresql://{user}{'@' if at else ''}{hostpart}"


def open_storage(target: str | Path, *, read_only: bool = False, exclusive: bool = False) -> Storage:
    """A SQLite file (a path, or ``:memory:``) or a PostgreSQL database (a ``postgresql://`` URL)."""
    if is_database_url(target):
        from .postgres import PostgresStorage  # psycopg is needed only for a server
        return PostgresStorage(str(target), read_only=read_only)
    from .sqlite import SqliteStorage
    return SqliteStorage(target, read_only=read_only, exclusive=exclusive)
