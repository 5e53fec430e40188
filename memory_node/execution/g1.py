"""The Unitree G1 through ``unitree_sdk2py`` (PyPI ``unitree-sdk2py-dimos`` 1.0.3, BSD-3, over ``cyclonedds``
11.0.1; ``requirements-g1.txt``), imported only here.

What the SDK offers and what this backend does with it (docs/execution.md has the table):
- ``LocoClient`` (service "sport") walks by velocity only (``SetVelocity(vx, vy, omega, duration)``): the
  navigate role drives to the plan's approach pose with ``navigation.drive_to`` over a pose source (the SLAM
  pose topic, or ``SportOdometry``: the sport service's own state on ``rt/odommodestate``). Every velocity
  is sent with a short ``duration`` so that the robot stops by itself if this process dies. Before walking
  the loco FSM is read (API 7001, which ``LocoClient`` has no method for) and a robot that is not in a
  walking mode is not commanded;
- ``G1ArmActionClient.ExecuteAction(id)`` plays preset gestures: a skill can be mapped to one
  (``gestures``); none of the plan library's manipulation skills is a gesture;
- pick, place, open, close, pour and handover are not SDK calls: refused with ``not_offered`` (a team
  provides them as its own servers).
Unitree's topics are DDS ``rt/...`` like ROS 2's: keep the Unitree DDS domain apart from ``ROS_DOMAIN_ID``
when one process runs both (the plan executor node does).
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from memory_node.execution.backend import (
    SDK_ERROR,
    SUCCEEDED,
    StepAborted,
    StepContext,
    StepOutcome,
    StepRequest,
    not_offered,
)
from memory_node.execution.navigation import NavigationLimits, PoseReading, PoseSource, navigate_step

API_GET_FSM_ID = 7001  # LocoClient registers it but has no method for it
NO_MANIPULATION = ("the Unitree SDK's arm service plays preset gestures only; pick, place, open, close, pour "
                   "and handover are skills a team provides (its own servers)")
ODOMETRY_TOPIC = "rt/odommodestate"


@dataclass
class G1Config:
    limits: NavigationLimits = field(default_factory=lambda: NavigationLimits(
        max_linear=0.3, max_lateral=0.2, max_angular=0.6, rate_hz=10.0, position_tolerance=0.10,
        yaw_tolerance=0.12))
    velocity_duration_s: float = 0.6  # each SetVelocity holds this long: the robot stops if commands stop
    walk_fsm_ids: tuple[int, ...] = (200, 500, 501, 801)  # loco FSM ids in which the G1 walks
    gestures: dict[str, str | int] = field(default_factory=dict)  # skill name -> action name or id
    call_timeout_s: float = 1.0


class SportOdometry:
    """The G1's pose from the sport service's state (``SportModeState_``: position, IMU yaw), subscribed
    with the SDK's own channel."""

    def __init__(self, topic: str = ODOMETRY_TOPIC) -> None:
        from unitree_sdk2py.core.channel import ChannelSubscriber
        from unitree_sdk2py.idl.unitree_go.msg.dds_ import SportModeState_

        self._latest: PoseReading | None = None
        self._lock = threading.Lock()
        self._sub = ChannelSubscriber(topic, SportModeState_)
        self._sub.Init(self._on_state, 10)

    def _on_state(self, msg: Any) -> None:
        reading = (float(msg.position[0]), float(msg.position[1]), float(msg.imu_state.rpy[2]), time.monotonic())
        if all(math.isfinite(v) for v in reading):
            with self._lock:
                self._latest = reading

    def __call__(self) -> PoseReading | None:
        with self._lock:
            return self._latest

    def close(self) -> None:
        self._sub.Close()


def initialise_dds(domain: int, interface: str = "") -> None:
    """Once per process, before any client: the Unitree DDS domain on one network interface ("lo" keeps a
    test on this machine)."""
    from unitree_sdk2py.core.channel import ChannelFactoryInitialize

    ChannelFactoryInitialize(int(domain), interface or None)


def connect(call_timeout_s: float = 1.0) -> tuple[Any, Any]:
    """The SDK's loco and arm-action clients, initialised (``initialise_dds`` first)."""
    from unitree_sdk2py.g1.arm.g1_arm_action_client import G1ArmActionClient
    from unitree_sdk2py.g1.loco.g1_loco_client import LocoClient

    loco = LocoClient()
    loco.SetTimeout(call_timeout_s)
    loco.Init()
    arm = G1ArmActionClient()
    arm.SetTimeout(call_timeout_s)
    arm.Init()
    return loco, arm


def fsm_id(loco: Any) -> int | None:
    code, data = loco._Call(API_GET_FSM_ID, "{}")
    if code != 0 or not data:
        return None
    return int(json.loads(data)["data"])


def wait_for_services(loco: Any, timeout: float = 20.0) -> bool:
    """True once the sport service answers (DDS discovery takes seconds after start-up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if fsm_id(loco) is not None:
            return True
        time.sleep(0.2)
    return False


class G1Backend:
    name = "unitree"
    robot = "g1"

    def __init__(self, loco: Any, arm: Any, pose_source: PoseSource | None = None,
                 config: G1Config | None = None) -> None:
        self.loco = loco
        self.arm = arm
        self.pose_source = pose_source
        self.config = config or G1Config()
        self._actions: dict[str, int] | None = None

    def capabilities(self) -> dict[str, str]:
        nav = ("walk to the approach pose: LocoClient.SetVelocity closed over the pose source"
               if self.pose_source is not None else "not offered: no pose source configured")
        caps = {"navigate": nav}
        for role in ("pick", "place", "open", "close", "pour", "handover"):
            caps[role] = f"not offered: {NO_MANIPULATION}"
        for skill, action in self.config.gestures.items():
            caps[skill] = f"G1ArmActionClient.ExecuteAction({action!r})"
        return caps

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        target = step.args[0] if step.args else ""
        if step.skill in self.config.gestures:
            return self._gesture(step, self.config.gestures[step.skill])
        if step.role == "navigate":
            return self._walk(step, ctx)
        if step.role in ("pick", "place", "open", "close", "pour", "handover"):
            return not_offered(step, self.name, NO_MANIPULATION)
        return not_offered(step, self.name, f"no mapping for skill {step.skill!r} (role {step.role or 'unknown'}); "
                                            f"{target and 'target ' + target + '; '}map it to a gesture or provide it")

    def _walk(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        return navigate_step(step, ctx, self.name, self.pose_source, self._velocity, self.config.limits,
                             moves="walks", no_source="LocoClient walks by velocity only and no pose source is "
                                                      "configured (pose_source: topic or sport_odometry)",
                             before_moving=self._not_walking)

    def _not_walking(self, target: str) -> StepOutcome | None:
        """Why the G1 cannot walk now (its loco FSM), or None."""
        fsm = fsm_id(self.loco)
        if fsm is None:
            return StepOutcome(False, SDK_ERROR, "the sport service did not answer (GetFsmId)", target)
        if fsm not in self.config.walk_fsm_ids:
            return StepOutcome(False, SDK_ERROR, f"the G1 is in loco FSM {fsm}, not a walking mode "
                                                 f"({', '.join(map(str, self.config.walk_fsm_ids))}): stand it up "
                                                 "and start locomotion first", target)
        return None

    def _velocity(self, vx: float, vy: float, wz: float) -> None:
        code = self.loco.SetVelocity(vx, vy, wz, self.config.velocity_duration_s)
        if code != 0 and (vx, vy, wz) != (0.0, 0.0, 0.0):
            raise StepAborted(SDK_ERROR, f"the sport service refused SetVelocity (code {code})")

    def _action_id(self, action: str | int) -> int:
        if isinstance(action, int):
            return action
        from unitree_sdk2py.g1.arm.g1_arm_action_client import action_map

        if action not in action_map:
            raise ValueError(f"unknown G1 arm action {action!r}; the SDK names {', '.join(action_map)}")
        return int(action_map[action])

    def _gesture(self, step: StepRequest, action: str | int) -> StepOutcome:
        target = step.args[0] if step.args else ""
        action_id = self._action_id(action)
        code = self.arm.ExecuteAction(action_id)
        if code != 0:
            return StepOutcome(False, SDK_ERROR, f"the arm service refused action {action!r} ({action_id}) with "
                                                 f"code {code}", target)
        return StepOutcome(True, SUCCEEDED, f"arm action {action!r} ({action_id}) done", target)

    def halt(self) -> None:
        self.loco.SetVelocity(0.0, 0.0, 0.0, self.config.velocity_duration_s)

    def set_estop(self, engaged: bool) -> None:
        """The SDK has no e-stop call: stop walking (damping a standing humanoid would drop it); the
        executor refuses steps until released. The robot's own remote e-stop stays the real one."""
        if engaged:
            self.halt()

    def close(self) -> None:
        if hasattr(self.pose_source, "close"):
            self.pose_source.close()  # type: ignore[union-attr]
