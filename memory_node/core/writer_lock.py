"""One writer per memory file: an OS lock on ``<database>.lock`` beside it.

Two nodes on one database both ingested the same utterance (it was stored twice) and raced on the frame
gate; SQLite's own locking serialises their transactions but cannot tell them apart. ``flock`` is released
by the kernel when the process exits, however it exits (kill -9 included), so a crash never leaves a stale
lock behind; the lock file itself stays, empty of meaning, and only records who holds it for the message.
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path


class MemoryInUse(RuntimeError):
    """Another process already writes this memory file."""


class WriterLock:
    """Held from :meth:`acquire` until :meth:`release` (or the process ends)."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = Path(db_path)
        self.path = self.db_path.with_name(self.db_path.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> WriterLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise MemoryInUse(f"memory at {self.db_path} is already open for writing by another process"
                              f"{f' ({holder})' if holder else ''}; one database has one writer: stop that "
                              f"one, or give this one another database_path") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}: {' '.join(sys.argv)[:300]}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)
        except OSError:
            pass  # a read-only or full medium: the lock still goes with the descriptor
        os.close(self._fd)  # closing the descriptor releases the flock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 400, 0).decode(errors="replace").strip()
    except OSError:
        return ""
