"""Detectors by name: what the perception node's ``detector`` parameter chooses.

``segmentation`` (the simulator's segmentation image and its id -> label table) is registered here. Learned
detectors register themselves under their own names with ``register`` when their module is imported
(``PLUGIN_MODULES``): ``darknet`` (YOLOv3-tiny COCO through OpenCV's DNN module, weights shipped by a
registry package) and ``yolo`` / ``ultralytics`` (a user's ultralytics checkpoint). Each is built from a
``DetectorConfig``: weights by path, never a download, and a clear error at construction when a path is
missing or wrong, so a bad configuration stops the node at start-up rather than at the first frame. A box
detector gets masks from ``mask_stage``: from the box and the depth by default (``depth_masks.py``),
segment-anything when its checkpoint is given.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from memory_node.core.models import InvalidInput

from .detection import BoxesThenMasks, Detector, MaskStage
from .segmentation_detector import SegmentationDetector


@dataclass(frozen=True)
class DetectorConfig:
    name: str = "segmentation"
    weights_path: str = ""  # learned detectors: the model file (.pt, .weights, ...), never downloaded
    config_path: str = ""  # darknet: the network's .cfg ('' = the shipped YOLOv3-tiny's)
    names_path: str = ""  # darknet: the class names, one a line ('' = the shipped coco.names)
    mask_weights_path: str = ""  # box detectors: the mask stage's checkpoint (segment-anything / MobileSAM)
    masks: str = "depth"  # box detectors' mask stage: depth (box + depth image) | sam (mask_weights_path)
    ignore_labels: tuple[str, ...] | None = None  # learned detectors: classes not kept (None = the shipped list)
    nms: float = 0.45  # learned detectors: IoU above which boxes of one class are merged
    image_size: int = 320  # learned detectors: the network input's long side
    depth_noise: float = 0.0  # depth masks: the sensor's noise at 1 m (as lifting.depth_noise)
    vocabulary: tuple[str, ...] = ()  # yolo: the classes to keep (all when empty; a YOLO-World / YOLOE checkpoint: of its saved vocabulary)
    confidence: float = 0.25  # detections below this score are dropped
    min_pixels: int = 30  # masks smaller than this are too few points to lift
    device: str = "cpu"
    extra: dict[str, str] = field(default_factory=dict)


DetectorFactory = Callable[[DetectorConfig], Detector]
DETECTORS: dict[str, DetectorFactory] = {}
# Modules that register more detectors when imported (the learned detectors' module adds its name here);
# one that fails to import (its extra not installed) is skipped, and asking for a detector that is then
# unknown says which module failed and why.
PLUGIN_MODULES: tuple[str, ...] = ("memory_node.perception.darknet_detector", "memory_node.perception.yolo_detector")
_plugin_errors: dict[str, str] = {}


def register(name: str) -> Callable[[DetectorFactory], DetectorFactory]:
    def wrap(factory: DetectorFactory) -> DetectorFactory:
        DETECTORS[name] = factory
        return factory
    return wrap


@register("segmentation")
def _segmentation(config: DetectorConfig) -> Detector:
    # the table arrives on a topic (the simulator publishes it latched); the node fills it in
    return SegmentationDetector({}, min_pixels=config.min_pixels)


MASK_STAGES = ("depth", "sam")


def mask_stage(config: DetectorConfig) -> MaskStage:
    """The mask stage a box detector's config asks for: ``sam`` with ``mask_weights_path`` (segment-anything),
    else masks from the box and the depth image."""
    if config.masks not in MASK_STAGES:
        raise InvalidInput(f"unknown mask stage {config.masks!r}; known: {', '.join(MASK_STAGES)}")
    if config.masks == "sam" or config.mask_weights_path:
        from .sam_masks import SamMaskStage

        return SamMaskStage(config.mask_weights_path, device=config.device)
    from .depth_masks import DepthMaskStage

    return DepthMaskStage(depth_noise=config.depth_noise)


def with_masks(boxes: Detector, config: DetectorConfig) -> Detector:
    return BoxesThenMasks(boxes, mask_stage(config))


def _load_plugins() -> None:
    for module in PLUGIN_MODULES:
        if module in _plugin_errors or module in sys.modules:
            continue
        try:
            importlib.import_module(module)
        except ImportError as err:
            _plugin_errors[module] = str(err)


def make_detector(config: DetectorConfig) -> Detector:
    """The detector ``config.name`` names; InvalidInput listing the known names otherwise."""
    _load_plugins()
    factory = DETECTORS.get(config.name)
    if factory is None:
        why = "".join(f"; {m} not importable: {e}" for m, e in _plugin_errors.items())
        raise InvalidInput(f"unknown detector {config.name!r}; known: {', '.join(sorted(DETECTORS))}{why}")
    return factory(config)
