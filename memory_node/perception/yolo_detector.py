"""An ultralytics YOLO model as a ``Detector``: detection models give boxes, segmentation models boxes and masks.

The weights come by path and nothing is ever downloaded. ultralytics reaches the network on its own in
several places (a DNS probe when it is imported, a GitHub download when a weights name it knows is missing,
pip for a missing optional package, analytics, the Arial font when results are plotted), and offline robots
then hang or retry (ultralytics issues #1180, #1756, #11681, #21269). ``import_ultralytics`` turns all of that
off before the first import; the weights path is checked here, so ultralytics never sees a name it could
fetch; results are read as tensors and never plotted. ``test/perception/test_yolo_detector.py`` runs load and
inference with every socket call failing loudly.

YOLO-World and YOLOE checkpoints load through the same class (ultralytics routes them by model): their
vocabulary is the one saved in the checkpoint (``set_classes`` then ``save`` on a machine that has the text
encoder); changing it needs that text encoder, so it is not done here.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import numpy as np

from memory_node.core.models import InvalidInput

from .camera import RgbdFrame
from .detection import Detection, Detector, PixelBox
from .detector_labels import DetectorLabels, default_labels
from .detectors import DetectorConfig, register, with_masks

#: what ultralytics reads from the environment (ultralytics/utils/__init__.py): YOLO_OFFLINE skips the DNS
#: probe at import (it makes ``ONLINE`` false, which also keeps analytics off), YOLO_AUTOINSTALL=0 makes a
#: missing optional package an error instead of a pip run.
OFFLINE_ENV = {"YOLO_OFFLINE": "1", "YOLO_AUTOINSTALL": "0"}

#: ultralytics tasks whose results this detector reads
TASKS = ("detect", "segment")


def import_ultralytics() -> ModuleType:
    """ultralytics, imported offline: the environment above set first, analytics (``sync``) off in its
    settings. Raises InvalidInput when it is not installed (requirements-detectors.txt)."""
    os.environ.update(OFFLINE_ENV)
    os.environ.setdefault("YOLO_VERBOSE", "False")  # its per-image log lines are noise in a node's log
    if "ultralytics" in sys.modules:
        import ultralytics.utils as uutils

        # imported before us (by a user's script): the import-time probe already ran, but later code reads this
        uutils.ONLINE = False
    try:
        import ultralytics
        from ultralytics.utils import SETTINGS
    except ImportError as exc:
        raise InvalidInput(f"the YOLO detector needs ultralytics (pip install -r requirements-detectors.txt): {exc}") from exc
    if SETTINGS.get("sync", True):
        SETTINGS.update({"sync": False})
    return ultralytics


def check_weights(path: str | Path, what: str, suffixes: Iterable[str]) -> Path:
    """``path`` as an existing file with one of ``suffixes``, or InvalidInput saying what is wrong. A bare
    name such as ``yolov8n.pt`` that is not a file here is refused: ultralytics would download it."""
    if not str(path).strip():
        raise InvalidInput(f"{what}: no weights path given")
    p = Path(path).expanduser()
    if not p.is_file():
        hint = " (a directory, not a weights file)" if p.is_dir() else ""
        raise InvalidInput(f"{what}: weights file {str(p)!r} does not exist{hint}; nothing is downloaded, "
                           f"put the file there or pass its path")
    allowed = tuple(suffixes)
    if p.suffix.lower() not in allowed:
        raise InvalidInput(f"{what}: {str(p)!r} is not a weights file of a supported kind ({', '.join(allowed)})")
    return p.resolve()


def pixel_box(xyxy: np.ndarray, width: int, height: int) -> PixelBox | None:
    """A model's float corner box as a half-open pixel box clipped to the image; None when nothing is left."""
    x0, y0, x1, y1 = (float(v) for v in xyxy)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return None
    bx0, by0 = max(0, math.floor(x0)), max(0, math.floor(y0))
    bx1, by1 = min(width, math.ceil(x1)), min(height, math.ceil(y1))
    if bx1 <= bx0 or by1 <= by0:
        return None
    return PixelBox(bx0, by0, bx1, by1)


class YoloDetector(Detector):
    """Detections from an ultralytics YOLO checkpoint (``.pt``; detection, segmentation, YOLO-World or YOLOE).

    Labels are the model's class names as memory's labels (``detector_labels.py``: COCO's "couch" is a sofa),
    without the classes memory does not keep (``ignore_labels``, class names or labels; None = the shipped
    list of people and animals), optionally limited to ``keep_labels``; ``min_score``
    and ``iou`` are the confidence and NMS thresholds; ``image_size`` is the inference size (the long side,
    a multiple of 32: 320 suits a 320x240 camera). Masks come at the frame's size (``retina_masks``). A mask
    that covers no pixel after thresholding leaves the detection box-only (a mask stage may still add one).
    ``threads`` sets torch's CPU thread count (process-wide); None leaves it. The model is loaded and run once
    on a blank image when constructed, so a bad file or a missing package fails at start-up."""

    name = "yolo"

    def __init__(self, weights: str | Path, *, min_score: float = 0.25, iou: float = 0.7, image_size: int = 320,
                 max_detections: int = 50, device: str = "cpu", keep_labels: Iterable[str] | None = None,
                 threads: int | None = None, labels: DetectorLabels | None = None,
                 ignore_labels: Iterable[str] | None = None) -> None:
        if not 0.0 <= min_score <= 1.0 or not 0.0 <= iou <= 1.0:
            raise InvalidInput(f"min_score and iou must be in [0, 1], got {min_score}, {iou}")
        if image_size < 32 or image_size % 32:
            raise InvalidInput(f"image_size must be a positive multiple of 32, got {image_size}")
        if max_detections < 1:
            raise InvalidInput(f"max_detections must be at least 1, got {max_detections}")
        self.weights = check_weights(weights, "YOLO detector", (".pt",))
        ultralytics = import_ultralytics()
        import torch

        if threads is not None:
            if threads < 1:
                raise InvalidInput(f"threads must be at least 1, got {threads}")
            torch.set_num_threads(threads)
        try:
            self.model = ultralytics.YOLO(str(self.weights))
        except Exception as exc:  # torch.load / unpickling / architecture errors: all mean "not YOLO weights"
            raise InvalidInput(f"YOLO detector: cannot load {str(self.weights)!r} as ultralytics weights: "
                               f"{type(exc).__name__}: {exc}") from exc
        if self.model.task not in TASKS:
            raise InvalidInput(f"YOLO detector: {self.weights.name} is a {self.model.task!r} model; "
                               f"only {', '.join(TASKS)} models give detections")
        names = labels or default_labels()
        self.labels = names.table(self.model.names, ignore_labels)
        self.keep_labels = None if keep_labels is None else frozenset(names.label(x) for x in keep_labels)
        self._args = dict(imgsz=image_size, conf=min_score, iou=iou, max_det=max_detections, device=device,
                          retina_masks=True, verbose=False, save=False)
        if self.keep_labels is not None:
            unknown = self.keep_labels - set(self.labels.values())
            if unknown:
                raise InvalidInput(f"YOLO detector: keep_labels {sorted(unknown)} are not classes of "
                                   f"{self.weights.name} (it has {len(self.labels)}, e.g. "
                                   f"{sorted(self.labels.values())[:5]})")
            self._args["classes"] = sorted(i for i, n in self.labels.items() if n in self.keep_labels)
        elif len(self.labels) < len(self.model.names):  # ignored classes are not even predicted
            self._args["classes"] = sorted(self.labels)
        self.device = device
        self.segments = self.model.task == "segment"
        # warm-up: the first call builds the predictor (and would surface any run-time fetch at start-up)
        try:
            self.model.predict(np.zeros((image_size, image_size, 3), np.uint8), **self._args)
        except Exception as exc:  # e.g. device="cuda" without a GPU, or a checkpoint whose layers do not run
            raise InvalidInput(f"YOLO detector: {self.weights.name} does not run on {device!r}: "
                               f"{type(exc).__name__}: {exc}") from exc

    def detect(self, frame: RgbdFrame) -> list[Detection]:
        h, w = frame.rgb.shape[:2]
        # ultralytics takes numpy images in OpenCV's BGR order
        result = self.model.predict(np.ascontiguousarray(frame.rgb[:, :, ::-1]), **self._args)[0]
        boxes = result.boxes
        if boxes is None or len(boxes) == 0:
            return []
        xyxy = boxes.xyxy.cpu().numpy()
        scores = boxes.conf.cpu().numpy()
        classes = boxes.cls.cpu().numpy().astype(int)
        masks = None
        if result.masks is not None:
            masks = result.masks.data.cpu().numpy() > 0.5
            if masks.shape[1:] != (h, w):  # retina_masks gives the frame's size; anything else is a bug upstream
                raise InvalidInput(f"YOLO masks are {masks.shape[1:]} for a {h}x{w} frame")
        out: list[Detection] = []
        for k in range(len(xyxy)):
            box = pixel_box(xyxy[k], w, h)
            if box is None:
                continue
            label = self.labels.get(int(classes[k]))
            if label is None:
                continue
            mask = None if masks is None or not masks[k].any() else masks[k]
            out.append(Detection(label=label,
                                 score=min(max(float(scores[k]), 0.0), 1.0), box=box, mask=mask))
        return out


def _yolo(config: DetectorConfig) -> Detector:
    detector = YoloDetector(config.weights_path, min_score=config.confidence, iou=config.nms,
                            image_size=config.image_size, device=config.device, ignore_labels=config.ignore_labels,
                            keep_labels=config.vocabulary or None)
    # a segmentation model brings its own masks; a box model's come from the mask stage (depth or SAM)
    return detector if detector.segments and not config.mask_weights_path else with_masks(detector, config)


register("yolo")(_yolo)
register("ultralytics")(_yolo)
