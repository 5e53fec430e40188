"""Store jitter: a re-observed position within ``position_tolerance`` is not a new version; a real change
(a move beyond the tolerance, a relation, a state, an attribute, a name or a room) still is, and the
latest-seen time always advances."""

import random

import pytest

from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
from memory_node.core.store import DEFAULT_POSITION_TOLERANCE, MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000


def mug(x=1.0, y=2.0, z=0.8, **kw):
    kw.setdefault("room", "kitchen")
    return EntityObservation(id="mug_1", label="mug", position=Point(x=x, y=y, z=z), **kw)


def graph(t, entities, relations=()):
    return SceneGraphObservation(stamp_ns=t * S, room="kitchen", entities=list(entities),
                                 relations=list(relations))


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


def versions(store, ent_id="mug_1"):
    return len(store.history(ent_id))


def test_default_tolerance_is_five_centimetres(store):
    assert DEFAULT_POSITION_TOLERANCE == 0.05 and store.position_tolerance == 0.05


def test_jitter_within_tolerance_adds_no_version_but_updates_last_seen(store):
    store.ingest_scene_graph(graph(1, [mug()]))
    rng = random.Random(0)
    for t in range(2, 1002):  # 1,000 re-observations with +-2 cm of noise on each axis
        res = store.ingest_scene_graph(graph(t, [mug(1.0 + rng.uniform(-0.02, 0.02), 2.0 + rng.uniform(-0.02, 0.02),
                                                     0.8 + rng.uniform(-0.02, 0.02))]))
        assert res.unchanged == 1 and res.updated == 0
    assert versions(store) == 1
    ent = store.entity("mug_1")
    assert ent.last_seen_ns == 1001 * S
    # memory keeps the stored position (jitter is not written over it), the same now and as of any time
    assert (ent.position.x, ent.position.y, ent.position.z) == (1.0, 2.0, 0.8)
    assert store.entity("mug_1", as_of_ns=500 * S).position == ent.position


def test_move_beyond_tolerance_is_a_new_version(store):
    store.ingest_scene_graph(graph(1, [mug()]))
    res = store.ingest_scene_graph(graph(2, [mug(x=1.06)]))
    assert res.updated == 1 and versions(store) == 2
    assert store.entity("mug_1").position.x == 1.06
    assert store.entity("mug_1", as_of_ns=1 * S).position.x == 1.0


def test_slow_drift_adds_up_to_a_version(store):
    """Compared with the stored position, not the previous sighting: 1.2 cm steps make a version at 6 cm."""
    store.ingest_scene_graph(graph(1, [mug()]))
    for step in range(1, 6):
        store.ingest_scene_graph(graph(1 + step, [mug(x=1.0 + 0.012 * step)]))
        assert versions(store) == (2 if step == 5 else 1)
    assert store.entity("mug_1").position.x == pytest.approx(1.06)


@pytest.mark.parametrize("change", [
    {"states": ["dirty"]},
    {"attributes": {"color": "red"}},
    {"name": "my mug"},
    {"room": "office"},
])
def test_other_changes_with_jitter_are_new_versions(store, change):
    store.ingest_scene_graph(graph(1, [mug()]))
    res = store.ingest_scene_graph(graph(2, [mug(x=1.01, **change)]))
    assert res.updated == 1 and versions(store) == 2
    assert store.entity("mug_1").position.x == 1.0  # the jitter itself is still not taken


def test_relation_change_with_jitter_is_a_new_version(store):
    table = EntityObservation(id="table_1", label="table", room="kitchen")
    shelf = EntityObservation(id="shelf_1", label="shelf", room="kitchen")
    store.ingest_scene_graph(graph(1, [mug(), table, shelf],
                                   [RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
    res = store.ingest_scene_graph(graph(2, [mug(z=0.81)],
                                         [RelationObservation(subject="mug_1", predicate="on", object="shelf_1")]))
    assert res.updated == 1 and versions(store) == 2
    assert store.entity("mug_1").location.object == "shelf_1"


def test_zero_tolerance_keeps_every_change(tmp_path):
    s = MemoryStore(tmp_path / "m.db", position_tolerance=0.0)
    try:
        s.ingest_scene_graph(graph(1, [mug()]))
        s.ingest_scene_graph(graph(2, [mug(x=1.001)]))
        s.ingest_scene_graph(graph(3, [mug(x=1.001)]))  # the same position again is no change
        assert versions(s) == 2
    finally:
        s.close()


@pytest.mark.parametrize("bad", [-0.1, float("nan")])
def test_bad_tolerance_is_refused(tmp_path, bad):
    with pytest.raises(ValueError, match="position_tolerance"):
        MemoryStore(tmp_path / "m.db", position_tolerance=bad)
