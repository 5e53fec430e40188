"""Camera model: intrinsics, the optical frame's pose, depth encodings, and frame validation."""

import math

import numpy as np
import pytest

from memory_node.core.models import InvalidInput
from memory_node.perception.camera import CameraIntrinsics, CameraPose, RgbdFrame, depth_in_metres


def test_intrinsics_from_camera_info_k():
    k = CameraIntrinsics.from_k([500.0, 0, 320.0, 0, 510.0, 240.0, 0, 0, 1], 640, 480)
    assert (k.fx, k.fy, k.cx, k.cy, k.width, k.height) == (500.0, 510.0, 320.0, 240.0, 640, 480)


def test_intrinsics_from_fov_match_a_pinhole():
    k = CameraIntrinsics.from_fov(640, 480, 60.0)
    assert k.fy == pytest.approx(240 / math.tan(math.radians(30)))
    assert (k.cx, k.cy) == (319.5, 239.5)


@pytest.mark.parametrize("kw", [dict(fx=0.0), dict(fy=float("nan")), dict(width=0)])
def test_bad_intrinsics_are_refused(kw):
    args = dict(fx=500.0, fy=500.0, cx=320.0, cy=240.0, width=640, height=480) | kw
    with pytest.raises(InvalidInput):
        CameraIntrinsics(**args)


def test_k_of_wrong_length_is_refused():
    with pytest.raises(InvalidInput, match="9 values"):
        CameraIntrinsics.from_k([1.0, 2.0], 640, 480)


def test_look_at_uses_the_optical_convention():
    """z forward, x right, y down: looking along map +x with z up, the image's right is map -y."""
    pose = CameraPose.look_at((0, 0, 1), (5, 0, 1))
    right, down, forward = pose.rotation.T
    assert np.allclose(forward, [1, 0, 0]) and np.allclose(right, [0, -1, 0]) and np.allclose(down, [0, 0, -1])
    # a point 2 m ahead of the camera is 2 m along map x
    assert np.allclose(pose.camera_to_map() @ [0, 0, 2, 1], [2, 0, 1, 1])
    assert np.allclose(pose.map_to_camera() @ pose.camera_to_map(), np.eye(4))


def test_pose_from_quaternion_matches_look_at():
    # optical frame looking along map +x: rotation columns right=-y, down=-z, forward=+x
    q = (-0.5, 0.5, -0.5, 0.5)  # x, y, z, w
    pose = CameraPose.from_quaternion((1.0, 2.0, 3.0), q)
    assert np.allclose(pose.rotation, CameraPose.look_at((0, 0, 0), (1, 0, 0)).rotation)
    with pytest.raises(InvalidInput, match="quaternion"):
        CameraPose.from_quaternion((0, 0, 0), (0, 0, 0, 0))


def test_bad_poses_are_refused():
    with pytest.raises(InvalidInput, match="rotation"):
        CameraPose(np.zeros(3), np.eye(3) * 2)
    with pytest.raises(InvalidInput, match="NaN"):
        CameraPose(np.array([np.nan, 0, 0]), np.eye(3))
    with pytest.raises(InvalidInput, match="parallel"):
        CameraPose.look_at((0, 0, 0), (0, 0, 5))


def test_depth_encodings_and_invalid_values():
    mm = np.array([[0, 1500], [65535, 250]], dtype=np.uint16)
    m = depth_in_metres(mm, "16UC1")
    assert np.isnan(m[0, 0]) and m[0, 1] == pytest.approx(1.5) and m[1, 1] == pytest.approx(0.25)
    f = np.array([[np.nan, np.inf], [0.0, 2.0]], dtype=np.float32)
    m = depth_in_metres(f, "32FC1")
    assert np.isnan(m[:, 0]).all() and np.isnan(m[0, 1]) and m[1, 1] == 2.0
    assert m.dtype == np.float32


@pytest.mark.parametrize("depth, enc, match", [
    (np.zeros((2, 2), np.uint16), "32FC1", "float"),
    (np.zeros((2, 2), np.float32), "16UC1", "uint16"),
    (np.zeros((2, 2), np.float32), "rgb8", "unsupported"),
    (np.zeros((2, 2, 1), np.float32), "32FC1", "2-D"),
])
def test_bad_depth_images_are_refused(depth, enc, match):
    with pytest.raises(InvalidInput, match=match):
        depth_in_metres(depth, enc)


def test_frame_with_mismatched_shapes_is_refused():
    k = CameraIntrinsics.from_fov(64, 48, 60.0)
    pose = CameraPose.look_at((0, 0, 1), (1, 0, 1))
    rgb = np.zeros((48, 64, 3), np.uint8)
    depth = np.ones((48, 64), np.float32)
    RgbdFrame(rgb, depth, k, pose, 0)
    with pytest.raises(InvalidInput, match="depth image is 32x24"):
        RgbdFrame(rgb, np.ones((24, 32), np.float32), k, pose, 0)
    with pytest.raises(InvalidInput, match="RGB image"):
        RgbdFrame(np.zeros((48, 64), np.uint8), depth, k, pose, 0)
    with pytest.raises(InvalidInput, match="segmentation"):
        RgbdFrame(rgb, depth, k, pose, 0, segmentation=np.zeros((10, 10), np.int32))
    with pytest.raises(InvalidInput, match="float32"):
        RgbdFrame(rgb, depth.astype(np.float64), k, pose, 0)


@pytest.mark.parametrize("axis", [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0.819, 0.573), (1, 1, 1)])
def test_quaternion_round_trip_holds_for_half_turns(axis):
    """A half turn has w = 0, where signs read from the antisymmetric part are all lost: the simulator's
    head camera facing -y (the robot's yaw -90 degrees) is a half turn about (0, 0.82, 0.57), and its pose
    went out with another orientation (everything seen that way lifted metres off, below the floor)."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    half_turn = 2.0 * np.outer(a, a) - np.eye(3)
    head = CameraPose.look_at((-5.11, 1.0, 1.65), (-5.11, -1.0, 0.92)).rotation  # facing -y, looking down
    for rot in (half_turn, head):
        q = CameraPose(np.zeros(3), rot).quaternion_xyzw()
        assert q[3] >= 0 and np.isclose(np.linalg.norm(q), 1.0)
        np.testing.assert_allclose(CameraPose.from_quaternion((0, 0, 0), q).rotation, rot, atol=1e-9)


def test_quaternion_round_trip_for_many_orientations():
    rng = np.random.default_rng(7)
    for _ in range(300):
        q = rng.normal(size=4)
        rot = CameraPose.from_quaternion((0, 0, 0), q).rotation
        back = CameraPose(np.zeros(3), rot).quaternion_xyzw()
        np.testing.assert_allclose(CameraPose.from_quaternion((0, 0, 0), back).rotation, rot, atol=1e-9)
