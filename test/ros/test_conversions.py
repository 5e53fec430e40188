"""msg <-> model conversions: round trips and the validation done on the way in."""

import math

import pytest
from geometry_msgs.msg import Point, PoseStamped

from memory_node.core.models import (
    EntityObservation,
    InvalidInput,
    Plan,
    Pose,
    RelationObservation,
    SceneGraphObservation,
    SkillCall,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.msg import Entity
from memory_node.ros import conversions as conv


def test_stamp_round_trip_is_exact():
    for ns in (0, 1, 1_699_999_999_123_456_789, 2**40 + 7):
        assert conv.stamp_to_ns(conv.ns_to_stamp(ns)) == ns
    assert conv.optional_ns(conv.ns_to_stamp(0)) is None


def test_scene_graph_round_trip():
    g = SceneGraphObservation(
        stamp_ns=1_700_000_000_500_000_000, source="test", room="kitchen_1", complete=True,
        entities=[EntityObservation(id="mug_1", label="mug", name="Alex's mug", room="kitchen_1",
                                    position={"x": 1.5, "y": -2.0, "z": 0.75}, attributes={"color": "blue"},
                                    states=["clean"], confidence=0.9)],
        relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")])
    back = conv.scene_graph_from_msg(conv.observation_to_msg(g), g.stamp_ns)
    assert back.entities[0].confidence == pytest.approx(0.9)  # float32 on the wire
    assert back.entities[0].model_dump(exclude={"confidence"}) == g.entities[0].model_dump(exclude={"confidence"})
    assert back.relations == g.relations and back.room == g.room and back.complete


def test_an_unknown_position_round_trips_as_unknown():
    """Memory sends an unknown position as all NaN; the same message sent back is an entity without a
    position (it was refused as invalid, so a client could not publish what the node itself had sent)."""
    g = SceneGraphObservation(stamp_ns=1, room="hall", entities=[EntityObservation(id="keys_1", label="keys")])
    back = conv.scene_graph_from_msg(conv.observation_to_msg(g), 1)
    assert back.rejected == [] and back.entities[0].position is None


def test_invalid_parts_are_dropped_with_reasons():
    bad = Entity(id="vase_1", label="vase", position=Point(x=math.nan, y=0.0, z=0.0))
    good = Entity(id="table_1", label="table")
    msg = conv.observation_to_msg(SceneGraphObservation(stamp_ns=1))
    msg.entities = [bad, good]
    from memory_node.msg import Relation
    msg.relations = [Relation(subject="vase_1", predicate="on", object="table_1"),
                     Relation(subject="table_1", predicate="hovering", object="vase_1"),
                     Relation(subject="table_1", predicate="Next To", object="wall_1")]
    g = conv.scene_graph_from_msg(msg, 5)
    assert [e.id for e in g.entities] == ["table_1"]
    assert [(r.subject, r.predicate) for r in g.relations] == [("table_1", "next_to")]
    assert len(g.rejected) == 3
    assert "finite" in g.rejected[0] and "rejected entity" in g.rejected[1]


def test_events_and_plans_round_trip():
    fb = SkillFeedbackObservation(stamp_ns=42, robot="vega", skill="open", args=["drawer_1"], target_id="drawer_1",
                                  success=False, status="EXECUTION_FAILURE", message="locked")
    assert conv.skill_feedback_from_msg(conv.skill_feedback_to_msg(fb), 42) == fb
    u = UtteranceObservation(stamp_ns=7, speaker="alex", text="forks go in the drawer")
    assert conv.utterance_from_msg(conv.utterance_to_msg(u), 7) == u
    p = Plan(robot="vega", instruction="bring me the mug", steps=[SkillCall(skill="pick", args=["mug_1"], text="pick")],
             evidence_ids=["sg-1"], explanation="because")
    assert conv.plan_from_msg(conv.plan_to_msg(p, 9)) == p
    with pytest.raises(InvalidInput):
        conv.utterance_from_msg(conv.utterance_to_msg(UtteranceObservation(stamp_ns=1, text=" ")), 1)


def test_plan_steps_carry_positions_and_approach_with_nan_for_unknown():
    from memory_node.core.models import Point as P

    approach = Pose(position=P(x=1.0, y=-2.0, z=0.0), yaw=2.5)
    p = Plan(robot="vega", instruction="bring me the mug", steps=[
        SkillCall(skill="navigate_to", args=["table_1"], arg_positions=[P(x=1.0, y=-1.2, z=0.4)],
                  approach=approach),
        SkillCall(skill="place", args=["mug_1", "shelf_2"], arg_positions=[None, P(x=3.0, y=0.5, z=1.0)])])
    msg = conv.plan_to_msg(p, 9)
    assert msg.header.frame_id == "map"
    nav, place = msg.steps
    assert (nav.approach.position.x, nav.approach.position.y, nav.approach.position.z) == (1.0, -2.0, 0.0)
    assert math.atan2(2 * nav.approach.orientation.w * nav.approach.orientation.z,
                      1 - 2 * nav.approach.orientation.z ** 2) == pytest.approx(2.5)
    assert all(math.isnan(v) for v in (place.arg_positions[0].x, place.arg_positions[0].y, place.arg_positions[0].z))
    assert place.arg_positions[1].z == 1.0
    q = place.approach.orientation
    assert all(math.isnan(v) for v in (place.approach.position.x, q.x, q.y, q.z, q.w))  # no pose: NaN everywhere
    back = conv.plan_from_msg(msg)
    assert back.steps[1] == p.steps[1]
    assert back.steps[0].approach.yaw == pytest.approx(2.5)
    assert back.steps[0].model_copy(update={"approach": approach}) == p.steps[0]


def test_pose_yaw_and_nan():
    msg = PoseStamped()
    msg.pose.orientation.z = math.sin(math.pi / 4)
    msg.pose.orientation.w = math.cos(math.pi / 4)
    assert conv.pose_from_msg(msg).yaw == pytest.approx(math.pi / 2)
    msg.pose.position.x = math.nan
    with pytest.raises(InvalidInput, match="NaN"):
        conv.pose_from_msg(msg)


def test_sensor_messages_round_trip():
    import numpy as np
    import ros2_numpy

    from memory_node.core.models import Point as P
    from memory_node.core.models import Pose

    rgb = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    img = conv.image_to_msg(rgb, 5_000_000_001, "head_camera")
    assert (img.width, img.height, img.encoding, img.step) == (6, 4, "rgb8", 18)
    assert np.array_equal(ros2_numpy.numpify(img), rgb)
    depth = np.array([[0.5, np.inf], [1.25, 2.0]], dtype=np.float32)
    d = conv.depth_to_msg(depth, 1, "head_camera")
    assert d.encoding == "32FC1" and np.array_equal(np.frombuffer(bytes(d.data), "<f4").reshape(2, 2), depth)
    info = conv.camera_info_to_msg(200.0, 201.0, 160.0, 120.0, 320, 240, 1, "head_camera")
    assert list(info.k) == [200.0, 0.0, 160.0, 0.0, 201.0, 120.0, 0.0, 0.0, 1.0] and info.width == 320
    pose = Pose(position=P(x=1.0, y=-2.0, z=0.0), yaw=2.5)
    back = conv.pose_from_msg(conv.pose_to_msg(pose, 7))
    assert back.yaw == pytest.approx(2.5) and back.position.y == -2.0
