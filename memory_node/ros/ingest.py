"""What the node does with each input message, without the node: limits, stamps, conversion, store.

The live node (ros/node.py) and ``memory-node replay`` (cli/replay.py) both hand their messages to one
``InputIngestor``, so a recorded bag replayed into a database gives the memory the node would have built
from the same messages. No rclpy here: messages are the generated ROS classes (from a subscription, or a
bag message adapted by ``ros/bag.py``), and "now" for an unstamped message is whatever clock the caller
passes (the node's clock live, the bag's log time in a replay).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from memory_node.core.limits import InputLimits
from memory_node.core.models import FrameObservation, InvalidInput, MapInfo
from memory_node.core.store import MemoryStore
from memory_node.perception.frames import decode_compressed
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.ros import conversions as conv

# input name (as counted in diagnostics and ~/sync) -> the node's relative topic name, its message type
INPUT_TOPICS: dict[str, tuple[str, str]] = {
    "scene_graphs": ("scene_graph", "memory_node/msg/SceneGraph"),
    "skill_feedback": ("skill_feedback", "memory_node/msg/SkillFeedback"),
    "utterances": ("user_utterance", "memory_node/msg/Utterance"),
    "activities": ("activity", "memory_node/msg/Activity"),
    "images": ("camera/image_raw", "sensor_msgs/msg/Image"),
    "compressed_images": ("camera/image_raw/compressed", "sensor_msgs/msg/CompressedImage"),
    "depth": ("camera/depth/image_raw", "sensor_msgs/msg/Image"),
    "camera_info": ("camera/camera_info", "sensor_msgs/msg/CameraInfo"),
    "maps": ("map", "nav_msgs/msg/OccupancyGrid"),
    "poses": ("robot_pose", "geometry_msgs/msg/PoseStamped"),
}


def open_store(db_path, params: dict[str, Any], **site: Any) -> MemoryStore:
    """The memory the node's parameters describe (one place, so the node and a replay open it alike). The
    robot's skill library says which states a successful skill leaves (its open opens its container).
    ``site``: robot, site, id_namespace and frame_dir of a site memory (``db_path`` a postgresql:// URL)."""
    robot = str(params.get("robot") or "vega")
    library = SkillLibrary.load(str(params.get("skill_library") or "") or default_library_path(robot))
    return MemoryStore(db_path, frame_similarity_threshold=float(params["frames.similarity_threshold"]),
                       association_radius=float(params["association_radius"]),
                       position_tolerance=float(params["position_tolerance"]),
                       sighting_gap=float(params["sighting_gap"]),
                       skill_state_effects=library.state_effects(),
                       skill_location_effects=library.location_effects(), exclusive=True,
                       limits=InputLimits.from_params(params), **site)


class InputIngestor:
    """Turns the node's input messages into memory. Raises ``InvalidInput`` for a message it refuses;
    ``on_rejected_part(input_name, reason)`` hears about parts of a scene graph that were dropped."""

    def __init__(self, store: MemoryStore, params: dict[str, Any], now_ns: Callable[[], int],
                 on_rejected_part: Callable[[str, str], None] = lambda name, reason: None) -> None:
        self.store = store
        self.p = params
        self.now_ns = now_ns
        self.on_rejected_part = on_rejected_part
        self.frames_admitted = 0
        self.current_room = (store.get_meta("robot") or {}).get("room", "")
        self.camera_info: dict[str, Any] | None = None
        self.pose = None
        robot = store.get_meta("robot") or {}
        pose = robot.get("pose")
        self._stored_pose = pose if isinstance(pose, dict) and all(
            isinstance(pose.get(k), (int, float)) for k in ("x", "y", "yaw")) else None
        self.changed = True  # entities changed since the markers were last drawn

    def handlers(self) -> dict[str, Callable[[Any], None]]:
        """Input name -> handler, for the topics of ``INPUT_TOPICS``."""
        return {"scene_graphs": self.scene_graph, "skill_feedback": self.skill_feedback,
                "utterances": self.utterance, "activities": self.activity, "images": self.image,
                "compressed_images": self.compressed_image, "depth": self.depth,
                "camera_info": self.camera_info_msg, "maps": self.map, "poses": self.robot_pose}

    def stamp_ns(self, header) -> int:
        """Event time is the message's stamp (replays keep their timeline); unstamped messages get now."""
        ns = conv.stamp_to_ns(header.stamp)
        return ns if ns > 0 else self.now_ns()

    def check_text(self, text: str, what: str) -> str:
        if len(text) > int(self.p["limits.max_text_length"]):
            raise InvalidInput(f"{what} longer than limits.max_text_length ({self.p['limits.max_text_length']})")
        return text

    # ---- events --------------------------------------------------------------------------------

    def scene_graph(self, msg) -> None:
        if len(msg.entities) > int(self.p["limits.max_entities_per_graph"]):
            raise InvalidInput(f"scene graph with {len(msg.entities)} entities exceeds "
                               f"limits.max_entities_per_graph")
        if len(msg.relations) > int(self.p["limits.max_relations_per_graph"]):
            raise InvalidInput(f"scene graph with {len(msg.relations)} relations exceeds "
                               f"limits.max_relations_per_graph")
        graph = conv.scene_graph_from_msg(msg, self.stamp_ns(msg.header))
        result = self.store.ingest_scene_graph(graph)
        if graph.room:
            self._set_room(graph.room)
        for reason in result.rejected:
            self.on_rejected_part("scene_graphs", reason)
        self.changed = True

    def skill_feedback(self, msg, plan_known: bool | None = None) -> None:
        """``plan_known``: whether the plan the feedback names is one the node published (the node knows)."""
        self.check_text(msg.message, "skill feedback message")
        fb = conv.skill_feedback_from_msg(msg, self.stamp_ns(msg.header))
        if plan_known is not None:
            fb = fb.model_copy(update={"plan_known": plan_known})
        self.store.ingest_skill_feedback(fb)

    def utterance(self, msg) -> None:
        self.check_text(msg.text, "utterance")
        self.store.ingest_utterance(conv.utterance_from_msg(msg, self.stamp_ns(msg.header)))

    def activity(self, msg) -> None:
        self.check_text(msg.text, "activity text")
        self.store.ingest_activity(conv.activity_from_msg(msg, self.stamp_ns(msg.header)))

    # ---- sensors -------------------------------------------------------------------------------

    def image(self, msg) -> None:
        # row padding (step) and big-endian data are read by conversions.image_pixels (ros2_numpy ignores step)
        encoded, thumb = conv.frame_from_image_msg(msg, int(self.p["limits.max_image_pixels"]),
                                                   int(self.p["frames.jpeg_quality"]))
        self._store_frame(msg.header, encoded, "jpg", thumb, msg.width, msg.height)

    def compressed_image(self, msg) -> None:
        data = bytes(msg.data)
        image, fmt, thumb = decode_compressed(data)
        if image.shape[0] * image.shape[1] > int(self.p["limits.max_image_pixels"]):
            raise InvalidInput("compressed image exceeds limits.max_image_pixels")
        self._store_frame(msg.header, data, fmt, thumb, image.shape[1], image.shape[0])

    def _store_frame(self, header, encoded: bytes, fmt: str, thumb: list[float], width: int, height: int) -> None:
        frame = FrameObservation(stamp_ns=self.stamp_ns(header), encoded=encoded, format=fmt, thumbnail=thumb,
                                 width=width, height=height, room=self.current_room, pose=self.pose,
                                 frame_id=header.frame_id)
        # Until perception says what is in view, a frame is bound to what memory holds in its room.
        visible = [e.id for e in self.store.entities(room=self.current_room) if e.id != self.current_room] \
            if self.current_room else []
        if self.store.ingest_frame(frame, visible).admitted:
            self.frames_admitted += 1

    def depth(self, msg) -> None:
        # Depth is not stored yet: frames keep RGB only. Counted so ~/sync and diagnostics see it.
        if msg.encoding.lower() not in ("32fc1", "16uc1", "mono16"):
            raise InvalidInput(f"depth encoding {msg.encoding!r} is not 32FC1 (m) or 16UC1 (mm)")

    def camera_info_msg(self, msg) -> None:
        info = {"frame_id": msg.header.frame_id, "width": msg.width, "height": msg.height, "k": list(msg.k)}
        if info != self.camera_info:
            self.camera_info = info
            self.store.set_meta("camera_info", info)

    def map(self, msg) -> None:
        info = msg.info
        if info.width * info.height != len(msg.data):
            raise InvalidInput(f"map data has {len(msg.data)} cells, expected {info.width}x{info.height}")
        if not (math.isfinite(info.resolution) and info.resolution > 0):
            raise InvalidInput(f"map resolution {info.resolution} is not a positive number")
        cells = np.asarray(msg.data, dtype=np.int8)
        self.store.ingest_map(MapInfo(
            stamp_ns=self.stamp_ns(msg.header), frame_id=msg.header.frame_id or "map", width=info.width,
            height=info.height, resolution=info.resolution, origin_x=info.origin.position.x,
            origin_y=info.origin.position.y, known_cells=int(np.count_nonzero(cells >= 0)),
            occupied_cells=int(np.count_nonzero(cells >= 50))))

    def robot_pose(self, msg) -> None:
        self.pose = conv.pose_from_msg(msg)
        self._remember_robot_pose(self.pose)

    def _remember_robot_pose(self, pose) -> None:
        """Keep where the robot stands in memory's ``robot`` record: plans start from it (the side of a
        target the approach pose is on, planning/poses.py). Written only once the robot moved 0.1 m or
        turned 0.2 rad, so a 10 Hz pose stream of a robot standing still writes nothing."""
        if pose.frame_id != "map":
            return
        last = self._stored_pose
        turn = abs(math.remainder(pose.yaw - float(last["yaw"]), math.tau)) if last else math.inf
        if last and math.hypot(pose.position.x - float(last["x"]), pose.position.y - float(last["y"])) < 0.1 \
                and turn < 0.2:
            return
        self._stored_pose = {"x": pose.position.x, "y": pose.position.y, "yaw": pose.yaw}
        state = self.store.get_meta("robot") or {}
        self.store.set_meta("robot", {**state, "pose": self._stored_pose})

    def _set_room(self, room: str) -> None:
        if room != self.current_room:
            self.current_room = room
            state = self.store.get_meta("robot") or {}
            self.store.set_meta("robot", {**state, "room": room})
