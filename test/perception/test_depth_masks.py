"""Masks from a detector's box and the depth image (no segmentation model): measured against the exact
masks of rendered frames, and what they do to the objects' lifted positions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from memory_node.perception.detection import BoxesThenMasks, Detector, PixelBox
from memory_node.perception.segmentation_detector import SegmentationDetector
from memory_node.perception.synthetic import head_camera, kitchen_scene

pytestmark = pytest.mark.usefixtures("open3d_available")
LABELS = {1: "table", 2: "mug", 3: "plate", 4: "cabinet", 5: "box", 6: "banana"}


class BoxesOnly(Detector):
    """The segmentation's boxes without their masks: a box detector that is never wrong about the box."""

    name = "boxes"

    def __init__(self) -> None:
        self.exact = SegmentationDetector(LABELS)

    def detect(self, frame):
        return [replace(d, mask=None) for d in self.exact.detect(frame)]


def stage(**kw):
    from memory_node.perception.depth_masks import DepthMaskStage

    return DepthMaskStage(**kw)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / (a | b).sum())


@pytest.mark.parametrize("noise", [0.0, 0.004])
def test_depth_masks_cover_the_objects_in_their_boxes(noise):
    k, pose = head_camera(320, 240)
    frame = kitchen_scene().render(k, pose, stamp_ns=1, depth_noise=noise, seed=3)
    masks = stage(depth_noise=noise)
    scores = {}
    for seg_id, label in LABELS.items():
        truth = frame.segmentation == seg_id
        if truth.sum() < 30:
            continue
        found = masks.mask(frame, PixelBox.of_mask(truth))
        assert found is not None and found.shape == truth.shape
        scores[label] = iou(found, truth)
        assert (found & truth).sum() / truth.sum() > 0.8, (label, scores[label])  # most of the object is in
    assert len(scores) == 6
    assert min(scores.values()) > 0.6 and np.median(list(scores.values())) > 0.75, scores
    # a box over what lies far behind the objects (the floor beyond the table) is not the table
    beyond = masks.mask(frame, PixelBox(0, 0, 40, 30))
    table = frame.segmentation == 1
    assert beyond is None or not (beyond & table).any()


def test_no_depth_under_the_box_gives_no_mask():
    k, pose = head_camera(320, 240)
    frame = kitchen_scene().render(k, pose, stamp_ns=1)
    frame.depth_m[100:140, 100:150] = np.nan
    assert stage().mask(frame, PixelBox(100, 100, 150, 140)) is None


def test_objects_lift_from_boxes_and_depth_as_from_exact_masks():
    """Through the pipeline: a box-only detector plus depth masks places every object where the exact masks
    place it, within a few centimetres."""
    from memory_node.perception.association import AssociationParams
    from memory_node.perception.pipeline import PerceptionPipeline

    k, pose = head_camera(320, 240)
    frame = kitchen_scene().render(k, pose, stamp_ns=1)
    params = AssociationParams(confirm_after=1)
    exact = PerceptionPipeline(SegmentationDetector(LABELS), association=params).process(frame)
    boxes = PerceptionPipeline(BoxesThenMasks(BoxesOnly(), stage()), association=params).process(frame)
    want = {e.label: np.array([e.position.x, e.position.y, e.position.z]) for e in exact.graph.entities}
    got = {e.label: np.array([e.position.x, e.position.y, e.position.z]) for e in boxes.graph.entities}
    assert set(got) == set(want) == set(LABELS.values())
    errors = {label: float(np.linalg.norm(got[label] - want[label])) for label in want}
    assert max(errors.values()) < 0.06 and np.median(list(errors.values())) < 0.02, errors
    rels = {(r.subject.split("_")[0], r.predicate, r.object.split("_")[0]) for r in boxes.graph.relations}
    assert ("mug", "on", "table") in rels and ("box", "in", "cabinet") in rels, rels
