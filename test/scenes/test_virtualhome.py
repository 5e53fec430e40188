"""The shipped apartment and its conversion: what the demo and every later test build on."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from memory_node.core.models import SceneGraphObservation
from memory_node.scenes import virtualhome as vh

FULL = Path(__file__).resolve().parents[3] / "shared" / "data" / "virtualhome_graphs" / "example_graphs"
FULL_SCENE1 = FULL / "TestScene1_graph.json"
needs_full = pytest.mark.skipif(not FULL_SCENE1.is_file(), reason="upstream VirtualHome graphs not present")


@pytest.fixture(scope="module")
def shipped() -> vh.Graph:
    return vh.load_graph(vh.default_scene_path())


@pytest.fixture(scope="module")
def scene() -> vh.VirtualHomeScene:
    return vh.load_scene()


# ---- the shipped file -----------------------------------------------------------------------------


def test_shipped_file_is_small_and_licensed() -> None:
    path = vh.default_scene_path()
    assert path.stat().st_size < 200_000
    licence = (path.parent / "LICENSE").read_text()
    assert "MIT License" in licence and "rail_tasksim" in licence
    assert "640a65d8cd70c6937d55761dc9226dddffde1710" in licence


def test_shipped_file_has_no_structure_and_no_proximity_edges(shipped: vh.Graph) -> None:
    assert not {n["category"] for n in shipped["nodes"]} & vh.STRUCTURE_CATEGORIES
    assert {e["relation_type"] for e in shipped["edges"]} == set(vh.KEPT_EDGE_TYPES)
    ids = {n["id"] for n in shipped["nodes"]}
    assert all(e["from_id"] in ids and e["to_id"] in ids for e in shipped["edges"])


def test_trim_is_idempotent(shipped: vh.Graph) -> None:
    assert vh.trim_graph(shipped) == shipped


@needs_full
def test_shipped_file_equals_a_fresh_trim_of_upstream(shipped: vh.Graph) -> None:
    assert vh.trim_graph(vh.load_graph(FULL_SCENE1)) == shipped


@needs_full
def test_trim_command_writes_the_shipped_bytes(tmp_path: Path) -> None:
    dst = tmp_path / "TestScene1.json"
    assert vh.main(["trim", str(FULL_SCENE1), str(dst)]) == 0
    assert dst.read_bytes() == vh.default_scene_path().read_bytes()


@needs_full
def test_full_and_trimmed_graphs_convert_alike(scene: vh.VirtualHomeScene) -> None:
    full = vh.load_scene(FULL_SCENE1)
    assert full.entities == scene.entities and full.relations == scene.relations and full.rooms == scene.rooms


def test_dumps_graph_round_trips(shipped: vh.Graph) -> None:
    assert json.loads(vh.dumps_graph(shipped)) == shipped


def test_load_graph_rejects_other_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"nodes": 3}')
    with pytest.raises(ValueError, match="not a VirtualHome graph"):
        vh.load_graph(bad)


# ---- conversion -----------------------------------------------------------------------------------


def test_rooms_are_found_with_readable_ids(scene: vh.VirtualHomeScene) -> None:
    assert set(scene.rooms) == {"bathroom_1", "bedroom_67", "kitchen_201", "livingroom_319"}
    assert scene.rooms["bedroom_67"].name == "bedroom"
    assert all(e.room in scene.rooms for e in scene.entities.values())


def test_mug_is_on_the_desk_in_the_bedroom(scene: vh.VirtualHomeScene) -> None:
    mug = scene.entities["mug_190"]
    assert (mug.label, mug.room) == ("mug", "bedroom_67")
    loc = scene.location("mug_190")
    assert loc is not None and (loc.predicate, loc.object) == ("on", "desk_104")
    assert mug.attributes["grabbable"] == "true" and mug.attributes["category"] == "props"


def test_states_and_affordances(scene: vh.VirtualHomeScene) -> None:
    cabinet = scene.entities["cabinet_399"]
    assert cabinet.states == ["closed"] and cabinet.room == "livingroom_319"
    assert cabinet.attributes["openable"] == "true" and cabinet.attributes["container"] == "true"
    assert scene.entities["fridge_289"].states == ["closed"]


def test_character_is_the_user(scene: vh.VirtualHomeScene) -> None:
    people = scene.with_label("person")
    assert [(p.id, p.name, p.room) for p in people] == [("character_65", "user", "bathroom_1")]


def test_unity_y_up_becomes_map_z_up(shipped: vh.Graph, scene: vh.VirtualHomeScene) -> None:
    node = next(n for n in shipped["nodes"] if n["id"] == 190)
    ux, uy, uz = node["bounding_box"]["center"]
    assert (ux, uy, uz) == (-4.872979, 1.00468671, -6.92917871)
    p = scene.entities["mug_190"].position
    assert p is not None and (p.x, p.y, p.z) == (ux, uz, uy)
    # the mug stands on the desk: its height is the Unity y, above the desk's
    desk = scene.entities["desk_104"].position
    assert desk is not None and p.z > desk.z


def test_positions_are_finite(scene: vh.VirtualHomeScene) -> None:
    for e in [*scene.entities.values(), *scene.rooms.values()]:
        assert e.position is not None, e.id
        assert all(math.isfinite(v) for v in (e.position.x, e.position.y, e.position.z)), e.id


def test_relations_join_known_entities_one_location_each(scene: vh.VirtualHomeScene) -> None:
    subjects = [r.subject for r in scene.relations]
    assert len(subjects) == len(set(subjects))
    for r in scene.relations:
        assert r.subject in scene.entities and r.object in scene.entities, r
        assert r.predicate in ("on", "in")
        assert r.object not in scene.rooms


def test_locations_have_no_cycles(scene: vh.VirtualHomeScene) -> None:
    loc = {r.subject: r.object for r in scene.relations}
    for start in loc:
        seen, cur = {start}, start
        while cur in loc:
            cur = loc[cur]
            assert cur not in seen, f"location cycle through {start}"
            seen.add(cur)


def test_box_overlap_does_not_beat_support(scene: vh.VirtualHomeScene) -> None:
    """VirtualHome says the apples are INSIDE the sofa and ON the coffee table; the table is right."""
    def loc(i: str) -> tuple[str, str]:
        r = scene.location(i)
        assert r is not None
        return (r.predicate, r.object)

    assert loc("apple_421") == ("on", "coffeetable_355")
    assert loc("plate_298") == ("in", "microwave_297")  # a microwave really contains things
    assert loc("mouse_166") == ("on", "mousemat_167")  # the innermost support
    assert loc("clothespile_144") == ("in", "closetdrawer_143")  # not the closet around the drawer


def test_room_graphs_are_complete_and_self_contained(scene: vh.VirtualHomeScene) -> None:
    graphs = vh.room_graphs(scene, stamp_ns=42)
    assert [g.room for g in graphs] == list(scene.rooms)
    for g in graphs:
        assert isinstance(g, SceneGraphObservation)
        assert (g.stamp_ns, g.source, g.complete) == (42, "virtualhome", True)
        ids = {e.id for e in g.entities}
        assert all(e.room == g.room for e in g.entities)
        assert all(r.subject in ids and r.object in ids for r in g.relations)
    assert sum(len(g.entities) for g in graphs) == len(scene.entities) + len(scene.rooms)


def test_unknown_room_is_named_in_the_error(scene: vh.VirtualHomeScene) -> None:
    with pytest.raises(KeyError, match="garage"):
        vh.room_graph(scene, "garage", 0)


@needs_full
@pytest.mark.parametrize("path", sorted(FULL.glob("TestScene*_graph.json")), ids=lambda p: p.stem)
def test_every_upstream_apartment_converts_consistently(path: Path) -> None:
    scene = vh.load_scene(path)
    assert scene.rooms and scene.with_label("person")
    for r in scene.relations:
        assert scene.room_of(r.subject) == scene.room_of(r.object), r
    assert all(e.room in scene.rooms for e in scene.entities.values())
