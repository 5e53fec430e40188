"""The perception benchmark's robustness options: depth holes in patches, pose error of the size asked."""

import numpy as np
import pytest

pytest.importorskip("open3d")  # perception_sim imports the lifting (requirements-perception.txt)


def test_depth_holes_lose_the_fraction_asked_in_patches():
    from memory_node.bench.perception_sim import depth_holes

    rng = np.random.default_rng(0)
    depth = np.full((240, 320), 2.0, np.float32)
    holed = depth_holes(depth, 0.05, rng)
    lost = np.isnan(holed)
    assert 0.04 < lost.mean() < 0.06
    assert (holed[~lost] == 2.0).all()
    blocks = lost.reshape(60, 4, 80, 4)
    assert (blocks.all(axis=(1, 3)) == blocks.any(axis=(1, 3))).all()  # whole 4x4 patches, never single pixels
    assert depth_holes(depth, 0.0, rng) is depth


def test_pose_noise_has_the_size_asked_and_stays_a_rotation():
    from memory_node.bench.perception_sim import noisy_pose
    from memory_node.perception.camera import CameraPose

    rng = np.random.default_rng(1)
    pose = CameraPose.look_at((1.0, 2.0, 1.5), (3.0, 2.0, 0.5))
    shifts, angles = [], []
    for _ in range(400):
        p = noisy_pose(pose, 0.02, 1.0, rng)
        shifts.append(p.position - pose.position)
        rel = p.rotation @ pose.rotation.T
        angles.append(np.degrees(np.arccos(np.clip((np.trace(rel) - 1.0) / 2.0, -1.0, 1.0))))
    assert np.std(shifts, axis=0) == pytest.approx([0.02] * 3, rel=0.15)
    assert np.sqrt(np.mean(np.square(angles))) == pytest.approx(1.0, rel=0.15)  # |N(0, 1 degree)|
    assert noisy_pose(pose, 0.0, 0.0, rng) is pose
