"""A stand-in for a robot's own navigation stack (Dexmate's on a Vega) as the plan executor sees it: goals
in as geometry_msgs/PoseStamped on a topic, the verdict out on a status topic (std_msgs/String words or
action_msgs/GoalStatusArray), a cancel topic (std_msgs/Empty). Its own node and executor thread.

``answer``: what it says to the next goals — ``succeeded``, ``aborted``, ``silent`` (never answers) or
``hang`` (executing until cancelled). With goal_status_array it first publishes a stale failure of an earlier goal, which the
executor must not read as the new goal's."""

from __future__ import annotations

import threading

import rclpy
from action_msgs.msg import GoalStatus, GoalStatusArray
from geometry_msgs.msg import PoseStamped
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile, ReliabilityPolicy
from std_msgs.msg import Empty, String


class TeamNavigationStack:
    def __init__(self, name: str, goal_topic: str, status_topic: str, cancel_topic: str,
                 status_type: str = "string", answer: str = "succeeded") -> None:
        self.node = rclpy.create_node(name)
        self.answer = answer
        self.status_type = status_type
        self.goals: list[PoseStamped] = []
        self.cancelled = threading.Event()
        self.goal_arrived = threading.Event()
        reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
        kind = String if status_type == "string" else GoalStatusArray
        self.pub = self.node.create_publisher(kind, status_topic, reliable)
        self.node.create_subscription(PoseStamped, goal_topic, self._on_goal, reliable)
        self.node.create_subscription(Empty, cancel_topic, lambda _m: self.cancelled.set(), reliable)
        self._executor = SingleThreadedExecutor()
        self._executor.add_node(self.node)
        self._thread = threading.Thread(target=self._executor.spin, daemon=True)
        self._thread.start()

    def _say(self, word: str, code: int, stamp) -> None:
        if self.status_type == "string":
            self.pub.publish(String(data=word))
            return
        status = GoalStatus(status=code)
        status.goal_info.stamp = stamp
        self.pub.publish(GoalStatusArray(status_list=[status]))

    def _on_goal(self, goal: PoseStamped) -> None:
        self.goals.append(goal)
        self.goal_arrived.set()
        if self.answer == "silent":
            return
        if self.status_type == "goal_status_array":  # a verdict on an older goal, stamped long before this one
            old = goal.header.stamp.__class__(sec=max(0, goal.header.stamp.sec - 60), nanosec=0)
            self._say("aborted", GoalStatus.STATUS_ABORTED, old)
        self._say("executing", GoalStatus.STATUS_EXECUTING, goal.header.stamp)
        if self.answer == "hang":
            return  # executing until the executor cancels it
        word, code = {"succeeded": ("succeeded", GoalStatus.STATUS_SUCCEEDED),
                      "aborted": ("aborted", GoalStatus.STATUS_ABORTED)}[self.answer]
        self._say(word, code, goal.header.stamp)

    def close(self) -> None:
        self._executor.shutdown(timeout_sec=2.0)
        self.node.destroy_node()
