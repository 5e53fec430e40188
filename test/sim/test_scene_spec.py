"""Scene files: the shipped ones load and say what the tests rely on; mistakes fail with a message."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memory_node.scenes.virtualhome import load_scene
from memory_node.sim.scene_spec import SceneSpec, dump_scene_spec, load_scene_spec, shipped_scene
from memory_node.sim.state import WorldState
from memory_node.sim.virtualhome_scene import DEFAULT_SRC, SMALL_FURNITURE, SMALL_OBJECTS, main

SMALL = {
    "name": "t",
    "rooms": [{"id": "kitchen_1", "floor": [[0, 0, 4, 4]]}],
    "furniture": [
        {"id": "table_2", "label": "table", "center": [2, 2, 0.4], "size": [1, 1, 0.8]},
        {"id": "fridge_3", "label": "fridge", "center": [0.5, 3.5, 0.9], "size": [0.8, 0.6, 1.8],
         "container": {"closed": True}},
    ],
    "objects": [{"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1], "color": "blue", "on": "table_2"}],
}


def _spec(**changes) -> SceneSpec:
    data = yaml.safe_load(yaml.safe_dump(SMALL))
    for key, value in changes.items():
        data[key] = value
    return SceneSpec.model_validate(data)


def test_small_scene_has_what_the_skill_tests_need():
    spec = load_scene_spec(shipped_scene("small_home"))
    assert [r.id for r in spec.rooms] == ["kitchen_201", "livingroom_319"]
    furniture = {f.id: f for f in spec.furniture}
    assert furniture["fridge_289"].container.openable and furniture["fridge_289"].container.closed
    assert furniture["cabinet_399"].container.locked
    objects = {o.id: o for o in spec.objects}
    assert objects["salmon_311"].in_ == "fridge_289"
    assert "mug_431" in objects and {"apple_421", "bananas_423"} <= set(objects)
    state = WorldState(spec)
    rooms_of_bowls = {state.outermost(i).room for i in ("dishbowl_310", "dishbowl_429")}
    assert rooms_of_bowls == {"kitchen_201", "livingroom_319"}  # same label, two rooms


def test_ids_are_memorys_virtualhome_ids():
    """The simulator and memory must name the same things alike."""
    memory_ids = set(load_scene().entities) | set(load_scene().rooms)
    for name in ("small_home", "TestScene1"):
        spec = load_scene_spec(shipped_scene(name))
        ids = {r.id for r in spec.rooms} | {f.id for f in spec.furniture} | {o.id for o in spec.objects}
        assert ids <= memory_ids, sorted(ids - memory_ids)[:5]


def test_full_apartment_scene_loads():
    spec = load_scene_spec(shipped_scene("TestScene1"))
    assert len(spec.rooms) == 4 and len(spec.furniture) > 100 and len(spec.objects) > 100
    assert len(WorldState(spec).bodies) == len(spec.furniture) + len(spec.objects)


@pytest.mark.skipif(not DEFAULT_SRC.is_file(), reason=f"VirtualHome graphs not found at {DEFAULT_SRC}")
def test_converter_regenerates_the_shipped_small_scene(tmp_path):
    out = tmp_path / "small.yaml"
    assert main(["small", str(DEFAULT_SRC), str(out)]) == 0
    assert out.read_text() == shipped_scene("small_home").read_text()
    spec = load_scene_spec(out)
    assert {f.id for f in spec.furniture} == set(SMALL_FURNITURE)
    assert {o.id for o in spec.objects} == set(SMALL_OBJECTS)


def test_dump_round_trips():
    spec = _spec()
    again = SceneSpec.model_validate(yaml.safe_load(dump_scene_spec(spec)))
    assert again == spec


@pytest.mark.parametrize("change, message", [
    ({"objects": [{"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1], "on": "shelf_9"}]}, "shelf_9"),
    ({"objects": [{"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1], "in": "table_2"}]}, "not a container"),
    ({"objects": [{"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1], "color": "teal", "on": "table_2"}]},
     "teal"),
    ({"objects": [{"id": "table_2", "label": "mug", "size": [0.1, 0.1, 0.1], "on": "table_2"}]}, "duplicate"),
    ({"objects": [{"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1]}]}, "no parent"),
])
def test_invalid_scenes_say_what_is_wrong(change, message):
    with pytest.raises(ValueError, match=message):
        _spec(**change)


def test_object_without_spot_is_placed_on_a_free_spot():
    spec = _spec(objects=[
        {"id": "mug_4", "label": "mug", "size": [0.1, 0.1, 0.1], "on": "table_2", "at": [2, 2]},
        {"id": "mug_5", "label": "mug", "size": [0.1, 0.1, 0.1], "on": "table_2", "at": [2, 2]},
        {"id": "egg_6", "label": "egg", "size": [0.05, 0.05, 0.05], "in": "fridge_3"},
    ])
    state = WorldState(spec)
    a, b = state.bodies["mug_4"], state.bodies["mug_5"]
    assert a.center[:2] == [2, 2] and b.center[:2] != [2, 2]  # the second one moved off the first
    assert a.center[2] == pytest.approx(0.8 + 0.05)
    egg = state.bodies["egg_6"]
    assert state.enclosing_closed("egg_6").id == "fridge_3"
    assert 0.0 < egg.center[2] - 0.025 < 1.8  # stands on the fridge's shelf, inside it


def test_the_documented_example_scene_is_valid():
    readme = (Path(__file__).resolve().parents[2] / "memory_node" / "sim" / "README.md").read_text()
    block = readme.split("## Scene file format", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    spec = SceneSpec.model_validate(yaml.safe_load(block))
    state = WorldState(spec)
    assert state.enclosing_closed("milk_7").id == "fridge_3"
    assert state.outermost("microwave_5").id == "counter_4"
