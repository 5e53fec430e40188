"""Frame assembly from separate camera topics, the newest-frame mailbox, room layouts, instance ids, the
detector registry: what the perception node relies on, without ROS."""

import threading
from pathlib import Path

import numpy as np
import pytest

from memory_node.core.models import InvalidInput
from memory_node.perception.camera import CameraIntrinsics, CameraPose
from memory_node.perception.frame_sync import FrameAssembler, LatestFrame
from memory_node.perception.rooms import RoomMap
from memory_node.perception.segmentation_detector import Segment, segments_from_table

ROOT = Path(__file__).resolve().parents[2]
MS = 1_000_000
K = CameraIntrinsics.from_fov(8, 6, 60.0)
POSE = CameraPose.look_at((0, 0, 1.5), (2, 0, 0.5))


def _rgb(h=6, w=8):
    return np.zeros((h, w, 3), np.uint8)


def _depth(h=6, w=8):
    return np.ones((h, w), np.float32)


def test_a_frame_completes_when_every_part_is_there_in_any_order():
    a = FrameAssembler(needs_segmentation=True)
    assert a.add_depth(100 * MS, _depth()) is None
    assert a.add_rgb(100 * MS, _rgb(), "cam") is None
    assert a.missing() == "camera info (none received), segmentation (none waiting), camera pose (none waiting)"
    assert a.set_intrinsics(K) is None
    assert a.add_segmentation(101 * MS, np.zeros((6, 8), np.int32)) is None  # within the 20 ms tolerance
    frame = a.add_pose(150 * MS, POSE)  # the nearest pose, 50 ms away, within the 100 ms tolerance
    assert frame is not None and frame.stamp_ns == 100 * MS and frame.frame_id == "cam"
    assert a.missing() == "" and a.dropped["incomplete"] == 0


def test_a_pose_too_far_from_the_frame_does_not_complete_it():
    a = FrameAssembler(pose_tolerance_ns=50 * MS)
    a.set_intrinsics(K)
    a.add_pose(0, POSE)
    a.add_depth(200 * MS, _depth())
    assert a.add_rgb(200 * MS, _rgb()) is None
    assert a.missing() == "camera pose (the nearest is -200 ms from the colour image; pose_tolerance 50 ms)"
    assert a.add_pose(230 * MS, POSE) is not None


@pytest.mark.parametrize("period_ms", [33, 200, 1000])
def test_depth_stamped_30_ms_after_colour_pairs_at_the_cameras_rate(period_ms):
    """Separate colour and depth streams stamp one capture apart; the default tolerance follows the colour
    period (half of it, 20-100 ms). At 30 Hz the depth of a capture is as near to the next colour image as
    to its own, and one of the two is taken: either way every colour image after the first becomes a frame."""
    a = FrameAssembler()
    a.set_intrinsics(K)
    frames = []
    for i in range(6):
        t = (i + 1) * period_ms * MS
        a.add_pose(t, POSE)
        frames.append(a.add_rgb(t, _rgb()))
        frames.append(a.add_depth(t + 30 * MS, _depth()))
    done = [f for f in frames if f is not None]
    assert len(done) >= 5
    if period_ms >= 200:  # the depth image of its own capture, not the one before
        assert [f.stamp_ns for f in done] == [(i + 1) * period_ms * MS for i in range(6)]
    # a fixed 20 ms tolerance pairs none, and says why
    fixed = FrameAssembler(sync_tolerance_ns=20 * MS)
    fixed.set_intrinsics(K)
    fixed.add_pose(200 * MS, POSE)
    assert fixed.add_rgb(200 * MS, _rgb()) is None and fixed.add_depth(230 * MS, _depth()) is None
    assert fixed.missing() == "depth (the nearest is +30 ms from the colour image; sync_tolerance 20 ms)"


def test_older_frames_that_never_completed_are_dropped_and_counted():
    a = FrameAssembler()
    a.set_intrinsics(K)
    a.add_pose(0, POSE)
    a.add_rgb(1 * MS, _rgb())  # its depth never arrives (lost on a best-effort topic)
    a.add_rgb(40 * MS, _rgb())
    assert a.add_depth(40 * MS, _depth()) is None  # a pose nearer to 40 ms than the one at 0 may still come
    assert "at or after the colour image" in a.missing()
    frame = a.add_pose(60 * MS, POSE)
    assert frame is not None and frame.stamp_ns == 40 * MS
    assert a.dropped["incomplete"] == 1


def test_an_image_that_arrives_before_its_own_pose_waits_for_it():
    # A turning robot's views 70 ms apart, each published with its own camera pose: the second view's
    # colour, depth and segmentation are handled before its pose. The first view's pose is within the
    # 100 ms tolerance, but it is not this view's: the frame must wait and take its own.
    first, second = CameraPose.look_at((0, 0, 1.5), (2, 0, 0.5)), CameraPose.look_at((0, 0, 1.5), (0, 2, 0.5))
    a = FrameAssembler(needs_segmentation=True)
    a.set_intrinsics(K)
    seg = np.zeros((6, 8), np.int32)
    for part in (lambda: a.add_pose(0, first), lambda: a.add_rgb(0, _rgb()), lambda: a.add_depth(0, _depth())):
        part()
    assert a.add_segmentation(0, seg) is not None
    assert a.add_rgb(70 * MS, _rgb()) is None
    assert a.add_depth(70 * MS, _depth()) is None
    assert a.add_segmentation(70 * MS, seg) is None
    frame = a.add_pose(70 * MS, second)
    assert frame is not None and frame.stamp_ns == 70 * MS
    assert np.allclose(frame.pose.rotation, second.rotation) and not np.allclose(frame.pose.rotation, first.rotation)


def test_a_newer_image_settles_an_older_one_with_the_nearest_parts_there_are():
    # poses slower than the camera, and the stream moves on: the older image takes the nearest pose
    a = FrameAssembler()
    a.set_intrinsics(K)
    a.add_pose(0, POSE)
    a.add_rgb(30 * MS, _rgb())
    assert a.add_depth(30 * MS, _depth()) is None
    frame = a.add_rgb(60 * MS, _rgb())  # the older one completes now, with the pose at 0
    assert frame is not None and frame.stamp_ns == 30 * MS
    assert a.add_depth(60 * MS, _depth()) is None  # the newest waits for a later pose
    assert a.add_pose(90 * MS, POSE).stamp_ns == 60 * MS


def test_parts_whose_size_disagrees_with_the_camera_info_are_rejected_with_both_sizes():
    a = FrameAssembler()
    a.set_intrinsics(K)
    a.add_pose(0, POSE)
    a.add_rgb(0, _rgb())
    with pytest.raises(InvalidInput, match="depth image is 4x3 but the camera info says 8x6"):
        a.add_depth(0, _depth(3, 4))


def test_the_mailbox_keeps_only_the_newest_frame():
    a = FrameAssembler()
    a.set_intrinsics(K)
    box = LatestFrame()
    frames = []
    for i in range(3):
        a.add_pose(i * 30 * MS, POSE)
        a.add_rgb(i * 30 * MS, _rgb())
        frames.append(a.add_depth(i * 30 * MS, _depth()))
    assert [box.put(f) for f in frames] == [None, frames[0], frames[1]]
    assert box.dropped == 2 and box.take(timeout=0).stamp_ns == 60 * MS and box.take(timeout=0) is None
    got = []
    t = threading.Thread(target=lambda: got.append(box.take(timeout=5)))
    t.start()
    box.put(frames[0])
    t.join(timeout=5)
    assert got == [frames[0]]


def test_room_layout_from_a_scene_file():
    rooms = RoomMap.load(ROOT / "config" / "sim" / "scenes" / "small_home.yaml")
    assert set(rooms.rooms) == {"kitchen_201", "livingroom_319"}
    assert rooms.room_at(-1.0, -5.0) == "kitchen_201"
    assert rooms.room_at(5.0, -8.0) == "livingroom_319"
    assert rooms.room_at(-3.9, -5.0) == "kitchen_201"  # against the wall, just outside the floor: snapped
    assert rooms.room_at(-30.0, 0.0) == ""
    assert rooms.rooms["kitchen_201"].name == "kitchen"


def test_bad_room_layouts_are_refused_with_the_file_and_the_reason(tmp_path):
    bad = tmp_path / "rooms.yaml"
    bad.write_text("rooms:\n  - {id: a, floor: [[1, 0, 0, 1]]}\n")
    with pytest.raises(InvalidInput, match=r"rooms.yaml: room 0 is invalid \(floor rectangles"):
        RoomMap.load(bad)
    with pytest.raises(InvalidInput, match="cannot read it"):
        RoomMap.load(tmp_path / "missing.yaml")


def test_segment_tables_as_the_simulator_publishes_them():
    assert segments_from_table({"3": "mug", "4": {"label": "table", "instance": "table_1"}}) == {
        3: Segment("mug"), 4: Segment("table", "table_1")}
    with pytest.raises(InvalidInput, match="not an integer id"):
        segments_from_table({"x": "mug"})
    with pytest.raises(InvalidInput, match="expected a label"):
        segments_from_table({"1": 5})


def test_detectors_by_name_and_a_clear_error_for_unknown_ones():
    from memory_node.perception.detectors import DetectorConfig, make_detector
    from memory_node.perception.segmentation_detector import SegmentationDetector

    assert isinstance(make_detector(DetectorConfig("segmentation")), SegmentationDetector)
    with pytest.raises(InvalidInput, match="unknown detector 'nope'; known: .*segmentation"):
        make_detector(DetectorConfig("nope"))


def test_camera_pose_quaternion_round_trip_and_extrinsic_composition():
    pose = CameraPose.look_at((1.0, 2.0, 1.5), (3.0, 0.0, 0.2))
    back = CameraPose.from_quaternion(pose.position, pose.quaternion_xyzw())
    assert np.allclose(back.rotation, pose.rotation, atol=1e-9)
    # robot at (1, 2) facing +y; camera 0.2 m ahead of the base and 1.5 m up, looking along the base's +x
    robot = CameraPose.from_quaternion((1.0, 2.0, 0.0), (0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)))
    extrinsic = CameraPose(position=np.array([0.2, 0.0, 1.5]),
                           rotation=np.array([[0.0, 0.0, 1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]]))
    cam = robot.then(extrinsic)
    assert np.allclose(cam.position, [1.0, 2.2, 1.5])
    assert np.allclose(cam.rotation[:, 2], [0.0, 1.0, 0.0])  # optical z = the robot's heading
