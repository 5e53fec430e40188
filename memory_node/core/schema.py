"""The memory database schema as an ordered list of migrations.

A database records the version it is at (``PRAGMA user_version``); opening it applies every later migration
in one transaction each, so an old memory is upgraded in place and a failed upgrade leaves it as it was.
Append new migrations; never edit a released one. Extensions of the store (retrieval indexes, learned
knowledge, activities) add their tables here too, so there is one schema and one version.
"""

from __future__ import annotations

import sqlite3

def _entity_fts_row(row: str, indent: str) -> str:
    """The entities_fts columns of one entity row (``new`` in a trigger, ``e`` in the backfill): one
    definition, so the triggers and the backfill index an entity the same way."""
    return (
        f"{indent}SELECT d.doc, json_extract({row}.data, '$.label'), json_extract({row}.data, '$.name'), {row}.id,\n"
        f"{indent}    (SELECT group_concat(CASE WHEN a.value IN ('true', 'yes') OR a.value NOT GLOB '*[A-Za-z]*' "
        "THEN a.key\n"
        "            ELSE a.key || ' ' || a.value END, ' ')\n"
        f"{indent}     FROM json_each({row}.data, '$.attributes') a),\n"
        f"{indent}    (SELECT group_concat(s.value, ' ') FROM json_each({row}.data, '$.states') s),\n"
        f"{indent}    json_extract({row}.data, '$.room'),\n"
        f"{indent}    CASE WHEN json_extract({row}.data, '$.location') IS NULL THEN '' ELSE\n"
        f"{indent}        json_extract({row}.data, '$.location.predicate') || ' ' || "
        f"json_extract({row}.data, '$.location.object') END\n")


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
    # 2: retrieval (core/retrieval.py). FTS5 indexes of what a request may name: an entity's label, name,
    # id, attributes, states, room and location, and an event's text. Triggers keep them in step with
    # every write and delete (forget included); an entity's unchanged re-observation, the common write,
    # only compares two JSON projections. Trigram tokens match inside compound labels ("table" finds
    # "coffeetable"). search_docs gives each indexed record a stable integer key (entities and events
    # have text keys, and their implicit rowids may change on VACUUM). embedding_cache keeps one vector
    # per distinct text and model, filled lazily by semantic queries, never on the write path.
    (2, """
CREATE TABLE IF NOT EXISTS search_docs(
    doc INTEGER PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL, UNIQUE(kind, ref));
CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5(
    label, name, id, attributes, states, room, location, tokenize='trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5(text, tokenize='trigram');
CREATE TABLE IF NOT EXISTS embedding_cache(
    text TEXT NOT NULL, model TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY(text, model)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS entities_search_insert AFTER INSERT ON entities BEGIN
    INSERT OR IGNORE INTO search_docs(kind, ref) VALUES('entity', new.id);
    INSERT INTO entities_fts(rowid, label, name, id, attributes, states, room, location)
{ENTITY_FTS_ROW_NEW}    FROM search_docs d WHERE d.kind = 'entity' AND d.ref = new.id;
END;
CREATE TRIGGER IF NOT EXISTS entities_search_update AFTER UPDATE OF data ON entities
WHEN json_remove(old.data, '$.last_seen_ns', '$.first_seen_ns', '$.provenance', '$.confidence', '$.position',
                 '$.present')
  IS NOT json_remove(new.data, '$.last_seen_ns', '$.first_seen_ns', '$.provenance', '$.confidence',
                     '$.position', '$.present')
BEGIN
    DELETE FROM entities_fts WHERE rowid = (SELECT doc FROM search_docs WHERE kind = 'entity' AND ref = old.id);
    INSERT INTO entities_fts(rowid, label, name, id, attributes, states, room, location)
{ENTITY_FTS_ROW_NEW}    FROM search_docs d WHERE d.kind = 'entity' AND d.ref = new.id;
END;
CREATE TRIGGER IF NOT EXISTS entities_search_delete AFTER DELETE ON entities BEGIN
    DELETE FROM entities_fts WHERE rowid = (SELECT doc FROM search_docs WHERE kind = 'entity' AND ref = old.id);
    DELETE FROM search_docs WHERE kind = 'entity' AND ref = old.id;
END;
CREATE TRIGGER IF NOT EXISTS events_search_insert AFTER INSERT ON events BEGIN
    INSERT OR IGNORE INTO search_docs(kind, ref) VALUES('event', new.id);
    INSERT INTO events_fts(rowid, text)
    SELECT d.doc, json_extract(new.data, '$.text') FROM search_docs d WHERE d.kind = 'event' AND d.ref = new.id;
END;
CREATE TRIGGER IF NOT EXISTS events_search_delete AFTER DELETE ON events BEGIN
    DELETE FROM events_fts WHERE rowid = (SELECT doc FROM search_docs WHERE kind = 'event' AND ref = old.id);
    DELETE FROM search_docs WHERE kind = 'event' AND ref = old.id;
    DELETE FROM embedding_cache WHERE text = json_extract(old.data, '$.text');
END;
INSERT OR IGNORE INTO search_docs(kind, ref) SELECT 'entity', id FROM entities;
INSERT INTO entities_fts(rowid, label, name, id, attributes, states, room, location)
{ENTITY_FTS_ROW_E}FROM entities e JOIN search_docs d ON d.kind = 'entity' AND d.ref = e.id;
INSERT OR IGNORE INTO search_docs(kind, ref) SELECT 'event', id FROM events;
INSERT INTO events_fts(rowid, text)
SELECT d.doc, json_extract(v.data, '$.text') FROM events v JOIN search_docs d ON d.kind = 'event' AND d.ref = v.id;
""".replace("{ENTITY_FTS_ROW_NEW}", _entity_fts_row("new", "    "))
        .replace("{ENTITY_FTS_ROW_E}", _entity_fts_row("e", ""))),
    # 3: corrections and preferences from utterances (core/corrections.py, core/rules.py). A fact is what one
    # utterance stated (placement / possession / preference), valid until a later fact about the same
    # subject replaces it; fact_categories says which categories a placement fact counts for; a rule is
    # one version of "category -> receptacle", valid until more support or a contradiction replaces it.
    (3, """
CREATE TABLE IF NOT EXISTS facts(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, subject_key TEXT NOT NULL,
    predicate TEXT NOT NULL, target TEXT NOT NULL, target_key TEXT NOT NULL, target_id TEXT NOT NULL,
    negated INTEGER NOT NULL, owner TEXT NOT NULL, speaker TEXT NOT NULL, correction INTEGER NOT NULL,
    stamp_ns INTEGER NOT NULL, event_id TEXT NOT NULL, valid_from_ns INTEGER NOT NULL, valid_to_ns INTEGER);
CREATE INDEX IF NOT EXISTS facts_subject ON facts(kind, subject_key, valid_to_ns);
CREATE INDEX IF NOT EXISTS facts_event ON facts(event_id);
CREATE INDEX IF NOT EXISTS facts_valid_from ON facts(valid_from_ns);
CREATE TABLE IF NOT EXISTS fact_categories(fact_id TEXT NOT NULL, category TEXT NOT NULL, level INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS fact_categories_category ON fact_categories(category);
CREATE INDEX IF NOT EXISTS fact_categories_fact ON fact_categories(fact_id);
CREATE TABLE IF NOT EXISTS rules(
    id TEXT PRIMARY KEY, category TEXT NOT NULL, predicate TEXT NOT NULL, receptacle TEXT NOT NULL,
    receptacle_key TEXT NOT NULL, receptacle_id TEXT NOT NULL, support_event_ids TEXT NOT NULL,
    support_fact_ids TEXT NOT NULL, confidence REAL NOT NULL, valid_from_ns INTEGER NOT NULL,
    valid_to_ns INTEGER, superseded_by TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rules_category ON rules(category, valid_to_ns);
CREATE INDEX IF NOT EXISTS rules_valid_from ON rules(valid_from_ns);
"""),
    # 4: inferred knowledge (core/consolidation.py). Each run replaces the knowledge rows; a run records
    # the evidence window it saw and a fingerprint of the events, so stale or too-new knowledge is
    # recomputed rather than served.
    (4, """
CREATE TABLE IF NOT EXISTS knowledge(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, actor TEXT NOT NULL, support INTEGER NOT NULL,
    confidence REAL NOT NULL, evidence_from_ns INTEGER NOT NULL, evidence_to_ns INTEGER NOT NULL,
    run_id TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS knowledge_kind ON knowledge(kind, actor);
CREATE TABLE IF NOT EXISTS consolidation_runs(
    id TEXT PRIMARY KEY, computed_ns INTEGER NOT NULL, window_from_ns INTEGER, window_to_ns INTEGER,
    events INTEGER NOT NULL, records INTEGER NOT NULL, fingerprint TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_kind_stamp ON events(kind, stamp_ns);
"""),
    # 5: retrieval at scale (core/retrieval.py). entity_phrases holds each distinct (label, name) of the
    # entities, kept by triggers (added on insert and on a change of label or name unless already there; a
    # phrase no entity has any more goes with the last one's rename or deletion), so the semantic stage lists
    # O(distinct phrases) candidates rather than scanning every entity; retrieval filters phrases of absent
    # entities (or of other rooms) with an EXISTS through the label indexes. (Not INSERT OR IGNORE: the
    # store's upsert would override a trigger's conflict policy with its own ABORT.) entities_label_room
    # serves label+room lookups and entities_label_seen a label's, both in the order reads want (newest
    # first, then id), so "the newest N of a label" reads N rows rather than sorting them all.
    (5, """
CREATE TABLE IF NOT EXISTS entity_phrases(
    label TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(label, name)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS entity_phrases_insert AFTER INSERT ON entities BEGIN
    INSERT INTO entity_phrases(label, name)
    SELECT new.label, coalesce(json_extract(new.data, '$.name'), '') WHERE NOT EXISTS (
        SELECT 1 FROM entity_phrases WHERE label = new.label AND name = coalesce(json_extract(new.data, '$.name'), ''));
END;
CREATE TRIGGER IF NOT EXISTS entity_phrases_update AFTER UPDATE OF label, data ON entities
WHEN old.label IS NOT new.label OR json_extract(old.data, '$.name') IS NOT json_extract(new.data, '$.name')
BEGIN
    INSERT INTO entity_phrases(label, name)
    SELECT new.label, coalesce(json_extract(new.data, '$.name'), '') WHERE NOT EXISTS (
        SELECT 1 FROM entity_phrases WHERE label = new.label AND name = coalesce(json_extract(new.data, '$.name'), ''));
    DELETE FROM entity_phrases WHERE label = old.label AND name = coalesce(json_extract(old.data, '$.name'), '')
        AND NOT EXISTS (SELECT 1 FROM entities e WHERE e.label = old.label
                        AND coalesce(json_extract(e.data, '$.name'), '') = entity_phrases.name);
END;
CREATE TRIGGER IF NOT EXISTS entity_phrases_delete AFTER DELETE ON entities BEGIN
    DELETE FROM entity_phrases WHERE label = old.label AND name = coalesce(json_extract(old.data, '$.name'), '')
        AND NOT EXISTS (SELECT 1 FROM entities e WHERE e.label = old.label
                        AND coalesce(json_extract(e.data, '$.name'), '') = entity_phrases.name);
END;
INSERT OR IGNORE INTO entity_phrases(label, name)
SELECT DISTINCT label, coalesce(json_extract(data, '$.name'), '') FROM entities;
CREATE INDEX IF NOT EXISTS entities_label_room ON entities(label, room, last_seen_ns DESC, id);
CREATE INDEX IF NOT EXISTS entities_label_seen ON entities(label, last_seen_ns DESC, id);
"""),
    # 6: what was observed when (MemoryStore.sightings / observed: since/until reads). An entity's current
    # interval in view runs from its seen_since row (none: its first_seen_ns) to its last_seen_ns; when it is
    # seen again after more than the store's sighting gap, the finished interval goes to seen_intervals and
    # seen_since moves on. A steady stream therefore writes nothing extra. Memories from before know only
    # each entity's last sighting.
    (6, """
CREATE TABLE IF NOT EXISTS seen_since(entity_id TEXT PRIMARY KEY, since_ns INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO seen_since SELECT id, last_seen_ns FROM entities;
CREATE TABLE IF NOT EXISTS seen_intervals(
    entity_id TEXT NOT NULL, from_ns INTEGER NOT NULL, to_ns INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS seen_intervals_entity ON seen_intervals(entity_id, to_ns);
CREATE INDEX IF NOT EXISTS seen_intervals_to ON seen_intervals(to_ns);
"""),
    # 7: a site memory (several robots, core/storage/postgres.py; the same columns here so a memory moves
    # between the backends whole): each observation names the robot and site whose message it was. The
    # records themselves carry them in their JSON (models.Entity/Event/Frame.robot, .site).
    (7, """
ALTER TABLE observations ADD COLUMN robot TEXT NOT NULL DEFAULT '';
ALTER TABLE observations ADD COLUMN site TEXT NOT NULL DEFAULT '';
"""),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]
assert [v for v, _ in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1)), "migrations must be 1..N in order"


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
