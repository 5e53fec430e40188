"""What the commands share: opening a memory file, reading and printing times."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from memory_node.core.store import MemoryStore

NS = 1_000_000_000
# stamps before this are event time of a recording or a test (seconds from its start), not wall time
_WALL_CLOCK_FROM_NS = 946_684_800 * NS  # 2000-01-01


class CliError(Exception):
    """A user error the tool reports in one line (exit status 2 unless said otherwise)."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def need(module: str, what: str) -> None:
    """A clear error instead of a traceback when an optional package of the tool is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise CliError(f"{what} needs the Python package {module!r}: pip install 'memory_node[tools]' "
                       f"(scripts/setup.sh installs it)")


def open_memory(path: str | Path, write: bool = False) -> MemoryStore:
    """The memory in ``path``; read-only unless ``write`` (a reader never changes the file, so it is safe
    next to a running node). A missing file, a non-memory file or a newer schema is a ``CliError``."""
    path = Path(path)
    if not path.is_file():
        raise CliError(f"no memory database at {path}")
    try:
        # a writer takes the file's lock: a forget next to a running node is refused, not interleaved
        return MemoryStore(path, exclusive=True) if write else MemoryStore.open_reader(path)
    except (RuntimeError, sqlite3.DatabaseError) as err:
        hint = ""
        if not write and "the writer migrates it" in str(err):  # an older memory: reading never migrates it
            hint = "; start this version's node on it once (it migrates the file), then read it"
        raise CliError(f"{path}: {err}{hint}") from None


def parse_time(text: str) -> int:
    """'2026-12-01T10:30[:00][Z|+01:00]' (UTC when no zone is given) or seconds ('8.3') -> ns."""
    text = text.strip()
    try:
        return int(round(float(text) * NS))
    except ValueError:
        pass
    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CliError(f"time {text!r}: give an ISO date/time (2026-12-01T10:30) or seconds (8.3)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return int(when.timestamp()) * NS + when.microsecond * 1000


def format_time(ns: int | None) -> str:
    if ns is None:
        return "-"
    if ns < _WALL_CLOCK_FROM_NS:
        return f"{ns / NS:.3f} s"
    return dt.datetime.fromtimestamp(ns / NS, tz=dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + "Z"


def named(entity) -> str:
    """' "Alex's mug"' after a label, or nothing when the entity has no name."""
    return f' "{entity.name}"' if entity.name else ""


def time_span(store: MemoryStore) -> tuple[int | None, int | None]:
    """First and last observation stamps (event time)."""
    return store.storage.observation_span()
