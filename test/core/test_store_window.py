"""What was observed between two times: sightings, observed(), the observation log, query(since, until)."""

import pytest

from memory_node import Memory
from memory_node.core.models import InvalidInput
from memory_node.core.query import query
from memory_node.core.schema import MIGRATIONS
from memory_node.core.store import MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000


@pytest.fixture
def mem(tmp_path):
    """A mug on the table at 0-20 s (seen every second), out of view until it is seen in the sink at
    100-110 s; a plate seen once at 50 s."""
    m = Memory(tmp_path / "m.db", sighting_gap=5.0)
    m.observe("table_1", "table", room="kitchen", position=(1, 0, 0), t=0)
    m.observe("sink_1", "sink", room="kitchen", position=(3, 0, 0), t=0)
    for t in range(0, 21):
        m.observe("mug_1", "mug", room="kitchen", position=(1, 0, 0.8), on="table_1", t=t)
    m.observe("plate_1", "plate", room="kitchen", t=50)
    for t in range(100, 111):
        m.observe("mug_1", "mug", room="kitchen", position=(3, 0, 0.9), inside="sink_1", t=t)
    yield m
    m.close()


def test_sightings_are_intervals_in_view(mem):
    assert [(s.from_ns // S, s.to_ns // S) for s in mem.sightings("mug_1")] == [(100, 110), (0, 20)]
    assert [s.entity_id for s in mem.sightings(since=40, until=60)] == ["plate_1"]
    # a steady stream of sightings writes one row per gap, not one per sighting
    assert mem.store.storage.count("seen_intervals") == 1


def test_observed_between_two_times_in_the_state_seen_then(mem):
    early = {e.id: e for e in mem.observed(since=5, until=15)}
    assert set(early) == {"mug_1"}  # table and sink were last seen at 0 s
    assert early["mug_1"].location.object == "table_1" and early["mug_1"].last_seen_ns == 15 * S
    late = mem.observed(since=30, until=200, label="mug")
    assert [e.id for e in late] == ["mug_1"] and late[0].location.object == "sink_1"
    assert late[0].last_seen_ns == 110 * S
    assert [e.id for e in mem.observed(since=60, until=90)] == []  # nothing was in view then
    assert {e.id for e in mem.observed(until=0)} == {"table_1", "sink_1", "mug_1", "kitchen"}


def test_observation_log_window(mem):
    log = mem.observations(since=100, until=104)
    assert [o.stamp_ns // S for o in log] == [104, 103, 102, 101, 100]
    assert all(o.kind == "scene_graph" and o.summary["entities"] == 1 for o in log)
    assert mem.observations(since=200) == []


def test_query_since_until(mem):
    mem.event("wash", ["mug_1"], actor="alice", t=105)
    store = mem.store
    ents = query(store, kind="entities", since_ns=95 * S, until_ns=120 * S)
    assert [r.id for r in ents] == ["mug_1"] and ents[0].typed().location.object == "sink_1"
    assert [r.kind for r in query(store, since_ns=104 * S, until_ns=106 * S)] == ["entity", "event"]
    hist = query(store, kind="history", entity_id="mug_1", since_ns=30 * S, until_ns=50 * S)
    assert [r.typed().entity.location.object for r in hist] == ["table_1"]  # the version that held then
    rels = query(store, kind="relations", since_ns=0, until_ns=200 * S)
    assert {(r.typed().object, r.typed().until_ns) for r in rels if r.typed().subject == "mug_1"} == {
        ("table_1", 100 * S), ("sink_1", None)}
    obs = query(store, kind="observations", since_ns=50 * S, until_ns=50 * S)
    assert len(obs) == 1 and obs[0].typed().summary["entities"] == 1
    with pytest.raises(InvalidInput, match="not both"):
        query(store, kind="entities", as_of_ns=S, since_ns=0)
    with pytest.raises(InvalidInput, match="after until"):
        query(store, kind="events", since_ns=2 * S, until_ns=S)
    with pytest.raises(InvalidInput, match="no since/until"):
        query(store, kind="rooms", since_ns=0)


def test_forget_removes_sightings(mem):
    mem.store.forget(ids=["mug_1"])
    assert mem.sightings("mug_1") == [] and mem.observed(since=0, until=200, label="mug") == []


@pytest.mark.sqlite_only
def test_memory_from_before_the_migration_keeps_its_last_sightings(tmp_path):
    import sqlite3

    from memory_node.core.schema import statements

    db = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    for version, sql in MIGRATIONS[:5]:
        for stmt in statements(sql):
            db.execute(stmt)
    db.execute("PRAGMA user_version=5")
    db.execute("INSERT INTO entities VALUES('mug_1', 'mug', 'kitchen', 1, ?, ?)",
               (7 * S, '{"id":"mug_1","label":"mug","first_seen_ns":1000000000,"last_seen_ns":7000000000}'))
    db.close()
    store = MemoryStore(tmp_path / "old.db")
    assert [(s.from_ns, s.to_ns) for s in store.sightings()] == [(7 * S, 7 * S)]
    assert store.entity("mug_1").raw_label == ""
    store.close()
