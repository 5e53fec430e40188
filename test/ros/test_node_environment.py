"""Map, robot pose and visualization outputs of the node, with a real SLAM map (AWS small house)."""

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest
from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import OccupancyGrid
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from visualization_msgs.msg import Marker, MarkerArray

from memory_node.perception.occupancy import load_map
from memory_node.ros.conversions import occupancy_grid_to_msg
from ros_messages import T0, entity, graph

MAP = (Path(__file__).resolve().parents[3] / "shared" / "data" / "aws_small_house" / "maps" / "turtlebot3_waffle_pi"
       / "map.yaml")


def test_real_slam_map_is_remembered(start_node):
    if not MAP.exists():
        pytest.skip(f"shared data not found at {MAP}")
    occ = load_map(MAP)
    assert occ.grid.shape == (500, 500) and occ.resolution == pytest.approx(0.05)
    node, client = start_node()
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    pub = client.node.create_publisher(OccupancyGrid, "map", latched)
    pub.publish(occupancy_grid_to_msg(occ.grid, occ.resolution, occ.origin, T0))
    deadline = time.monotonic() + 10
    recs = []
    while time.monotonic() < deadline and not recs:
        client.spin(0.1)
        recs = client.query(store="map").records
    assert recs, "map not ingested"
    info = json.loads(recs[0].json)
    assert (info["width"], info["height"], info["resolution"]) == (500, 500, pytest.approx(0.05))
    assert (info["origin_x"], info["origin_y"]) == (-12.5, -12.5)
    assert info["occupied_cells"] == int(np.count_nonzero(occ.grid == 100))
    assert info["known_cells"] == int(np.count_nonzero(occ.grid >= 0))
    # a malformed map (cell count does not match its size) is rejected; the good one stays
    bad = occupancy_grid_to_msg(occ.grid[:10, :10], occ.resolution, occ.origin, T0 + 1)
    bad.info.width = 11
    pub.publish(bad)
    client.spin(1.0)
    assert node.alive() and json.loads(client.query(store="map").records[0].json)["width"] == 500


def test_pose_is_attached_and_nan_pose_rejected_and_markers_published(start_node):
    node, client = start_node()
    client.pub_graph.publish(graph(T0, [entity("mug_1", "mug", x=1.5), entity("table_1", "table", x=1.0)],
                                   [("mug_1", "on", "table_1")], complete=True))
    client.published["scene_graphs"] += 1
    client.sync()
    pose_pub = client.node.create_publisher(PoseStamped, "robot_pose", qos_profile_sensor_data)
    while pose_pub.get_subscription_count() == 0:
        client.spin(0.05)
    bad = PoseStamped()
    bad.pose.position.x = math.nan
    pose_pub.publish(bad)

    markers = []
    client.node.create_subscription(MarkerArray, "memory_node/markers", markers.append, 1)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not markers:
        client.spin(0.1)
    assert markers, "no MarkerArray on ~/markers"
    arr = markers[-1]
    assert arr.markers[0].action == Marker.DELETEALL
    labels = {m.text for m in arr.markers if m.type == Marker.TEXT_VIEW_FACING}
    assert {"mug_1", "table_1"} <= labels
    mug = next(m for m in arr.markers if m.type == Marker.SPHERE and m.id == next(
        t.id for t in arr.markers if t.text == "mug_1"))
    assert mug.pose.position.x == pytest.approx(1.5) and mug.header.frame_id == "map"
    # what config/memory_node.rviz shows: the room's area and name, and the mug-on-table line
    assert {"rooms", "room_labels", "entity", "label", "relations"} <= {m.ns for m in arr.markers}
    (lines,) = [m for m in arr.markers if m.ns == "relations"]
    assert [p.x for p in lines.points] == [pytest.approx(1.5), pytest.approx(1.0)]
    assert node.alive()
