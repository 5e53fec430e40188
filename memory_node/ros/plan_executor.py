"""The plan executor node: runs the memory node's plans on a robot and reports every step back to memory.

It subscribes to ``<memory_node>/plans``, runs each plan for its robot through one backend
(``memory_node.execution``: ``dexcontrol`` for a Dexmate Vega, ``unitree`` for a Unitree G1), one plan at a
time in arrival order, and publishes each step's outcome on ``<memory namespace>/skill_feedback``
(memory_node/SkillFeedback with the plan's ``plan_id`` and the step's number), so memory learns what succeeded
and what failed. Skills the SDK lacks can run on a team's own ROS 2 action/service servers
(``skill_servers``: a skill-server map, ``memory_node/ros/skill_server_backend.py``). ``~/cancel`` (std_srvs/Trigger) aborts the running plan, ``~/estop`` (std_srvs/SetBool)
engages or releases the e-stop (the SDK's own where it has one), ``~/results`` (std_msgs/String, JSON) says
what became of each plan. Plans for another robot are refused (nothing runs, nothing is reported to memory).

    plan_executor --ros-args --params-file config/execution/vega.yaml -p dexcontrol.simulation:=true

The vendor SDKs are imported only here, in this process: dexcontrol is AGPL-3.0 (docs/execution.md).
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
from typing import Any

import rclpy
from geometry_msgs.msg import PoseStamped
from rclpy.node import Node
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger

from memory_node.core.models import SkillFeedbackObservation
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.navigation import NavigationLimits, PoseReading
from memory_node.execution.skill_servers import NoSdkBackend, RoutedBackend, SkillServerMap
from memory_node.msg import Plan as PlanMsg
from memory_node.msg import SkillFeedback
from memory_node.planning.skills import SkillLibrary
from memory_node.ros import conversions as conv
from memory_node.ros.parameters import declare_parameters
from memory_node.ros.shutdown import ShutdownSignals, spin_until_shutdown
from memory_node.ros.navigation_stack import FAILED_WORDS, SUCCEEDED_WORDS, NavigationStackClient
from memory_node.ros.skill_server_backend import SkillServerBackend

PARAMETERS: dict[str, tuple[Any, str]] = {
    "robot": ("vega", "Robot this executor drives; plans for another robot are refused."),
    "backend": ("dexcontrol", "dexcontrol (Dexmate Vega), unitree (Unitree G1), or skill_servers (only the "
                              "skill servers of skill_servers; every other skill is refused)."),
    "skill_servers": ("", "Skill-server map YAML (config/execution/skill_servers/<robot>.yaml): the skills it "
                          "names run on a team's own ROS 2 action/service servers; '' = none."),
    "memory_node": ("/memory_node", "Fully qualified name of the memory node whose ~/plans to execute; feedback "
                                    "goes to skill_feedback in its namespace."),
    "skill_library": ("", "Skill library YAML (roles of the plan's skills); '' = the package's for robot."),
    "step_timeout_s": (30.0, "Seconds a step may take before it is aborted and reported as a timeout."),
    "navigate_timeout_s": (120.0, "Seconds a navigation step may take."),
    "pose_source": ("topic", "Where navigation reads the robot pose: topic (pose_topic, e.g. the SLAM pose), "
                             "wheel_odometry (Vega: dexcontrol's wheel state), sport_odometry (G1: rt/odommodestate)."),
    "navigation": ("pose_controller", "How navigate_to moves a Vega: pose_controller (velocity commands closed over "
                                      "pose_source) or navigation_stack (Dexmate's stack takes the goal: nav_stack.*)."),
    "nav_stack.goal_topic": ("goal_pose", "geometry_msgs/PoseStamped goal topic of the robot's navigation stack "
                                          "(must be the one it listens on)."),
    "nav_stack.status_topic": ("navigation/status", "Goal-status topic the navigation stack publishes (must be "
                                                    "its own)."),
    "nav_stack.status_type": ("string", "string (std_msgs/String: a status word) or goal_status_array "
                                        "(action_msgs/GoalStatusArray)."),
    "nav_stack.cancel_topic": ("", "std_msgs/Empty topic that cancels the stack's goal ('' = none; the base is "
                                   "stopped through the SDK anyway)."),
    "nav_stack.answer_wait_s": (5.0, "Seconds the navigation stack may stay silent about a goal before the step "
                                     "fails with no_server."),
    "nav_stack.succeeded_words": (list(SUCCEEDED_WORDS), "status words (string type) that mean the goal was "
                                                         "reached."),
    "nav_stack.failed_words": (list(FAILED_WORDS), "status words (string type) that mean the goal failed; any "
                                                   "other word means in progress."),
    "pose_topic": ("robot_pose", "geometry_msgs/PoseStamped in the map frame, for pose_source topic."),
    "max_linear_speed": (0.4, "m/s, navigation speed limit."),
    "max_lateral_speed": (0.25, "m/s, sideways speed limit."),
    "max_angular_speed": (0.6, "rad/s, navigation turn-rate limit."),
    "position_tolerance": (0.08, "m: a navigation goal is reached within this distance..."),
    "yaw_tolerance": (0.1, "rad: ...and this heading error."),
    "pose_stale_s": (0.5, "A pose older than this stops the base and fails the step."),
    "first_pose_s": (5.0, "s a navigation step waits, the base held still, for the first pose (after start-up); "
                          "none by then fails the step."),
    "control_rate_hz": (20.0, "Navigation control loop rate."),
    "dexcontrol.profile": ("", "dexcontrol robot profile ('' = DEXBOT_PROFILE / ROBOT_NAME, as dexcontrol does)."),
    "dexcontrol.simulation": (False, "Use dexcontrol's in-process loopback simulation instead of the robot."),
    "dexcontrol.handover": (["right_arm", "L_shape", "right_hand"], "handover: arm, its predefined pose, "
                                                                     "hand opened there ([] = not offered)."),
    "dexcontrol.base_height": (0.0, "m: height of the URDF's base frame above the map's floor (look_at aims the "
                                    "head at map points)."),
    "unitree.domain": (0, "Unitree DDS domain (keep it apart from ROS_DOMAIN_ID: both use rt/ topics)."),
    "unitree.interface": ("", "Network interface of the G1 (e.g. eth0; lo for a local test)."),
    "unitree.gestures": ([""], "skill=action pairs mapping a skill to a G1 arm action (e.g. wave=high wave)."),
}


class PlanExecutorNode(Node):
    def __init__(self, **overrides: Any) -> None:
        super().__init__("plan_executor", **overrides)
        # read once: every parameter is read-only (a set is refused, saying so); integers pass for doubles
        self.p = declare_parameters(self, PARAMETERS)
        self._pose: PoseReading | None = None
        memory = str(self.p["memory_node"]).rstrip("/")
        ns = memory.rsplit("/", 1)[0]
        keep_all = QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1, reliability=ReliabilityPolicy.RELIABLE)
        self.pub_feedback = self.create_publisher(SkillFeedback, f"{ns}/skill_feedback", keep_all)
        self.pub_results = self.create_publisher(String, "~/results", QoSProfile(
            depth=50, reliability=ReliabilityPolicy.RELIABLE))
        library = SkillLibrary.load(self.p["skill_library"]) if self.p["skill_library"] else \
            SkillLibrary.for_robot(str(self.p["robot"]))
        timeouts = {"navigate": float(self.p["navigate_timeout_s"])}
        skill_map = None
        if self.p["skill_servers"]:  # checked before the robot is connected: a bad map is a start-up error
            skill_map = SkillServerMap.load(str(self.p["skill_servers"]))
            skill_map.check(str(self.p["robot"]), {s.name: s.role for s in library.skills})
        self.backend = self._make_backend()
        if skill_map is not None:
            self.backend = RoutedBackend(self.backend, SkillServerBackend(self, str(self.p["robot"]), skill_map),
                                         skill_map)
            timeouts.update(skill_map.timeouts())
        self.executor_ = PlanExecutor(self.backend, self._publish_feedback, float(self.p["step_timeout_s"]),
                                      timeouts, library)
        self._plans: queue.Queue[PlanMsg | None] = queue.Queue()
        self._plan_count = 0
        self.create_subscription(PlanMsg, f"{memory}/plans", self._plans.put, 10)
        self.create_service(Trigger, "~/cancel", self._on_cancel)
        self.create_service(SetBool, "~/estop", self._on_estop)
        self._worker = threading.Thread(target=self._work, name="plans", daemon=True)
        self._worker.start()
        caps = "; ".join(f"{k}: {v}" for k, v in self.backend.capabilities().items())
        self.get_logger().info(f"executing {self.p['robot']} plans from {memory}/plans with the "
                               f"{self.backend.name} backend ({caps})")

    # ---- backend ---------------------------------------------------------------------------------------

    def _limits(self) -> NavigationLimits:
        p = self.p
        return NavigationLimits(max_linear=float(p["max_linear_speed"]), max_lateral=float(p["max_lateral_speed"]),
                                max_angular=float(p["max_angular_speed"]),
                                position_tolerance=float(p["position_tolerance"]),
                                yaw_tolerance=float(p["yaw_tolerance"]), pose_stale_s=float(p["pose_stale_s"]),
                                first_pose_s=float(p["first_pose_s"]),
                                rate_hz=float(p["control_rate_hz"]))

    def _topic_pose(self) -> PoseReading | None:
        return self._pose

    def _on_pose(self, msg: PoseStamped) -> None:
        try:
            pose = conv.pose_from_msg(msg)
        except conv.InvalidInput as err:
            self.get_logger().warning(f"robot pose ignored: {err}", throttle_duration_sec=5.0)
            return
        self._pose = (pose.position.x, pose.position.y, pose.yaw, time.monotonic())

    def _make_backend(self) -> Any:
        p = self.p
        source = str(p["pose_source"])
        if source == "topic":
            self.create_subscription(PoseStamped, str(p["pose_topic"]), self._on_pose, qos_profile_sensor_data)
        kind = str(p["backend"])
        if kind == "dexcontrol":
            from memory_node.execution import vega

            dex = vega.connect(str(p["dexcontrol.profile"]), bool(p["dexcontrol.simulation"]))
            pose = {"topic": self._topic_pose, "wheel_odometry": vega.wheel_odometry(dex)}.get(source) \
                if source in ("topic", "wheel_odometry") else None
            if source not in ("topic", "wheel_odometry"):
                raise ValueError(f"pose_source {source!r} is not one for the Vega: topic or wheel_odometry")
            handover = [str(v) for v in p["dexcontrol.handover"] if str(v)]
            joints = {}
            if len(handover) == 3:
                joints["handover"] = vega.JointSkill(handover[0], handover[1], hand=handover[2], hand_action="open")
            elif handover:
                raise ValueError("dexcontrol.handover takes [arm, pose, hand] or []")
            navigation = str(p["navigation"])
            if navigation not in ("pose_controller", "navigation_stack"):
                raise ValueError(f"navigation {navigation!r}: pose_controller or navigation_stack")
            stack = None
            if navigation == "navigation_stack":
                stack = NavigationStackClient(
                    self, str(p["nav_stack.goal_topic"]), str(p["nav_stack.status_topic"]),
                    str(p["nav_stack.status_type"]), str(p["nav_stack.cancel_topic"]),
                    succeeded_words=tuple(str(w) for w in p["nav_stack.succeeded_words"]),
                    failed_words=tuple(str(w) for w in p["nav_stack.failed_words"]))
            config = vega.VegaConfig(limits=self._limits(), joint_skills=joints,
                                     base_height=float(p["dexcontrol.base_height"]),
                                     nav_answer_wait_s=float(p["nav_stack.answer_wait_s"]))
            return vega.VegaBackend(dex, pose, config, nav_stack=stack)
        if kind == "unitree":
            from memory_node.execution import g1

            domain = int(p["unitree.domain"])
            if domain == int(os.environ.get("ROS_DOMAIN_ID", "0") or 0):
                # both stacks name their topics rt/...; on one domain they would see each other's
                self.get_logger().warning(f"unitree.domain {domain} is ROS_DOMAIN_ID too: keep them apart")
            g1.initialise_dds(domain, str(p["unitree.interface"]))
            loco, arm = g1.connect()
            if not g1.wait_for_services(loco, timeout=20.0):
                self.get_logger().warning("the G1's sport service did not answer within 20 s; steps will fail "
                                          "until it does")
            if source not in ("topic", "sport_odometry"):
                raise ValueError(f"pose_source {source!r} is not one for the G1: topic or sport_odometry")
            pose = self._topic_pose if source == "topic" else g1.SportOdometry()
            gestures: dict[str, str | int] = {}
            for pair in p["unitree.gestures"]:
                if str(pair).strip():
                    skill, _, action = str(pair).partition("=")
                    gestures[skill.strip()] = int(action) if action.strip().isdigit() else action.strip()
            limits = self._limits()
            return g1.G1Backend(loco, arm, pose, g1.G1Config(limits=limits, gestures=gestures))
        if kind == "skill_servers":
            if not p["skill_servers"]:
                raise ValueError("backend skill_servers needs a skill_servers map")
            return NoSdkBackend(str(p["robot"]))
        raise ValueError(f"unknown backend {kind!r}: dexcontrol, unitree or skill_servers")

    # ---- plans -----------------------------------------------------------------------------------------

    def _publish_feedback(self, fb: SkillFeedbackObservation) -> None:
        self.pub_feedback.publish(conv.skill_feedback_to_msg(fb))

    def _work(self) -> None:
        while True:
            msg = self._plans.get()
            if msg is None:
                return
            self._plan_count += 1
            stamp = conv.stamp_to_ns(msg.header.stamp)
            # memory's plan_id, echoed on skill_feedback so memory links each step to its plan; a plan from
            # elsewhere without one is named by its stamp
            plan_id = msg.plan_id.strip() or (str(stamp) if stamp else f"local-{self._plan_count}")
            try:
                plan = conv.plan_from_msg(msg)
            except Exception as err:  # noqa: BLE001 - a malformed plan is refused, the node goes on
                self._publish_result({"plan_id": plan_id, "status": "refused", "reason": f"malformed plan: {err}"})
                continue
            self.get_logger().info(f"plan {plan_id} {plan.instruction!r} for {plan.robot or 'any robot'}: "
                                   + " -> ".join(f"{c.skill}({', '.join(c.args)})" for c in plan.steps))
            self._await_memory()
            run = self.executor_.execute(plan, plan_id)
            summary = run.summary()
            self._publish_result(summary)
            self.get_logger().info(f"plan {plan_id} {plan.instruction!r}: {run.status}, "
                                   f"{summary['steps_succeeded']}/{run.steps_total} steps succeeded"
                                   + (f" ({run.reason})" if run.reason else ""))

    def _await_memory(self, timeout: float = 5.0) -> None:
        """Feedback is memory's only record of what the robot did: before running a plan, give discovery
        a moment to match the feedback publisher to memory's subscription (a message published before the
        match is lost on a volatile topic)."""
        deadline = time.monotonic() + timeout
        while self.pub_feedback.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.pub_feedback.get_subscription_count() == 0:
            self.get_logger().warning(f"nothing subscribes to {self.pub_feedback.topic_name}: memory will not "
                                      "learn this plan's outcome")

    def _publish_result(self, summary: dict) -> None:
        self.pub_results.publish(String(data=json.dumps(summary)))

    def _on_cancel(self, _request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        response.success = self.executor_.cancel()
        response.message = "the running plan was cancelled" if response.success else "no plan is running"
        return response

    def _on_estop(self, request: SetBool.Request, response: SetBool.Response) -> SetBool.Response:
        try:
            if request.data:
                self.executor_.engage_estop()
            else:
                self.executor_.release_estop()
        except Exception as err:  # noqa: BLE001 - say why to the caller; the flag stays as it was
            response.success, response.message = False, f"{type(err).__name__}: {err}"
            return response
        response.success = True
        response.message = "e-stop engaged" if request.data else "e-stop released"
        return response

    def stop(self) -> None:
        self.executor_.cancel()
        self._plans.put(None)
        self._worker.join(timeout=5.0)
        self.backend.close()


def main(argv: list[str] | None = None) -> int:
    signals = ShutdownSignals.install()
    argv = list(sys.argv if argv is None else argv)
    rclpy.init(args=argv, signal_handler_options=SignalHandlerOptions.NO)
    node = None
    try:
        try:
            node = PlanExecutorNode()
        except Exception as err:  # noqa: BLE001 - a bad parameter or an unreachable robot: say why, exit 2
            rclpy.logging.get_logger("plan_executor").error(f"cannot start: {type(err).__name__}: {err}")
            return 2
        executor = rclpy.executors.SingleThreadedExecutor()
        executor.add_node(node)
        try:
            spin_until_shutdown(executor, signals)
        except rclpy.executors.ExternalShutdownException:
            pass
        if signals.requested:
            node.get_logger().info(f"{signals.signal_name}: shutting down")
        return 0
    finally:
        signals.ignore_further()
        if node is not None:
            node.stop()
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    raise SystemExit(main())
