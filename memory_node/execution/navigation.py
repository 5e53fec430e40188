"""Driving a velocity-only base to a pose goal: a proportional controller closed over a pose source.

Neither dexcontrol nor the Unitree loco client takes a pose goal (velocity only), so ``navigate_to`` is
this loop: read the robot's pose (the SLAM pose topic, wheel odometry, the G1's sport-state odometry),
command a body-frame velocity toward the plan's approach pose, clipped to the configured speed limits,
until within tolerance. It stops the base and fails when the pose goes stale (a controller driving on an
old pose drives blind), when it runs past the step's timeout, and on cancel or e-stop.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from memory_node.execution.backend import (BAD_ARGUMENTS, NO_POSE, NO_SERVER, NOT_REACHED, SUCCEEDED, StepAborted,
                                          StepContext, StepOutcome, StepRequest, finite_pose, not_offered)

# (x, y, yaw in the map frame, time.monotonic() when the pose was measured)
PoseReading = tuple[float, float, float, float]
PoseSource = Callable[[], PoseReading | None]
VelocitySink = Callable[[float, float, float], None]  # body frame: vx, vy (m/s), wz (rad/s)


@dataclass(frozen=True)
class NavigationLimits:
    max_linear: float = 0.4  # m/s, norm of (vx, vy)
    max_lateral: float = 0.3  # m/s, |vy| (a walking humanoid strafes slower than it walks)
    max_angular: float = 0.8  # rad/s
    position_tolerance: float = 0.08  # m
    yaw_tolerance: float = 0.10  # rad
    pose_stale_s: float = 0.5  # a pose older than this stops the base
    # how long a step waits, the base held still, for the first pose: after start-up a pose topic's first
    # message, or a robot still joining the network, takes longer than a stale period (measured: 0.5-2 s for
    # the G1's odometry on a loaded machine); once poses flow, ``pose_stale_s`` rules
    first_pose_s: float = 5.0
    rate_hz: float = 20.0
    gain_linear: float = 1.2  # 1/s
    gain_angular: float = 1.5  # 1/s


@dataclass(frozen=True)
class NavigationResult:
    position_error: float  # m, at the end
    yaw_error: float  # rad, at the end (absolute)
    seconds: float
    commands: int


def wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


def velocity_toward(pose: tuple[float, float, float], goal: tuple[float, float, float],
                    limits: NavigationLimits) -> tuple[float, float, float]:
    """Body-frame (vx, vy, wz) toward ``goal`` from ``pose``: proportional, clipped to the limits. Far from
    the goal it turns toward the travel direction less than toward the goal's yaw would: the base is
    holonomic enough (Vega's steered wheels, G1's strafing) to translate and rotate at once."""
    x, y, yaw = pose
    dx, dy = goal[0] - x, goal[1] - y
    ex = math.cos(yaw) * dx + math.sin(yaw) * dy
    ey = -math.sin(yaw) * dx + math.cos(yaw) * dy
    vx, vy = limits.gain_linear * ex, limits.gain_linear * ey
    vy = max(-limits.max_lateral, min(limits.max_lateral, vy))
    norm = math.hypot(vx, vy)
    if norm > limits.max_linear:
        vx, vy = vx * limits.max_linear / norm, vy * limits.max_linear / norm
    wz = limits.gain_angular * wrap(goal[2] - yaw)
    wz = max(-limits.max_angular, min(limits.max_angular, wz))
    return vx, vy, wz


def drive_to(goal: tuple[float, float, float], read_pose: PoseSource, command: VelocitySink,
             limits: NavigationLimits, ctx: StepContext) -> NavigationResult:
    """Run the loop until the pose is within tolerance of ``goal``; the base is left stopped whatever
    happens (an exception included). Raises StepAborted (no_pose, timeout, cancelled, estop)."""
    start = time.monotonic()
    period = 1.0 / limits.rate_hz
    commands = 0
    try:
        while True:
            ctx.check()
            reading = read_pose()
            now = time.monotonic()
            if reading is None:
                # none yet: a pose topic's first message may still be on its way (``first_pose_s``)
                waited = max(limits.first_pose_s, limits.pose_stale_s)
                if now - start > waited:
                    raise StepAborted(NO_POSE, f"no robot pose within {waited:.1f} s: cannot drive")
                command(0.0, 0.0, 0.0)
                ctx.wait(period)
                continue
            x, y, yaw, measured = reading
            if now - measured > limits.pose_stale_s:
                raise StepAborted(NO_POSE, f"the robot pose is {now - measured:.1f} s old (limit "
                                           f"{limits.pose_stale_s:.1f} s): stopped")
            dist = math.hypot(goal[0] - x, goal[1] - y)
            yaw_err = abs(wrap(goal[2] - yaw))
            if dist <= limits.position_tolerance and yaw_err <= limits.yaw_tolerance:
                return NavigationResult(dist, yaw_err, time.monotonic() - start, commands)
            command(*velocity_toward((x, y, yaw), goal, limits))
            commands += 1
            ctx.wait(period)
    finally:
        command(0.0, 0.0, 0.0)


def navigate_step(step: StepRequest, ctx: StepContext, backend: str, read_pose: PoseSource | None,
                  command: VelocitySink, limits: NavigationLimits, *, moves: str, no_source: str,
                  before_moving: Callable[[str], StepOutcome | None] | None = None) -> StepOutcome:
    """``navigate_to`` on a velocity-only base (``moves``: "drives", "walks"): refused without a pose source
    (``no_source`` says so) or a finite approach pose, or by ``before_moving`` (the robot not ready), else
    driven there by ``drive_to``."""
    target = step.args[0] if step.args else ""
    if read_pose is None:
        return not_offered(step, backend, no_source)
    if not finite_pose(step.approach):
        return StepOutcome(False, BAD_ARGUMENTS, f"the plan has no approach pose for {target} (memory knew no "
                                                 f"clear spot): this backend {moves} only to poses", target)
    refused = before_moving(target) if before_moving is not None else None
    if refused is not None:
        return refused
    assert step.approach is not None
    result = drive_to(step.approach, read_pose, command, limits, ctx)
    return StepOutcome(True, SUCCEEDED, f"at the approach pose for {target} ({result.position_error:.3f} m, "
                                        f"{math.degrees(result.yaw_error):.1f} deg off) after "
                                        f"{result.seconds:.1f} s", target)


# ---- a navigation stack that takes the pose goal itself ----------------------------------------------------

@dataclass(frozen=True)
class GoalState:
    """What the robot's navigation stack last said about the goal: ``done`` once it ended, ``success`` when
    it ended at the goal, ``text`` its words."""

    done: bool
    success: bool
    text: str


class GoalNavigator(Protocol):
    """A robot's own navigation stack (Dexmate's on a Vega): it takes a pose goal and says when it ends.
    ``send`` returns a token; ``state(token)`` is None until the stack has said anything about that goal."""

    name: str

    def ready(self) -> bool:
        """The stack listens for goals (one sent before that would be lost)."""
        ...

    def send(self, goal: tuple[float, float, float]) -> int: ...

    def state(self, token: int) -> GoalState | None: ...

    def cancel(self) -> None: ...


def navigate_by_goal(step: StepRequest, ctx: StepContext, backend: str, stack: GoalNavigator,
                     read_pose: PoseSource | None, answer_wait_s: float, period_s: float = 0.05) -> StepOutcome:
    """``navigate_to`` handed to the navigation stack: send the approach pose, wait for its verdict within the
    step's timeout; cancel the goal on timeout, cancel and e-stop. Where a pose source is configured the
    final pose error is said beside the stack's verdict (the stack's own tolerance decides)."""
    target = step.args[0] if step.args else ""
    if not finite_pose(step.approach):
        return StepOutcome(False, BAD_ARGUMENTS, f"the plan has no approach pose for {target} (memory knew no "
                                                 "clear spot): the navigation stack takes pose goals only", target)
    assert step.approach is not None
    start = time.monotonic()
    while not stack.ready():
        if time.monotonic() - start > answer_wait_s:
            return StepOutcome(False, NO_SERVER, f"nothing listens for goals ({stack.name}) after "
                                                 f"{answer_wait_s:.1f} s: is the navigation stack running, under "
                                                 "these topic names?", target)
        ctx.wait(period_s)
    start = time.monotonic()
    token = stack.send(step.approach)
    try:
        while True:
            ctx.wait(period_s)
            state = stack.state(token)
            if state is None:
                if time.monotonic() - start > answer_wait_s:
                    stack.cancel()
                    return StepOutcome(False, NO_SERVER, f"the navigation stack ({stack.name}) said nothing about the "
                                                         f"goal within {answer_wait_s:.1f} s: are its topic names "
                                                         "this executor's?", target)
                continue
            if state.done:
                break
    except StepAborted:
        stack.cancel()
        raise
    seconds = time.monotonic() - start
    said = f"the navigation stack ({stack.name}) says {state.text!r} after {seconds:.1f} s"
    reading = read_pose() if read_pose is not None else None
    if reading is not None:
        gx, gy, gyaw = step.approach
        said += (f"; the pose source has the base {math.hypot(gx - reading[0], gy - reading[1]):.3f} m, "
                 f"{math.degrees(abs(wrap(gyaw - reading[2]))):.1f} deg off the goal")
    if state.success:
        return StepOutcome(True, SUCCEEDED, f"at the approach pose for {target}: {said}", target)
    return StepOutcome(False, NOT_REACHED, f"did not reach the approach pose for {target}: {said}", target)
