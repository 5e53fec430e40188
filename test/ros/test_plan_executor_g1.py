"""The plan executor node with the G1 backend: rclpy (Fast DDS, ROS_DOMAIN_ID) and the Unitree SDK
(CycloneDDS on lo, its own domain) in one process, a plan in on ~/plans, each step's feedback out on
skill_feedback, against the stand-in G1 of test/execution/g1_fake_robot.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("g1_sdk")


FAKE = Path(__file__).parents[1] / "execution" / "g1_fake_robot.py"
DOMAIN = (int(os.environ.get("ROS_DOMAIN_ID", "0") or 0) + 101) % 230  # apart from ROS's and the unit tests'


def test_a_g1_plan_over_ros_walks_gestures_and_refuses_pick(ros, tmp_path):
    import rclpy
    from std_msgs.msg import String

    from memory_node.core.models import Plan, Point, Pose, SkillCall
    from memory_node.msg import Plan as PlanMsg
    from memory_node.msg import SkillFeedback
    from memory_node.ros import conversions as conv
    from memory_node.ros.process import PlanExecutorProcess

    ns = f"g{uuid.uuid4().hex[:8]}"
    fake = subprocess.Popen([sys.executable, str(FAKE), str(DOMAIN), "lo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # the stand-in robot says when its services and odometry run (on a loaded machine its imports take
    # seconds); its lines are read on, so its pipe never fills
    ready = threading.Event()
    threading.Thread(target=lambda: [ready.set() for line in fake.stdout if '"ready"' in line], daemon=True).start()
    assert ready.wait(120), "the stand-in G1 did not start"
    log = open(tmp_path / "executor.log", "w")
    executor = PlanExecutorProcess("g1", log=log, namespace=ns, memory_node=f"/{ns}/memory_node",
                                   pose_source="sport_odometry",
                                   **{"unitree.domain": DOMAIN, "unitree.interface": "lo",
                                      "unitree.gestures": "['wave=high wave']"})
    node = rclpy.create_node(f"probe_{ns}")
    try:
        feedback, results = [], []
        node.create_subscription(SkillFeedback, f"/{ns}/skill_feedback", feedback.append, 10)
        node.create_subscription(String, f"/{ns}/plan_executor/results", lambda m: results.append(json.loads(m.data)),
                                 10)
        pub = node.create_publisher(PlanMsg, f"/{ns}/memory_node/plans", 10)
        deadline = time.monotonic() + 60
        while pub.get_subscription_count() == 0 or node.count_publishers(f"/{ns}/skill_feedback") == 0:
            assert executor.alive(), (tmp_path / "executor.log").read_text()
            assert time.monotonic() < deadline, "the plan executor did not come up"
            rclpy.spin_once(node, timeout_sec=0.1)
        plan = Plan(robot="g1", instruction="wave at me from the table", steps=[
            SkillCall(skill="walk_to", args=["table_1"], approach=Pose(position=Point(x=0.8, y=0.3, z=0.0), yaw=0.5)),
            SkillCall(skill="wave", args=["user"]), SkillCall(skill="pick", args=["cup_1"])])
        pub.publish(conv.plan_to_msg(plan, time.time_ns()))
        while not results or len(feedback) < 3:
            assert time.monotonic() < deadline + 60, (tmp_path / "executor.log").read_text()
            rclpy.spin_once(node, timeout_sec=0.1)
        assert [(f.skill, f.success, f.status) for f in feedback] == [
            ("walk_to", True, "succeeded"), ("wave", True, "succeeded"), ("pick", False, "not_offered")]
        assert all(f.robot == "g1" and results[0]["plan_id"] in f.message for f in feedback)
        assert results[0]["status"] == "failed" and results[0]["steps_succeeded"] == 2
    finally:
        node.destroy_node()
        executor.stop()
        log.close()
        fake.kill()
        fake.wait()
