"""Plans carry where their arguments are (planning/poses.py): positions as memory saw them, NaN-free None
when memory does not know, and an approach pose for every navigation step that stands clear of what memory
knows, at the side the robot comes from (or facing the room), facing what it will handle."""

import math

import pytest

from memory_node.core.models import Point
from memory_node.core.store import MemoryStore
from memory_node.requests.dispatch import plan_request
from memory_node.planning.poses import ROBOT_RADIUS_M, STANDOFF_M, approach_pose
from memory_node.planning.skills import SkillLibrary
from memory_node.world.state import WorldState

KITCHEN_CENTRE = Point(x=0.0, y=0.0, z=0.0)


def _p(x, y, z=0.0):
    return Point(x=x, y=y, z=z)


@pytest.fixture
def placed(mem) -> MemoryStore:
    """A kitchen whose entities have positions and sizes: a counter along the north wall (y = 2.4 ... 3.0)
    with a mug at its east end, a fridge beside it (its east side blocked by the counter), a chair in the
    middle; Bob in the living room (position known); a remote whose position memory never got."""
    mem.scene(1_000_000_000, [
        mem.ent("kitchen_1", "room", room="kitchen_1", position=KITCHEN_CENTRE),
        mem.ent("livingroom_1", "room", room="livingroom_1", position=_p(6.0, 0.0)),
        mem.ent("counter_1", "kitchencounter", position=_p(0.0, 2.7, 0.45), attributes={"size": "3.0,0.6,0.9"},
                room="kitchen_1"),
        mem.ent("mug_1", "mug", position=_p(1.3, 2.7, 0.95), attributes={"size": "0.1,0.1,0.1"},
                room="kitchen_1"),
        mem.ent("fridge_1", "fridge", position=_p(-1.9, 2.6, 1.0), attributes={"size": "0.8,0.8,2.0"},
                states=["closed"], room="kitchen_1"),
        mem.ent("chair_1", "chair", position=_p(0.0, 0.0, 0.45), attributes={"size": "0.5,0.5,0.9"},
                room="kitchen_1"),
        mem.ent("remote_1", "remote", room="kitchen_1"),
        mem.ent("person_1", "person", name="bob", position=_p(6.0, 1.0, 0.9), room="livingroom_1"),
    ], [("counter_1", "in", "kitchen_1"), ("fridge_1", "in", "kitchen_1"), ("chair_1", "in", "kitchen_1"),
        ("mug_1", "on", "counter_1"), ("remote_1", "on", "counter_1"), ("person_1", "in", "livingroom_1")])
    return mem.store


def _plan(store, library, text):
    result = plan_request(store, library, text)
    assert result.success, result.error
    return result.plan


def _dist_to_rect(x, y, rect):
    return math.hypot(max(rect[0] - x, 0.0, x - rect[2]), max(rect[1] - y, 0.0, y - rect[3]))


COUNTER = (-1.5, 2.4, 1.5, 3.0)
FRIDGE = (-2.3, 2.2, -1.5, 3.0)
CHAIR = (-0.25, -0.25, 0.25, 0.25)


def test_bring_plan_carries_positions_and_approach_poses(placed: MemoryStore, vega: SkillLibrary) -> None:
    plan = _plan(placed, vega, "bring me the mug")
    assert [(s.skill, s.args) for s in plan.steps] == [
        ("navigate_to", ["counter_1"]), ("pick", ["mug_1"]), ("navigate_to", ["person_1"]), ("handover", ["mug_1"])]
    nav, pick, to_bob, handover = plan.steps
    # positions: memory's, one per argument; the mug is in the hand at the handover, so memory cannot say
    assert nav.arg_positions == [_p(0.0, 2.7, 0.45)]
    assert pick.arg_positions == [_p(1.3, 2.7, 0.95)]
    assert to_bob.arg_positions == [_p(6.0, 1.0, 0.9)]
    assert handover.arg_positions == [None]
    assert pick.approach is None and handover.approach is None  # only navigation steps stand somewhere
    # at the counter: on the room's side (south), its standoff from the edge, at the mug's end, facing the mug
    a = nav.approach
    assert a is not None and a.frame_id == "map"
    assert a.position.y == pytest.approx(COUNTER[1] - STANDOFF_M)
    assert a.position.x == pytest.approx(1.3)
    assert a.yaw == pytest.approx(math.pi / 2)  # facing +y, the mug
    assert _dist_to_rect(a.position.x, a.position.y, CHAIR) > ROBOT_RADIUS_M
    # at Bob: at arm's length, facing him; the robot comes from another room, so on the side of his room's
    # centre (6, 0), south of him
    b = to_bob.approach
    assert math.dist((b.position.x, b.position.y), (6.0, 1.0)) == pytest.approx(0.8)
    assert b.position.y == pytest.approx(0.2) and b.yaw == pytest.approx(math.pi / 2)


def test_approach_faces_the_robot_and_avoids_what_memory_knows(placed: MemoryStore, vega: SkillLibrary,
                                                                mem) -> None:
    # the robot reported standing west of the fridge: its west side faces it; the east side (the counter) is
    # never chosen
    placed.set_meta("robot", {"room": "kitchen_1", "pose": {"x": -3.5, "y": 2.6, "yaw": 0.0}})
    plan = _plan(placed, vega, "open the fridge")
    nav = plan.steps[0]
    assert (nav.skill, nav.args) == ("navigate_to", ["fridge_1"])
    a = nav.approach
    assert a.position.x == pytest.approx(FRIDGE[0] - STANDOFF_M)
    assert abs(a.yaw) < 0.5  # facing east, the fridge
    # from the middle of the room instead: the south side; east is blocked by the counter at any rate
    world = WorldState.from_store(placed)
    south = approach_pose(world, "fridge_1", at=(-1.9, 0.5), at_room="kitchen_1")
    assert south.position.y == pytest.approx(FRIDGE[1] - STANDOFF_M)
    for pose in (a, south):
        for rect in (COUNTER, CHAIR):
            assert _dist_to_rect(pose.position.x, pose.position.y, rect) > ROBOT_RADIUS_M
    east = approach_pose(world, "fridge_1", at=(0.0, 2.6), at_room="kitchen_1")  # "coming from" the counter
    assert _dist_to_rect(east.position.x, east.position.y, COUNTER) > ROBOT_RADIUS_M


def test_room_approach_is_a_clear_spot_near_its_centre(placed: MemoryStore, vega: SkillLibrary) -> None:
    plan = _plan(placed, vega, "go to the kitchen")
    (nav,) = plan.steps
    assert nav.arg_positions == [KITCHEN_CENTRE]
    a = nav.approach
    # the centre is under the chair: the nearest spot the base fits
    assert _dist_to_rect(a.position.x, a.position.y, CHAIR) > ROBOT_RADIUS_M
    assert math.dist((a.position.x, a.position.y), (0.0, 0.0)) < 0.25 + ROBOT_RADIUS_M + 0.15


def test_unknown_positions_are_none(placed: MemoryStore, vega: SkillLibrary, mem) -> None:
    # the remote has no position, but its counter has one: the approach is the counter's, the remote's own
    # position is unknown
    plan = _plan(placed, vega, "bring me the remote")
    nav, pick = plan.steps[:2]
    assert pick.args == ["remote_1"] and pick.arg_positions == [None]
    assert nav.approach is not None
    # a cupboard memory never placed: nothing to stand at
    mem.scene(2_000_000_000, [mem.ent("cupboard_1", "cupboard", states=["closed"], room="kitchen_1")],
              [("cupboard_1", "in", "kitchen_1")])
    plan = _plan(placed, vega, "open the cupboard")
    assert plan.steps[0].skill == "navigate_to" and plan.steps[0].args == ["cupboard_1"]
    assert plan.steps[0].arg_positions == [None] and plan.steps[0].approach is None


def test_walled_in_target_has_no_approach(mem, vega: SkillLibrary) -> None:
    """Every side blocked by what memory knows: None rather than a pose inside furniture."""
    mem.scene(1, [mem.ent("box_1", "box", position=_p(0, 0, 0.3), attributes={"size": "0.4,0.4,0.6"}),
                  *[mem.ent(f"wall_{i}", "cabinet", position=_p(x, y, 0.5), attributes={"size": "1.0,1.0,1.0"})
                    for i, (x, y) in enumerate([(1.2, 0), (-1.2, 0), (0, 1.2), (0, -1.2), (1.2, 1.2), (-1.2, 1.2),
                                                (1.2, -1.2), (-1.2, -1.2)])]])
    world = WorldState.from_store(mem.store)
    assert approach_pose(world, "box_1") is None
    assert approach_pose(world, "nothing_1") is None


def test_the_robot_stands_at_the_table_not_the_rug_under_it(mem) -> None:
    """VirtualHome puts the coffee table on a rug: the robot must stand at the table (what blocks the base),
    within reach of the apple, not at the rug's edge metres away."""
    mem.scene(1, [mem.ent("livingroom_1", "room", room="livingroom_1", position=_p(0, 0)),
                  mem.ent("rug_1", "rug", position=_p(0, 0, 0.014), attributes={"size": "4.0,3.0,0.028"},
                          room="livingroom_1"),
                  mem.ent("table_1", "coffeetable", position=_p(0, 0, 0.15), attributes={"size": "1.2,1.2,0.3"},
                          room="livingroom_1"),
                  mem.ent("apple_1", "apple", position=_p(0.1, 0.1, 0.35), attributes={"size": "0.1,0.1,0.1"},
                          room="livingroom_1")],
              [("table_1", "on", "rug_1"), ("apple_1", "on", "table_1")])
    world = WorldState.from_store(mem.store)
    pose = approach_pose(world, "apple_1", at=(3.0, 0.1), at_room="livingroom_1")
    assert pose.position.x == pytest.approx(0.6 + STANDOFF_M) and pose.position.y == pytest.approx(0.1)
    assert math.dist((pose.position.x, pose.position.y), (0.1, 0.1)) < 1.2
