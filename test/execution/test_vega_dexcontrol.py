"""The Vega backend against dexcontrol's own loopback (``Robot(simulation=True)``): the real SDK enforces
joint limits, its step guard and its e-stop; the base pose comes from the SDK's wheel state."""

from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest

from memory_node.core.models import Plan, Point, Pose, SkillCall
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.navigation import NavigationLimits, wrap
from memory_node.execution.vega import JointSkill, VegaBackend, VegaConfig, connect, wheel_odometry
from memory_node.planning.skills import SkillLibrary

pytestmark = pytest.mark.usefixtures("vega_sdk")

LIBRARY = SkillLibrary.for_robot("vega")


@pytest.fixture
def dex():
    robot = connect("vega_1_gripper", simulation=True)
    yield robot
    robot.shutdown()


def executor(backend, timeouts=None):
    feedback = []
    return PlanExecutor(backend, feedback.append, step_timeout_s=20, timeouts=timeouts or {"navigate": 60},
                        library=LIBRARY), feedback


def nav(target, x, y, yaw):
    return SkillCall(skill="navigate_to", args=[target], approach=Pose(position=Point(x=x, y=y, z=0.0), yaw=yaw))


def test_wheel_odometry_inverts_the_sdks_wheel_commands(dex):
    odom = wheel_odometry(dex)
    for cmd in [(0.3, 0.0, 0.0), (0.0, 0.2, 0.0), (0.0, 0.0, 0.5), (0.25, -0.1, 0.3)]:
        dex.chassis.set_velocity(*cmd)
        assert odom.twist() == pytest.approx(cmd, abs=1e-3)
    dex.chassis.stop()
    assert odom.twist() == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def test_navigate_closes_the_loop_on_wheel_odometry(dex):
    odom = wheel_odometry(dex)
    limits = NavigationLimits(max_linear=0.8, max_lateral=0.3, max_angular=1.0, rate_hz=25.0)
    ex, feedback = executor(VegaBackend(dex, odom, VegaConfig(limits=limits)))
    goal = (1.2, -0.5, 1.0)
    run = ex.execute(Plan(robot="vega", instruction="go", steps=[nav("table_1", *goal)]), "p-nav")
    x, y, yaw, _ = odom()
    error = math.hypot(goal[0] - x, goal[1] - y)
    print(f"\nvega navigate (dexcontrol loopback, wheel odometry): final error {error:.3f} m, "
          f"{math.degrees(abs(wrap(goal[2] - yaw))):.1f} deg, {run.steps[0].seconds:.2f} s")
    assert run.succeeded, run.reason
    assert error <= limits.position_tolerance + 0.03 and abs(wrap(goal[2] - yaw)) <= limits.yaw_tolerance + 0.03
    assert np.allclose(dex.chassis.wheel_velocity, 0.0)  # left stopped
    assert feedback[0].success and feedback[0].target_id == "table_1" and "p-nav" in feedback[0].message


def test_handover_moves_the_arm_to_the_named_pose_and_opens_the_hand_then_pick_is_refused(dex):
    ex, feedback = executor(VegaBackend(dex, wheel_odometry(dex)))
    dex.right_hand.close_hand()
    plan = Plan(robot="vega", instruction="x", steps=[SkillCall(skill="handover", args=["cup_1"]),
                                                      SkillCall(skill="pick", args=["cup_1"]),
                                                      SkillCall(skill="place", args=["cup_1", "table_1"])])
    run = ex.execute(plan, "p-hand")
    assert [s.outcome.status for s in run.steps] == ["succeeded", "not_offered"]  # place never ran
    assert np.allclose(dex.right_arm.get_joint_pos(), dex.right_arm.resolve_pose("L_shape"), atol=0.05)
    assert dex.right_hand.get_joint_pos()[0] > 0.5  # the gripper opened
    assert len(feedback) == 2 and not feedback[1].success and "dexmotion" in feedback[1].message
    assert run.status == "failed" and run.reason.startswith("step 2 pick")


def test_joint_limits_and_the_step_guard_are_the_sdks_and_are_reported(dex):
    before = dex.left_arm.get_joint_pos().copy()
    far = list(dex.left_arm.resolve_pose("L_shape"))
    config = VegaConfig(joint_skills={
        "reach_out": JointSkill("left_arm", [5.0, 0, 0, 0, 0, 0, 0]),  # beyond L_arm_j1's 3.071 rad
        "snap": JointSkill("left_arm", far, mode="setpoint"),  # one setpoint over 0.3 rad
        "nudge": JointSkill("left_arm", [0.2, 0, 0, 0, 0, 0, 0], mode="setpoint")})
    ex, feedback = executor(VegaBackend(dex, None, config))
    for skill, words in (("reach_out", "outside limits"), ("snap", "max_step")):
        run = ex.execute(Plan(robot="vega", instruction=skill, steps=[SkillCall(skill=skill, args=["x"])]), skill)
        assert run.steps[0].outcome.status == "sdk_error" and words in run.steps[0].outcome.message
        assert np.allclose(dex.left_arm.get_joint_pos(), before)
    run = ex.execute(Plan(robot="vega", instruction="nudge", steps=[SkillCall(skill="nudge", args=["x"])]), "n")
    assert run.succeeded and dex.left_arm.get_joint_pos()[0] == pytest.approx(0.2, abs=0.01)


def test_estop_aborts_a_drive_refuses_plans_until_released(dex):
    odom = wheel_odometry(dex)
    backend = VegaBackend(dex, odom)
    ex, feedback = executor(backend)
    far = Plan(robot="vega", instruction="far", steps=[nav("sofa_1", 30.0, 0.0, 0.0),
                                                       SkillCall(skill="handover", args=["cup_1"])])
    timer = threading.Timer(0.5, ex.engage_estop)
    timer.start()
    run = ex.execute(far, "p-estop")
    timer.join()
    assert [s.outcome.status for s in run.steps] == ["estop"]
    assert dex.estop.get_status()["engaged"] and np.allclose(dex.chassis.wheel_velocity, 0.0)
    assert 0.0 < odom()[0] < 29.0
    # under e-stop: nothing starts, and the SDK itself refuses writes
    run = ex.execute(Plan(robot="vega", instruction="again", steps=[SkillCall(skill="handover", args=["c"])]), "p2")
    assert run.steps[0].outcome.status == "estop" and "not started" in run.steps[0].outcome.message
    with pytest.raises(Exception, match="E-stop"):
        dex.chassis.set_velocity(0.1, 0.0, 0.0)
    # memory reads "locked" in a failure as a locked target: e-stop feedback must never say it
    assert all("locked" not in f"{f.status} {f.message}".lower() for f in feedback)
    ex.release_estop()
    assert not dex.estop.get_status()["engaged"]
    run = ex.execute(Plan(robot="vega", instruction="after", steps=[SkillCall(skill="handover", args=["c"])]), "p3")
    assert run.succeeded


def test_a_write_refused_by_the_sdks_own_estop_is_an_estop_failure_without_the_word_locked(dex):
    ex, feedback = executor(VegaBackend(dex, None))
    dex.estop.activate()  # engaged on the robot, not through the executor
    run = ex.execute(Plan(robot="vega", instruction="x", steps=[SkillCall(skill="handover", args=["cup_1"])]), "p")
    assert run.steps[0].outcome.status == "estop"
    assert "E-stop active" in feedback[0].message and "locked" not in feedback[0].message.lower()


def test_timeout_and_cancel_stop_the_base(dex):
    odom = wheel_odometry(dex)
    ex, feedback = executor(VegaBackend(dex, odom), timeouts={"navigate": 0.6})
    run = ex.execute(Plan(robot="vega", instruction="far", steps=[nav("sofa_1", 30.0, 0.0, 0.0)]), "p-timeout")
    assert run.steps[0].outcome.status == "timeout" and np.allclose(dex.chassis.wheel_velocity, 0.0)
    ex.timeouts = {"navigate": 60}
    timer = threading.Timer(0.4, ex.cancel)
    timer.start()
    started = time.monotonic()
    run = ex.execute(Plan(robot="vega", instruction="far", steps=[nav("sofa_1", 30.0, 0.0, 0.0)]), "p-cancel")
    timer.join()
    assert run.steps[0].outcome.status == "cancelled" and time.monotonic() - started < 5.0
    assert np.allclose(dex.chassis.wheel_velocity, 0.0)
    assert [f.status for f in feedback] == ["timeout", "cancelled"]


def test_plans_for_another_robot_and_missing_parts_are_refused(dex):
    ex, feedback = executor(VegaBackend(dex, None))
    run = ex.execute(Plan(robot="g1", instruction="x", steps=[SkillCall(skill="handover", args=["c"])]), "p")
    assert run.status == "refused" and "g1" in run.reason and run.steps == [] and feedback == []
    run = ex.execute(Plan(robot="vega", instruction="x", steps=[nav("table_1", 1.0, 0.0, 0.0)]), "p")
    assert run.steps[0].outcome.status == "not_offered" and "pose source" in run.steps[0].outcome.message
    handless = connect("vega_1", simulation=True)
    try:
        ex, feedback = executor(VegaBackend(handless, None))
        run = ex.execute(Plan(robot="vega", instruction="x", steps=[SkillCall(skill="handover", args=["c"])]), "p")
        assert run.steps[0].outcome.status == "not_offered" and "right_hand" in run.steps[0].outcome.message
    finally:
        handless.shutdown()


# ---- look_at: the head camera onto a point, through dexcontrol's head joints -------------------------------

def _look(target, point):
    return SkillCall(skill="look_at", args=[target], arg_positions=[None if point is None else Point(
        x=point[0], y=point[1], z=point[2])])


def _camera_ray_miss(backend, dex, point, pose):
    """How far (m) the camera's optical axis passes from ``point``, from the joint state the SDK reports."""
    from memory_node.execution.head import map_to_base

    q = dict(zip(dex.head.joint_name, dex.head.get_joint_pos()))
    q.update(zip(dex.torso.joint_name, dex.torso.get_joint_pos()))
    cam = backend.head.camera(q)
    v = map_to_base(point, pose, backend.config.base_height) - cam[:3, 3]
    along = float(cam[:3, 2] @ v)
    return float(np.linalg.norm(v - along * cam[:3, 2])), along


def test_the_head_kinematics_follow_the_urdf_axes():
    from memory_node.execution.vega import head_kinematics

    head = head_kinematics("vega_1_gripper")
    axis = lambda q: head.camera(q)[:3, 2]  # noqa: E731 - the optical axis in the base frame
    assert axis({}) == pytest.approx([1, 0, 0], abs=1e-4)  # all joints zero: the camera looks forward
    assert axis({"head_j2": math.pi / 2}) == pytest.approx([0, 1, 0], abs=1e-4)  # pan +90 deg: to the left
    assert axis({"head_j3": 0.5})[2] == pytest.approx(math.sin(0.5), abs=1e-4)  # tilt up
    assert axis({"head_j1": 0.5})[2] == pytest.approx(-math.sin(0.5), abs=1e-4)  # the neck's axis is +y: down
    assert head.camera({"torso_j2": 1.0})[:3, 3] != pytest.approx(head.camera({})[:3, 3])  # rides on the torso


@pytest.mark.parametrize("torso", [(0.0, 0.0, 0.0), (0.5, 1.0, 0.4)])
def test_look_at_points_the_head_camera_at_the_target_within_the_sdks_limits(dex, torso):
    pose = (1.0, 2.0, 0.6)
    backend = VegaBackend(dex, lambda: (*pose, time.monotonic()))
    if any(torso):
        # the torso raised part way (in the SDK's own steps): the head rides on it, and the aim must follow
        for k in range(1, 11):
            dex.torso.set_joint_pos([v * k / 10 for v in torso], wait=True, timeout=2.0)
    ex, feedback = executor(backend)
    neck = dex.head.get_joint_pos()[0]
    targets = [(2.5, 2.3, 0.9), (1.6, 3.1, 0.1), (2.0, 1.2, 1.8)]
    times = []
    for i, point in enumerate(targets):
        run = ex.execute(Plan(robot="vega", instruction="look", steps=[_look(f"thing_{i}", point)]), f"p-look{i}")
        assert run.succeeded, run.reason
        times.append(run.steps[0].seconds)
        miss, along = _camera_ray_miss(backend, dex, point, pose)
        assert miss < 0.01 and along > 0, (point, miss, along)  # on the axis, in front of the camera
        assert dex.head.get_joint_pos()[0] == pytest.approx(neck)  # the neck pitch is held
        assert "head on" in feedback[-1].message and feedback[-1].target_id == f"thing_{i}"
    print(f"\nvega look_at (dexcontrol loopback, torso {torso}): {len(targets)} targets on the camera axis, "
          f"median {sorted(times)[1] * 1000:.1f} ms a step")


def test_look_at_a_target_behind_the_robot_is_refused_without_moving_the_head(dex):
    pose = (0.0, 0.0, 0.0)
    backend = VegaBackend(dex, lambda: (*pose, time.monotonic()))
    ex, feedback = executor(backend)
    before = dex.head.get_joint_pos().copy()
    run = ex.execute(Plan(robot="vega", instruction="look", steps=[_look("door_1", (-2.0, 0.0, 1.0))]), "p-behind")
    assert [s.outcome.status for s in run.steps] == ["not_reached"]
    assert "out of the head's range" in feedback[0].message
    assert np.allclose(dex.head.get_joint_pos(), before)


def test_look_at_without_a_position_a_pose_or_under_the_sdks_estop_fails_with_the_reason(dex):
    stale = VegaBackend(dex, lambda: (0.0, 0.0, 0.0, time.monotonic() - 10.0))
    ex, feedback = executor(stale)
    assert ex.execute(Plan(robot="vega", instruction="look", steps=[_look("cup_1", None)]), "a").steps[0] \
        .outcome.status == "bad_arguments"
    assert ex.execute(Plan(robot="vega", instruction="look", steps=[_look("cup_1", (1.0, 0.0, 1.0))]), "b").steps[0] \
        .outcome.status == "no_pose"
    assert ex.execute(Plan(robot="vega", instruction="look", steps=[_look("cup_1", (1.0, 0.0, 1.0))]), "c").steps[0] \
        .outcome.status == "no_pose"
    fresh = VegaBackend(dex, lambda: (0.0, 0.0, 0.0, time.monotonic()))
    ex, feedback = executor(fresh)
    dex.estop.activate()
    try:
        out = ex.execute(Plan(robot="vega", instruction="look", steps=[_look("cup_1", (1.5, 0.5, 1.0))]), "d")
    finally:
        dex.estop.deactivate()
    assert out.steps[0].outcome.status == "estop" and "locked" not in feedback[-1].message
