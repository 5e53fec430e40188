"""A robot's own navigation stack over ROS 2 topics (Dexmate's on a Vega), for ``navigate_to``: the goal
goes out as a geometry_msgs/PoseStamped on a command topic, the verdict comes back on a goal-status topic
(``execution.navigation.navigate_by_goal`` waits for it).

The topic names and the status type are parameters (``nav_stack.*`` of the plan executor) and must be the
ones the robot's stack really uses: Dexmate's stack is not installable here, so nothing checks them but a
step that ends in ``no_server`` when nobody answers. Two status shapes are read: ``std_msgs/String`` (a
word: succeeded/reached/... or aborted/failed/...; any other word means the goal is in progress) and
``action_msgs/GoalStatusArray`` (the standard action status list: only entries stamped after our goal
was sent count, so a stale verdict of an earlier goal is never read as this one's).
"""

from __future__ import annotations

import math
import threading

from action_msgs.msg import GoalStatus, GoalStatusArray
from geometry_msgs.msg import PoseStamped
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from std_msgs.msg import Empty, String

from memory_node.execution.navigation import GoalState
from memory_node.ros import conversions as conv

SUCCEEDED_WORDS = ("succeeded", "success", "reached", "arrived", "goal_reached")
FAILED_WORDS = ("aborted", "failed", "failure", "canceled", "cancelled", "rejected", "unreachable", "error")
STATUS_TYPES = ("string", "goal_status_array")
# a goal's stamp in a GoalStatusArray comes from the stack's clock: allow it to run this much behind ours
_CLOCK_SLACK_NS = 500_000_000


class NavigationStackClient:
    def __init__(self, node: Node, goal_topic: str, status_topic: str, status_type: str = "string",
                 cancel_topic: str = "", frame_id: str = "map", succeeded_words: tuple[str, ...] = SUCCEEDED_WORDS,
                 failed_words: tuple[str, ...] = FAILED_WORDS) -> None:
        if status_type not in STATUS_TYPES:
            raise ValueError(f"nav_stack.status_type must be one of {', '.join(STATUS_TYPES)}, not {status_type!r}")
        self.node = node
        self.name = f"goal on {goal_topic}, status on {status_topic}"
        self.frame_id = frame_id
        self.succeeded = {w.lower() for w in succeeded_words}
        self.failed = {w.lower() for w in failed_words}
        reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
        self._goal = node.create_publisher(PoseStamped, goal_topic, reliable)
        self._cancel = node.create_publisher(Empty, cancel_topic, reliable) if cancel_topic else None
        if status_type == "string":
            node.create_subscription(String, status_topic, self._on_word, reliable)
        else:
            node.create_subscription(GoalStatusArray, status_topic, self._on_status_array, reliable)
        self._lock = threading.Lock()
        self._token = 0
        self._sent_ns = 0
        self._active = False
        self._state: GoalState | None = None

    def ready(self) -> bool:
        """Something subscribes to the goal topic (a goal published before that is lost)."""
        return self._goal.get_subscription_count() > 0

    def send(self, goal: tuple[float, float, float]) -> int:
        msg = PoseStamped()
        now = self.node.get_clock().now().nanoseconds
        msg.header.stamp = conv.ns_to_stamp(now)
        msg.header.frame_id = self.frame_id
        msg.pose.position.x, msg.pose.position.y = float(goal[0]), float(goal[1])
        msg.pose.orientation.z, msg.pose.orientation.w = math.sin(goal[2] / 2.0), math.cos(goal[2] / 2.0)
        with self._lock:
            self._token += 1
            self._sent_ns = now
            self._active = True
            self._state = None
            token = self._token
        self._goal.publish(msg)
        return token

    def state(self, token: int) -> GoalState | None:
        with self._lock:
            return self._state if token == self._token else None

    def cancel(self) -> None:
        with self._lock:
            active, self._active = self._active, False
        if active and self._cancel is not None:
            self._cancel.publish(Empty())

    def _set(self, state: GoalState) -> None:
        with self._lock:
            if not self._active:  # no goal of ours outstanding: a verdict on someone else's
                return
            self._state = state
            if state.done:
                self._active = False

    def _on_word(self, msg: String) -> None:
        word = msg.data.strip().lower()
        done = word in self.succeeded or word in self.failed
        self._set(GoalState(done=done, success=word in self.succeeded, text=msg.data.strip()[:200]))

    def _on_status_array(self, msg: GoalStatusArray) -> None:
        with self._lock:
            since = self._sent_ns - _CLOCK_SLACK_NS
        ours = [s for s in msg.status_list if conv.stamp_to_ns(s.goal_info.stamp) >= since]
        if not ours:
            return
        latest = max(ours, key=lambda s: conv.stamp_to_ns(s.goal_info.stamp))
        code = latest.status
        names = {GoalStatus.STATUS_ACCEPTED: "accepted", GoalStatus.STATUS_EXECUTING: "executing",
                 GoalStatus.STATUS_CANCELING: "canceling", GoalStatus.STATUS_SUCCEEDED: "succeeded",
                 GoalStatus.STATUS_CANCELED: "canceled", GoalStatus.STATUS_ABORTED: "aborted"}
        done = code in (GoalStatus.STATUS_SUCCEEDED, GoalStatus.STATUS_CANCELED, GoalStatus.STATUS_ABORTED)
        self._set(GoalState(done=done, success=code == GoalStatus.STATUS_SUCCEEDED,
                            text=names.get(code, f"status {code}")))


__all__ = ["FAILED_WORDS", "STATUS_TYPES", "SUCCEEDED_WORDS", "NavigationStackClient"]
