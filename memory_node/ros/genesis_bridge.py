"""The Genesis bridge: a simulated Dexmate Vega in a household scene, wired to the memory node's contract.

What a robot's drivers and perception would publish, the bridge publishes from the simulator: the head
camera's RGB, depth and intrinsics, the robot pose, an occupancy map of the home, scene graphs of what the
camera sees (perfect perception from the simulator's state, ``memory_node.sim.perception``) and skill feedback
for every skill it executes. With every frame it also publishes the segmentation image
(``camera/segmentation``, 32SC1), its id -> {label, instance} table (``camera/segmentation/labels``, JSON,
latched) and the optical frame's pose in the map (``camera_pose``), what the perception node needs; with
``perception_only`` it publishes no scene graphs, so memory learns objects only through perception. Plans arrive on the memory node's ``~/plans`` topic (``execute_plans``) or from a
scenario (``memory_node.ros.sim_scenario``) and run open-loop: every step in order, no replanning, stopping
at the first failure, which is reported like any other.

    genesis_bridge [--scenario NAME] [--ros-args -p scene:=small_home -p memory_node:=/memory_node ...]

With ``--scenario`` it plays the scenario against a running memory node, prints its table and exits;
without, it runs live: pose and camera at their rates, plans executed as they are published. One line says
when the simulation is up (scene built, first data published); SIGINT/SIGTERM at any moment end it with
status 0 (``memory_node.ros.shutdown``). The process is one ROS node, ``genesis_bridge``: the memory
client's publishers and service clients live on it, so launch's ``__node:=`` rename leaves no second node
behind with the same name.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import rclpy
from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import OccupancyGrid
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import CameraInfo, Image
from std_msgs.msg import String

from memory_node.core.models import SceneGraphObservation
from memory_node.msg import Plan as PlanMsg
from memory_node.ros import conversions as conv
from memory_node.ros.client import MemoryClient
from memory_node.ros.parameters import ParameterError, declare_parameters
from memory_node.ros.shutdown import ExecutorThread, ShutdownRequested, ShutdownSignals, spin_until_shutdown
from memory_node.sim.progress import building_scene, still_running
from memory_node.sim.skills import SkillOutcome

PARAMETERS: dict[str, tuple[Any, str]] = {
    "scene": ("small_home", "Scene file: a name under config/sim/scenes or a path (format: "
                            "memory_node/sim/README.md)."),
    "robot": ("vega", "Robot simulated and planned for: vega, or g1 (needs requirements-g1-sim.txt); any other is "
                      "refused at start."),
    "memory_node": ("/sim/memory_node", "Fully qualified name of the memory node whose topics and services to "
                                        "use: one in a namespace of the simulator's own (the root namespace is "
                                        "a robot's and is refused)."),
    "camera_width": (320, "Head camera width in pixels (render time grows with it: ~35 ms at 320x240)."),
    "camera_height": (240, "Head camera height in pixels."),
    "camera_rate": (1.0, "Live mode: camera frames and scene graphs per second (0 = only after skills)."),
    "pose_rate": (10.0, "Live mode: robot poses per second."),
    "execute_plans": (True, "Live mode: execute every plan the memory node publishes on ~/plans, open-loop."),
    "perceive_locks": (False, "Report locks in scene graphs; false = memory learns a lock by trying to open."),
    "perception_only": (False, "Publish no scene graphs: memory learns what is where only through the perception "
                               "node (RGB-D, camera info, camera_pose and the segmentation image with its "
                               "id -> label table, which the bridge always publishes)."),
}


SIMULATED_ROBOTS = ("vega", "g1")  # memory_node/sim/robot_bodies.py (the G1 where requirements-g1-sim.txt is in)
NAVIGATE = "navigate_to"  # the Vega library's navigate skill (config/skills/vega.yaml)
NO_APPROACH = "the plan has no approach pose (memory did not know one): the simulator looked the target up"


def _stamp() -> int:
    return time.time_ns()


class SimBridge:
    """One simulated robot publishing on one memory node's inputs (not thread-safe: one caller thread)."""

    def __init__(self, world: Any, memory: MemoryClient, robot: str = "vega", perception_only: bool = False,
                 pace_perception: bool = True) -> None:
        self.world = world
        self.memory = memory
        self.robot = robot
        # perception_only: no scene graphs; the perception node turns the camera streams into them.
        # pace_perception (scripted runs): wait after each frame until the perception node said what became
        # of it, so every view of a scripted tour is perceived (live, perception takes the newest frame)
        self.perception_only = perception_only
        self.pace_perception = pace_perception
        node = memory.node
        ns = memory.namespace
        self.pub_image = node.create_publisher(Image, f"{ns}camera/image_raw", qos_profile_sensor_data)
        self.pub_depth = node.create_publisher(Image, f"{ns}camera/depth/image_raw",
                                               qos_profile_sensor_data)
        self.pub_info = node.create_publisher(CameraInfo, f"{ns}camera/camera_info", qos_profile_sensor_data)
        self.pub_pose = node.create_publisher(PoseStamped, f"{ns}robot_pose", qos_profile_sensor_data)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.pub_map = node.create_publisher(OccupancyGrid, f"{ns}map", latched)
        self.pub_seg = node.create_publisher(Image, f"{ns}camera/segmentation", qos_profile_sensor_data)
        self.pub_labels = node.create_publisher(String, f"{ns}camera/segmentation/labels", latched)
        self.pub_camera_pose = node.create_publisher(PoseStamped, f"{ns}camera_pose", qos_profile_sensor_data)
        self.last_frame: Any = None
        self._last_ns = 0
        self._perceived: dict[int, dict[str, Any]] = {}  # frame stamp -> the perception node's result
        self._perception_graphs = 0  # graphs the perception node reported publishing (what memory will ingest)
        self.unperceived = 0  # paced frames perception never reported on
        self._results_sub = None
        if perception_only:
            self._results_sub = node.create_subscription(String, f"{ns}perception/frame_results",
                                                         self._on_frame_result,
                                                         QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE))
        self.publish_segment_table()

    def clock(self) -> int:
        """Event time of the next message: wall time, strictly increasing (memory orders by it)."""
        self._last_ns = max(_stamp(), self._last_ns + 1)
        return self._last_ns

    # ---- sensing ---------------------------------------------------------------------------------------

    def publish_map(self) -> None:
        grid = self.world.occupancy_grid()
        self.pub_map.publish(conv.occupancy_grid_to_msg(grid.data, grid.resolution, (grid.origin_x, grid.origin_y, 0.0),
                                                        self.clock()))

    def publish_pose(self, stamp_ns: int | None = None) -> None:
        self.pub_pose.publish(conv.pose_to_msg(self.world.robot_pose(), stamp_ns or self.clock()))

    def publish_segment_table(self) -> None:
        """The segmentation image's id -> {label, instance} table, latched (fixed once the scene is built)."""
        self.pub_labels.publish(String(data=json.dumps({str(k): v for k, v in self.world.segment_table().items()})))

    def publish_frame(self, frame: Any, stamp: int) -> None:
        """Camera streams of one rendered frame, all with one stamp: pose, intrinsics, RGB, depth and, when
        rendered, the segmentation image and the camera's optical-frame pose in the map."""
        info = frame.info
        self.publish_pose(stamp)
        self.pub_info.publish(conv.camera_info_to_msg(info.fx, info.fy, info.cx, info.cy, info.width, info.height,
                                                      stamp, info.frame_id))
        if frame.camera_pose is not None:
            self.pub_camera_pose.publish(conv.camera_pose_to_msg(frame.camera_pose.position,
                                                                 frame.camera_pose.quaternion_xyzw(), stamp))
        if frame.segmentation is not None:
            self.pub_seg.publish(conv.segmentation_to_msg(frame.segmentation, stamp, info.frame_id))
        self.pub_image.publish(conv.image_to_msg(frame.rgb, stamp, info.frame_id))
        self.pub_depth.publish(conv.depth_to_msg(frame.depth, stamp, info.frame_id))

    # ---- perception-only mode ----------------------------------------------------------------------------

    def _on_frame_result(self, msg: String) -> None:
        try:
            result = json.loads(msg.data)
            stamp = int(result["stamp_ns"])
        except (ValueError, KeyError, TypeError):
            return
        self._perceived[stamp] = result
        graphs = int(result.get("graphs_published", 0))
        if graphs > self._perception_graphs:  # memory's ~/sync then waits for these graphs too
            self.memory.published["scene_graphs"] += graphs - self._perception_graphs
            self._perception_graphs = graphs

    def perception_restarted(self) -> None:
        """A fresh perception node counts its graphs from zero."""
        self._perception_graphs = 0
        self._perceived.clear()

    def wait_for_perception(self, timeout: float = 60.0) -> None:
        """Until a perception node listens to every camera stream and the segment table, and its frame
        results reach this bridge (matched endpoints, not a pause: a loaded machine matches them late)."""
        deadline = time.monotonic() + timeout
        pubs = (self.pub_image, self.pub_depth, self.pub_info, self.pub_seg, self.pub_labels, self.pub_camera_pose)
        while (any(p.get_subscription_count() == 0 for p in pubs)
               or (self._results_sub is not None and self._results_sub.get_publisher_count() == 0)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no perception node subscribed to {self.pub_seg.topic_name} and publishing "
                                   f"frame results after {timeout} s")
            rclpy.spin_once(self.memory.node, timeout_sec=0.05)

    def _await_perceived(self, stamp: int, timeout: float = 30.0) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while stamp not in self._perceived and time.monotonic() < deadline:
            rclpy.spin_once(self.memory.node, timeout_sec=0.02)
        return self._perceived.pop(stamp, None)

    def _perceive(self, frame: Any, attempts: int = 3, wait_s: float = 10.0, rejections: int = 100) -> None:
        """Publish a frame for perception; paced, wait until it is processed, publishing it again (same
        stamp) when no result came (the camera topics are best effort: a part lost under load would leave a
        scripted view unperceived) or when it was rejected (a frame that arrived before the latched segment
        table did). ``unperceived`` counts frames given up on."""
        stamp = self.clock()
        self.last_frame = frame
        if not self.pace_perception:
            self.publish_frame(frame, stamp)
            return
        lost = rejected = 0
        result: dict[str, Any] | None = None
        while lost < attempts and rejected < rejections:
            self.publish_frame(frame, stamp)
            result = self._await_perceived(stamp, timeout=wait_s)
            if result is None:
                lost += 1
            elif result.get("outcome") == "processed":
                return
            else:
                rejected += 1
                self.memory.spin(0.05)  # the table (or whatever it lacked) arrives on its own topic meanwhile
        self.unperceived += 1
        why = f"last: {result.get('outcome')} {result.get('reason', '')}".strip() if result else "no result"
        self.memory.node.get_logger().warning(f"perception never processed the frame at {stamp} ({lost} lost, "
                                              f"{rejected} rejected; {why})")

    def _look_around_frames(self, views: int = 8) -> None:
        """Turn on the spot as ``observe_room`` does, publishing every view for perception."""
        r = self.world.state.robot
        yaw0 = r.yaw
        for k in range(views):
            r.yaw = yaw0 + 2 * math.pi * k / views
            self.world.move_base(r.x, r.y, r.yaw)
            self.world.step()
            self._perceive(self.world.render(segmentation=True))
        r.yaw = yaw0
        self.world.move_base(r.x, r.y, yaw0)
        self.world.step()

    def look(self, around: bool = False) -> SceneGraphObservation:
        """Render the head camera, publish image, depth, intrinsics and pose, and the scene graph of what is
        visible (``around``: turn on the spot first and look all around the room). In perception-only mode
        the frames go to the perception node and the graph returned is empty (its room is the robot's)."""
        if self.perception_only:
            if around:
                self._look_around_frames()
            self._perceive(self.world.render(segmentation=True))
            return SceneGraphObservation(stamp_ns=self.clock(), source="genesis", room=self.world.state.robot_room())
        stamp = self.clock()
        graph = self.world.observe_room(stamp) if around else None
        frame = self.world.render(segmentation=not around)
        if graph is None:
            graph = self.world.observe(stamp, frame)
        self.last_frame = frame
        self.publish_frame(frame, stamp)
        self.memory.publish_scene_graph(graph)
        return graph

    # ---- acting ----------------------------------------------------------------------------------------

    def execute(self, skill: str, args: list[str], look: bool = True, focus: str = "",
                approach: tuple[float, float, float] | None = None, note: str = "", plan_id: str = "",
                plan_step: int = 0) -> SkillOutcome:
        """Run one skill, publish its feedback (``note`` added to its message; ``plan_id`` and ``plan_step``
        when it is a step of a plan memory published), and (``look``) what the camera sees afterwards."""
        outcome = self.world.execute(skill, args, focus=focus, approach=approach)
        if note:
            outcome = replace(outcome, message=f"{outcome.message} ({note})")
        self.memory.publish_skill_feedback(outcome.feedback(self.clock(), robot=self.robot, plan_id=plan_id,
                                                            plan_step=plan_step))
        if look:
            self.look()
        return outcome

    def execute_plan(self, steps: list[tuple[str, list[str]]],
                     approaches: list[tuple[float, float, float] | None] | None = None,
                     plan_id: str = "") -> list[SkillOutcome]:
        """Open-loop: every step in order, no replanning; the first failure ends the run.

        ``approaches`` (from the plan, ``plan_steps``): per step, where memory says to stand, (x, y, yaw)
        in the map frame. A navigation step drives there; one whose pose is NaN (memory did not know) falls
        back to the simulator looking the target up by id, and its feedback says so."""
        done = []
        for i, (skill, args) in enumerate(steps):
            approach = approaches[i] if approaches is not None and i < len(approaches) else None
            nav = skill == NAVIGATE
            fallback = nav and approaches is not None and approach is None
            outcome = self.execute(skill, args, focus=_next_target(steps, i) if nav else "",
                                   approach=approach if nav else None,
                                   note=NO_APPROACH if fallback else "", plan_id=plan_id,
                                   plan_step=i + 1 if plan_id else 0)
            done.append(outcome)
            if not outcome.success:
                break
        return done

    def save_frame(self, path: Path) -> Path | None:
        """The last rendered RGB frame as a PNG (for a person to look at), None before any render."""
        if self.last_frame is None:
            return None
        import cv2

        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), cv2.cvtColor(self.last_frame.rgb, cv2.COLOR_RGB2BGR))
        return path


def plan_steps(msg: PlanMsg) -> tuple[list[tuple[str, list[str]]], list[tuple[float, float, float] | None]]:
    """A Plan message as ``execute_plan`` takes it: the steps' (skill, args) and their approach poses
    ((x, y, yaw), map frame; None where the plan's pose is NaN)."""
    steps = [(s.skill, list(s.args)) for s in msg.steps]
    approaches = []
    for s in msg.steps:
        pose = conv.approach_from_msg(s.approach)
        approaches.append(None if pose is None else (pose.position.x, pose.position.y, pose.yaw))
    return steps, approaches


def _next_target(steps: list[tuple[str, list[str]]], i: int) -> str:
    """What the plan handles after navigating at step ``i``: the first argument of the next other step."""
    for skill, args in steps[i + 1:]:
        if skill == NAVIGATE:
            return ""
        if args:
            return args[0]
    return ""


def start_genesis() -> Any:
    """Import and initialise Genesis (seconds; its compiled extensions load here)."""
    from memory_node.sim.world import genesis

    return genesis()


def build_world(scene: str, camera_res: tuple[int, int] = (320, 240), perceive_locks: bool = False,
                robot: str = "vega") -> Any:
    """The simulated home (Genesis on the CPU); imported here because importing Genesis takes seconds."""
    from memory_node.sim.scene_spec import shipped_scene
    from memory_node.sim.world import SimWorld

    path = Path(scene) if Path(scene).suffix in (".yaml", ".yml") else shipped_scene(scene)
    return SimWorld(path, camera_res=camera_res, perceive_locks=perceive_locks, robot=robot)


class _LiveBridge(Node):
    """Live mode: periodic pose and camera, and plans from ``~/plans`` executed on a worker thread (a plan
    takes seconds of simulation; the executor keeps publishing meanwhile)."""

    def __init__(self) -> None:
        super().__init__("genesis_bridge")
        # read once: every parameter is read-only (a set is refused, saying so); integers pass for doubles
        self.p = declare_parameters(self, PARAMETERS)


def main(argv: list[str] | None = None) -> int:
    signals = ShutdownSignals.install()  # rclpy's own handlers stay off (memory_node/ros/shutdown.py)
    argv = list(sys.argv if argv is None else argv)
    ros_free = rclpy.utilities.remove_ros_args(argv)[1:]
    parser = argparse.ArgumentParser(prog="genesis_bridge", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="", help="play this scenario (name under config/scenarios or a path)")
    parser.add_argument("--out", default="", help="folder for rendered frames of a scenario run")
    args = parser.parse_args(ros_free)
    rclpy.init(args=argv, signal_handler_options=SignalHandlerOptions.NO)
    try:
        live = _LiveBridge()
    except ParameterError as err:
        rclpy.logging.get_logger("genesis_bridge").error(str(err))
        rclpy.try_shutdown()
        return 2
    log = live.get_logger()
    p = live.p
    robot = str(p["robot"])
    phase = "before the simulation was up"  # for the one line a signal leaves in the log
    try:
        if robot not in SIMULATED_ROBOTS:
            log.error(f"robot {robot!r} cannot be simulated: the bridge simulates only "
                      f"{', '.join(SIMULATED_ROBOTS)}; exiting")
            return 2
        if not _namespace_of(str(p["memory_node"])):
            log.error(f"memory_node:={p['memory_node']} is in the root namespace, where a robot's memory node "
                      f"runs (vega.launch.py, g1.launch.py): the simulator would write into the robot's memory "
                      f"and execute its plans; use one in a namespace of the simulator's own (default "
                      f"{PARAMETERS['memory_node'][0]}); exiting")
            return 2
        # the client's endpoints on this node: one node per process (see module docstring)
        memory = MemoryClient(node_name=p["memory_node"], namespace=_namespace_of(p["memory_node"]), node=live)
        # Until the simulation is up nothing is half-made on the ROS side that a signal could leave behind,
        # so a signal ends the build (tens of seconds) at once instead of after it.
        with signals.interruptible():
            log.info(f"building scene {p['scene']} in Genesis on the CPU (the first build compiles kernels, "
                     f"1-5 min; cached in ~/.cache afterwards)")
            # the build touches no ROS entity: meanwhile the node is spun on a thread, so it answers
            # parameter requests (`ros2 param get`) during the minute a cold build can take
            during_build = rclpy.executors.SingleThreadedExecutor()
            during_build.add_node(live)
            spinner = ExecutorThread(during_build, name="spin_during_build")
            try:
                with still_running(building_scene(str(p["scene"])), emit=log.info):
                    with signals.deferred():
                        start_genesis()
                    with signals.insistent():
                        world = build_world(p["scene"], (int(p["camera_width"]), int(p["camera_height"])),
                                            bool(p["perceive_locks"]), robot)
            finally:
                with signals.shielded():  # joined whatever happens: the node is destroyed after
                    spinner.stop()
            bridge = SimBridge(world, memory, robot=robot, perception_only=bool(p["perception_only"]),
                               pace_perception=bool(args.scenario))
            memory.wait_for_node(timeout=60)
            if bridge.perception_only:
                bridge.wait_for_perception(timeout=60)
            bridge.publish_map()
            if args.scenario:
                from memory_node.ros.sim_scenario import print_report, run_scenario
                from memory_node.sim.scenario import load_scenario

                scenario = load_scenario(args.scenario)
                log.info(f"simulation ready: scene {p['scene']} built in {world.build_seconds:.1f} s, map "
                         f"published; playing scenario {args.scenario} against {p['memory_node']}")
                phase = f"during scenario {args.scenario}"
                report = run_scenario(scenario, bridge, out=Path(args.out) if args.out else None)
                print_report([report])
                return 0 if report.passed == len(report.outcomes) else 1
            graph = bridge.look(around=True)  # memory starts with the room the robot stands in
        log.info(f"simulation ready: scene {p['scene']} built in {world.build_seconds:.1f} s; {robot} in "
                 f"{graph.room or 'no room'}; map, pose, camera and a scene graph of {len(graph.entities)} "
                 f"entities published to {p['memory_node']}"
                 + ("; executing its plans" if p["execute_plans"] else ""))
        return _run_live(live, bridge, signals)
    except (ShutdownRequested, Exception):
        if not signals.requested:
            raise
        # (an error after a signal is its echo: Genesis's compiler may turn ShutdownRequested into its own)
        log.info(f"{signals.signal_name} {phase}: exiting")
        return 0
    finally:
        signals.ignore_further()
        live.destroy_node()
        rclpy.try_shutdown()


def _namespace_of(node_fqn: str) -> str:
    ns = node_fqn.rstrip("/").rsplit("/", 1)[0]
    return ns if ns else ""


class PlanFollower:
    """Executes every plan the memory node publishes on ``<memory_node>/plans``, open-loop, on a worker
    thread (a plan takes seconds of simulation; the executor keeps spinning meanwhile). Plans for another
    robot are ignored. ``lock`` serialises the simulator with the periodic camera and pose."""

    def __init__(self, bridge: SimBridge, memory_fqn: str, lock: threading.Lock, log: Any) -> None:
        self.bridge, self.lock, self.log = bridge, lock, log
        self.results: list[tuple[str, list[SkillOutcome]]] = []  # (instruction, outcomes), for callers
        self._plans: queue.Queue[PlanMsg] = queue.Queue()
        self._stop = threading.Event()
        bridge.memory.node.create_subscription(PlanMsg, f"{memory_fqn.rstrip('/')}/plans", self._plans.put, 10)
        self._thread = threading.Thread(target=self._work, name="plans", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                msg = self._plans.get(timeout=0.1)
            except queue.Empty:
                continue
            if msg.robot and msg.robot != self.bridge.robot:
                self.log.info(f"plan for {msg.robot} ignored (simulating {self.bridge.robot})")
                continue
            steps, approaches = plan_steps(msg)
            with self.lock:
                done = self.bridge.execute_plan(steps, approaches, plan_id=msg.plan_id)
            self.results.append((msg.instruction, done))
            ok = sum(o.success for o in done)
            self.log.info(f"plan {msg.instruction!r}: {ok}/{len(msg.steps)} steps succeeded"
                          + ("" if ok == len(msg.steps) else f" ({done[-1].message})"))


def _run_live(live: _LiveBridge, bridge: SimBridge, signals: ShutdownSignals) -> int:
    lock = threading.Lock()  # the simulator is driven from one thread at a time
    p = live.p
    follower = PlanFollower(bridge, str(p["memory_node"]), lock, live.get_logger()) if p["execute_plans"] else None

    def tick_pose() -> None:
        with lock:
            bridge.publish_pose()

    def tick_camera() -> None:
        if lock.acquire(blocking=False):  # skip a frame rather than queue behind a plan
            try:
                bridge.look()
            finally:
                lock.release()

    live.create_timer(1.0 / float(p["pose_rate"]), tick_pose)
    if float(p["camera_rate"]) > 0:
        live.create_timer(1.0 / float(p["camera_rate"]), tick_camera)
    executor = rclpy.executors.SingleThreadedExecutor()
    executor.add_node(live)  # the memory client's endpoints are on it too
    try:
        spin_until_shutdown(executor, signals)
        if signals.requested:
            live.get_logger().info(f"{signals.signal_name}: shutting down")
    except rclpy.executors.ExternalShutdownException:
        pass
    finally:
        signals.ignore_further()
        if follower is not None:
            follower.stop()  # joined before main() destroys the node it publishes on
        executor.shutdown(timeout_sec=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
