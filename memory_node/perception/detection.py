"""What a detector reports for one frame, and the interface every detector implements.

One interface for very different sources: the simulator's segmentation (exact masks, labels from a table),
and later learned models (ultralytics YOLO boxes or masks, segment-anything turning boxes into masks). The
lifting stage only needs a label, a score and a pixel mask; the box is kept because box-only detectors
produce it first and a mask stage (SAM) consumes it.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from memory_node.core.models import InvalidInput, normalize_label

from .camera import RgbdFrame


@dataclass(frozen=True)
class PixelBox:
    """Axis-aligned pixel box, half-open: columns ``x0 <= x < x1``, rows ``y0 <= y < y1``."""

    x0: int
    y0: int
    x1: int
    y1: int

    def __post_init__(self) -> None:
        if self.x1 <= self.x0 or self.y1 <= self.y0:
            raise InvalidInput(f"empty pixel box ({self.x0}, {self.y0}, {self.x1}, {self.y1})")

    @classmethod
    def of_mask(cls, mask: np.ndarray) -> PixelBox:
        rows = np.flatnonzero(mask.any(axis=1))
        cols = np.flatnonzero(mask.any(axis=0))
        if rows.size == 0:
            raise InvalidInput("mask is empty: no box")
        return cls(int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)

    @property
    def area(self) -> int:
        return (self.x1 - self.x0) * (self.y1 - self.y0)


@dataclass(frozen=True)
class Detection:
    """One object instance in one frame.

    ``mask`` is a boolean HxW image of the frame's size (None for a box-only detector before a mask stage
    ran). ``instance`` is the source's own instance key when it has one that is stable across frames (the
    simulator's segment id); association does not rely on it, so learned detectors can leave it empty."""

    label: str
    score: float
    box: PixelBox
    mask: np.ndarray | None = None
    instance: str = ""

    def __post_init__(self) -> None:
        label = normalize_label(self.label)
        if not label:
            raise InvalidInput("detection label must not be empty")
        object.__setattr__(self, "label", label)
        if not math.isfinite(self.score) or not 0.0 <= self.score <= 1.0:
            raise InvalidInput(f"detection score must be in [0, 1], got {self.score}")
        if self.mask is not None:
            if self.mask.ndim != 2 or self.mask.dtype != np.bool_:
                raise InvalidInput(f"detection mask must be a 2-D bool image, got {self.mask.shape} {self.mask.dtype}")
            if not self.mask.any():
                raise InvalidInput(f"detection mask of {label!r} is empty")


class Detector(ABC):
    """Turns one RGB-D frame into detections.

    Implementations: ``SegmentationDetector`` (a rendered or otherwise given segmentation image) and
    ``yolo_detector.YoloDetector`` (ultralytics): a YOLO segmentation model returns masks directly; a box
    model (YOLO, YOLO-World) returns boxes, and ``BoxesThenMasks`` adds masks from a ``MaskStage``
    (``sam_masks.SamMaskStage``, segment-anything). Every detector loads what it needs
    (weights by path, never a download) when constructed, so a bad configuration fails at start-up."""

    #: short name for diagnostics and provenance ("segmentation", "yolo", ...)
    name: str = "detector"

    @abstractmethod
    def detect(self, frame: RgbdFrame) -> list[Detection]:
        """Detections in ``frame``; an empty list when nothing is seen. Raises InvalidInput for a frame
        this detector cannot use (e.g. no segmentation image for a segmentation detector)."""


class MaskStage(ABC):
    """Turns pixel boxes into masks: the second stage after a box-only detector (segment-anything prompted
    with boxes, or MobileSAM through ultralytics). Kept apart from ``Detector`` because it is slow on a CPU
    (SAM ViT-B's image encoder: ~47 s per image here) and may run only on demand or on a GPU."""

    name: str = "masks"

    @abstractmethod
    def masks(self, frame: RgbdFrame, boxes: Sequence[PixelBox]) -> list[np.ndarray | None]:
        """One boolean HxW mask per box (None where the stage found nothing in it), in the boxes' order."""


class BoxesThenMasks(Detector):
    """A box detector followed by a mask stage for the detections that came without a mask."""

    def __init__(self, boxes: Detector, masks: MaskStage) -> None:
        self.boxes = boxes
        self.mask_stage = masks
        self.name = f"{boxes.name}+{masks.name}"

    def detect(self, frame: RgbdFrame) -> list[Detection]:
        detections = self.boxes.detect(frame)
        todo = [i for i, d in enumerate(detections) if d.mask is None]
        if not todo:
            return detections
        found = self.mask_stage.masks(frame, [detections[i].box for i in todo])
        if len(found) != len(todo):
            raise InvalidInput(f"mask stage {self.mask_stage.name!r} returned {len(found)} masks for {len(todo)} boxes")
        out = list(detections)
        for i, mask in zip(todo, found):
            if mask is not None and mask.any():
                out[i] = replace(detections[i], mask=mask.astype(bool))
        return out
