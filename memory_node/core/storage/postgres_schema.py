"""The PostgreSQL memory schema as ordered migrations, recorded in ``schema_version`` (one row per applied
migration). The tables and columns are SQLite's (core/schema.py), so one set of queries (records.py,
learned.py) serves both; what SQLite gets from its implicit rowid, PostgreSQL gets from an identity column
named ``rowid`` (insertion order), and full-text search is a trigram index (pg_trgm) on each record's
document (``entity_doc``: the same words as SQLite's FTS documents) instead of FTS5 tables and triggers.
Append new migrations; never edit a released one.
"""

from __future__ import annotations

_ROWID = "rowid BIGINT GENERATED ALWAYS AS IDENTITY"

MIGRATIONS: list[tuple[int, str]] = [
    (1, f"""
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE observations(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, stamp_ns BIGINT NOT NULL, source TEXT NOT NULL, summary TEXT NOT NULL,
    {_ROWID});
CREATE INDEX observations_stamp ON observations(stamp_ns);
CREATE TABLE entities(
    id TEXT PRIMARY KEY, label TEXT NOT NULL, room TEXT NOT NULL, present INTEGER NOT NULL,
    last_seen_ns BIGINT NOT NULL, data TEXT NOT NULL, {_ROWID});
CREATE INDEX entities_label_room ON entities(label, room, last_seen_ns DESC, id);
CREATE INDEX entities_label_seen ON entities(label, last_seen_ns DESC, id);
CREATE INDEX entities_room ON entities(room);
CREATE TABLE entity_versions(
    entity_id TEXT NOT NULL, valid_from_ns BIGINT NOT NULL, valid_to_ns BIGINT, data TEXT NOT NULL);
CREATE INDEX entity_versions_entity ON entity_versions(entity_id, valid_from_ns);
CREATE INDEX entity_versions_valid ON entity_versions(valid_from_ns, valid_to_ns);
CREATE TABLE relations(
    subject TEXT NOT NULL, predicate TEXT NOT NULL, object TEXT NOT NULL, family TEXT NOT NULL,
    since_ns BIGINT NOT NULL, until_ns BIGINT, provenance TEXT NOT NULL, {_ROWID});
CREATE INDEX relations_subject ON relations(subject, family, until_ns);
CREATE INDEX relations_object ON relations(object, until_ns);
CREATE TABLE events(id TEXT PRIMARY KEY, kind TEXT NOT NULL, stamp_ns BIGINT NOT NULL, data TEXT NOT NULL, {_ROWID});
CREATE INDEX events_stamp ON events(stamp_ns);
CREATE INDEX events_kind_stamp ON events(kind, stamp_ns);
CREATE TABLE event_entities(event_id TEXT NOT NULL, entity_id TEXT NOT NULL);
CREATE INDEX event_entities_entity ON event_entities(entity_id);
CREATE INDEX event_entities_event ON event_entities(event_id);
CREATE TABLE frames(
    id TEXT PRIMARY KEY, stamp_ns BIGINT NOT NULL, room TEXT NOT NULL, path TEXT NOT NULL, data TEXT NOT NULL,
    {_ROWID});
CREATE INDEX frames_stamp ON frames(stamp_ns);
CREATE TABLE frame_entities(frame_id TEXT NOT NULL, entity_id TEXT NOT NULL);
CREATE INDEX frame_entities_entity ON frame_entities(entity_id);
CREATE INDEX frame_entities_frame ON frame_entities(frame_id);
CREATE TABLE embedding_cache(
    text TEXT NOT NULL, model TEXT NOT NULL, dim INTEGER NOT NULL, vector BYTEA NOT NULL, PRIMARY KEY(text, model));
CREATE TABLE facts(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, subject_key TEXT NOT NULL,
    predicate TEXT NOT NULL, target TEXT NOT NULL, target_key TEXT NOT NULL, target_id TEXT NOT NULL,
    negated INTEGER NOT NULL, owner TEXT NOT NULL, speaker TEXT NOT NULL, correction INTEGER NOT NULL,
    stamp_ns BIGINT NOT NULL, event_id TEXT NOT NULL, valid_from_ns BIGINT NOT NULL, valid_to_ns BIGINT, {_ROWID});
CREATE INDEX facts_subject ON facts(kind, subject_key, valid_to_ns);
CREATE INDEX facts_event ON facts(event_id);
CREATE INDEX facts_valid_from ON facts(valid_from_ns);
CREATE TABLE fact_categories(fact_id TEXT NOT NULL, category TEXT NOT NULL, level INTEGER NOT NULL);
CREATE INDEX fact_categories_category ON fact_categories(category);
CREATE INDEX fact_categories_fact ON fact_categories(fact_id);
CREATE TABLE rules(
    id TEXT PRIMARY KEY, category TEXT NOT NULL, predicate TEXT NOT NULL, receptacle TEXT NOT NULL,
    receptacle_key TEXT NOT NULL, receptacle_id TEXT NOT NULL, support_event_ids TEXT NOT NULL,
    support_fact_ids TEXT NOT NULL, confidence DOUBLE PRECISION NOT NULL, valid_from_ns BIGINT NOT NULL,
    valid_to_ns BIGINT, superseded_by TEXT NOT NULL, {_ROWID});
CREATE INDEX rules_category ON rules(category, valid_to_ns);
CREATE INDEX rules_valid_from ON rules(valid_from_ns);
CREATE TABLE knowledge(
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, actor TEXT NOT NULL, support INTEGER NOT NULL,
    confidence DOUBLE PRECISION NOT NULL, evidence_from_ns BIGINT NOT NULL, evidence_to_ns BIGINT NOT NULL,
    run_id TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX knowledge_kind ON knowledge(kind, actor);
CREATE TABLE consolidation_runs(
    id TEXT PRIMARY KEY, computed_ns BIGINT NOT NULL, window_from_ns BIGINT, window_to_ns BIGINT,
    events INTEGER NOT NULL, records INTEGER NOT NULL, fingerprint TEXT NOT NULL, data TEXT NOT NULL, {_ROWID});
CREATE TABLE seen_since(entity_id TEXT PRIMARY KEY, since_ns BIGINT NOT NULL);
CREATE TABLE seen_intervals(entity_id TEXT NOT NULL, from_ns BIGINT NOT NULL, to_ns BIGINT NOT NULL);
CREATE INDEX seen_intervals_entity ON seen_intervals(entity_id, to_ns);
CREATE INDEX seen_intervals_to ON seen_intervals(to_ns);
-- an entity's search document: the words SQLite's entities_fts holds (schema.py migration 2), lower case
CREATE FUNCTION entity_doc(d jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT lower(concat_ws(' ', d->>'label', d->>'name', d->>'id',
        (SELECT string_agg(CASE WHEN a.value IN ('true', 'yes') OR a.value !~ '[A-Za-z]' THEN a.key
                                ELSE a.key || ' ' || a.value END, ' ')
         FROM jsonb_each_text(CASE WHEN jsonb_typeof(d->'attributes') = 'object' THEN d->'attributes'
                                   ELSE '{{}}'::jsonb END) a),
        (SELECT string_agg(s, ' ') FROM jsonb_array_elements_text(
            CASE WHEN jsonb_typeof(d->'states') = 'array' THEN d->'states' ELSE '[]'::jsonb END) s),
        d->>'room',
        CASE WHEN jsonb_typeof(d->'location') = 'object'
             THEN concat_ws(' ', d->'location'->>'predicate', d->'location'->>'object') END))
$$;
-- the documents of the current entities, apart from the entities: a re-observation rewrites an entity's row
-- (its last sighting) but rarely its words, and an index on the row itself re-indexed every trigram of it on
-- every sighting (twice the cost of a scene graph, memory_node/bench/fleet_bench.py)
CREATE TABLE entity_docs(id TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE INDEX entity_docs_trgm ON entity_docs USING gin (doc gin_trgm_ops);
CREATE FUNCTION entity_docs_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO entity_docs VALUES (NEW.id, entity_doc(NEW.data::jsonb))
    ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc;
    RETURN NEW;
END $$;
CREATE FUNCTION entity_docs_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM entity_docs WHERE id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER entity_docs_insert AFTER INSERT ON entities FOR EACH ROW EXECUTE FUNCTION entity_docs_write();
CREATE TRIGGER entity_docs_update AFTER UPDATE OF data ON entities FOR EACH ROW
    -- the fields entity_doc reads (cheaper to compare than the documents)
    WHEN ((OLD.data::jsonb - ARRAY['last_seen_ns', 'first_seen_ns', 'provenance', 'confidence', 'position',
                                   'present', 'raw_label', 'robot', 'site'])
          IS DISTINCT FROM (NEW.data::jsonb - ARRAY['last_seen_ns', 'first_seen_ns', 'provenance', 'confidence',
                                                    'position', 'present', 'raw_label', 'robot', 'site']))
    EXECUTE FUNCTION entity_docs_write();
CREATE TRIGGER entity_docs_delete AFTER DELETE ON entities FOR EACH ROW EXECUTE FUNCTION entity_docs_delete();
CREATE INDEX events_text_trgm ON events USING gin (lower(data::jsonb->>'text') gin_trgm_ops);
CREATE INDEX events_text ON events((data::jsonb->>'text'));
-- a forgotten event's text leaves the embedding cache with it (SQLite: trigger events_search_delete)
CREATE FUNCTION events_forget_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM embedding_cache WHERE text = OLD.data::jsonb->>'text';
    RETURN OLD;
END $$;
CREATE TRIGGER events_forget_embedding AFTER DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_forget_embedding();
"""),
    # 2: as SQLite's migration 7: each observation names the robot and site whose message it was
    (2, """
ALTER TABLE observations ADD COLUMN robot TEXT NOT NULL DEFAULT '';
ALTER TABLE observations ADD COLUMN site TEXT NOT NULL DEFAULT '';
CREATE INDEX observations_robot ON observations(robot, stamp_ns);
"""),
    # 3: each current entity's name beside its document, normalised as labels are, indexed: the exact stage of a
    # search looked for entities named like a label by parsing every entity row's JSON (SQLite: entity_phrases)
    (3, """
ALTER TABLE entity_docs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE entity_docs ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
CREATE FUNCTION name_key(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT lower(replace(replace(replace(name, ' ', ''), '_', ''), '-', ''))
$$;
CREATE OR REPLACE FUNCTION entity_docs_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n text := coalesce(NEW.data::jsonb->>'name', '');
BEGIN
    INSERT INTO entity_docs(id, doc, name, name_key) VALUES (NEW.id, entity_doc(NEW.data::jsonb), n, name_key(n))
    ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, name = EXCLUDED.name, name_key = EXCLUDED.name_key;
    RETURN NEW;
END $$;
UPDATE entity_docs d SET name = n.name, name_key = name_key(n.name)
    FROM (SELECT id, coalesce(data::jsonb->>'name', '') AS name FROM entities) n WHERE n.id = d.id;
CREATE INDEX entity_docs_name_key ON entity_docs(name_key) WHERE name != '';
"""),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]
assert [v for v, _ in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1)), "migrations must be 1..N in order"
