"""Fuzzing the conversion layer with hypothesis: whatever arrives in a message (malformed scene graphs, huge
and odd texts, NaN/inf poses, wrong image encodings, broken JPEG/PNG bytes, oversized images) is either
converted into valid records or refused with InvalidInput, and every part dropped is counted with a reason.

The budget is small for CI (``EXAMPLES`` below, seconds each); ``scripts/fuzz.sh --examples 1000``
(``python -m memory_node.bench.fuzz``) runs the same properties with a larger one.
"""

import math
import os
from array import array

import cv2
import numpy as np
from geometry_msgs.msg import Point, PoseStamped
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sensor_msgs.msg import Image

from memory_node.core.models import InvalidInput
from memory_node.core.store import MemoryStore
from memory_node.msg import Activity, Entity, Relation, SceneGraph, SkillFeedback, Utterance
from memory_node.perception.frames import decode_compressed
from memory_node.ros import conversions as conv

# examples per property: small for CI; bench/fuzz.py raises it for the figures
EXAMPLES = int(os.environ.get("MEMORY_NODE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

any_float = st.floats(allow_nan=True, allow_infinity=True)
huge_text = st.tuples(st.text(min_size=1, max_size=8), st.integers(200, 3000)).map(lambda t: t[0] * t[1])
odd_text = st.one_of(st.text(max_size=30), huge_text,
                     st.sampled_from(["", " ", "\t\n", "mug 1", "mug_1", "_:3", "a" * 129, "🙂", "\u202emug",
                                      "Next To", "hovering", "ON", "'; DROP TABLE entities; --"]))
ids = st.one_of(st.sampled_from(["mug_1", "table_1", "kitchen", "", " ", "_:a", "bad id", "x" * 129]), odd_text)


@st.composite
def entity_msgs(draw):
    keys = draw(st.lists(odd_text, max_size=3))
    values = draw(st.one_of(st.lists(odd_text, min_size=len(keys), max_size=len(keys)),
                            st.lists(odd_text, max_size=4)))  # sometimes of another length: malformed
    conf = draw(st.one_of(st.floats(min_value=-3e38, max_value=3e38), st.sampled_from([math.nan, math.inf,
                                                                                          -math.inf])))
    return Entity(id=draw(ids), label=draw(odd_text), name=draw(odd_text), room=draw(ids),
                  position=Point(x=draw(any_float), y=draw(any_float), z=draw(any_float)),
                  attribute_keys=keys, attribute_values=values, states=draw(st.lists(odd_text, max_size=3)),
                  confidence=conf)


@st.composite
def scene_graph_msgs(draw):
    entities = draw(st.lists(entity_msgs(), max_size=8))
    names = [e.id for e in entities] or ["mug_1"]
    endpoint = st.one_of(st.sampled_from(names), ids)
    relations = draw(st.lists(st.builds(Relation, subject=endpoint, predicate=st.one_of(
        st.sampled_from(["on", "in", "inside", "Next To", "close_to", "held_by", "near", "between"]), odd_text),
        object=endpoint), max_size=8))
    msg = SceneGraph(source=draw(odd_text), room=draw(ids), complete=draw(st.booleans()), entities=entities,
                     relations=relations)
    msg.header.stamp = conv.ns_to_stamp(draw(st.integers(0, 2**31 * 10**9)))
    return msg


@FUZZ
@given(msg=scene_graph_msgs())
def test_a_scene_graph_is_converted_part_by_part_and_every_dropped_part_has_a_reason(msg):
    n_entities, n_relations = len(msg.entities), len(msg.relations)
    graph = conv.scene_graph_from_msg(msg, 7)  # never raises: bad parts are dropped, the rest kept
    dropped_entities = n_entities - len(graph.entities)
    dropped_relations = n_relations - len(graph.relations)
    assert dropped_entities >= 0 and dropped_relations >= 0
    assert len(graph.rejected) == dropped_entities + dropped_relations
    assert all(graph.rejected)
    for e in graph.entities:  # what is kept is valid: finite positions, well-formed ids, finite confidence
        assert e.position is None or all(math.isfinite(v) for v in (e.position.x, e.position.y, e.position.z))
        assert 1 <= len(e.id) <= 128 and math.isfinite(e.confidence)


@FUZZ
@given(msgs=st.lists(scene_graph_msgs(), min_size=1, max_size=4))
def test_whatever_the_conversion_keeps_the_store_ingests(tmp_path_factory, msgs):
    store = MemoryStore(tmp_path_factory.mktemp("conv") / "m.db")
    try:
        for i, msg in enumerate(msgs):
            graph = conv.scene_graph_from_msg(msg, (i + 1) * 10**9)
            try:
                result = store.ingest_scene_graph(graph)
            except InvalidInput as err:  # a field over its limit (core/limits.py): the graph refused whole
                assert "over limits." in str(err)
                continue
            assert len(result.rejected) >= len(graph.rejected)
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()


def _refused_or(convert, check=lambda out: None):
    try:
        out = convert()
    except InvalidInput as err:
        assert str(err)
        return None
    check(out)
    return out


@FUZZ
@given(skill=odd_text, args=st.lists(odd_text, max_size=3), target=ids, success=st.booleans(), status=odd_text,
       message=odd_text, speaker=odd_text, text=odd_text, actor=odd_text, verb=odd_text,
       objects=st.lists(odd_text, max_size=40), location=odd_text)
def test_events_are_converted_or_refused_with_a_reason(skill, args, target, success, status, message, speaker,
                                                       text, actor, verb, objects, location):
    _refused_or(lambda: conv.skill_feedback_from_msg(SkillFeedback(
        robot="vega", skill=skill, args=args, target_id=target, success=success, status=status, message=message), 1),
        lambda fb: fb.skill.strip() or (_ for _ in ()).throw(AssertionError("empty skill kept")))
    _refused_or(lambda: conv.utterance_from_msg(Utterance(speaker=speaker, text=text), 1))
    _refused_or(lambda: conv.activity_from_msg(Activity(actor=actor, verb=verb, objects=objects,
                                                        location=location, text=text), 1))


# huge finite values as well: an unnormalised quaternion of them once gave a NaN yaw (inf - inf)
pose_float = st.one_of(any_float, st.floats(min_value=1e150, max_value=1e308), st.floats(-1e308, -1e150))


@FUZZ
@given(values=st.tuples(*[pose_float] * 7))
def test_a_pose_is_finite_or_refused(values):
    msg = PoseStamped()
    p, q = msg.pose.position, msg.pose.orientation
    p.x, p.y, p.z, q.x, q.y, q.z, q.w = values
    pose = _refused_or(lambda: conv.pose_from_msg(msg))
    if pose is not None:
        assert all(math.isfinite(v) for v in (pose.position.x, pose.position.y, pose.position.z, pose.yaw))


ENCODINGS = ["rgb8", "bgr8", "rgba8", "bgra8", "mono8", "mono16", "16UC1", "8UC1", "8UC3", "8UC4", "8SC1",
             "32FC1", "64FC3", "rgb16", "bayer_rggb8", "yuv422", "", "RGB8", "jpeg"]


@st.composite
def image_msgs(draw):
    width = draw(st.one_of(st.integers(0, 48), st.sampled_from([70000, 2**31])))
    height = draw(st.integers(0, 48)) if width < 1000 else 1
    encoding = draw(st.sampled_from(ENCODINGS))
    bytes_per_row = width * draw(st.sampled_from([1, 2, 3, 4, 8, 24]))
    step = draw(st.one_of(st.just(bytes_per_row), st.integers(0, 2 * max(bytes_per_row, 1))))
    size = draw(st.one_of(st.just(step * height), st.integers(0, 3 * max(step * height, 1) + 3)))
    size = min(size, 300_000)
    msg = Image(width=width, height=height, encoding=encoding, step=min(step, 2**32 - 1),
                is_bigendian=draw(st.integers(0, 1)))
    msg.data = array("B", draw(st.binary(min_size=min(size, 64), max_size=min(size, 64))) * (size // 64 or 1))
    return msg


@FUZZ
@given(msg=image_msgs())
def test_a_raw_image_becomes_a_jpeg_frame_or_is_refused(msg):
    out = _refused_or(lambda: conv.frame_from_image_msg(msg, max_pixels=3840 * 2160, jpeg_quality=85))
    if out is not None:
        encoded, thumb = out
        assert cv2.imdecode(np.frombuffer(encoded, np.uint8), cv2.IMREAD_COLOR) is not None
        assert len(thumb) == 256


SUPPORTED = {"rgb8": (np.uint8, 3), "bgr8": (np.uint8, 3), "rgba8": (np.uint8, 4), "bgra8": (np.uint8, 4),
             "mono8": (np.uint8, 1), "mono16": (np.uint16, 1), "16UC1": (np.uint16, 1), "8UC1": (np.uint8, 1),
             "8UC3": (np.uint8, 3)}


@FUZZ
@given(encoding=st.sampled_from(sorted(SUPPORTED)), width=st.integers(1, 40), height=st.integers(1, 30),
       pad=st.integers(0, 9), big_endian=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_a_well_formed_image_of_a_supported_encoding_is_always_taken(encoding, width, height, pad, big_endian,
                                                                     seed):
    """Row padding (step > width x pixel size) and big-endian 16-bit data are valid ROS images: the frame's
    thumbnail is that of the unpadded pixels (ros2_numpy's numpify refused padded rows)."""
    scalar, channels = SUPPORTED[encoding]
    shape = (height, width, channels) if channels > 1 else (height, width)
    pixels = np.random.default_rng(seed).integers(0, np.iinfo(scalar).max, shape, dtype=scalar, endpoint=True)
    wire = pixels.astype(np.dtype(scalar).newbyteorder(">" if big_endian else "<"))
    rows = wire.reshape(height, -1).view(np.uint8)
    padded = np.concatenate([rows, np.full((height, pad), 0xAB, np.uint8)], axis=1)
    msg = Image(width=width, height=height, encoding=encoding, step=padded.shape[1], is_bigendian=int(big_endian))
    msg.data = array("B", padded.tobytes())
    assert np.array_equal(conv.image_pixels(msg), pixels)
    encoded, thumb = conv.frame_from_image_msg(msg, max_pixels=3840 * 2160, jpeg_quality=85)
    assert len(thumb) == 256 and cv2.imdecode(np.frombuffer(encoded, np.uint8), cv2.IMREAD_COLOR) is not None


def _real_images() -> list[bytes]:
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (24, 32, 3), dtype=np.uint8)
    return [cv2.imencode(".jpg", img)[1].tobytes(), cv2.imencode(".png", img)[1].tobytes()]


@FUZZ
@given(which=st.integers(0, 1), cut=st.integers(0, 2000), flips=st.lists(st.tuples(st.integers(0, 2000),
                                                                                  st.integers(0, 255)), max_size=8),
       junk=st.binary(max_size=64))
def test_broken_jpeg_and_png_bytes_are_refused_or_decoded(which, cut, flips, junk):
    data = bytearray(_real_images()[which])
    for pos, value in flips:
        data[pos % len(data)] = value
    data = bytes(data[:cut]) + junk if cut < len(data) else bytes(data)
    out = _refused_or(lambda: decode_compressed(data))
    if out is not None:
        image, fmt, thumb = out
        assert image.ndim == 3 and fmt in ("jpg", "png") and len(thumb) == 256
