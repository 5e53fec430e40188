"""The memory's records (observations, entities and their versions, relations, sightings, events, frames,
meta) as named operations, in the SQL that SQLite and PostgreSQL both run: ``?`` placeholders (a PostgreSQL
connection rewrites them), explicit ``rowid`` for insertion order (SQLite's implicit one, an identity column
on PostgreSQL), ``ON CONFLICT ... DO UPDATE`` upserts. What differs between them comes from the backend
(``json_int``, ``total``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

FAR_FUTURE = 2**62
# what is learned from events (core/rules.py, core/consolidation.py): forgotten with its evidence
DERIVED_TABLES = ("facts", "rules", "knowledge")
COUNTED_TABLES = ("observations", "entities", "entity_versions", "relations", "events", "frames")
ALL_TABLES = ("observations", "entities", "entity_versions", "seen_intervals", "seen_since", "relations", "events",
              "event_entities", "frames", "frame_entities", "fact_categories", "embedding_cache",
              "consolidation_runs", *DERIVED_TABLES)


# ids in one IN (...) list: far below SQLite's 32,766 bound variables and PostgreSQL's 65,535 parameters
_IDS_PER_QUERY = 500


def _bounds(lo: int | None, hi: int | None) -> list[int]:
    return [lo if lo is not None else -FAR_FUTURE, hi if hi is not None else FAR_FUTURE]


def marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


class MemoryRecords:
    """Mixed into a ``Storage``: ``execute``/``executemany``/``json_int`` come from the backend."""

    execute: Any
    executemany: Any
    json_int: Any

    # ---- observation log -----------------------------------------------------------------------

    def insert_observation(self, obs_id: str, kind: str, stamp_ns: int, source: str, summary: dict,
                           robot: str = "", site: str = "") -> None:
        self.execute("INSERT INTO observations(id, kind, stamp_ns, source, summary, robot, site) VALUES(?,?,?,?,?,?,?)",
                     (obs_id, kind, stamp_ns, source, json.dumps(summary), robot, site))

    def observation_rows(self, since_ns: int | None, until_ns: int | None, kind: str | None,
                         limit: int, robot: str | None = None) -> list[tuple]:
        """(id, kind, stamp_ns, source, summary JSON, robot, site) newest first."""
        q = ("SELECT id, kind, stamp_ns, source, summary, robot, site FROM observations "
             "WHERE stamp_ns>=? AND stamp_ns<=?")
        args: list = _bounds(since_ns, until_ns)
        if kind:
            q += " AND kind=?"
            args.append(kind)
        if robot is not None:  # '' is a robot too: a memory's own messages before it was shared
            q += " AND robot=?"
            args.append(robot)
        return self.execute(q + " ORDER BY stamp_ns DESC, rowid DESC LIMIT ?", [*args, limit]).fetchall()

    def observation_row(self, obs_id: str) -> tuple | None:
        return self.execute("SELECT id, kind, stamp_ns, source, summary, robot, site FROM observations WHERE id=?",
                            (obs_id,)).fetchone()

    def observation_span(self) -> tuple[int | None, int | None]:
        """Event time of the oldest and newest observation (None, None when there is none)."""
        row = self.execute("SELECT MIN(stamp_ns), MAX(stamp_ns) FROM observations").fetchone()
        return (row[0], row[1]) if row else (None, None)

    def count_stamped(self, table: str, lo: int, hi: int) -> int:
        """How many rows of an event-time stamped table (observations, events, frames) lie in [lo, hi]."""
        assert table in ("observations", "events", "frames")
        return self.execute(f"SELECT COUNT(*) FROM {table} WHERE stamp_ns BETWEEN ? AND ?", (lo, hi)).fetchone()[0]

    def count(self, table: str) -> int:
        assert table in ALL_TABLES
        return self.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]

    def counts(self) -> dict[str, int]:
        return {t: self.count(t) for t in COUNTED_TABLES}

    def kind_counts(self, table: str) -> dict[str, int]:
        """How many observations or events of each kind memory holds."""
        assert table in ("observations", "events")
        return dict(self.execute(f"SELECT kind, COUNT(*) FROM {table} GROUP BY kind").fetchall())

    # ---- entities and their versions ----------------------------------------------------------

    def entity_json(self, ent_id: str) -> str | None:
        row = self.execute("SELECT data FROM entities WHERE id=?", (ent_id,)).fetchone()
        return row[0] if row else None

    def entities_json_of(self, ids: Iterable[str]) -> dict[str, str]:
        """JSON of those of ``ids`` that memory holds, by id: a scene graph's entities in one query each
        ``_IDS_PER_QUERY`` (one query per entity was most of a graph's round trips to a database server)."""
        ids = list(dict.fromkeys(ids))
        out: dict[str, str] = {}
        for i in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[i:i + _IDS_PER_QUERY]
            out.update(self.execute(f"SELECT id, data FROM entities WHERE id IN ({marks(chunk)})", chunk).fetchall())
        return out

    def upsert_entity(self, ent_id: str, label: str, room: str, present: bool, last_seen_ns: int, data: str) -> None:
        self.execute(
            "INSERT INTO entities(id, label, room, present, last_seen_ns, data) VALUES(?,?,?,?,?,?) "
            "ON CONFLICT(id) DO UPDATE SET label=excluded.label, room=excluded.room, present=excluded.present, "
            "last_seen_ns=excluded.last_seen_ns, data=excluded.data",
            (ent_id, label, room, int(present), last_seen_ns, data))

    def touch_entity(self, ent_id: str, last_seen_ns: int, data: str) -> None:
        """An unchanged re-observation: only when it was seen (and its JSON) move on."""
        self.execute("UPDATE entities SET last_seen_ns=?, present=1, data=? WHERE id=?", (last_seen_ns, data, ent_id))

    def touch_entities(self, rows: Sequence[tuple[str, int, str]]) -> None:
        """``touch_entity`` for each (id, last_seen_ns, JSON)."""
        self.executemany("UPDATE entities SET last_seen_ns=?, present=1, data=? WHERE id=?",
                         [(seen, data, ent_id) for ent_id, seen, data in rows])

    def add_version(self, ent_id: str, valid_from_ns: int, data: str, *, close_current: bool) -> None:
        if close_current:
            self.execute("UPDATE entity_versions SET valid_to_ns=? WHERE entity_id=? AND valid_to_ns IS NULL",
                         (valid_from_ns, ent_id))
        self.execute("INSERT INTO entity_versions(entity_id, valid_from_ns, valid_to_ns, data) VALUES(?,?,NULL,?)",
                     (ent_id, valid_from_ns, data))

    def entity_json_as_of(self, ent_id: str, as_of_ns: int) -> str | None:
        row = self.execute(
            "SELECT data FROM entity_versions WHERE entity_id=? AND valid_from_ns<=? AND "
            "(valid_to_ns IS NULL OR valid_to_ns>?) ORDER BY valid_from_ns DESC LIMIT 1",
            (ent_id, as_of_ns, as_of_ns)).fetchone()
        return row[0] if row else None

    def entities_json(self, label: str | None, room: str | None, include_absent: bool) -> list[str]:
        """Current entities newest-seen first."""
        q, args = "SELECT data FROM entities WHERE 1=1", []
        if label:
            q += " AND label=?"
            args.append(label)
        if room:
            q += " AND room=?"
            args.append(room)
        if not include_absent:
            q += " AND present=1"
        return [r[0] for r in self.execute(q + " ORDER BY last_seen_ns DESC, id", args).fetchall()]

    def versions_json_as_of(self, as_of_ns: int) -> list[str]:
        return [r[0] for r in self.execute(
            "SELECT data FROM entity_versions WHERE valid_from_ns<=? AND (valid_to_ns IS NULL OR valid_to_ns>?)",
            (as_of_ns, as_of_ns)).fetchall()]

    def history_rows(self, ent_id: str) -> list[tuple[str, int, int | None]]:
        return self.execute("SELECT data, valid_from_ns, valid_to_ns FROM entity_versions WHERE entity_id=? "
                            "ORDER BY valid_from_ns", (ent_id,)).fetchall()

    def present_in_room(self, room: str, except_label: str) -> list[tuple[str, str]]:
        """(id, JSON) of the entities present in a room, but those of one label (rooms themselves)."""
        return self.execute("SELECT id, data FROM entities WHERE room=? AND present=1 AND label!=?",
                            (room, except_label)).fetchall()

    def rooms_with_counts(self, except_label: str) -> list[tuple[str, int]]:
        return self.execute("SELECT room, COUNT(*) FROM entities WHERE present=1 AND label!=? GROUP BY room "
                            "ORDER BY room", (except_label,)).fetchall()

    def entity_exists(self, ent_id: str) -> bool:
        return self.execute("SELECT 1 FROM entities WHERE id=?", (ent_id,)).fetchone() is not None

    # ---- relations -----------------------------------------------------------------------------

    def add_relation(self, subject: str, predicate: str, obj: str, family: str, since_ns: int,
                     provenance: str) -> None:
        """A relation that starts holding, unless it holds already. One statement, no result to wait for: a
        database server gets it with the rest of the message's writes."""
        # family in the lookup lets SQLite use the (subject, family, until_ns) index; without it, it chose
        # the object index and scanned every relation of a busy receptacle (O(n) per write)
        self.execute("INSERT INTO relations(subject, predicate, object, family, since_ns, until_ns, provenance) "
                     "SELECT ?,?,?,?,?,NULL,? WHERE NOT EXISTS (SELECT 1 FROM relations WHERE subject=? AND "
                     "family=? AND until_ns IS NULL AND predicate=? AND object=?)",
                     (subject, predicate, obj, family, since_ns, provenance, subject, family, predicate, obj))

    def close_location(self, subject: str, t: int) -> None:
        self.execute("UPDATE relations SET until_ns=? WHERE subject=? AND family='location' AND until_ns IS NULL",
                     (t, subject))

    def close_relations_of(self, ent_id: str, t: int) -> None:
        """Everything an entity no longer seen holds: its relations, and the non-location ones to it."""
        self.execute("UPDATE relations SET until_ns=? WHERE (subject=? OR object=?) AND until_ns IS NULL AND "
                     "family!='location'", (t, ent_id, ent_id))
        self.execute("UPDATE relations SET until_ns=? WHERE subject=? AND until_ns IS NULL", (t, ent_id))

    def open_other_relations(self, subjects: Iterable[str]) -> list[tuple[int, str, str, str]]:
        """(rowid, subject, predicate, object) of the subjects' current relations outside the location
        family."""
        subjects = list(dict.fromkeys(subjects))
        rows: list[tuple[int, str, str, str]] = []
        for i in range(0, len(subjects), _IDS_PER_QUERY):
            chunk = subjects[i:i + _IDS_PER_QUERY]
            rows += self.execute(f"SELECT rowid, subject, predicate, object FROM relations WHERE subject IN "
                                 f"({marks(chunk)}) AND family!='location' AND until_ns IS NULL", chunk).fetchall()
        return rows

    def close_relation(self, rowid: int, t: int) -> None:
        self.execute("UPDATE relations SET until_ns=? WHERE rowid=?", (t, rowid))

    def relation_rows(self, subject: str | None, obj: str | None, as_of_ns: int | None,
                      window: tuple[int | None, int | None] | None) -> list[tuple]:
        """(subject, predicate, object, since_ns, until_ns, provenance): holding now, at ``as_of_ns``, or at
        any time in ``window`` (since, until)."""
        q = "SELECT subject, predicate, object, since_ns, until_ns, provenance FROM relations WHERE "
        args: list = []
        if window is not None:
            q += "since_ns<=? AND (until_ns IS NULL OR until_ns>?)"
            lo, hi = _bounds(*window)
            args += [hi, lo]
        elif as_of_ns is None:
            q += "until_ns IS NULL"
        else:
            q += "since_ns<=? AND (until_ns IS NULL OR until_ns>?)"
            args += [as_of_ns, as_of_ns]
        if subject:
            q += " AND subject=?"
            args.append(subject)
        if obj:
            q += " AND object=?"
            args.append(obj)
        return self.execute(q + " ORDER BY since_ns, subject", args).fetchall()

    # ---- sightings (schema migration 6) --------------------------------------------------------

    def close_sighting(self, ent_id: str, first_seen_ns: int, to_ns: int, next_since_ns: int) -> None:
        """The interval of being in view that ends at ``to_ns`` (it began at the entity's ``seen_since``, else
        when it was first seen) is closed; the next one starts at ``next_since_ns``."""
        self.execute("INSERT INTO seen_intervals(entity_id, from_ns, to_ns) VALUES(?, COALESCE((SELECT since_ns "
                     "FROM seen_since WHERE entity_id=?), ?), ?)", (ent_id, ent_id, first_seen_ns, to_ns))
        self.execute("INSERT INTO seen_since(entity_id, since_ns) VALUES(?,?) ON CONFLICT(entity_id) DO UPDATE SET "
                     "since_ns=excluded.since_ns", (ent_id, next_since_ns))

    def sighting_rows(self, since_ns: int | None, until_ns: int | None,
                      entity_id: str | None) -> list[tuple[str, int, int]]:
        """(entity id, from, to) of the closed intervals and the current ones overlapping the window."""
        lo, hi = _bounds(since_ns, until_ns)
        one = " AND entity_id=?" if entity_id else ""
        args = [lo, hi] + ([entity_id] if entity_id else [])
        closed = self.execute(f"SELECT entity_id, from_ns, to_ns FROM seen_intervals WHERE to_ns>=? AND from_ns<=?{one}",
                              args).fetchall()
        since = f"coalesce(s.since_ns, {self.json_int('e.data', 'first_seen_ns')})"
        current = self.execute(
            f"SELECT e.id, {since}, e.last_seen_ns FROM entities e LEFT JOIN seen_since s ON s.entity_id = e.id "
            f"WHERE e.last_seen_ns>=? AND {since}<=?{one.replace('entity_id', 'e.id')}", args).fetchall()
        return [tuple(r) for r in closed + current]

    # ---- events and frames ---------------------------------------------------------------------

    def insert_event(self, ev_id: str, kind: str, stamp_ns: int, data: str, entity_ids: Iterable[str]) -> None:
        self.execute("INSERT INTO events(id, kind, stamp_ns, data) VALUES(?,?,?,?)", (ev_id, kind, stamp_ns, data))
        self.executemany("INSERT INTO event_entities(event_id, entity_id) VALUES(?,?)",
                         [(ev_id, e) for e in dict.fromkeys(entity_ids) if e])

    def insert_frame(self, frame_id: str, stamp_ns: int, room: str, path: str, data: str,
                     entity_ids: Iterable[str]) -> None:
        self.execute("INSERT INTO frames(id, stamp_ns, room, path, data) VALUES(?,?,?,?,?)",
                     (frame_id, stamp_ns, room, path, data))
        self.executemany("INSERT INTO frame_entities(frame_id, entity_id) VALUES(?,?)",
                         [(frame_id, e) for e in entity_ids])

    def frames_with_absolute_paths(self) -> list[tuple[str, str, str]]:
        return self.execute("SELECT id, path, data FROM frames WHERE path LIKE '/%'").fetchall()

    def update_frame_paths(self, updates: Sequence[tuple[str, str, str]]) -> None:
        """(path, JSON, id) rows."""
        self.executemany("UPDATE frames SET path=?, data=? WHERE id=?", updates)

    def timed_json(self, table: str, entity_id: str | None, since_ns: int | None, until_ns: int | None,
                   column_filter: tuple[str, str | None], limit: int) -> list[str]:
        """JSON of the newest rows of events or frames, optionally only those linked to an entity, inside a
        time window and matching one column."""
        link_table, link_key = {"events": ("event_entities", "event_id"), "frames": ("frame_entities", "frame_id")}[table]
        q = f"SELECT DISTINCT t.data, t.stamp_ns, t.rowid FROM {table} t"
        args: list = []
        if entity_id:
            q += f" JOIN {link_table} x ON x.{link_key}=t.id AND x.entity_id=?"
            args.append(entity_id)
        q += " WHERE t.stamp_ns>=? AND t.stamp_ns<=?"
        args += _bounds(since_ns, until_ns)
        column, value = column_filter
        if value:
            assert column in ("kind", "room")
            q += f" AND t.{column}=?"
            args.append(value)
        q += " ORDER BY t.stamp_ns DESC, t.rowid DESC LIMIT ?"
        args.append(limit)
        return [r[0] for r in self.execute(q, args)]

    def record_kind(self, record_id: str) -> str | None:
        """'entity', 'event' or 'frame': which kind of record an id names (None: none)."""
        for kind, table in (("entity", "entities"), ("event", "events"), ("frame", "frames")):
            if self.execute(f"SELECT 1 FROM {table} WHERE id=?", (record_id,)).fetchone():
                return kind
        return None

    def frames_beyond_per_room(self, keep: int) -> set[str]:
        return {r[0] for r in self.execute(
            "SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY room ORDER BY stamp_ns DESC, rowid DESC) "
            "AS rank FROM frames) ranked WHERE rank > ?", (keep,))}

    def frames_before(self, stamp_ns: int) -> set[str]:
        return {r[0] for r in self.execute("SELECT id FROM frames WHERE stamp_ns < ?", (stamp_ns,))}

    # ---- meta ----------------------------------------------------------------------------------

    def put_meta(self, key: str, value: str) -> None:
        self.execute("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                     (key, value))

    def meta(self, key: str) -> str | None:
        row = self.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    # ---- forgetting ----------------------------------------------------------------------------

    def delete_everything(self) -> tuple[int, list[str]]:
        """Empty memory; (records removed, stored frame paths)."""
        removed = sum(self.count(t) for t in ("entities", "events", "frames", *DERIVED_TABLES))
        paths = [r[0] for r in self.execute("SELECT path FROM frames")]
        for t in ALL_TABLES:
            self.execute(f"DELETE FROM {t}")
        return removed, paths

    def doomed(self, ids: Sequence[str], room: str, window: tuple[int, int] | None) -> tuple[set, set, set]:
        """(entity, event, frame) ids that ``forget`` removes: named, in a room, or stamped in a window
        (entities: first seen in it); observations stamped in the window are deleted here."""
        ent_ids: set[str] = set()
        ev_ids: set[str] = set()
        fr_ids: set[str] = set()
        for i in ids:
            kind = self.record_kind(i)
            {"entity": ent_ids, "event": ev_ids, "frame": fr_ids}.get(kind, set()).add(i)
        if room:
            ent_ids |= {r[0] for r in self.execute("SELECT id FROM entities WHERE room=?", (room,))}
            fr_ids |= {r[0] for r in self.execute("SELECT id FROM frames WHERE room=?", (room,))}
        if window is not None:
            lo, hi = window
            ev_ids |= {r[0] for r in self.execute("SELECT id FROM events WHERE stamp_ns BETWEEN ? AND ?", (lo, hi))}
            fr_ids |= {r[0] for r in self.execute("SELECT id FROM frames WHERE stamp_ns BETWEEN ? AND ?", (lo, hi))}
            ent_ids |= {r[0] for r in self.execute(
                "SELECT entity_id FROM entity_versions GROUP BY entity_id HAVING MIN(valid_from_ns) BETWEEN ? AND ?",
                (lo, hi))}
            self.execute("DELETE FROM observations WHERE stamp_ns BETWEEN ? AND ?", (lo, hi))
        return ent_ids, ev_ids, fr_ids

    def delete_entity(self, ent_id: str) -> None:
        """An entity, its history, sightings and relations; events that mention it lose the link (their
        text stays unless they are forgotten too)."""
        self.execute("DELETE FROM entities WHERE id=?", (ent_id,))
        self.execute("DELETE FROM entity_versions WHERE entity_id=?", (ent_id,))
        self.execute("DELETE FROM seen_intervals WHERE entity_id=?", (ent_id,))
        self.execute("DELETE FROM seen_since WHERE entity_id=?", (ent_id,))
        self.execute("DELETE FROM relations WHERE subject=? OR object=?", (ent_id, ent_id))
        self.execute("DELETE FROM event_entities WHERE entity_id=?", (ent_id,))
        self.execute("DELETE FROM frame_entities WHERE entity_id=?", (ent_id,))

    def delete_event(self, ev_id: str) -> None:
        self.execute("DELETE FROM events WHERE id=?", (ev_id,))
        self.execute("DELETE FROM event_entities WHERE event_id=?", (ev_id,))

    def delete_frame(self, frame_id: str) -> str | None:
        """Delete a frame's row; its stored file path (None: no such frame)."""
        row = self.execute("SELECT path FROM frames WHERE id=?", (frame_id,)).fetchone()
        self.execute("DELETE FROM frames WHERE id=?", (frame_id,))
        self.execute("DELETE FROM frame_entities WHERE frame_id=?", (frame_id,))
        return row[0] if row else None
