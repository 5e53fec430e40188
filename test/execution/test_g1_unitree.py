"""The G1 backend: the real unitree_sdk2py clients (LocoClient, G1ArmActionClient, the SDK's channel for
odometry) over CycloneDDS bound to the loopback interface, against a stand-in robot process
(g1_fake_robot.py: the SDK's own RPC ``Server`` serving "sport" and "arm", and ``rt/odommodestate``)."""

from __future__ import annotations

import json
import math
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memory_node.core.models import Plan, Point, Pose, SkillCall
from memory_node.execution import g1
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.navigation import wrap
from memory_node.planning.skills import SkillLibrary

pytestmark = pytest.mark.usefixtures("g1_sdk")

LIBRARY = SkillLibrary.for_robot("g1")
# The Unitree DDS domain, apart from this run's ROS_DOMAIN_ID (both stacks use rt/ topic names)
DOMAIN = (int(os.environ.get("ROS_DOMAIN_ID", "0") or 0) + 100) % 230


class FakeRobot:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("g1_fake_robot.py")),
                                      str(DOMAIN), "lo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.events: queue.Queue[dict] = queue.Queue()
        self.log: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.expect(lambda e: e.get("ready"), timeout=30)

    def _read(self) -> None:
        for line in self.proc.stdout:  # the SDK prints its own lines too: only ours are JSON
            if line.startswith("{"):
                event = json.loads(line)
                self.log.append(event)
                self.events.put(event)

    def expect(self, match, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if match(event):
                return event

    def send(self, line: str) -> dict:
        key = line.split()[0]
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.expect(lambda e: e.get("ack") == key)

    def calls(self, api: str) -> list[dict]:
        return [e for e in list(self.log) if e.get("api") == api]

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def robot():
    fake = FakeRobot()
    g1.initialise_dds(DOMAIN, "lo")
    loco, arm = g1.connect()
    assert g1.wait_for_services(loco, timeout=30), "the fake sport service never answered"
    odometry = g1.SportOdometry()
    yield fake, loco, arm, odometry
    odometry.close()
    fake.close()


@pytest.fixture
def fresh(robot):
    fake, loco, arm, odometry = robot
    fake.send("pose 0 0 0")
    fake.send("fsm 200")
    fake.send("arm_error 0")
    fake.send("odometry on")
    fake.send("hang_velocity off")
    deadline = time.monotonic() + 5
    while (odometry() is None or abs(odometry()[0]) > 1e-3) and time.monotonic() < deadline:
        time.sleep(0.02)
    fake.log.clear()
    return robot


def walk(target, x, y, yaw):
    return SkillCall(skill="walk_to", args=[target], approach=Pose(position=Point(x=x, y=y, z=0.0), yaw=yaw))


def make(robot, gestures=None, timeouts=None):
    fake, loco, arm, odometry = robot
    backend = g1.G1Backend(loco, arm, odometry, g1.G1Config(gestures=gestures or {}))
    feedback = []
    return PlanExecutor(backend, feedback.append, step_timeout_s=10, timeouts=timeouts or {"navigate": 60},
                        library=LIBRARY), feedback


def test_walk_closes_the_loop_on_sport_odometry_then_a_gesture_then_pick_is_refused(fresh):
    fake, loco, arm, odometry = fresh
    ex, feedback = make(fresh, gestures={"wave": "high wave"})
    goal = (0.9, 0.4, 0.7)
    plan = Plan(robot="g1", instruction="x", steps=[walk("table_1", *goal), SkillCall(skill="wave", args=["user"]),
                                                    SkillCall(skill="pick", args=["cup_1"]),
                                                    SkillCall(skill="place", args=["cup_1", "table_1"])])
    run = ex.execute(plan, "p-g1")
    x, y, yaw, _ = odometry()
    error = math.hypot(goal[0] - x, goal[1] - y)
    print(f"\ng1 walk (fake sport service over CycloneDDS on lo): final error {error:.3f} m, "
          f"{math.degrees(abs(wrap(goal[2] - yaw))):.1f} deg, {run.steps[0].seconds:.2f} s, "
          f"{len(fake.calls('SetVelocity'))} SetVelocity calls")
    assert [s.outcome.status for s in run.steps] == ["succeeded", "succeeded", "not_offered"]
    assert error <= 0.15 and abs(wrap(goal[2] - yaw)) <= 0.2
    velocities = fake.calls("SetVelocity")
    assert all(math.hypot(*v["velocity"][:2]) <= 0.3 + 1e-6 and abs(v["velocity"][2]) <= 0.6 + 1e-6
               for v in velocities)
    assert velocities[-1]["velocity"] == [0.0, 0.0, 0.0] and velocities[0]["duration"] == pytest.approx(0.6)
    assert fake.calls("ExecuteAction") == [{"api": "ExecuteAction", "action": 26, "code": 0}]
    assert "gestures only" in feedback[2].message and len(feedback) == 3


def test_an_sdk_error_code_and_a_non_walking_robot_are_failures(fresh):
    fake, loco, arm, odometry = fresh
    ex, feedback = make(fresh, gestures={"wave": "high wave", "salute": 77})
    fake.send("arm_error 7400")
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[SkillCall(skill="wave", args=["user"])]), "p1")
    assert run.steps[0].outcome.status == "sdk_error" and "code 7400" in run.steps[0].outcome.message
    fake.send("arm_error 0")
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[SkillCall(skill="salute", args=["user"])]), "p2")
    assert run.steps[0].outcome.status == "sdk_error" and "(77)" in run.steps[0].outcome.message
    fake.send("fsm 1")  # damping: not walking
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[walk("table_1", 1.0, 0.0, 0.0)]), "p3")
    assert run.steps[0].outcome.status == "sdk_error" and "FSM 1" in run.steps[0].outcome.message
    assert fake.calls("SetVelocity") == []  # never commanded
    assert [f.success for f in feedback] == [False, False, False]


def test_lost_odometry_stops_the_walk(fresh):
    fake, loco, arm, odometry = fresh
    ex, feedback = make(fresh)
    threading.Timer(0.8, fake.send, ("odometry off",)).start()
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[walk("sofa_1", 20.0, 0.0, 0.0)]), "p")
    assert run.steps[0].outcome.status == "no_pose" and "old" in run.steps[0].outcome.message
    # the fake robot logs each call from its own process: wait for the stop to arrive, not for the clock
    deadline = time.monotonic() + 20.0
    while fake.calls("SetVelocity")[-1]["velocity"] != [0.0, 0.0, 0.0] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake.calls("SetVelocity")[-1]["velocity"] == [0.0, 0.0, 0.0]


def test_an_unanswered_velocity_call_fails_the_step_and_estop_refuses_the_next(fresh):
    fake, loco, arm, odometry = fresh
    ex, feedback = make(fresh)
    fake.send("hang_velocity on")
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[walk("sofa_1", 20.0, 0.0, 0.0)]), "p")
    assert run.steps[0].outcome.status == "sdk_error" and "3104" in run.steps[0].outcome.message  # client timeout
    fake.send("hang_velocity off")
    ex.engage_estop()
    assert fake.expect(lambda e: e.get("api") == "SetVelocity")["velocity"] == [0.0, 0.0, 0.0]
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[walk("sofa_1", 1.0, 0.0, 0.0)]), "p2")
    assert run.steps[0].outcome.status == "estop"
    ex.release_estop()
