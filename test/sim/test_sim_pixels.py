"""Perception from pixels on Genesis-rendered frames of the small home: masks from a detector's box and the
depth image against the renderer's own segmentation. (YOLOv3-tiny on these renders of coloured boxes is
measured by ``memory_node.bench.perception_sim --detectors darknet``: it finds next to nothing in them.)"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("open3d")


@pytest.fixture(scope="module")
def rendered(sim_world):
    """The frames of a stop at each piece of furniture (the tour's second half), with the segment table."""
    from memory_node.bench.perception_sim import rgbd_frame

    sim_world.reset()
    frames = []
    for body in sorted(sim_world.state.furniture(), key=lambda b: b.id):
        if body.parent is None and sim_world.execute("navigate_to", [body.id]).success:
            frames.append(rgbd_frame(sim_world.render(segmentation=True), (len(frames) + 1) * 1_000_000_000))
    table = sim_world.segment_table()
    sim_world.reset()
    assert len(frames) >= 5
    return frames, table


def test_depth_masks_match_the_renderers_segmentation(rendered):
    from memory_node.perception.depth_masks import DepthMaskStage
    from memory_node.perception.detection import PixelBox

    frames, table = rendered
    stage = DepthMaskStage()
    scores = []
    for f in frames:
        for seg_id in table:
            truth = f.segmentation == seg_id
            if truth.sum() < 100:
                continue
            found = stage.mask(f, PixelBox.of_mask(truth))
            scores.append(0.0 if found is None else float((found & truth).sum() / (found | truth).sum()))
    assert len(scores) >= 15
    # measured: median 0.88 over the whole tour (test/perception/test_depth_masks.py has the synthetic case)
    assert np.median(scores) > 0.75 and np.mean(np.array(scores) > 0.5) > 0.85, sorted(scores)

