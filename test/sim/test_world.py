"""Skills, rendering and perception in the Genesis simulation of the small scene."""

from __future__ import annotations

import math

import numpy as np
import pytest

from memory_node.core.models import SkillFeedbackObservation
from memory_node.sim.geometry import OCCUPIED, rect_distance
from memory_node.sim.skills import NEAR_FURNITURE_M, REACH_M


def run(world, skill, *args):
    return world.execute(skill, list(args))


def ok(world, skill, *args):
    outcome = run(world, skill, *args)
    assert outcome.success, f"{skill}{args}: {outcome.status}: {outcome.message}"
    return outcome


def test_open_then_pick_from_container(world):
    before = world.entity_position("salmon_311")
    assert not run(world, "pick", "salmon_311").success  # far away
    ok(world, "navigate_to", "fridge_289")
    blocked = run(world, "pick", "salmon_311")
    assert (blocked.success, blocked.status) == (False, "not_reachable")
    assert "fridge_289" in blocked.message and "closed" in blocked.message
    assert world.door_angle("fridge_289") == pytest.approx(0.0, abs=0.05)
    ok(world, "open", "fridge_289")
    assert world.door_angle("fridge_289") > 1.2  # the joint really turned
    ok(world, "pick", "salmon_311")
    snap = world.state_snapshot()
    assert snap["robot"]["holding"] == ["salmon_311"]
    assert snap["entities"]["salmon_311"]["relation"] == "held_by"
    assert snap["entities"]["fridge_289"]["states"] == ["open"]
    moved = world.entity_position("salmon_311")
    assert math.dist(moved, before) > 0.3  # it left the fridge with the hand


def test_locked_container_fails_with_reason(world):
    ok(world, "navigate_to", "cabinet_399")
    outcome = run(world, "open", "cabinet_399")
    assert not outcome.success and outcome.status == "locked" and "locked" in outcome.message
    assert world.door_angle("cabinet_399") == pytest.approx(0.0, abs=0.05)
    fb = outcome.feedback(stamp_ns=5)
    assert isinstance(fb, SkillFeedbackObservation)
    assert (fb.skill, fb.args, fb.target_id, fb.success, fb.robot) == ("open", ["cabinet_399"], "cabinet_399",
                                                                        False, "vega")


def test_place_on_occupied_surface_fails_and_keeps_the_object(world):
    ok(world, "navigate_to", "mug_431")
    ok(world, "pick", "mug_431")
    ok(world, "navigate_to", "mousemat_414")
    outcome = run(world, "place", "mug_431", "mousemat_414")
    assert (outcome.success, outcome.status) == (False, "occupied")
    assert world.state_snapshot()["robot"]["holding"] == ["mug_431"]
    ok(world, "place", "mug_431", "desk_357")
    mug = world.state_snapshot()["entities"]["mug_431"]
    assert (mug["parent"], mug["relation"]) == ("desk_357", "on")
    desk = world.state.bodies["desk_357"]
    assert world.entity_position("mug_431")[2] == pytest.approx(desk.top + 0.05, abs=1e-3)
    assert rect_distance(*world.entity_position("mug_431")[:2], desk.footprint()) == 0.0


def test_place_into_closed_container_fails(world):
    ok(world, "navigate_to", "dishbowl_310")
    ok(world, "pick", "dishbowl_310")
    ok(world, "navigate_to", "microwave_297")
    assert run(world, "place", "dishbowl_310", "microwave_297").status == "closed"


def test_pick_with_hands_full_fails(world):
    ok(world, "navigate_to", "coffeetable_355")
    for obj in ("apple_421", "bananas_423"):
        ok(world, "pick", obj)
    outcome = run(world, "pick", "cellphone_433")
    assert (outcome.success, outcome.status) == (False, "hands_full")
    assert run(world, "open", "fridge_289").status in ("not_near", "hands_full")
    assert sorted(world.state_snapshot()["robot"]["holding"]) == ["apple_421", "bananas_423"]


def test_unknown_skill_and_object_fail(world):
    assert run(world, "fly", "kitchen_201").status == "unknown_skill"
    assert run(world, "navigate_to", "unicorn_1").status == "not_found"
    assert run(world, "pick").status == "bad_arguments"


@pytest.mark.parametrize("target", ["fridge_289", "mug_431", "coffeetable_355", "remotecontrol_436",
                                    "livingroom_319", "kitchen_201"])
def test_navigate_puts_the_robot_near_the_target(world, target):
    ok(world, "navigate_to", target)
    pose = world.robot_pose()
    x, y = pose.position.x, pose.position.y
    assert world.occupancy_grid().disc_free(x, y, 0.3)
    state = world.state
    if target in state.rooms:
        assert state.robot_room() == target
        return
    body = state.bodies[target]
    if body.kind == "object":
        assert math.dist((x, y), body.center[:2]) <= REACH_M
        # facing it
        bearing = math.atan2(body.center[1] - y, body.center[0] - x)
        assert abs(math.remainder(bearing - pose.yaw, 2 * math.pi)) < 0.05
    else:
        assert rect_distance(x, y, body.footprint()) <= NEAR_FURNITURE_M


def test_scene_graph_matches_simulator_state(world):
    ok(world, "navigate_to", "coffeetable_355")
    graph = world.observe(stamp_ns=7)
    assert not graph.complete and graph.room == "livingroom_319"
    reported = {e.id: e for e in graph.entities}
    assert {"apple_421", "bananas_423", "coffeetable_355"} <= set(reported)
    snap = world.state_snapshot()["entities"]
    for eid, ent in reported.items():
        if ent.label == "room":
            continue
        assert [ent.position.x, ent.position.y, ent.position.z] == pytest.approx(snap[eid]["position"], abs=1e-3)
        assert ent.room == snap[eid]["room"]
    for eid in ("apple_421", "bananas_423"):
        assert np.allclose(snap[eid]["sim_position"], snap[eid]["position"], atol=1e-3)  # Genesis agrees
    relations = {(r.subject, r.predicate, r.object) for r in graph.relations}
    for eid in reported:
        if snap.get(eid, {}).get("relation") in ("on", "in"):
            assert (eid, snap[eid]["relation"], snap[eid]["parent"]) in relations
    assert reported["apple_421"].attributes["color"] == "red"
    # something held is not reported as lying anywhere
    ok(world, "pick", "apple_421")
    assert "apple_421" not in {e.id for e in world.observe(stamp_ns=8).entities}


def test_hidden_object_is_reported_only_once_its_container_is_open(world):
    ok(world, "navigate_to", "fridge_289")
    closed = world.observe(stamp_ns=1)
    ids = {e.id for e in closed.entities}
    assert "fridge_289" in ids and "salmon_311" not in ids
    fridge = next(e for e in closed.entities if e.id == "fridge_289")
    assert "closed" in fridge.states
    ok(world, "open", "fridge_289")
    opened = world.observe(stamp_ns=2)
    assert "salmon_311" in {e.id for e in opened.entities}
    assert ("salmon_311", "in", "fridge_289") in {(r.subject, r.predicate, r.object) for r in opened.relations}
    assert "open" in next(e for e in opened.entities if e.id == "fridge_289").states


def test_locks_are_learnt_by_trying_not_seen(world):
    ok(world, "navigate_to", "cabinet_399")
    cabinet = next(e for e in world.observe(stamp_ns=1).entities if e.id == "cabinet_399")
    assert cabinet.states == ["closed"]


def test_room_sweep_is_complete_only_without_hidden_contents(world):
    graph = world.observe_room(stamp_ns=3)
    assert graph.room == "kitchen_201"
    assert not graph.complete  # salmon in the closed fridge could not be seen
    assert {"kitchentable_226", "fridge_289", "kitchencounter_230"} <= {e.id for e in graph.entities}
    assert world.robot_pose().yaw == pytest.approx(world.spec.robot.yaw)  # turned back


def test_render_gives_rgb_depth_and_intrinsics(world):
    frame = world.render()
    assert frame.rgb.shape == (240, 320, 3) and frame.rgb.dtype == np.uint8
    assert frame.depth.shape == (240, 320) and frame.depth.dtype == np.float32
    finite = frame.depth[np.isfinite(frame.depth)]
    assert finite.size > 0 and 0.05 < finite.min() < 20.0
    assert frame.rgb.std() > 5  # not a blank image
    info = frame.info
    assert (info.width, info.height, info.cx, info.cy) == (320, 240, 160.0, 120.0)
    assert info.fx == pytest.approx(120.0 / math.tan(math.radians(30.0)))


def test_occupancy_grid_of_the_world(world):
    grid = world.occupancy_grid(0.1)
    fridge = world.state.bodies["fridge_289"]
    assert grid.resolution == 0.1 and grid.value(fridge.center[0], fridge.center[1]) == OCCUPIED
    pose = world.robot_pose().position
    assert grid.disc_free(pose.x, pose.y, 0.3)


def test_people_move_things_and_lock_containers(world):
    world.relocate("mug_431", "kitchentable_226")
    mug = world.state_snapshot()["entities"]["mug_431"]
    assert (mug["parent"], mug["room"]) == ("kitchentable_226", "kitchen_201")
    assert world.entity_position("mug_431")[2] == pytest.approx(world.state.bodies["kitchentable_226"].top + 0.05)
    world.set_container("fridge_289", locked=True)
    ok(world, "navigate_to", "fridge_289")
    assert run(world, "open", "fridge_289").status == "locked"
    world.set_container("fridge_289", locked=False)
    ok(world, "open", "fridge_289")
    with pytest.raises(ValueError, match="container"):
        world.relocate("mug_431", "desk_357", "in")


def test_handover_gives_the_held_object_away(world):
    assert run(world, "handover", "mug_431").status == "not_holding"
    ok(world, "navigate_to", "mug_431")
    ok(world, "pick", "mug_431")
    ok(world, "handover", "mug_431")
    snap = world.state_snapshot()
    assert snap["robot"]["holding"] == []
    assert (snap["entities"]["mug_431"]["parent"], snap["entities"]["mug_431"]["relation"]) == ("user", "held_by")
    assert run(world, "pick", "mug_431").status == "not_found"


def test_navigate_focus_stands_within_reach_of_the_next_thing(world):
    """The microwave sits at one end of a 3 m counter: standing at the counter's middle it is out of reach;
    with the plan's next target as focus the robot stands in front of it."""
    assert world.execute("navigate_to", ["kitchencounter_230"]).success
    far = world.execute("open", ["microwave_297"])
    assert not far.success and far.status == "not_near"
    assert world.execute("navigate_to", ["kitchencounter_230"], focus="microwave_297").success
    assert world.execute("open", ["microwave_297"]).success
    assert world.execute("pick", ["plate_298"]).success


def test_navigate_drives_to_the_plans_approach_pose(world):
    """A plan's approach pose (memory's, planning/poses.py) is where the base goes, not a pose the simulator
    works out itself; one the map says is blocked (memory cannot see walls) is moved to the nearest free
    spot within APPROACH_SLACK_M, and one with no free spot that near fails as unreachable."""
    from memory_node.sim.geometry import ROBOT_RADIUS_M
    from memory_node.sim.skills import APPROACH_SLACK_M

    west_of_table = (-2.119 - 0.45, -5.5, 0.0)  # kitchentable_226 spans x -2.119 .. -0.119
    assert world.execute("navigate_to", ["kitchentable_226"], approach=west_of_table).success
    r = world.state.robot
    assert (r.x, r.y, r.yaw) == west_of_table
    assert world.execute("pick", ["waterglass_254"]).success  # in reach from memory's pose
    # overlapping the fridge's front by 0.16 m: the nearest free spot, facing the same way
    grazing = (-3.377, -2.4885 - 0.2, -math.pi / 2)
    out = world.execute("navigate_to", ["fridge_289"], approach=grazing)
    assert out.success, out.message
    assert math.dist((r.x, r.y), grazing[:2]) <= APPROACH_SLACK_M and r.yaw == grazing[2]
    assert world.occupancy_grid().disc_free(r.x, r.y, ROBOT_RADIUS_M)
    inside = world.execute("navigate_to", ["fridge_289"], approach=(-3.377, -2.152, 0.0))
    assert not inside.success and inside.status == "unreachable" and "approach pose" in inside.message
    assert world.execute("navigate_to", ["unicorn_1"], approach=west_of_table).status == "not_found"
