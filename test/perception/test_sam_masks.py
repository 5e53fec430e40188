"""segment-anything as a mask stage: a random-weight SAM checkpoint saved to disk, loaded by path through
segment_anything's registry and prompted with boxes on a rendered frame. The encoder is a tiny one (real
ViT-B takes ~47 s per image here); the prompt encoder and mask decoder are SAM's own."""

import numpy as np
import pytest

from memory_node.core.models import InvalidInput
from memory_node.perception.detection import PixelBox
from memory_node.perception.synthetic import head_camera, kitchen_scene

pytestmark = pytest.mark.usefixtures("detectors_available")


def SamMaskStage(*args, **kwargs):  # noqa: N802 - imported late: segment-anything may be missing (conftest skips)
    from memory_node.perception.sam_masks import SamMaskStage as Stage

    return Stage(*args, **kwargs)


@pytest.fixture(scope="module")
def frame():
    k, pose = head_camera(320, 240)
    return kitchen_scene().render(k, pose, stamp_ns=1)


@pytest.fixture(scope="module")
def stage(tiny_sam_checkpoint):
    from random_models import TINY_SAM

    return SamMaskStage(tiny_sam_checkpoint, model_type=TINY_SAM, max_boxes=2)


BOXES = [PixelBox(100, 80, 180, 160), PixelBox(0, 0, 40, 30), PixelBox(200, 100, 320, 240)]


def test_one_mask_or_none_per_box_inside_its_box(stage, frame):
    masks = stage.masks(frame, BOXES)
    assert len(masks) == len(BOXES)
    assert masks[2] is None  # beyond max_boxes: left for another call
    for box, mask in zip(BOXES[:2], masks[:2]):
        if mask is None:
            continue
        assert mask.shape == (240, 320) and mask.dtype == np.bool_ and mask.any()
        rows, cols = np.nonzero(mask)
        assert box.y0 <= rows.min() and rows.max() < box.y1 and box.x0 <= cols.min() and cols.max() < box.x1
    assert stage.masks(frame, []) == []


def test_the_same_frame_reuses_its_image_embedding(stage, frame, monkeypatch):
    stage.masks(frame, BOXES[:1])
    calls = []
    original = stage.predictor.set_image
    monkeypatch.setattr(stage.predictor, "set_image", lambda *a, **k: (calls.append(1), original(*a, **k)))
    first = stage.masks(frame, BOXES[1:2])
    assert calls == []  # the expensive encoder did not run again
    k, pose = head_camera(320, 240)
    other = kitchen_scene().render(k, pose, stamp_ns=2)
    again = stage.masks(other, BOXES[1:2])
    assert calls == [1]
    assert (first[0] is None) == (again[0] is None)  # same pixels, same prompt: same answer
    if first[0] is not None:
        assert np.array_equal(first[0], again[0])


def test_a_checkpoint_of_another_architecture_fails_at_construction(tiny_sam_checkpoint):
    # the real ViT-B builder, handed the tiny model's state dict
    with pytest.raises(InvalidInput, match="cannot load .* as a 'vit_b' checkpoint"):
        SamMaskStage(tiny_sam_checkpoint, model_type="vit_b")


def test_bad_configuration_fails_at_construction(tmp_path, tiny_sam_checkpoint):
    from random_models import TINY_SAM

    with pytest.raises(InvalidInput, match="does not exist"):
        SamMaskStage(tmp_path / "sam_vit_b_01ec64.pth")
    with pytest.raises(InvalidInput, match="unknown SAM model type"):
        SamMaskStage(tiny_sam_checkpoint, model_type="vit_xxl")
    with pytest.raises(InvalidInput, match="max_boxes"):
        SamMaskStage(tiny_sam_checkpoint, max_boxes=0)
    garbage = tmp_path / "sam.pth"
    garbage.write_text("not a checkpoint")
    with pytest.raises(InvalidInput, match="cannot load"):
        SamMaskStage(garbage, model_type=TINY_SAM)
