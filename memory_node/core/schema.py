"""The memory database schema as an ordered list of migrations.

A database records the version it is at (``PRAGMA user_version``); opening it applies every later migration
in one transaction each, so an old memory is upgraded in place and a failed upgrade leaves it as it was.
Append new migrations; never edit a released one. Extensions of the store (retrieval indexes, learned
knowledge, activities) add their tables here too, so there is one schema and one version.
"""

from __future__ import annotations

import sqlite3

# (version, SQL statements separated by ";")
MIGRATIONS: list[tuple[int, str]] = [
    (1, """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS observations(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, stamp_ns INTEGER NOT NULL, source TEXT NOT NULL,
    summary TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS observations_stamp ON observations(stamp_ns);
CREATE TABLE IF NOT EXISTS entities(
    id TEXT PRIMARY KEY, label TEXT NOT NULL, room TEXT NOT NULL, present INTEGER NOT NULL,
    last_seen_ns INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS entities_label ON entities(label);
CREATE INDEX IF NOT EXISTS entities_room ON entities(room);
CREATE TABLE IF NOT EXISTS entity_versions(
    entity_id TEXT NOT NULL, valid_from_ns INTEGER NOT NULL, valid_to_ns INTEGER, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS entity_versions_entity ON entity_versions(entity_id, valid_from_ns);
CREATE TABLE IF NOT EXISTS relations(
    subject TEXT NOT NULL, predicate TEXT NOT NULL, object TEXT NOT NULL, family TEXT NOT NULL,
    since_ns INTEGER NOT NULL, until_ns INTEGER, provenance TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS relations_subject ON relations(subject, family, until_ns);
CREATE INDEX IF NOT EXISTS relations_object ON relations(object, until_ns);
CREATE TABLE IF NOT EXISTS events(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, stamp_ns INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_stamp ON events(stamp_ns);
CREATE TABLE IF NOT EXISTS event_entities(event_id TEXT NOT NULL, entity_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS event_entities_entity ON event_entities(entity_id);
CREATE INDEX IF NOT EXISTS event_entities_event ON event_entities(event_id);
CREATE TABLE IF NOT EXISTS frames(
    id TEXT PRIMARY KEY, stamp_ns INTEGER NOT NULL, room TEXT NOT NULL, path TEXT NOT NULL,
    data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS frames_stamp ON frames(stamp_ns);
CREATE TABLE IF NOT EXISTS frame_entities(frame_id TEXT NOT NULL, entity_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS frame_entities_entity ON frame_entities(entity_id);
CREATE INDEX IF NOT EXISTS frame_entities_frame ON frame_entities(frame_id);
"""),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]


def statements(sql: str) -> list[str]:
    """Split a migration into statements; a trigger's body (BEGIN ...; ...; END) stays whole."""
    out: list[str] = []
    buf = ""
    for piece in sql.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \n;"):
                out.append(buf.strip())
            buf = ""
    if buf.strip(" \n;"):
        raise ValueError(f"incomplete SQL statement in migration: {buf.strip()[:80]}")
    return out
