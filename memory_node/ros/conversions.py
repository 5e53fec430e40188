"""Pure conversions between ROS messages and the core record model (no node, no rclpy).

Incoming messages are validated here: an invalid entity or relation is dropped from its graph with a
reason in ``SceneGraphObservation.rejected`` so the valid rest of the message is still remembered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from builtin_interfaces.msg import Time
from geometry_msgs.msg import Point as PointMsg
from geometry_msgs.msg import Pose as PoseMsg
from pydantic import ValidationError

from memory_node.core.models import (
    ActivityObservation,
    Answer,
    Entity,
    EntityObservation,
    InvalidInput,
    MemoryRecord,
    Plan,
    Point,
    Pose,
    Relation,
    RelationObservation,
    SceneGraphObservation,
    SkillCall,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.text import clean_text
from memory_node.msg import Activity as ActivityMsg
from memory_node.msg import Entity as EntityMsg
from memory_node.msg import MemoryRecord as MemoryRecordMsg
from memory_node.msg import Plan as PlanMsg
from memory_node.msg import Relation as RelationMsg
from memory_node.msg import SceneGraph as SceneGraphMsg
from memory_node.msg import SkillCall as SkillCallMsg
from memory_node.msg import SkillFeedback as SkillFeedbackMsg
from memory_node.msg import Utterance as UtteranceMsg

NS = 1_000_000_000


def stamp_to_ns(stamp: Time) -> int:
    return int(stamp.sec) * NS + int(stamp.nanosec)


def ns_to_stamp(ns: int) -> Time:
    return Time(sec=int(ns // NS), nanosec=int(ns % NS))


def optional_ns(stamp: Time) -> int | None:
    """A zero time means "unset" (now, no bound) in every request of the contract. A negative one is given
    back as it is (a time before the epoch is refused by the caller, never read as "now")."""
    ns = stamp_to_ns(stamp)
    return ns if ns != 0 else None


def _first_error(err: ValidationError) -> str:
    e = err.errors()[0]
    where = ".".join(str(p) for p in e.get("loc", ()))
    return f"{where}: {e.get('msg', '')}" if where else str(e.get("msg", ""))


# ---- scene graphs ---------------------------------------------------------------------------------


def entity_from_msg(msg: EntityMsg) -> EntityObservation:
    """Raise InvalidInput with a readable reason for a malformed entity."""
    if len(msg.attribute_keys) != len(msg.attribute_values):
        raise InvalidInput(f"entity {msg.id!r}: attribute_keys and attribute_values differ in length")
    p = msg.position
    # all NaN is how an unknown position goes out (entity_to_msg): it comes back as unknown, not as invalid;
    # a partly NaN or infinite position is refused
    unknown = all(math.isnan(v) for v in (p.x, p.y, p.z))
    try:
        return EntityObservation(
            id=msg.id, label=msg.label, name=msg.name, room=msg.room,
            position=None if unknown else Point(x=p.x, y=p.y, z=p.z),
            attributes={k.strip().lower(): v for k, v in zip(msg.attribute_keys, msg.attribute_values)
                        if k.strip()},
            states=list(msg.states), confidence=float(msg.confidence))
    except ValidationError as err:
        raise InvalidInput(f"entity {msg.id!r}: {_first_error(err)}") from None


def scene_graph_from_msg(msg: SceneGraphMsg, stamp_ns: int) -> SceneGraphObservation:
    """Convert, keeping every valid entity and relation and listing why the others were dropped."""
    entities: list[EntityObservation] = []
    rejected: list[str] = []
    for i, e in enumerate(msg.entities):
        if not e.id.strip():
            e.id = f"_:{i}"  # no id: memory associates it by label, room and position
        try:
            entities.append(entity_from_msg(e))
        except InvalidInput as err:
            rejected.append(str(err))
    bad_ids = {e.id for e in msg.entities} - {e.id for e in entities}
    relations: list[RelationObservation] = []
    for r in msg.relations:
        if r.subject in bad_ids or r.object in bad_ids:
            rejected.append(f"relation {r.subject} {r.predicate} {r.object}: refers to a rejected entity")
            continue
        try:
            relations.append(RelationObservation(subject=r.subject, predicate=r.predicate, object=r.object))
        except ValidationError as err:
            rejected.append(f"relation {r.subject} {r.predicate} {r.object}: {_first_error(err)}")
    room = msg.room.strip()
    return SceneGraphObservation(stamp_ns=stamp_ns, source=msg.source, room=room, complete=bool(msg.complete),
                                 entities=entities, relations=relations, rejected=rejected)


def entity_to_msg(e: Entity | EntityObservation) -> EntityMsg:
    p = e.position
    return EntityMsg(
        id=e.id, label=e.label, name=e.name, room=e.room,
        position=PointMsg(x=p.x, y=p.y, z=p.z) if p else PointMsg(x=math.nan, y=math.nan, z=math.nan),
        attribute_keys=list(e.attributes.keys()), attribute_values=list(e.attributes.values()),
        states=list(e.states), confidence=float(e.confidence))


def relation_to_msg(r: Relation | RelationObservation) -> RelationMsg:
    return RelationMsg(subject=r.subject, predicate=r.predicate, object=r.object)


def scene_graph_to_msg(stamp_ns: int, entities: Iterable[Entity | EntityObservation],
                       relations: Iterable[Relation | RelationObservation], room: str = "",
                       complete: bool = False, source: str = "memory_node",
                       frame_id: str = "map") -> SceneGraphMsg:
    msg = SceneGraphMsg(source=source, room=room, complete=complete,
                        entities=[entity_to_msg(e) for e in entities],
                        relations=[relation_to_msg(r) for r in relations])
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = frame_id
    return msg


def observation_to_msg(graph: SceneGraphObservation) -> SceneGraphMsg:
    return scene_graph_to_msg(graph.stamp_ns, graph.entities, graph.relations, room=graph.room,
                              complete=graph.complete, source=graph.source)


# ---- events ---------------------------------------------------------------------------------------


def skill_feedback_from_msg(msg: SkillFeedbackMsg, stamp_ns: int) -> SkillFeedbackObservation:
    if not msg.skill.strip():
        raise InvalidInput("skill feedback without a skill name")
    return SkillFeedbackObservation(stamp_ns=stamp_ns, robot=msg.robot, skill=msg.skill.strip(),
                                    args=list(msg.args), target_id=msg.target_id, success=bool(msg.success),
                                    status=msg.status, message=msg.message, plan_id=msg.plan_id,
                                    plan_step=int(msg.step))


def skill_feedback_to_msg(fb: SkillFeedbackObservation) -> SkillFeedbackMsg:
    msg = SkillFeedbackMsg(robot=fb.robot, skill=fb.skill, args=list(fb.args), target_id=fb.target_id,
                           success=fb.success, status=fb.status, message=fb.message, plan_id=fb.plan_id,
                           step=fb.plan_step)
    msg.header.stamp = ns_to_stamp(fb.stamp_ns)
    return msg


def utterance_from_msg(msg: UtteranceMsg, stamp_ns: int) -> UtteranceObservation:
    if not msg.text.strip():
        raise InvalidInput("utterance with empty text")
    return UtteranceObservation(stamp_ns=stamp_ns, speaker=msg.speaker, text=msg.text)


def utterance_to_msg(u: UtteranceObservation) -> UtteranceMsg:
    msg = UtteranceMsg(speaker=u.speaker, text=u.text)
    msg.header.stamp = ns_to_stamp(u.stamp_ns)
    return msg


def activity_from_msg(msg: ActivityMsg, stamp_ns: int) -> ActivityObservation:
    """Raise InvalidInput with a readable reason (no verb, overlong text, too many objects)."""
    try:
        return ActivityObservation(stamp_ns=stamp_ns, actor=msg.actor, verb=msg.verb, objects=list(msg.objects),
                                   location=msg.location, text=msg.text)
    except ValidationError as err:
        raise InvalidInput(f"activity: {_first_error(err)}") from None


def activity_to_msg(a: ActivityObservation) -> ActivityMsg:
    msg = ActivityMsg(actor=a.actor, verb=a.verb, objects=list(a.objects), location=a.location, text=a.text)
    msg.header.stamp = ns_to_stamp(a.stamp_ns)
    return msg


def pose_from_msg(msg) -> Pose:
    """geometry_msgs/PoseStamped -> Pose (yaw only: the memory is planar)."""
    p, q = msg.pose.position, msg.pose.orientation
    vals = (p.x, p.y, p.z, q.x, q.y, q.z, q.w)
    if not all(math.isfinite(v) for v in vals):
        raise InvalidInput("robot pose contains NaN or inf")
    # normalised first: products of a huge (finite) unnormalised quaternion overflowed to inf - inf = NaN yaw
    n = math.hypot(q.x, q.y, q.z, q.w) or 1.0
    x, y, z, w = q.x / n, q.y / n, q.z / n, q.w / n
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return Pose(position=Point(x=p.x, y=p.y, z=p.z), yaw=yaw, frame_id=msg.header.frame_id or "map")


def image_pixels(msg) -> np.ndarray:
    """sensor_msgs/Image -> HxW (one channel) or HxWxC array in native byte order; InvalidInput when the
    encoding is unknown or the data does not match height x step.

    Rows may be padded (``step`` > width x pixel size, as some drivers send): ros2_numpy's numpify refused
    those (it reshapes the whole buffer to width x channels), so the rows are cut here with the step."""
    from ros2_numpy.image import name_to_dtypes  # the encodings table of REP 104 images

    if msg.encoding not in name_to_dtypes:
        raise InvalidInput(f"unsupported image encoding {msg.encoding!r}")
    scalar, channels = name_to_dtypes[msg.encoding]
    dtype = np.dtype(scalar).newbyteorder(">" if msg.is_bigendian else "<")
    row = msg.width * channels * dtype.itemsize
    if msg.step < row:
        raise InvalidInput(f"image step {msg.step} is shorter than a row of {msg.width} {msg.encoding} pixels "
                           f"({row} bytes)")
    if len(msg.data) != msg.step * msg.height:
        raise InvalidInput(f"image data has {len(msg.data)} bytes, expected height x step = "
                           f"{msg.height} x {msg.step}")
    rows = np.frombuffer(msg.data, dtype=np.uint8).reshape(msg.height, msg.step)[:, :row]
    pixels = np.ascontiguousarray(rows).view(dtype).reshape(msg.height, msg.width, channels)
    pixels = pixels.astype(dtype.newbyteorder("="), copy=False)
    return pixels[..., 0] if channels == 1 else pixels


def frame_from_image_msg(msg, max_pixels: int, jpeg_quality: int) -> tuple[bytes, list[float]]:
    """sensor_msgs/Image -> (JPEG bytes, 16x16 grey thumbnail) for frame memory; InvalidInput for an image
    that is too large, whose data does not match its size and encoding, or whose encoding is unsupported."""
    from memory_node.perception.frames import encode_frame

    if msg.width * msg.height > max_pixels:
        raise InvalidInput(f"image {msg.width}x{msg.height} exceeds limits.max_image_pixels")
    return encode_frame(image_pixels(msg), msg.encoding, jpeg_quality)


# ---- requests -------------------------------------------------------------------------------------


def _point_msg(p: Point | None) -> PointMsg:
    return PointMsg(x=math.nan, y=math.nan, z=math.nan) if p is None else PointMsg(x=p.x, y=p.y, z=p.z)


def _point_from(m: PointMsg) -> Point | None:
    """None for NaN (or inf): the messages' "memory does not know"."""
    return Point(x=m.x, y=m.y, z=m.z) if all(math.isfinite(v) for v in (m.x, m.y, m.z)) else None


def approach_to_msg(pose: Pose | None) -> PoseMsg:
    """A step's approach pose (yaw as a rotation about z); every field NaN for none."""
    msg = PoseMsg()
    if pose is None:
        msg.position = _point_msg(None)
        msg.orientation.x = msg.orientation.y = msg.orientation.z = msg.orientation.w = math.nan
        return msg
    msg.position = _point_msg(pose.position)
    msg.orientation.z = math.sin(pose.yaw / 2.0)
    msg.orientation.w = math.cos(pose.yaw / 2.0)
    return msg


def approach_from_msg(msg: PoseMsg, frame_id: str = "map") -> Pose | None:
    """None when the position or orientation is not finite (no pose, or a broken one)."""
    q = msg.orientation
    position = _point_from(msg.position)
    if position is None or not all(math.isfinite(v) for v in (q.x, q.y, q.z, q.w)):
        return None
    yaw = math.atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z))
    return Pose(position=position, yaw=yaw, frame_id=frame_id or "map")


def skill_call_to_msg(s: SkillCall) -> SkillCallMsg:
    # what a plan says is shown to people: no stored name's bidi or control characters in it (core/text.py)
    return SkillCallMsg(skill=s.skill, args=list(s.args), text=clean_text(s.text),
                        arg_positions=[_point_msg(p) for p in s.arg_positions], approach=approach_to_msg(s.approach))


def plan_to_msg(plan: Plan, stamp_ns: int, plan_id: str = "") -> PlanMsg:
    steps = [skill_call_to_msg(s) for s in plan.steps]
    msg = PlanMsg(robot=plan.robot, instruction=plan.instruction, steps=steps,
                  evidence_ids=list(plan.evidence_ids), explanation=clean_text(plan.explanation), plan_id=plan_id)
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = "map"
    return msg


def plan_from_msg(msg: PlanMsg) -> Plan:
    frame = msg.header.frame_id or "map"
    return Plan(robot=msg.robot, instruction=msg.instruction,
                steps=[SkillCall(skill=s.skill, args=list(s.args), text=s.text,
                                 arg_positions=[_point_from(p) for p in s.arg_positions],
                                 approach=approach_from_msg(s.approach, frame)) for s in msg.steps],
                evidence_ids=list(msg.evidence_ids), explanation=msg.explanation)


def fill_ask_response(answer: Answer, response):
    response.success = answer.success
    response.answer = clean_text(answer.answer)
    response.answer_ids = list(answer.answer_ids)
    response.evidence_ids = list(answer.evidence_ids)
    response.confidence = float(answer.confidence)
    response.error = clean_text(answer.error)
    return response


def memory_record_to_msg(rec: MemoryRecord) -> MemoryRecordMsg:
    return MemoryRecordMsg(id=rec.id, kind=rec.kind, text=rec.text, json=rec.json_data,
                           stamp=ns_to_stamp(rec.stamp_ns), score=float(rec.score))


def memory_record_from_msg(msg: MemoryRecordMsg) -> MemoryRecord:
    return MemoryRecord(id=msg.id, kind=msg.kind, text=msg.text, json_data=msg.json,
                        stamp_ns=stamp_to_ns(msg.stamp), score=float(msg.score))


def occupancy_grid_to_msg(grid, resolution: float, origin: tuple[float, float, float], stamp_ns: int,
                          frame_id: str = "map"):
    """int8 grid (row 0 = lowest y) -> nav_msgs/OccupancyGrid."""
    from nav_msgs.msg import OccupancyGrid

    msg = OccupancyGrid()
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = frame_id
    msg.info.map_load_time = msg.header.stamp
    msg.info.resolution = float(resolution)
    msg.info.height, msg.info.width = (int(v) for v in grid.shape)
    msg.info.origin.position.x, msg.info.origin.position.y = float(origin[0]), float(origin[1])
    msg.info.origin.orientation.z = math.sin(origin[2] / 2.0)
    msg.info.origin.orientation.w = math.cos(origin[2] / 2.0)
    msg.data = grid.reshape(-1).astype("int8").tolist()
    return msg


# ---- sensors (what a simulator or a driver publishes) -----------------------------------------------


def _image_msg(pixels, encoding: str, stamp_ns: int, frame_id: str):
    """A contiguous HxW(xC) array, already in the encoding's dtype -> sensor_msgs/Image."""
    from sensor_msgs.msg import Image

    msg = Image()
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = frame_id
    msg.height, msg.width = int(pixels.shape[0]), int(pixels.shape[1])
    msg.encoding = encoding
    msg.step = msg.width * pixels.itemsize * (pixels.shape[2] if pixels.ndim == 3 else 1)
    msg.data = pixels.tobytes()
    return msg


def image_to_msg(rgb, stamp_ns: int, frame_id: str):
    """uint8 HxWx3 RGB array -> sensor_msgs/Image (rgb8)."""
    return _image_msg(rgb.astype("uint8"), "rgb8", stamp_ns, frame_id)


def depth_to_msg(depth, stamp_ns: int, frame_id: str):
    """float32 HxW metres (inf: nothing in range) -> sensor_msgs/Image (32FC1), REP 118 conventions."""
    return _image_msg(depth.astype("<f4"), "32FC1", stamp_ns, frame_id)


def camera_info_to_msg(fx: float, fy: float, cx: float, cy: float, width: int, height: int, stamp_ns: int,
                       frame_id: str):
    """Pinhole intrinsics without distortion -> sensor_msgs/CameraInfo."""
    from sensor_msgs.msg import CameraInfo

    msg = CameraInfo()
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = frame_id
    msg.width, msg.height = int(width), int(height)
    msg.distortion_model = "plumb_bob"
    msg.d = [0.0] * 5
    msg.k = [fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0]
    msg.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    msg.p = [fx, 0.0, cx, 0.0, 0.0, fy, cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    return msg


def pose_to_msg(pose: Pose, stamp_ns: int):
    """Pose (planar: x, y, z, yaw) -> geometry_msgs/PoseStamped."""
    from geometry_msgs.msg import PoseStamped

    msg = PoseStamped()
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = pose.frame_id
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = (pose.position.x, pose.position.y,
                                                                     pose.position.z)
    msg.pose.orientation.z = math.sin(pose.yaw / 2.0)
    msg.pose.orientation.w = math.cos(pose.yaw / 2.0)
    return msg


# ---- camera images -> numpy (perception) -------------------------------------------------------------------

_IMAGE_DTYPES = {"rgb8": ("u1", 3), "bgr8": ("u1", 3), "rgba8": ("u1", 4), "bgra8": ("u1", 4), "mono8": ("u1", 1),
                 "8uc1": ("u1", 1), "8uc3": ("u1", 3), "32fc1": ("f4", 1), "16uc1": ("u2", 1), "mono16": ("u2", 1),
                 "32sc1": ("i4", 1), "16sc1": ("i2", 1), "32uc1": ("u4", 1)}


def image_array_from_msg(msg, max_pixels: int = 0):
    """sensor_msgs/Image -> HxW or HxWxC numpy array (a copy) in the encoding's dtype; InvalidInput (with the
    reason) for an unknown encoding, a buffer of the wrong size or a step too short for the width."""
    import numpy as np

    enc = msg.encoding.strip().lower()
    if enc not in _IMAGE_DTYPES:
        raise InvalidInput(f"unsupported image encoding {msg.encoding!r}; supported: {', '.join(sorted(_IMAGE_DTYPES))}")
    if msg.width == 0 or msg.height == 0:
        raise InvalidInput(f"empty image {msg.width}x{msg.height}")
    if max_pixels and msg.width * msg.height > max_pixels:
        raise InvalidInput(f"image {msg.width}x{msg.height} has more than {max_pixels} pixels")
    kind, channels = _IMAGE_DTYPES[enc]
    dtype = np.dtype(("<" if not msg.is_bigendian else ">") + kind)
    row = msg.width * channels * dtype.itemsize
    if msg.step < row:
        raise InvalidInput(f"image step {msg.step} is shorter than a row of {msg.width} {msg.encoding} pixels ({row} bytes)")
    data = bytes(msg.data) if not isinstance(msg.data, (bytes, bytearray, memoryview)) else msg.data
    if len(data) != msg.step * msg.height:
        raise InvalidInput(f"image data has {len(data)} bytes, expected {msg.step * msg.height} "
                           f"({msg.height} rows of {msg.step})")
    rows = np.frombuffer(data, dtype=np.uint8).reshape(msg.height, msg.step)[:, :row]
    out = np.ascontiguousarray(rows).view(dtype).reshape(msg.height, msg.width, channels)
    out = out.astype(dtype.newbyteorder("="), copy=True)
    return out[:, :, 0] if channels == 1 else out


def rgb_from_image(array, encoding: str):
    """An 8-bit colour image in any of rgb8/bgr8/rgba8/bgra8/mono8 -> HxWx3 uint8 RGB."""
    import numpy as np

    enc = encoding.strip().lower()
    if enc in ("rgb8", "8uc3"):
        return array
    if enc == "bgr8":
        return np.ascontiguousarray(array[:, :, ::-1])
    if enc == "rgba8":
        return np.ascontiguousarray(array[:, :, :3])
    if enc == "bgra8":
        return np.ascontiguousarray(array[:, :, 2::-1])
    if enc in ("mono8", "8uc1"):
        return np.repeat(array[:, :, None], 3, axis=2)
    raise InvalidInput(f"colour image encoding {encoding!r} is not one of rgb8, bgr8, rgba8, bgra8, mono8")


def segmentation_to_msg(seg, stamp_ns: int, frame_id: str):
    """int HxW segment ids -> sensor_msgs/Image (32SC1)."""
    return _image_msg(seg.astype("<i4"), "32SC1", stamp_ns, frame_id)


def camera_pose_to_msg(position, quaternion_xyzw, stamp_ns: int, frame_id: str = "map"):
    """The camera's optical frame in the map -> geometry_msgs/PoseStamped."""
    from geometry_msgs.msg import PoseStamped

    msg = PoseStamped()
    msg.header.stamp = ns_to_stamp(stamp_ns)
    msg.header.frame_id = frame_id
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = (float(v) for v in position)
    (msg.pose.orientation.x, msg.pose.orientation.y, msg.pose.orientation.z,
     msg.pose.orientation.w) = (float(v) for v in quaternion_xyzw)
    return msg


def diagnostics_name(node_fqn: str) -> str:
    """The name of a memory node's /diagnostics status: its namespace and name, so two nodes on one domain
    (a robot's and a simulator's) are told apart ("sim/memory_node: memory")."""
    return f"{node_fqn.strip('/')}: memory"
