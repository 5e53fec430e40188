"""A stand-in for a team's own skill servers (what a Vega or G1 team provides for pick, place, open, close):
real rclpy action and service servers of memory_node/action/RunSkill, memory_node/srv/RunSkill and
std_srvs/Trigger on their own node and executor thread, so the plan executor reaches them over DDS.

Each server's behaviour is set per skill: ``succeed``, ``fail:<status>:<message>``, ``reject`` (action
only) or ``hang`` (the goal runs until the executor cancels it). Every goal, request and cancel is
recorded, with events a test waits on.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import rclpy
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor
from std_srvs.srv import Trigger


@dataclass
class Received:
    server: str
    plan_id: str = ""
    step: int = 0
    skill: str = ""
    args: list[str] = field(default_factory=list)
    positions: list[tuple[float, float, float]] = field(default_factory=list)
    approach: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    parameters: dict[str, str] = field(default_factory=dict)


class TeamSkillServer:
    def __init__(self, name: str) -> None:
        from memory_node.action import RunSkill as RunSkillAction
        from memory_node.srv import RunSkill as RunSkillService

        self._action, self._service = RunSkillAction, RunSkillService
        self.node = rclpy.create_node(name)
        self.behaviour: dict[str, str] = {}
        self.received: list[Received] = []
        self.cancels: list[str] = []
        self.goal_arrived = threading.Event()
        self.cancel_arrived = threading.Event()
        self._release = threading.Event()  # ends hanging goals at tear-down
        self._group = ReentrantCallbackGroup()
        self._servers: list[Any] = []
        self._executor = MultiThreadedExecutor(num_threads=4)
        self._executor.add_node(self.node)
        self._thread = threading.Thread(target=self._executor.spin, daemon=True)
        self._thread.start()

    # ---- servers ---------------------------------------------------------------------------------------

    def action(self, name: str, behaviour: str = "succeed") -> None:
        self.behaviour[name] = behaviour
        self._servers.append(ActionServer(
            self.node, self._action, name, execute_callback=lambda h: self._execute(name, h),
            goal_callback=lambda goal: GoalResponse.REJECT if self.behaviour[name] == "reject" else GoalResponse.ACCEPT,
            cancel_callback=lambda h: self._on_cancel(name), callback_group=self._group))

    def service(self, name: str, behaviour: str = "succeed") -> None:
        self.behaviour[name] = behaviour
        self._servers.append(self.node.create_service(self._service, name, lambda req, resp: self._serve(name, req, resp),
                                                      callback_group=self._group))

    def trigger(self, name: str, behaviour: str = "succeed") -> None:
        self.behaviour[name] = behaviour

        def serve(_req: Trigger.Request, resp: Trigger.Response) -> Trigger.Response:
            self._record(Received(server=name))
            resp.success, resp.message = self._answer(name)[0], self._answer(name)[2]
            return resp

        self._servers.append(self.node.create_service(Trigger, name, serve, callback_group=self._group))

    # ---- behaviour -------------------------------------------------------------------------------------

    def _record(self, got: Received) -> None:
        self.received.append(got)
        self.goal_arrived.set()

    def _from_request(self, name: str, req: Any) -> Received:
        call = req.call
        return Received(server=name, plan_id=req.plan_id, step=req.step, skill=call.skill, args=list(call.args),
                        positions=[(p.x, p.y, p.z) for p in call.arg_positions],
                        approach=(call.approach.position.x, call.approach.position.y, call.approach.orientation.z,
                                  call.approach.orientation.w),
                        parameters={kv.key: kv.value for kv in req.parameters})

    def _answer(self, name: str) -> tuple[bool, str, str]:
        how = self.behaviour[name]
        if how.startswith("fail"):
            _, status, message = (how.split(":", 2) + ["", ""])[:3]
            return False, status, message
        return True, "", f"{name} done"

    def _on_cancel(self, name: str) -> CancelResponse:
        self.cancels.append(name)
        self.cancel_arrived.set()
        return CancelResponse.ACCEPT

    def _execute(self, name: str, handle: Any) -> Any:
        self._record(self._from_request(name, handle.request))
        feedback = self._action.Feedback(state="approach", progress=0.25)
        handle.publish_feedback(feedback)
        if self.behaviour[name] == "hang":
            # a skill in progress until the executor cancels the goal (cancel, timeout, e-stop)
            while not handle.is_cancel_requested and not self._release.is_set():
                self.cancel_arrived.wait(0.05)
            if handle.is_cancel_requested:
                handle.canceled()
                return self._action.Result(success=False, status="cancelled", message="stopped on request")
            handle.abort()
            return self._action.Result(success=False, status="aborted", message="server shut down")
        ok, status, message = self._answer(name)
        handle.succeed() if ok else handle.abort()
        return self._action.Result(success=ok, status=status, message=message)

    def _serve(self, name: str, req: Any, resp: Any) -> Any:
        self._record(self._from_request(name, req))
        resp.success, resp.status, resp.message = self._answer(name)
        return resp

    def close(self) -> None:
        self._release.set()
        self._executor.shutdown(timeout_sec=2.0)
        for server in self._servers:
            if isinstance(server, ActionServer):
                server.destroy()
        self.node.destroy_node()
