"""The pose controller (execution/navigation.py) against a simulated base that integrates what it is told."""

from __future__ import annotations

import math
import threading
import time

import pytest

from memory_node.execution.backend import NO_POSE, TIMEOUT, StepAborted, StepContext
from memory_node.execution.navigation import NavigationLimits, drive_to, velocity_toward, wrap


class Base:
    """A holonomic base: integrates the last body-frame command over real time (what a robot's odometry
    would report); ``frozen`` stops its pose from updating (a dead localisation)."""

    def __init__(self, x=0.0, y=0.0, yaw=0.0):
        self.x, self.y, self.yaw = x, y, yaw
        self.cmd = (0.0, 0.0, 0.0)
        self.commands: list[tuple[float, float, float]] = []
        self.t = time.monotonic()
        self.stamp = self.t
        self.frozen = False

    def _advance(self):
        now = time.monotonic()
        dt, self.t = now - self.t, now
        vx, vy, wz = self.cmd
        self.x += (vx * math.cos(self.yaw) - vy * math.sin(self.yaw)) * dt
        self.y += (vx * math.sin(self.yaw) + vy * math.cos(self.yaw)) * dt
        self.yaw = wrap(self.yaw + wz * dt)
        if not self.frozen:
            self.stamp = now

    def read(self):
        self._advance()
        return self.x, self.y, self.yaw, self.stamp

    def command(self, vx, vy, wz):
        self._advance()
        self.cmd = (vx, vy, wz)
        self.commands.append(self.cmd)


def test_velocity_respects_every_limit_and_points_at_the_goal():
    limits = NavigationLimits(max_linear=0.4, max_lateral=0.1, max_angular=0.5)
    # goal 5 m ahead and 5 m to the left of a robot facing +y: body frame ahead = +y world
    vx, vy, wz = velocity_toward((0.0, 0.0, math.pi / 2), (-5.0, 5.0, math.pi), limits)
    assert math.hypot(vx, vy) <= 0.4 + 1e-9 and abs(vy) <= 0.1 + 1e-9 and abs(wz) <= 0.5 + 1e-9
    assert vx > 0 and vy > 0 and wz > 0  # forward, leftward, turning left toward yaw pi
    near = velocity_toward((1.0, 1.0, 0.0), (1.01, 1.0, 0.0), limits)
    assert 0 < near[0] < 0.05 and near[2] == 0.0  # slows down close to the goal


def test_drive_to_reaches_the_goal_within_tolerance_and_leaves_the_base_stopped():
    base = Base(0.0, 0.0, 0.0)
    limits = NavigationLimits(max_linear=0.8, max_angular=1.0, rate_hz=50.0)
    goal = (0.6, -0.4, -1.0)
    result = drive_to(goal, base.read, base.command, limits, StepContext(deadline=time.monotonic() + 30))
    x, y, yaw, _ = base.read()
    assert math.hypot(goal[0] - x, goal[1] - y) <= limits.position_tolerance + 0.02
    assert abs(wrap(goal[2] - yaw)) <= limits.yaw_tolerance + 0.02
    assert result.position_error <= limits.position_tolerance and result.commands > 5
    assert base.cmd == (0.0, 0.0, 0.0)


def test_a_stale_pose_stops_the_base_and_fails_the_step():
    base = Base()
    limits = NavigationLimits(pose_stale_s=0.2, rate_hz=50.0)
    threading.Timer(0.3, lambda: setattr(base, "frozen", True)).start()
    with pytest.raises(StepAborted) as err:
        drive_to((50.0, 0.0, 0.0), base.read, base.command, limits, StepContext(deadline=time.monotonic() + 30))
    assert err.value.status == NO_POSE and "old" in err.value.message
    assert base.cmd == (0.0, 0.0, 0.0) and base.x > 0.0


def test_no_pose_at_all_fails_without_moving():
    commands = []
    start = time.monotonic()
    with pytest.raises(StepAborted) as err:
        drive_to((1.0, 0.0, 0.0), lambda: None, lambda *v: commands.append(v),
                 NavigationLimits(pose_stale_s=0.2, first_pose_s=0.4), StepContext(deadline=time.monotonic() + 30))
    assert err.value.status == NO_POSE and time.monotonic() - start >= 0.4
    assert all(c == (0.0, 0.0, 0.0) for c in commands)


def test_the_first_pose_is_waited_for_longer_than_a_stale_period():
    # a pose source whose first reading comes 0.6 s after the step starts (a robot joining the network late)
    base = Base()
    started = time.monotonic()
    late = lambda: base.read() if time.monotonic() - started > 0.6 else None  # noqa: E731
    result = drive_to((0.3, 0.0, 0.0), late, base.command, NavigationLimits(pose_stale_s=0.2, first_pose_s=3.0),
                      StepContext(deadline=time.monotonic() + 30))
    assert result.position_error <= 0.08 and result.seconds >= 0.6


def test_timeout_and_abort_end_the_loop_with_the_base_stopped():
    base = Base()
    with pytest.raises(StepAborted) as err:
        drive_to((50.0, 0.0, 0.0), base.read, base.command, NavigationLimits(), StepContext(
            deadline=time.monotonic() + 0.3))
    assert err.value.status == TIMEOUT and base.cmd == (0.0, 0.0, 0.0)
    ctx = StepContext(deadline=time.monotonic() + 30)
    threading.Timer(0.2, ctx.abort, ("estop", "the e-stop was engaged")).start()
    with pytest.raises(StepAborted) as err:
        drive_to((50.0, 0.0, 0.0), base.read, base.command, NavigationLimits(), ctx)
    assert err.value.status == "estop" and base.cmd == (0.0, 0.0, 0.0)

