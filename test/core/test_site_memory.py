"""A site memory: several robots write one PostgreSQL database through their own stores, and each one's
requests use what the others saw (issue 21)."""

import pytest

from memory_node.core.models import EntityObservation, RelationObservation, SceneGraphObservation
from memory_node.core.query import query
from memory_node.core.retrieval import Retriever
from memory_node.core.store import MemoryStore

S = 1_000_000_000


def graph(t, room, *entities, relations=()):
    return SceneGraphObservation(stamp_ns=t * S, room=room, source="test", entities=list(entities),
                                 relations=list(relations))


def E(id, label, room="kitchen", **kw):
    return EntityObservation(id=id, label=label, room=room, **kw)


@pytest.fixture
def robots(site_url, tmp_path):
    vega = MemoryStore(site_url, frame_dir=tmp_path / "vega_frames", robot="vega", site="home", id_namespace="vega")
    g1 = MemoryStore(site_url, frame_dir=tmp_path / "g1_frames", robot="g1", site="home", id_namespace="g1")
    yield vega, g1
    g1.close()
    vega.close()


def test_each_robot_finds_what_the_other_saw_and_whose_it_is(robots):
    vega, g1 = robots
    g1.ingest_scene_graph(graph(1, "kitchen", E("mug_1", "mug", attributes={"color": "blue"}), E("table_1", "table"),
                                relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
    mug = vega.entity("g1/mug_1")
    assert mug is not None and mug.robot == "g1" and mug.site == "home"
    assert mug.location.object == "g1/table_1"
    found = Retriever(vega, semantic=False).search("the blue mug")
    assert found and found[0].id == "g1/mug_1"
    [obs] = vega.observations(kind="scene_graph")
    assert (obs.robot, obs.site) == ("g1", "home")
    assert query(vega, text="mug", kind="entities")[0].id == "g1/mug_1"


def test_ids_from_two_robots_never_collide(robots):
    vega, g1 = robots
    vega.ingest_scene_graph(graph(1, "kitchen", E("mug_1", "mug", name="Alex's mug")))
    g1.ingest_scene_graph(graph(2, "kitchen", E("mug_1", "mug", name="Sam's mug")))
    mugs = {e.id: e for e in vega.entities(label="mug")}
    assert set(mugs) == {"vega/mug_1", "g1/mug_1"}
    assert mugs["vega/mug_1"].name == "Alex's mug" and mugs["vega/mug_1"].robot == "vega"
    assert mugs["g1/mug_1"].name == "Sam's mug" and mugs["g1/mug_1"].robot == "g1"
    # rooms are the site's: one kitchen, seen by both
    assert [e.id for e in vega.entities(label="room")] == ["kitchen"]


def test_one_thing_seen_by_two_robots_merges_by_event_time(site_url, tmp_path):
    """Without namespaces (a site-wide mapper names things for all robots), observations of one thing by
    two robots are one entity, and a late, older observation cannot change its present."""
    a = MemoryStore(site_url, frame_dir=tmp_path / "a", robot="vega")
    b = MemoryStore(site_url, frame_dir=tmp_path / "b", robot="g1")
    try:
        a.ingest_scene_graph(graph(5, "kitchen", E("mug_1", "mug"), E("table_1", "table"), E("sink_1", "sink"),
                                   relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
        b.ingest_scene_graph(graph(10, "kitchen", E("mug_1", "mug"),
                                   relations=[RelationObservation(subject="mug_1", predicate="in", object="sink_1")]))
        a.ingest_scene_graph(graph(7, "kitchen", E("mug_1", "mug"),  # vega's older view arrives late
                                   relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
        now = a.entity("mug_1")
        assert now.location.object == "sink_1" and now.robot == "g1"
        assert a.entity("mug_1", as_of_ns=6 * S).location.object == "table_1"
        assert [h.entity.robot for h in b.history("mug_1")] == ["vega", "g1"]
    finally:
        b.close()
        a.close()


def test_meta_is_each_robots_own(robots):
    vega, g1 = robots
    vega.set_meta("robot", {"room": "kitchen"})
    g1.set_meta("robot", {"room": "bedroom"})
    assert vega.get_meta("robot") == {"room": "kitchen"} and g1.get_meta("robot") == {"room": "bedroom"}


def test_a_namespace_cannot_contain_the_separator(site_url):
    with pytest.raises(ValueError):
        MemoryStore(site_url, robot="vega", id_namespace="a/b")


def test_robots_starting_together_migrate_a_new_database_once(site_url, tmp_path):
    """Two nodes come up at once on an empty site database: one migrates it, the other waits and uses it."""
    import threading

    from memory_node.core.storage.postgres_schema import SCHEMA_VERSION as PG_SCHEMA_VERSION

    stores, errors = [], []
    go = threading.Barrier(3)

    def start(name):
        go.wait()
        try:
            stores.append(MemoryStore(site_url, frame_dir=tmp_path / name, robot=name))
        except Exception as err:  # noqa: BLE001 - the assertion below names it
            errors.append(err)

    threads = [threading.Thread(target=start, args=(n,)) for n in ("vega", "g1", "g1b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert not errors and len(stores) == 3
        versions = [v for (v,) in stores[0].storage.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == list(range(1, PG_SCHEMA_VERSION + 1))
        stores[1].ingest_scene_graph(graph(1, "kitchen", E("mug_1", "mug")))
        assert stores[2].entity("mug_1") is not None
    finally:
        for s in stores:
            s.close()


def test_a_site_database_of_schema_2_gets_its_names_indexed(site_url):
    """Migration 3 fills the names of the entities already stored, which the exact stage of a search reads."""
    import psycopg

    from memory_node.core.models import Entity
    from memory_node.core.retrieval import EXACT_SCORE
    from memory_node.core.storage.postgres_schema import MIGRATIONS

    mug = Entity(id="mug_1", label="mug", name="Lucky Cup", room="kitchen", first_seen_ns=S, last_seen_ns=S)
    with psycopg.connect(site_url, autocommit=True) as con:  # a database as schema 2 left it
        con.execute("CREATE TABLE schema_version(version INTEGER PRIMARY KEY, applied_ns BIGINT NOT NULL)")
        for version, sql in MIGRATIONS[:2]:
            con.execute(sql)
            con.execute("INSERT INTO schema_version VALUES(%s, 0)", (version,))
        con.execute("INSERT INTO entities(id, label, room, present, last_seen_ns, data) VALUES(%s,%s,%s,1,%s,%s)",
                    (mug.id, mug.label, mug.room, mug.last_seen_ns, mug.model_dump_json()))
    store = MemoryStore(site_url, robot="vega")
    try:
        hits = Retriever(store, semantic=False).search("lucky cup", kind="entities")
        assert [h.id for h in hits[:1]] == ["mug_1"] and hits[0].score == EXACT_SCORE
    finally:
        store.close()
