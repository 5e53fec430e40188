"""Plans over real DDS carry where their arguments are: each step's argument positions (map frame, NaN
when memory does not know, e.g. for what the plan has put in the robot's hand) and, for navigation, an approach pose; the same on ~/plans. The robot's
reported pose decides which side of a target the approach is on."""

import math
import time

import pytest
from geometry_msgs.msg import Point, PoseStamped
from rclpy.qos import qos_profile_sensor_data
from ros_messages import S, T0, entity, graph

from memory_node.ros.conversions import ns_to_stamp

FRIDGE = (-2.3, 2.2, -1.5, 3.0)  # footprint: centre (-1.9, 2.6), 0.8 x 0.8


def _placed(id, label, x, y, z, size="", **attrs):
    e = entity(id, label, **attrs)
    e.position = Point(x=x, y=y, z=z)
    if size:
        e.attribute_keys.append("size")
        e.attribute_values.append(size)
    return e


def _publish_kitchen(client) -> None:
    client.publish_scene_graph(graph(T0, [
        _placed("kitchen", "room", 0.0, 0.0, 0.0),
        _placed("counter_1", "kitchencounter", 0.0, 2.7, 0.45, size="3.0,0.6,0.9"),
        _placed("mug_1", "mug", 1.3, 2.7, 0.95, size="0.1,0.1,0.1"),
        _placed("fridge_1", "fridge", -1.9, 2.6, 1.0, size="0.8,0.8,2.0", states=["closed"]),
    ], [("mug_1", "on", "counter_1")]))
    client.sync()


def _finite(p) -> bool:
    return all(math.isfinite(v) for v in (p.x, p.y, p.z))


def test_a_plan_over_plan_carries_positions_and_approach_poses(start_node):
    _, client = start_node("vega")
    _publish_kitchen(client)
    resp = client.plan("bring me the mug")
    assert resp.success, resp.error
    plan = resp.plan
    assert plan.header.frame_id == "map"
    nav, pick = plan.steps[:2]
    assert (nav.skill, list(nav.args), pick.skill, list(pick.args)) == ("navigate_to", ["counter_1"], "pick", ["mug_1"])
    assert [(p.x, p.y, p.z) for p in nav.arg_positions] == [(0.0, 2.7, 0.45)]
    assert [(p.x, p.y, p.z) for p in pick.arg_positions] == [(1.3, 2.7, 0.95)]
    # standing south of the counter (facing the room's centre), 0.45 m off its edge, at the mug, facing +y
    a = nav.approach
    assert (round(a.position.x, 3), round(a.position.y, 3), a.position.z) == (1.3, 1.95, 0.0)
    assert math.atan2(2 * a.orientation.w * a.orientation.z, 1 - 2 * a.orientation.z ** 2) == \
        pytest.approx(math.pi / 2)
    # a step that does not navigate has no pose: NaN everywhere
    assert all(math.isnan(v) for v in (pick.approach.position.x, pick.approach.orientation.w))
    # the controller's copy on ~/plans is the same plan
    deadline = time.monotonic() + 10
    while not client.plans and time.monotonic() < deadline:
        client.spin(0.1)
    assert client.plans and client.plans[-1].steps[0].approach == nav.approach
    # at the handover the mug is in the robot's hand: memory cannot say where it is, so NaN
    handover = plan.steps[-1]
    assert (handover.skill, list(handover.args)) == ("handover", ["mug_1"])
    assert not _finite(handover.arg_positions[0])


def test_the_robots_reported_pose_picks_the_side_it_approaches_from(start_node):
    _, client = start_node("vega")
    _publish_kitchen(client)
    south = client.plan("open the fridge").plan.steps[0].approach
    assert south.position.y < FRIDGE[1]  # from the room's centre
    pub = client.node.create_publisher(PoseStamped, f"{client.namespace}robot_pose", qos_profile_sensor_data)
    pose = PoseStamped()
    pose.header.frame_id = "map"
    pose.header.stamp = ns_to_stamp(T0 + S)
    pose.pose.position.x, pose.pose.position.y = -3.5, 2.6
    pose.pose.orientation.w = 1.0
    deadline = time.monotonic() + 20  # best-effort topic: published until the node has it
    west = south
    while time.monotonic() < deadline:
        pub.publish(pose)
        client.spin(0.2)
        west = client.plan("open the fridge").plan.steps[0].approach
        if west.position.x < FRIDGE[0]:
            break
    assert west.position.x == pytest.approx(FRIDGE[0] - 0.45)
