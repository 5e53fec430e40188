"""The Dexmate Vega through ``dexcontrol`` (AGPL-3.0-only or Dexmate commercial: an optional install,
``requirements-vega.txt``, imported only here and only by the plan executor's process, never by the memory
node).

What dexcontrol offers and what this backend does with it (docs/execution.md has the table):
- the base takes velocities only (``chassis.set_velocity``): ``navigate`` drives to the plan's approach pose
  with ``navigation.drive_to`` on a pose source — the robot's SLAM pose, or ``WheelOdometry`` from the
  chassis' own wheel speeds and steering angles; or, on a Vega running Dexmate's navigation stack, hands
  the pose goal to that stack (``nav_stack``, ``navigation.navigate_by_goal``);
- arms, head, torso move in joint space: a skill can be mapped (``joint_skills``) to a joint target — a
  predefined pose name or joint values — sent as planned motion (``move_to_joint_pos``, limits checked by
  the SDK) or as one setpoint (``set_joint_pos``, the SDK's 0.3 rad step guard applies);
- hands/grippers open and close (``open_hand``/``close_hand``): ``handover`` moves the arm to a named pose
  and opens its hand;
- the head moves in joint space too: ``look_at`` turns it so the head camera's optical axis passes through the
  target's position (pan and tilt solved on the robot's URDF from ``dexmate-urdf``, ``execution/head.py``,
  within the SDK's joint limits; a target out of the head's range is refused without moving);
- Cartesian grasping (pick, place, open/close a container) is in Dexmate's separate ``dexmotion``, not in
  dexcontrol: those skills are refused with ``not_offered``;
- ``estop.activate()``/``deactivate()`` is the e-stop; with it engaged the SDK refuses every write.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_node.execution.backend import (
    BAD_ARGUMENTS,
    ESTOP,
    NO_POSE,
    NOT_REACHED,
    SDK_ERROR,
    SUCCEEDED,
    StepContext,
    StepOutcome,
    StepRequest,
    not_offered,
    sdk_words,
)
from memory_node.execution.head import HeadKinematics, map_to_base
from memory_node.execution.navigation import (GoalNavigator, NavigationLimits, PoseReading, PoseSource,
                                              navigate_by_goal, navigate_step)

GRASPING = "Cartesian grasping is in Dexmate's dexmotion, not in dexcontrol (joint space only)"


@dataclass(frozen=True)
class JointSkill:
    """A skill done by moving one component to a joint target: ``pose`` is a predefined pose name of the
    component or a list of joint values; ``mode`` planned (move_to_joint_pos) or setpoint (set_joint_pos,
    step-guarded); ``hand`` optionally opened or closed afterwards (``hand_action``)."""

    component: str
    pose: str | list[float]
    mode: str = "planned"
    hand: str = ""
    hand_action: str = ""  # open | close

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> JointSkill:
        mode = str(raw.get("mode", "planned"))
        if mode not in ("planned", "setpoint"):
            raise ValueError(f"joint skill mode must be planned or setpoint, not {mode!r}")
        action = str(raw.get("hand_action", ""))
        if action not in ("", "open", "close"):
            raise ValueError(f"hand_action must be open or close, not {action!r}")
        pose = raw["pose"]
        return cls(component=str(raw["component"]), pose=pose if isinstance(pose, str) else [float(v) for v in pose],
                   mode=mode, hand=str(raw.get("hand", "")), hand_action=action)


@dataclass
class VegaConfig:
    limits: NavigationLimits = field(default_factory=lambda: NavigationLimits(max_linear=0.5, max_lateral=0.3))
    # skill name or role -> joint skill; the default handover: right arm to "L_shape", right hand opened
    joint_skills: dict[str, JointSkill] = field(default_factory=lambda: {
        "handover": JointSkill("right_arm", "L_shape", hand="right_hand", hand_action="open")})
    look_skill: str = "look_at"  # '' = not offered
    # height of the URDF's base frame above the map's floor (z = 0), m: the target's z is relative to it
    base_height: float = 0.0
    look_tolerance: float = 0.03  # rad: how far off the optical axis a target may stay (at the head's limits)
    nav_answer_wait_s: float = 5.0  # navigation stack: how long it may stay silent about a goal


def vega_urdf(profile: str) -> Path:
    """The URDF of a dexcontrol profile from ``dexmate-urdf`` (same joint names): ``<profile>.urdf`` where
    the package ships one, else the base Vega's."""
    from dexmate_urdf import robots

    folder = Path(str(robots.humanoid.vega_1.vega_1.urdf)).parent
    named = folder / f"{profile}.urdf"
    return named if profile and named.is_file() else folder / "vega_1.urdf"


def head_kinematics(profile: str) -> HeadKinematics | None:
    """The head camera chain of this Vega, or None where dexmate-urdf is not installed (look_at is then
    not offered)."""
    try:
        return HeadKinematics.from_urdf(vega_urdf(profile))
    except ImportError:
        return None


class WheelOdometry:
    """The base pose integrated from the chassis' wheel speeds and steering angles (dexcontrol reports
    both; the loopback simulation reports the commanded ones). Two steered wheels at (d, +w/2) and
    (d, -w/2) in the base frame, ``d`` and ``w`` from the robot's configuration
    (``center_to_wheel_axis_dist``, ``wheels_dist``); wheel i moves at s_i (cos a_i, -sin a_i) (dexcontrol's
    sign convention, checked against its inverse kinematics). Integrated on every read, with the wheel state
    in force since the previous read: call it before each new command (``drive_to`` does)."""

    def __init__(self, chassis: Any, axis_offset: float, track: float, start: tuple[float, float, float] = (0, 0, 0)):
        self.chassis = chassis
        self.d = float(axis_offset)
        self.half = float(track) / 2.0
        self.x, self.y, self.yaw = start
        self._last = time.monotonic()
        self._lock = threading.Lock()

    def twist(self) -> tuple[float, float, float]:
        speed = [float(v) for v in self.chassis.wheel_velocity]
        steer = [float(a) for a in self.chassis.steering_angle]
        (ul_x, ul_y), (ur_x, ur_y) = [(s * math.cos(a), -s * math.sin(a)) for s, a in zip(speed[:2], steer[:2])]
        wz = (ur_x - ul_x) / (2.0 * self.half)
        vx = (ul_x + ur_x) / 2.0
        vy = (ul_y + ur_y) / 2.0 - wz * self.d
        return vx, vy, wz

    def __call__(self) -> PoseReading:
        with self._lock:
            now = time.monotonic()
            dt, self._last = now - self._last, now
            vx, vy, wz = self.twist()
            mid = self.yaw + wz * dt / 2.0
            self.x += (vx * math.cos(mid) - vy * math.sin(mid)) * dt
            self.y += (vx * math.sin(mid) + vy * math.cos(mid)) * dt
            self.yaw = math.atan2(math.sin(self.yaw + wz * dt), math.cos(self.yaw + wz * dt))
            return self.x, self.y, self.yaw, now


def wheel_odometry(robot: Any, start: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> WheelOdometry:
    import dexcontrol

    meta = dexcontrol.robot_config(robot.robot_name)["components"]["chassis"]["metadata"]
    return WheelOdometry(robot.chassis, meta["center_to_wheel_axis_dist"], meta["wheels_dist"], start)


def connect(profile: str = "", simulation: bool = False) -> Any:
    """A dexcontrol Robot (``simulation``: the SDK's in-process loopback, no network)."""
    from dexcontrol import Robot

    return Robot(profile or None, simulation=simulation)


class VegaBackend:
    name = "dexcontrol"
    robot = "vega"

    def __init__(self, dex_robot: Any, pose_source: PoseSource | None = None, config: VegaConfig | None = None,
                 head: HeadKinematics | None = None, nav_stack: GoalNavigator | None = None) -> None:
        self.dex = dex_robot
        self.pose_source = pose_source
        self.nav_stack = nav_stack  # Dexmate's navigation stack takes navigate_to's goal instead of the controller
        self.config = config or VegaConfig()
        self.head = head if head is not None else head_kinematics(getattr(dex_robot, "robot_name", "") or "")

    def capabilities(self) -> dict[str, str]:
        nav = ("drive to the approach pose: velocity commands closed over the pose source"
               if self.pose_source is not None else "not offered: no pose source configured")
        if self.nav_stack is not None:
            nav = f"the approach pose as a goal to the robot's navigation stack ({self.nav_stack.name})"
        caps = {"navigate": nav, "pick": f"not offered: {GRASPING}", "place": f"not offered: {GRASPING}",
                "open": f"not offered: {GRASPING}", "close": f"not offered: {GRASPING}",
                "pour": f"not offered: {GRASPING}"}
        if self.config.look_skill:
            caps[self.config.look_skill] = (
                "head pan/tilt onto the target's position (URDF kinematics, SDK joint limits)"
                if self.head is not None and self.pose_source is not None and self.dex.has_component("head")
                else "not offered: needs the head, dexmate-urdf and a pose source")
        for name, js in self.config.joint_skills.items():
            caps[name] = f"{js.component} to {js.pose} ({js.mode})" + (
                f", then {js.hand_action} {js.hand}" if js.hand else "")
        return caps

    # ---- steps -----------------------------------------------------------------------------------------

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        try:
            return self._dispatch(step, ctx)
        except Exception as err:  # noqa: BLE001 - the SDK's refusals are the step's outcome
            if type(err).__name__ == "EStopActiveError":
                return StepOutcome(False, ESTOP, sdk_words(str(err)), step.args[0] if step.args else "")
            if isinstance(err, ValueError):  # dexcontrol's joint limits and step guard
                return StepOutcome(False, SDK_ERROR, sdk_words(str(err)), step.args[0] if step.args else "")
            raise

    def _dispatch(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        joint = self.config.joint_skills.get(step.skill) or self.config.joint_skills.get(step.role)
        if joint is not None:
            return self._joint_skill(step, joint, ctx)
        if step.role == "navigate" or step.skill == "navigate_to":
            return self._navigate(step, ctx)
        if self.config.look_skill and step.skill == self.config.look_skill:
            return self._look_at(step, ctx)
        if step.role in ("pick", "place", "open", "close", "pour"):
            return not_offered(step, self.name, GRASPING)
        return not_offered(step, self.name, f"no mapping for skill {step.skill!r} (role {step.role or 'unknown'})"
                           f"; the Vega here offers {', '.join(sorted(self._offered()))}")

    def _offered(self) -> list[str]:
        return [k for k, v in self.capabilities().items() if not v.startswith("not offered")]

    def _navigate(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        if self.nav_stack is not None:
            return navigate_by_goal(step, ctx, self.name, self.nav_stack, self.pose_source,
                                    self.config.nav_answer_wait_s)
        return navigate_step(step, ctx, self.name, self.pose_source, self._velocity, self.config.limits,
                             moves="drives", no_source="dexcontrol drives by velocity only and no pose source is "
                                                       "configured (pose_source: topic or wheel_odometry)")

    def _look_at(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        target = step.args[0] if step.args else ""
        if not self.dex.has_component("head"):
            return not_offered(step, self.name, f"this Vega ({self.dex.robot_name}) has no head")
        if self.head is None:
            return not_offered(step, self.name, "no head kinematics: dexmate-urdf is not installed")
        if self.pose_source is None:
            return not_offered(step, self.name, "no pose source: the target's map position cannot be put in the "
                                                "robot's frame")
        point = step.arg_positions[0] if step.arg_positions else None
        if point is None or not all(math.isfinite(v) for v in point):
            return StepOutcome(False, BAD_ARGUMENTS, f"memory has no position for {target}: nothing to look at",
                               target)
        reading = self.pose_source()
        if reading is None or time.monotonic() - reading[3] > self.config.limits.pose_stale_s:
            return StepOutcome(False, NO_POSE, "no fresh robot pose: cannot aim the head", target)
        head = self.dex.joints("head")
        q = dict(zip(head.joint_name, (float(v) for v in head.get_joint_pos())))
        if self.dex.has_component("torso"):  # the head rides on the torso: its joints move the camera
            torso = self.dex.joints("torso")
            q.update(zip(torso.joint_name, (float(v) for v in torso.get_joint_pos())))
        limits = {n: (float(lo), float(hi)) for n, (lo, hi) in zip(head.joint_name, head.joint_pos_limit)}
        aim = self.head.aim(map_to_base(point, reading[:3], self.config.base_height), q, limits)
        if aim.off_axis > self.config.look_tolerance:
            return StepOutcome(False, NOT_REACHED, f"{target} is out of the head's range: at its joint limits the "
                                                   f"camera would still be {math.degrees(aim.off_axis):.0f} deg off "
                                                   "(the head was not moved; turn the base first)", target)
        joints = [aim.pan if n == "head_j2" else aim.tilt if n == "head_j3" else q[n] for n in head.joint_name]
        ctx.check()
        status = head.move_to_joint_pos(joints, wait=False).wait_success(timeout=max(0.1, ctx.remaining()))
        if not status.succeeded:
            return StepOutcome(False, SDK_ERROR, f"the head did not reach the aim at {target}: "
                                                 f"{sdk_words(status.message or status.state)}", target)
        ctx.check()
        if not head.is_joint_pos_reached(joints, tolerance=0.02):
            return StepOutcome(False, SDK_ERROR, f"the head is not at the aim at {target} after the motion", target)
        return StepOutcome(True, SUCCEEDED, f"head on {target}: pan {math.degrees(aim.pan):.1f} deg, tilt "
                                            f"{math.degrees(aim.tilt):.1f} deg, "
                                            f"{math.degrees(aim.off_axis):.2f} deg off the camera axis", target)

    def _velocity(self, vx: float, vy: float, wz: float) -> None:
        if vx == vy == wz == 0.0:
            self._stop_base()
            return
        self.dex.chassis.set_velocity(vx, vy, wz)

    def _stop_base(self) -> None:
        try:
            self.dex.chassis.stop()
        except Exception:  # noqa: BLE001 - under e-stop the SDK refuses writes; the base is stopped by it
            pass

    def _joint_skill(self, step: StepRequest, js: JointSkill, ctx: StepContext) -> StepOutcome:
        target = step.args[0] if step.args else ""
        if not self.dex.has_component(js.component):
            return not_offered(step, self.name, f"this Vega ({self.dex.robot_name}) has no {js.component}")
        if js.hand and not self.dex.has_component(js.hand):
            return not_offered(step, self.name, f"this Vega ({self.dex.robot_name}) has no {js.hand} "
                                                "(a profile with hands or grippers is needed)")
        part = self.dex.joints(js.component)
        joints = part.resolve_pose(js.pose) if isinstance(js.pose, str) else js.pose
        ctx.check()
        if js.mode == "setpoint":
            part.set_joint_pos(joints, wait=True, timeout=max(0.1, ctx.remaining()))
        else:
            handle = part.move_to_joint_pos(joints, wait=False)
            status = handle.wait_success(timeout=max(0.1, ctx.remaining()))
            if not status.succeeded:
                return StepOutcome(False, SDK_ERROR, f"{js.component} did not reach {js.pose}: "
                                                     f"{sdk_words(status.message or status.state)}", target)
        ctx.check()
        if not part.is_joint_pos_reached(joints, tolerance=0.05):
            return StepOutcome(False, SDK_ERROR, f"{js.component} is not at {js.pose} after the motion", target)
        said = f"{js.component} at {js.pose if isinstance(js.pose, str) else 'the joint target'}"
        if js.hand:
            hand = self.dex.joints(js.hand)
            (hand.open_hand if js.hand_action == "open" else hand.close_hand)()
            said += f", {js.hand} {'opened' if js.hand_action == 'open' else 'closed'}"
        return StepOutcome(True, SUCCEEDED, said, target)

    # ---- safety ----------------------------------------------------------------------------------------

    def halt(self) -> None:
        if self.nav_stack is not None:
            self.nav_stack.cancel()
        self._stop_base()
        for name in ("left_arm", "right_arm", "head", "torso"):
            if self.dex.has_component(name):
                try:
                    self.dex.joints(name).stop()
                except Exception:  # noqa: BLE001 - refused under e-stop, which already stopped it
                    pass

    def set_estop(self, engaged: bool) -> None:
        if engaged:
            self.dex.estop.activate()
        else:
            self.dex.estop.deactivate()

    def estop_engaged(self) -> bool:
        return bool(self.dex.estop.get_status().get("engaged"))

    def close(self) -> None:
        self.dex.shutdown()


__all__ = ["JointSkill", "VegaBackend", "VegaConfig", "WheelOdometry", "connect", "head_kinematics", "vega_urdf",
           "wheel_odometry"]
