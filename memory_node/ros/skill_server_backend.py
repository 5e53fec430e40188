"""A plan executor backend that runs steps on a team's own ROS 2 skill servers (pick, place, open, close:
what the robot SDKs lack), as the executor's skill-server map says (``memory_node/execution/skill_servers.py``,
``config/execution/skill_servers/<robot>.yaml``).

Interfaces (docs/execution.md): ``memory_node/action/RunSkill`` (preferred: timeout, cancel and e-stop reach
the server as a goal cancel), ``memory_node/srv/RunSkill``, or ``std_srvs/srv/Trigger`` for a server that
takes no arguments. The goal carries the plan's step as planned (skill, memory ids, their positions and
the approach pose in the map frame), the plan id and step number, and the map's parameters; the result's
``success``, ``status`` and ``message`` become the step's outcome, which memory keeps.

Calls are made from the executor's step thread and completed by the node's executor, which spins on
another thread: a step waits on its futures, never spins itself.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from action_msgs.msg import GoalStatus
from diagnostic_msgs.msg import KeyValue
from rclpy.action import ActionClient
from rclpy.node import Node
from std_srvs.srv import Trigger

from memory_node.core.models import Point, Pose, SkillCall
from memory_node.execution.backend import (
    CANCELLED,
    ESTOP,
    NO_SERVER,
    REJECTED,
    SUCCEEDED,
    StepAborted,
    StepContext,
    StepOutcome,
    StepRequest,
    not_offered,
    sdk_words,
)
from memory_node.execution.skill_servers import TRIGGER_TYPE, SkillServer, SkillServerMap
from memory_node.ros import conversions as conv

# How long a step that was aborted waits for the server to acknowledge the goal's cancel (the executor
# gives an aborted step 2 s to end)
CANCEL_WAIT_S = 1.5
_POLL_S = 0.02
_GOAL_ENDS = {GoalStatus.STATUS_ABORTED: "aborted", GoalStatus.STATUS_CANCELED: CANCELLED}


def status_word(text: str, default: str) -> str:
    """A server's status as one word memory can keep: lower-case letters, digits and _, at most 40."""
    word = re.sub(r"[^a-z0-9_]+", "_", str(text).lower()).strip("_")[:40]
    return word or default


def goal_call(step: StepRequest) -> SkillCall:
    """The plan's step as memory planned it (the executor's StepRequest carries it apart)."""
    positions = [None if p is None else Point(x=p[0], y=p[1], z=p[2]) for p in step.arg_positions]
    approach = None if step.approach is None else Pose(position=Point(x=step.approach[0], y=step.approach[1], z=0.0),
                                                       yaw=step.approach[2])
    return SkillCall(skill=step.skill, args=list(step.args), text=step.text, arg_positions=positions,
                     approach=approach)


class SkillServerBackend:
    name = "skill_servers"

    def __init__(self, node: Node, robot: str, skill_map: SkillServerMap) -> None:
        from memory_node.action import RunSkill as RunSkillAction
        from memory_node.srv import RunSkill as RunSkillService

        self.node = node
        self.robot = robot
        self.skill_map = skill_map
        self._action_type = RunSkillAction
        self._service_type = RunSkillService
        self._clients: dict[str, Any] = {}
        for skill, server in skill_map.servers.items():
            if server.kind == "action":
                self._clients[skill] = ActionClient(node, RunSkillAction, server.name)
            else:
                srv_type = Trigger if server.interface == TRIGGER_TYPE else RunSkillService
                self._clients[skill] = node.create_client(srv_type, server.name)
        self._lock = threading.Lock()
        self._active: dict[bytes, Any] = {}  # goal id -> goal handle of a running action goal
        self._cancelled: set[bytes] = set()
        self._estop = False

    def capabilities(self) -> dict[str, str]:
        return {skill: f"{s.kind} {s.name} ({s.interface})" for skill, s in self.skill_map.servers.items()}

    # ---- steps -----------------------------------------------------------------------------------------

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        target = step.args[0] if step.args else ""
        server = self.skill_map.for_step(step)
        if server is None:
            return not_offered(step, self.name, "no skill server is mapped to it")
        if self._estop:
            return StepOutcome(False, ESTOP, "not started: the e-stop is engaged", target)
        key = step.skill if step.skill in self.skill_map.servers else step.role
        client = self._clients[key]
        label = f"{server.kind} {server.name}"
        if not self._wait_for_server(client, server, ctx):
            return StepOutcome(False, NO_SERVER, f"no {label} answered within {server.server_wait_s:.1f} s "
                                                 "(is the team's skill server running under that name?)", target)
        if server.kind == "action":
            return self._run_action(client, server, step, ctx, label, target)
        return self._run_service(client, server, step, ctx, label, target)

    def _wait_for_server(self, client: Any, server: SkillServer, ctx: StepContext) -> bool:
        ready = client.server_is_ready if server.kind == "action" else client.service_is_ready
        waited = 0.0
        while not ready():
            if waited >= server.server_wait_s:
                return False
            ctx.wait(_POLL_S)
            waited += _POLL_S
        return True

    def _goal_fields(self, message: Any, server: SkillServer, step: StepRequest) -> Any:
        message.plan_id = step.plan_id
        message.step = max(0, int(step.index))
        message.call = conv.skill_call_to_msg(goal_call(step))
        message.parameters = [KeyValue(key=str(k), value=str(v).lower() if isinstance(v, bool) else str(v))
                              for k, v in server.parameters.items()]
        return message

    @staticmethod
    def _await(future: Any, ctx: StepContext) -> None:
        """Wait for a future the node's executor completes; StepAborted on cancel, e-stop or the deadline."""
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        while not done.is_set():
            ctx.check()
            done.wait(min(_POLL_S * 2.5, max(ctx.remaining(), 0.001)))
        ctx.check()

    def _run_action(self, client: ActionClient, server: SkillServer, step: StepRequest, ctx: StepContext,
                    label: str, target: str) -> StepOutcome:
        goal = self._goal_fields(self._action_type.Goal(), server, step)
        last: list[str] = []

        def on_feedback(msg: Any) -> None:
            fb = msg.feedback
            last[:] = [f"{sdk_words(fb.state)}" + (f" ({fb.progress:.0%})" if fb.progress >= 0 else "")]

        sent = client.send_goal_async(goal, feedback_callback=on_feedback)
        try:
            self._await(sent, ctx)
        except StepAborted:
            # the goal may still be accepted after we stop waiting: cancel it as soon as it is
            sent.add_done_callback(lambda f: self._cancel(f.result()) if f.result() and f.result().accepted else None)
            raise
        handle = sent.result()
        if handle is None or not handle.accepted:
            return StepOutcome(False, REJECTED, f"{label} rejected the goal", target)
        goal_id = bytes(handle.goal_id.uuid)
        with self._lock:
            self._active[goal_id] = handle
        try:
            result_future = handle.get_result_async()
            try:
                self._await(result_future, ctx)
            except StepAborted as aborted:
                said = self._cancel(handle, wait=True)
                raise StepAborted(aborted.status, f"{aborted.message}; {said}") from None
        finally:
            with self._lock:
                self._active.pop(goal_id, None)
        wrapped = result_future.result()
        result = wrapped.result
        words = sdk_words(result.message) or ("done" if result.success else "no reason given")
        if last and not (result.success and wrapped.status == GoalStatus.STATUS_SUCCEEDED):
            words += f" (last feedback: {last[0]})"
        if result.success and wrapped.status == GoalStatus.STATUS_SUCCEEDED:
            return StepOutcome(True, SUCCEEDED, f"{label}: {words}", target)
        status = status_word(result.status, _GOAL_ENDS.get(wrapped.status, "failed"))
        return StepOutcome(False, status, f"{label}: {words}", target)

    def _cancel(self, handle: Any, wait: bool = False) -> str:
        """Ask the server to cancel a goal (once per goal); with ``wait``, say whether it agreed."""
        goal_id = bytes(handle.goal_id.uuid)
        with self._lock:
            first = goal_id not in self._cancelled
            self._cancelled.add(goal_id)
            future = handle.cancel_goal_async() if first else None
        if not wait:
            return "goal cancel sent"
        if future is None:
            return "goal cancel sent to the skill server"
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        if not done.wait(CANCEL_WAIT_S):
            return f"the skill server did not answer the goal cancel within {CANCEL_WAIT_S:.1f} s"
        response = future.result()
        return ("the skill server accepted the goal cancel" if response is not None and response.goals_canceling
                else "the skill server refused the goal cancel")

    def _run_service(self, client: Any, server: SkillServer, step: StepRequest, ctx: StepContext, label: str,
                     target: str) -> StepOutcome:
        trigger = server.interface == TRIGGER_TYPE
        request = Trigger.Request() if trigger else self._goal_fields(self._service_type.Request(), server, step)
        future = client.call_async(request)
        try:
            self._await(future, ctx)
        except StepAborted as aborted:
            client.remove_pending_request(future)
            raise StepAborted(aborted.status, f"{aborted.message}; a service call cannot be cancelled: "
                                              f"{server.name} may still be running it") from None
        response = future.result()
        words = sdk_words(response.message) or ("done" if response.success else "no reason given")
        if response.success:
            return StepOutcome(True, SUCCEEDED, f"{label}: {words}", target)
        status = "failed" if trigger else status_word(response.status, "failed")
        return StepOutcome(False, status, f"{label}: {words}", target)

    # ---- safety ----------------------------------------------------------------------------------------

    def halt(self) -> None:
        """Cancel every running goal now (a service call cannot be cancelled)."""
        with self._lock:
            handles = list(self._active.values())
        for handle in handles:
            self._cancel(handle)

    def set_estop(self, engaged: bool) -> None:
        self._estop = engaged
        if engaged:
            self.halt()

    def close(self) -> None:
        self.halt()


__all__ = ["SkillServerBackend", "goal_call", "status_word"]
