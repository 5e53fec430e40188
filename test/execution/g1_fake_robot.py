"""A stand-in for a Unitree G1's "sport" and "arm" services and its odometry, over CycloneDDS, for tests.

There is no G1 here: this process serves the SDK's RPC services with the SDK's own ``Server`` class and
publishes ``SportModeState_`` on ``rt/odommodestate``, integrating the commanded velocity into a pose
(holding each command for its ``duration``, as the robot does). What it received is printed as one JSON
line per request on stdout; the test steers it with lines on stdin:
``fsm N`` (loco FSM id), ``arm_error N`` (answer ExecuteAction with code N; 0 = succeed),
``odometry off|on`` (stop/resume publishing the pose), ``hang_velocity on|off`` (never answer SetVelocity).

    python g1_fake_robot.py DOMAIN INTERFACE
"""

from __future__ import annotations

import json
import math
import sys
import threading
import time

from unitree_sdk2py.core.channel import ChannelFactoryInitialize, ChannelPublisher
from unitree_sdk2py.g1.arm.g1_arm_action_api import (
    ARM_ACTION_API_VERSION,
    ARM_ACTION_SERVICE_NAME,
    ROBOT_API_ID_ARM_ACTION_EXECUTE_ACTION,
    ROBOT_API_ID_ARM_ACTION_GET_ACTION_LIST,
)
from unitree_sdk2py.g1.arm.g1_arm_action_client import action_map
from unitree_sdk2py.g1.loco.g1_loco_api import (
    LOCO_API_VERSION,
    LOCO_SERVICE_NAME,
    ROBOT_API_ID_LOCO_GET_FSM_ID,
    ROBOT_API_ID_LOCO_SET_FSM_ID,
    ROBOT_API_ID_LOCO_SET_VELOCITY,
)
from unitree_sdk2py.idl.default import unitree_go_msg_dds__SportModeState_
from unitree_sdk2py.idl.unitree_go.msg.dds_ import SportModeState_
from unitree_sdk2py.rpc.server import Server

lock = threading.Lock()
state = {"x": 0.0, "y": 0.0, "yaw": 0.0, "cmd": (0.0, 0.0, 0.0), "until": 0.0, "fsm": 200, "arm_error": 0,
         "odometry": True, "hang_velocity": False}


def say(**event) -> None:
    print(json.dumps(event), flush=True)


class SportServer(Server):
    def __init__(self) -> None:
        super().__init__(LOCO_SERVICE_NAME)

    def Init(self) -> None:
        self._SetApiVersion(LOCO_API_VERSION)
        self._RegistHandler(ROBOT_API_ID_LOCO_GET_FSM_ID, self.get_fsm, False)
        self._RegistHandler(ROBOT_API_ID_LOCO_SET_FSM_ID, self.set_fsm, False)
        self._RegistHandler(ROBOT_API_ID_LOCO_SET_VELOCITY, self.set_velocity, False)

    def get_fsm(self, parameter: str):
        with lock:
            return 0, json.dumps({"data": state["fsm"]})

    def set_fsm(self, parameter: str):
        with lock:
            state["fsm"] = int(json.loads(parameter)["data"])
        say(api="SetFsmId", fsm=state["fsm"])
        return 0, ""

    def set_velocity(self, parameter: str):
        p = json.loads(parameter)
        with lock:
            hang = state["hang_velocity"]
        if hang:
            time.sleep(3.0)  # past the client's timeout: the call is lost
            return 0, ""
        vx, vy, wz = (float(v) for v in p["velocity"])
        with lock:
            if state["fsm"] not in (200, 500, 501, 801) and (vx, vy, wz) != (0.0, 0.0, 0.0):
                return 7301, ""  # not walking: refused (a stand-in code)
            state["cmd"] = (vx, vy, wz)
            state["until"] = time.monotonic() + float(p["duration"])
        say(api="SetVelocity", velocity=[vx, vy, wz], duration=p["duration"])
        return 0, ""


class ArmServer(Server):
    def __init__(self) -> None:
        super().__init__(ARM_ACTION_SERVICE_NAME)

    def Init(self) -> None:
        self._SetApiVersion(ARM_ACTION_API_VERSION)
        self._RegistHandler(ROBOT_API_ID_ARM_ACTION_EXECUTE_ACTION, self.execute, False)
        self._RegistHandler(ROBOT_API_ID_ARM_ACTION_GET_ACTION_LIST, self.actions, False)

    def execute(self, parameter: str):
        action = int(json.loads(parameter)["data"])
        with lock:
            code = state["arm_error"]
        if code == 0 and action not in action_map.values():
            code = 7402  # a stand-in for "no such action"
        say(api="ExecuteAction", action=action, code=code)
        return code, ""

    def actions(self, parameter: str):
        return 0, json.dumps(action_map)


def integrate() -> None:
    last = time.monotonic()
    while True:
        time.sleep(0.005)
        now = time.monotonic()
        dt, last = now - last, now
        with lock:
            vx, vy, wz = state["cmd"] if now < state["until"] else (0.0, 0.0, 0.0)
            yaw = state["yaw"]
            state["x"] += (vx * math.cos(yaw) - vy * math.sin(yaw)) * dt
            state["y"] += (vx * math.sin(yaw) + vy * math.cos(yaw)) * dt
            state["yaw"] = math.atan2(math.sin(yaw + wz * dt), math.cos(yaw + wz * dt))


def publish_odometry() -> None:
    pub = ChannelPublisher("rt/odommodestate", SportModeState_)
    pub.Init()
    msg = unitree_go_msg_dds__SportModeState_()
    while True:
        time.sleep(0.02)
        with lock:
            if not state["odometry"]:
                continue
            msg.position[0], msg.position[1] = state["x"], state["y"]
            msg.imu_state.rpy[2] = state["yaw"]
        pub.Write(msg)


def main() -> None:
    ChannelFactoryInitialize(int(sys.argv[1]), sys.argv[2])
    sport, arm = SportServer(), ArmServer()
    for server in (sport, arm):
        server.Init()
        server.Start(False)
    threading.Thread(target=integrate, daemon=True).start()
    threading.Thread(target=publish_odometry, daemon=True).start()
    say(ready=True)
    for line in sys.stdin:
        key, _, value = line.strip().partition(" ")
        with lock:
            if key in ("fsm", "arm_error"):
                state[key] = int(value)
            elif key in ("odometry", "hang_velocity"):
                state[key] = value == "on"
            elif key == "pose":
                state["x"], state["y"], state["yaw"] = (float(v) for v in value.split())
            snapshot = {k: state[k] for k in ("x", "y", "yaw", "fsm", "arm_error", "odometry")}
        say(ack=key, state=snapshot)


if __name__ == "__main__":
    main()
