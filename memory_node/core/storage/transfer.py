"""Copy a whole memory from one backend to another (``memory-node migrate``): SQLite -> PostgreSQL when a
robot joins a site memory, PostgreSQL -> SQLite to take a site's memory along. Both schemas hold the same
tables and columns (postgres_schema.py), so every row is copied as it is, in insertion order where order
breaks ties; the target's own indexes (SQLite's FTS triggers, PostgreSQL's trigram indexes) index the rows
as they arrive. Frame files are not copied: their rows name them relative to the database's folder (copy
``frames/`` along)."""

from __future__ import annotations

from .base import Storage

# every table's columns (the insertion-order ``rowid`` is each backend's own and is not copied)
TABLE_COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "observations": ("id", "kind", "stamp_ns", "source", "summary", "robot", "site"),
    "entities": ("id", "label", "room", "present", "last_seen_ns", "data"),
    "entity_versions": ("entity_id", "valid_from_ns", "valid_to_ns", "data"),
    "relations": ("subject", "predicate", "object", "family", "since_ns", "until_ns", "provenance"),
    "events": ("id", "kind", "stamp_ns", "data"),
    "event_entities": ("event_id", "entity_id"),
    "frames": ("id", "stamp_ns", "room", "path", "data"),
    "frame_entities": ("frame_id", "entity_id"),
    "facts": ("id", "kind", "subject", "subject_key", "predicate", "target", "target_key", "target_id", "negated",
              "owner", "speaker", "correction", "stamp_ns", "event_id", "valid_from_ns", "valid_to_ns"),
    "fact_categories": ("fact_id", "category", "level"),
    "rules": ("id", "category", "predicate", "receptacle", "receptacle_key", "receptacle_id", "support_event_ids",
              "support_fact_ids", "confidence", "valid_from_ns", "valid_to_ns", "superseded_by"),
    "knowledge": ("id", "kind", "actor", "support", "confidence", "evidence_from_ns", "evidence_to_ns", "run_id",
                  "data"),
    "consolidation_runs": ("id", "computed_ns", "window_from_ns", "window_to_ns", "events", "records",
                           "fingerprint", "data"),
    "seen_since": ("entity_id", "since_ns"),
    "seen_intervals": ("entity_id", "from_ns", "to_ns"),
    "embedding_cache": ("text", "model", "dim", "vector"),
}
# tables whose insertion order breaks ties in reads (both backends keep a rowid for them)
ORDERED = {"observations", "entities", "relations", "events", "frames", "facts", "rules", "consolidation_runs"}
_BATCH = 1000


class TargetNotEmpty(RuntimeError):
    """The target memory already holds records: a copy would mix two memories."""


def copy_memory(source: Storage, target: Storage, progress=lambda table, rows: None) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` in one transaction; rows copied per table."""
    held = {t: target.count(t) for t in ("observations", "entities", "events", "frames", "facts")}
    if any(held.values()):
        raise TargetNotEmpty(f"the target memory is not empty ({', '.join(f'{n} {t}' for t, n in held.items() if n)})")
    copied: dict[str, int] = {}
    with target.transaction():
        for table, columns in TABLE_COLUMNS.items():
            cols = ", ".join(columns)
            order = " ORDER BY rowid" if table in ORDERED else ""
            cursor = source.execute(f"SELECT {cols} FROM {table}{order}")
            insert = f"INSERT INTO {table}({cols}) VALUES({', '.join('?' * len(columns))})"
            if table == "meta":  # a new SQLite file or site schema may already hold meta rows of its own
                insert += " ON CONFLICT(key) DO UPDATE SET value=excluded.value"
            n = 0
            while True:
                rows = cursor.fetchmany(_BATCH)
                if not rows:
                    break
                target.executemany(insert, [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r)
                                            for r in rows])
                n += len(rows)
            copied[table] = n
            progress(table, n)
    return copied
