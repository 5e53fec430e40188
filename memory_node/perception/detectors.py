"""Detectors by name: what the perception node's ``detector`` parameter chooses.

``segmentation`` (the simulator's segmentation image and its id -> label table) is registered here. Learned
detectors register themselves under their own names with ``register`` (ultralytics YOLO / YOLO-World,
segment-anything as a mask stage), each built from a ``DetectorConfig``: weights by path, never a
download, and a clear error at construction when a path is missing or wrong, so a bad configuration stops
the node at start-up rather than at the first frame.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from memory_node.core.models import InvalidInput

from .detection import Detector
from .segmentation_detector import SegmentationDetector


@dataclass(frozen=True)
class DetectorConfig:
    name: str = "segmentation"
    weights_path: str = ""  # learned detectors: the model file (.pt, .onnx, ...), never downloaded
    mask_weights_path: str = ""  # box detectors: the mask stage's checkpoint (segment-anything / MobileSAM)
    vocabulary: tuple[str, ...] = ()  # open-vocabulary detectors (YOLO-World, YOLOE): the class names
    confidence: float = 0.25  # detections below this score are dropped
    min_pixels: int = 30  # masks smaller than this are too few points to lift
    device: str = "cpu"
    extra: dict[str, str] = field(default_factory=dict)


DetectorFactory = Callable[[DetectorConfig], Detector]
DETECTORS: dict[str, DetectorFactory] = {}
# Modules that register more detectors when imported (the learned detectors' module adds its name here);
# one that fails to import (its extra not installed) is skipped, and asking for a detector that is then
# unknown says which module failed and why.
PLUGIN_MODULES: tuple[str, ...] = ()
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
    if config.name not in DETECTORS:
        _load_plugins()
    factory = DETECTORS.get(config.name)
    if factory is None:
        why = "".join(f"; {m} not importable: {e}" for m, e in _plugin_errors.items())
        raise InvalidInput(f"unknown detector {config.name!r}; known: {', '.join(sorted(DETECTORS))}{why}")
    return factory(config)
